/*
 * test_stats.c - cmocka unit tests for analysis/stats.{h,c}.
 *
 * Build and run:
 *   gcc -std=c11 -Wall -Wextra -Werror -O2 -Ianalysis \
 *       tests/unit/test_stats.c analysis/stats.c -lcmocka -lm \
 *       -o /tmp/test_stats && /tmp/test_stats
 *
 * Expected values were computed independently, either by hand (shown in
 * comments) or once with Python 3 (statistics.median / statistics.stdev,
 * and for the bootstrap a separate pure-Python reimplementation of
 * splitmix64 seeding + xoshiro256** + rejection bounded draw + type-7
 * percentile). Python floats are IEEE-754 doubles and the reference
 * performs the same operations in the same order, so bootstrap intervals
 * are compared bit-for-bit; literals are Python repr() values, which
 * round-trip exactly through strtod.
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

/* ---- paired bootstrap ---------------------------------------------- */

/* Known paired sample: ratios 0.9 0.75 1.1 0.75 0.9, median 0.9. */
static const double known_a[] = { 100.0, 200.0, 50.0, 80.0, 120.0 };
static const double known_b[] = { 90.0, 150.0, 55.0, 60.0, 108.0 };

/* n = 20, Python random.Random(7): a ~ U(90, 110), b = a * U(0.85, 1.10). */
static const double noisy_a[] = {
	96.48, 93.02, 103.02, 91.45, 100.72, 97.31, 91.16,
	100.15, 90.75, 98.67, 91.4, 91.81, 98.49, 106.54,
	92.48, 94.46, 102.55, 108.95, 101.54, 97.93,
};
static const double noisy_b[] = {
	105.56, 80.15, 109.68, 84.35, 89.24, 85.58, 84.52,
	105.56, 81.24, 98.22, 92.29, 86.59, 97.2, 92.23,
	79.99, 85.15, 104.61, 104.25, 94.28, 97.58,
};

/*
 * Clear shift, n = 10, Python random.Random(20240601):
 * a ~ U(900, 1100), b = a * 0.7 * (1 + U(-0.03, 0.03)), rounded to 0.1.
 */
static const double shift_a[] = {
	923.6, 984.0, 1057.0, 1016.8, 1070.6,
	984.8, 940.4, 986.9, 975.6, 915.3,
};
static const double shift_b[] = {
	665.0, 705.0, 754.4, 714.7, 742.1,
	674.0, 673.3, 694.4, 667.6, 657.9,
};

static void test_boot_known_estimate(void **state)
{
	(void)state;
	struct stats_interval iv;

	assert_int_equal(stats_paired_rel_delta_ci(known_a, known_b, 5, 1000,
						   0.95, 42, &iv), 0);
	/* by hand: median ratio 0.9 -> -0.1 (in doubles 0.9 - 1.0) */
	assert_near(iv.estimate, -0.1, 1e-12);
	assert_double_exact(iv.estimate, 90.0 / 100.0 - 1.0);
	/* Python reference bootstrap, reps 1000, level 0.95, seed 42 */
	assert_double_exact(iv.lo, -0.25);
	assert_double_exact(iv.hi, 0.10000000000000009);
	assert_true(iv.lo <= iv.estimate && iv.estimate <= iv.hi);
	assert_false(stats_interval_excludes_zero(&iv));
}

static void test_boot_determinism(void **state)
{
	(void)state;
	struct stats_interval x, y, z;
	size_t n = ARRAY_LEN(noisy_a);

	assert_int_equal(stats_paired_rel_delta_ci(noisy_a, noisy_b, n, 1000,
						   0.95, 1, &x), 0);
	assert_int_equal(stats_paired_rel_delta_ci(noisy_a, noisy_b, n, 1000,
						   0.95, 1, &y), 0);
	assert_int_equal(stats_paired_rel_delta_ci(noisy_a, noisy_b, n, 1000,
						   0.95, 2, &z), 0);

	/* same seed -> bit-identical */
	assert_memory_equal(&x, &y, sizeof(x));

	/* Python reference, seed 1 */
	assert_double_exact(x.estimate, -0.06417773412849159);
	assert_double_exact(x.lo, -0.10167681278358232);
	assert_double_exact(x.hi, -0.004054985633442393);
	/* Python reference, seed 2: same estimate, different hi */
	assert_double_exact(z.estimate, x.estimate);
	assert_double_exact(z.lo, -0.10167681278358232);
	assert_double_exact(z.hi, -0.0040673190749332955);
	assert_true(x.lo != z.lo || x.hi != z.hi);

	assert_true(x.lo <= x.estimate && x.estimate <= x.hi);
	assert_true(z.lo <= z.estimate && z.estimate <= z.hi);
}

static void test_boot_identical_pairs(void **state)
{
	(void)state;
	double v[] = { 0.3, 1e-3, 12345.678, 7.1, 99.9, 3.3333 };
	struct stats_interval iv;

	assert_int_equal(stats_paired_rel_delta_ci(v, v, ARRAY_LEN(v), 10000,
						   0.95, 7, &iv), 0);
	assert_double_exact(iv.estimate, 0.0);
	assert_double_exact(iv.lo, 0.0);
	assert_double_exact(iv.hi, 0.0);
	assert_false(stats_interval_excludes_zero(&iv));
}

static void test_boot_clear_shift(void **state)
{
	(void)state;
	struct stats_interval iv;
	size_t n = ARRAY_LEN(shift_a);

	assert_int_equal(stats_paired_rel_delta_ci(shift_a, shift_b, n, 10000,
						   0.95, 1, &iv), 0);
	/* Python reference, reps 10000, level 0.95, seed 1 */
	assert_double_exact(iv.estimate, -0.29133227110531124);
	assert_double_exact(iv.lo, -0.3068372875023351);
	assert_double_exact(iv.hi, -0.2826236727650361);

	assert_near(iv.estimate, -0.3, 0.02);
	assert_true(iv.lo > -0.35 && iv.hi < -0.25);
	assert_true(iv.lo <= iv.estimate && iv.estimate <= iv.hi);
	assert_true(stats_interval_excludes_zero(&iv));
}

static void test_boot_min_reps_ok(void **state)
{
	(void)state;
	struct stats_interval iv;

	/* boundary values that must be accepted */
	assert_int_equal(stats_paired_rel_delta_ci(known_a, known_b, 2, 100,
						   0.5, 0, &iv), 0);
	assert_true(iv.lo <= iv.hi);
}

static void expect_einval(const double *a, const double *b, size_t n,
			  unsigned reps, double level)
{
	struct stats_interval iv = { 123.0, 456.0, 789.0 };

	assert_int_equal(stats_paired_rel_delta_ci(a, b, n, reps, level, 1,
						   &iv), -EINVAL);
	/* out left untouched on error */
	assert_double_exact(iv.estimate, 123.0);
	assert_double_exact(iv.lo, 456.0);
	assert_double_exact(iv.hi, 789.0);
}

static void test_boot_einval(void **state)
{
	(void)state;
	const double *a = known_a, *b = known_b;
	struct stats_interval iv;

	/* n < 2 */
	expect_einval(a, b, 0, 1000, 0.95);
	expect_einval(a, b, 1, 1000, 0.95);
	/* reps < 100 */
	expect_einval(a, b, 5, 0, 0.95);
	expect_einval(a, b, 5, 99, 0.95);
	/* level not in (0, 1) */
	expect_einval(a, b, 5, 1000, 0.0);
	expect_einval(a, b, 5, 1000, 1.0);
	expect_einval(a, b, 5, 1000, -0.5);
	expect_einval(a, b, 5, 1000, 1.5);
	expect_einval(a, b, 5, 1000, NAN);
	expect_einval(a, b, 5, 1000, INFINITY);

	/* a[i] <= 0 */
	{
		double za[] = { 1.0, 0.0, 2.0 }, zb[] = { 1.0, 1.0, 2.0 };
		double na[] = { 1.0, 2.0, -3.0 };
		double nz[] = { -0.0, 1.0, 2.0 };

		expect_einval(za, zb, 3, 1000, 0.95);
		expect_einval(na, zb, 3, 1000, 0.95);
		expect_einval(nz, zb, 3, 1000, 0.95);
	}
	/* non-finite values in a or b */
	{
		double ok[] = { 1.0, 2.0, 3.0 };
		double nan_v[] = { 1.0, NAN, 3.0 };
		double pinf[] = { 1.0, 2.0, INFINITY };
		double ninf[] = { -INFINITY, 2.0, 3.0 };

		expect_einval(nan_v, ok, 3, 1000, 0.95);
		expect_einval(pinf, ok, 3, 1000, 0.95);
		expect_einval(ninf, ok, 3, 1000, 0.95);
		expect_einval(ok, nan_v, 3, 1000, 0.95);
		expect_einval(ok, pinf, 3, 1000, 0.95);
		expect_einval(ok, ninf, 3, 1000, 0.95);
	}
	/* finite inputs whose ratio overflows */
	{
		double tiny[] = { 1.0, 1e-300 }, huge[] = { 1.0, 1e300 };

		expect_einval(tiny, huge, 2, 1000, 0.95);
	}
	/* NULL pointers */
	expect_einval(NULL, b, 5, 1000, 0.95);
	expect_einval(a, NULL, 5, 1000, 0.95);
	assert_int_equal(stats_paired_rel_delta_ci(a, b, 5, 1000, 0.95, 1,
						   NULL), -EINVAL);
	/* sanity: the same arguments are otherwise valid */
	assert_int_equal(stats_paired_rel_delta_ci(a, b, 5, 1000, 0.95, 1,
						   &iv), 0);
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
		cmocka_unit_test(test_boot_known_estimate),
		cmocka_unit_test(test_boot_determinism),
		cmocka_unit_test(test_boot_identical_pairs),
		cmocka_unit_test(test_boot_clear_shift),
		cmocka_unit_test(test_boot_min_reps_ok),
		cmocka_unit_test(test_boot_einval),
		cmocka_unit_test(test_excludes_zero),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
