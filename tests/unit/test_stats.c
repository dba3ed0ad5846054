/*
 * test_stats.c - cmocka unit tests for analysis/stats.{h,c}.
 *
 * Build and run:
 *   gcc -std=c11 -Wall -Wextra -Werror -O2 -Ianalysis \
 *       tests/unit/test_stats.c analysis/stats.c -lcmocka -lm \
 *       -o /tmp/test_stats && /tmp/test_stats
 *
 * Expected values were computed independently, either by hand (shown in
 * comments) or once with Python 3 (statistics.median / statistics.stdev); literals are
 * Python repr() values, which round-trip exactly through strtod.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "stats.h"

#define ARRAY_LEN(x) (sizeof(x) / sizeof((x)[0]))

#define assert_double_exact(got, want)                                   \
	do {                                                             \
		double g_ = (got), w_ = (want);                          \
		if (!(g_ == w_))                                         \
			fail_msg("%s = %.17g, expected exactly %.17g",   \
				 #got, g_, w_);                          \
	} while (0)

#define assert_near(got, want, tol)                                      \
	do {                                                             \
		double g_ = (got), w_ = (want);                          \
		if (!(fabs(g_ - w_) <= (tol)))                           \
			fail_msg("%s = %.17g, expected %.17g +/- %g",    \
				 #got, g_, w_, (double)(tol));           \
	} while (0)

#define assert_nan(x) assert_true(isnan(x))

/* ---- descriptive statistics --------------------------------------- */

static void test_median_odd(void **state)
{
	(void)state;
	double v[] = { 3.0, 1.0, 2.0, 5.0, 4.0 };
	double orig[ARRAY_LEN(v)];

	memcpy(orig, v, sizeof(v));
	/* sorted 1 2 3 4 5 -> 3 */
	assert_double_exact(stats_median(v, ARRAY_LEN(v)), 3.0);
	/* input must not be reordered */
	assert_memory_equal(v, orig, sizeof(v));
}

static void test_median_even(void **state)
{
	(void)state;
	double v1[] = { 4.0, 1.0, 3.0, 2.0 };
	double v2[] = { 10.5, 2.25, 7.0, 3.5, 8.0, 1.0 };
	double orig[ARRAY_LEN(v2)];

	memcpy(orig, v2, sizeof(v2));
	/* sorted 1 2 3 4 -> (2 + 3) / 2 */
	assert_double_exact(stats_median(v1, ARRAY_LEN(v1)), 2.5);
	/* sorted 1 2.25 3.5 7 8 10.5 -> (3.5 + 7) / 2 */
	assert_double_exact(stats_median(v2, ARRAY_LEN(v2)), 5.25);
	assert_memory_equal(v2, orig, sizeof(v2));
}

static void test_median_single(void **state)
{
	(void)state;
	double v[] = { 42.5 };

	assert_double_exact(stats_median(v, 1), 42.5);
}

static void test_median_empty(void **state)
{
	(void)state;
	double v[] = { 1.0 };

	assert_nan(stats_median(v, 0));
	assert_nan(stats_median(NULL, 0));
}

static void test_min_max(void **state)
{
	(void)state;
	double v[] = { 3.0, -1.5, 7.25, 0.0 };
	double one[] = { 2.0 };

	assert_double_exact(stats_min(v, ARRAY_LEN(v)), -1.5);
	assert_double_exact(stats_max(v, ARRAY_LEN(v)), 7.25);
	assert_double_exact(stats_min(one, 1), 2.0);
	assert_double_exact(stats_max(one, 1), 2.0);
	assert_nan(stats_min(v, 0));
	assert_nan(stats_max(v, 0));
	assert_nan(stats_min(NULL, 0));
	assert_nan(stats_max(NULL, 0));
}

static void test_mean(void **state)
{
	(void)state;
	double v[] = { 1.0, 2.0, 3.0, 4.0 };

	/* (1 + 2 + 3 + 4) / 4 */
	assert_double_exact(stats_mean(v, ARRAY_LEN(v)), 2.5);
	assert_nan(stats_mean(v, 0));
	assert_nan(stats_mean(NULL, 0));
}

static void test_cv(void **state)
{
	(void)state;
	double v[] = { 2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0 };
	double constant[] = { 3.0, 3.0, 3.0 };
	double zero_mean[] = { -1.0, 1.0 };
	double one[] = { 5.0 };

	/*
	 * mean 5, squared deviations sum to 32, s = sqrt(32 / 7),
	 * cv = sqrt(32 / 7) / 5; Python statistics.stdev(v) / statistics.mean(v)
	 * = 0.427617987059879
	 */
	assert_near(stats_cv(v, ARRAY_LEN(v)), 0.427617987059879, 1e-12);
	assert_double_exact(stats_cv(constant, ARRAY_LEN(constant)), 0.0);
	assert_nan(stats_cv(zero_mean, ARRAY_LEN(zero_mean)));
	assert_nan(stats_cv(one, 1));
	assert_nan(stats_cv(v, 0));
	assert_nan(stats_cv(NULL, 0));
}

static void test_percentile(void **state)
{
	(void)state;
	double v[] = { 40.0, 15.0, 50.0, 35.0, 20.0 };
	double orig[ARRAY_LEN(v)];
	size_t n = ARRAY_LEN(v);

	memcpy(orig, v, sizeof(v));
	/* sorted 15 20 35 40 50; h = p * 4 */
	assert_double_exact(stats_percentile(v, n, 0.0), 15.0);
	assert_double_exact(stats_percentile(v, n, 0.5), 35.0);
	assert_double_exact(stats_percentile(v, n, 1.0), 50.0);
	assert_double_exact(stats_percentile(v, n, 0.25), 20.0);
	/* h = 1.6: 20 + 0.6 * (35 - 20) = 29 */
	assert_near(stats_percentile(v, n, 0.4), 29.0, 1e-12);
	/* h = 3.6: 40 + 0.6 * (50 - 40) = 46 */
	assert_near(stats_percentile(v, n, 0.9), 46.0, 1e-12);
	assert_double_exact(stats_percentile(v, n, 0.5), stats_median(v, n));
	assert_memory_equal(v, orig, sizeof(v));

	/* single value: every p gives that value */
	assert_double_exact(stats_percentile(v, 1, 0.3), 40.0);

	assert_nan(stats_percentile(v, 0, 0.5));
	assert_nan(stats_percentile(NULL, 0, 0.5));
	assert_nan(stats_percentile(v, n, -0.01));
	assert_nan(stats_percentile(v, n, 1.01));
	assert_nan(stats_percentile(v, n, NAN));
}

static void test_excludes_zero(void **state)
{
	(void)state;
	struct stats_interval pos = { 0.15, 0.1, 0.2 };
	struct stats_interval neg = { -0.15, -0.2, -0.1 };
	struct stats_interval span = { 0.0, -0.1, 0.1 };
	struct stats_interval lo0 = { 0.1, 0.0, 0.2 };
	struct stats_interval hi0 = { -0.1, -0.2, 0.0 };
	struct stats_interval nan_iv = { NAN, NAN, NAN };

	assert_true(stats_interval_excludes_zero(&pos));
	assert_true(stats_interval_excludes_zero(&neg));
	assert_false(stats_interval_excludes_zero(&span));
	assert_false(stats_interval_excludes_zero(&lo0));
	assert_false(stats_interval_excludes_zero(&hi0));
	assert_false(stats_interval_excludes_zero(&nan_iv));
	assert_false(stats_interval_excludes_zero(NULL));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_median_odd),
		cmocka_unit_test(test_median_even),
		cmocka_unit_test(test_median_single),
		cmocka_unit_test(test_median_empty),
		cmocka_unit_test(test_min_max),
		cmocka_unit_test(test_mean),
		cmocka_unit_test(test_cv),
		cmocka_unit_test(test_percentile),
		cmocka_unit_test(test_excludes_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
