/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * What the summary's intervals are worth: many simulated runs of paired trials whose
 * true median ratio is known go through summary_compute (the code that writes
 * summary.md), and the printed interval must cover that median at least 95% of the time
 * for n = 6, 11 and 21 pairs, with skewed (log-normal) and heavy-tailed (log-Cauchy)
 * ratios; with 5 pairs no interval may be printed and nothing called real; on A/A data
 * (true median ratio 1) "real" may be called at most 5% of the time.
 * Each estimate is a proportion of SIMS runs; the assertions allow three standard
 * errors of the simulation (sqrt(p (1 - p) / SIMS), printed). Deterministic: a fixed
 * seed, so the test cannot pass or fail by luck from one run to the next.
 *
 * Autocorrelated noise (an alternating timing pass, window_delta.h): the A/A pairs of a
 * recorded run (AA_NOISE_RUN, its windows as this machine gave them) are resampled into
 * new runs, in stretches as long as a block that start anywhere (a circular moving-block
 * bootstrap: the noise's dependence within a stretch kept), each counterbalanced pair of
 * rounds flipped in sign or not at random (what swapping the two identical arms' labels
 * does: the schedule's randomization; it makes the true delta exactly 0). The printed
 * interval must cover 0 in at least 95% of them; the interval the same pairs give if
 * taken as independent (independent_ci95_lo/_hi) must cover it less often than 95%, or
 * the recorded noise shows no dependence and the case proves nothing.
 */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "report.h"
#include "summary.h"
#include "window_delta.h"

/* an A/A run of the alternating schedule, 4 windows per attach, recorded on this machine */
#define AA_NOISE_RUN "results/examples/20261202T001012Z-veth"

#define SIMS 1500
#define AC_SIMS 1000 /* the autocorrelated case: runs of thousands of window pairs */

static uint64_t rng = 0x5eed;

static double uniform01(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0; /* (0, 1) */
}

static double normal(void)
{
	return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

enum dist { LOGNORMAL, LOGCAUCHY };

/* A ratio whose median is exp(@mu): exp(mu + s X), X standard normal (skewed ratios) or
 * standard Cauchy (heavy tails), both of median 0. */
static double ratio(enum dist d, double mu)
{
	double x = d == LOGNORMAL ? normal() : tan(M_PI * (uniform01() - 0.5));

	return exp(mu + 0.05 * x);
}

/* A run of @n repetitions of arms "tc" and "xdpdrv" (or "tc-aa"): tc's times drift from
 * repetition to repetition, the other arm's are tc's times a ratio drawn from @d. */
static json_t *sim_run(size_t n, enum dist d, double mu, const char *b)
{
	json_t *trials = json_array();

	for (size_t r = 0; r < n; r++) {
		double a = 1000 * exp(0.2 * normal()); /* the host's regimes: 2x swings */

		json_array_append_new(trials, json_pack("{s:s, s:s, s:i, s:b, s:f}", "pass", "timing",
							"mode", "tc", "rep", (int)r, "valid", 1,
							"cpu_ns_per_pkt", a));
		json_array_append_new(trials, json_pack("{s:s, s:s, s:i, s:b, s:f}", "pass", "timing",
							"mode", b, "rep", (int)r, "valid", 1,
							"cpu_ns_per_pkt", a * ratio(d, mu)));
	}
	return json_pack("{s:{s:[s,s], s:i}, s:o}", "settings", "modes", "tc", b, "seed", 1,
			 "trials", trials);
}

/* The delta of @b against tc in @run's summary. */
static const json_t *delta_of(const json_t *summary, const char *b)
{
	size_t i;
	json_t *d;

	json_array_foreach(json_object_get(summary, "deltas"), i, d)
		if (!strcmp(json_string_value(json_object_get(d, "b")), b) &&
		    !strcmp(json_string_value(json_object_get(d, "metric")), "cpu_ns_per_pkt"))
			return d;
	return NULL;
}

static void coverage(size_t n, enum dist d)
{
	const double mu = 0.05;
	int covered = 0, with_interval = 0;
	double p, se;

	for (int s = 0; s < SIMS; s++) {
		json_t *run = sim_run(n, d, mu, "xdpdrv"), *sum = summary_compute(run);
		const json_t *x = delta_of(sum, "xdpdrv");
		const json_t *lo = json_object_get(x, "ci95_lo");

		assert_non_null(x);
		if (json_is_number(lo)) {
			with_interval++;
			covered += json_number_value(lo) <= exp(mu) - 1 &&
				   exp(mu) - 1 <= json_number_value(json_object_get(x, "ci95_hi"));
			assert_true(json_number_value(json_object_get(x, "ci_coverage")) >= 0.95);
		}
		json_decref(sum);
		json_decref(run);
	}
	p = (double)covered / SIMS;
	se = sqrt(p * (1 - p) / SIMS);
	printf("# n = %2zu, %s ratios: the printed interval covered the true median in %.1f%% "
	       "of %d runs (simulation error %.1f%%)\n", n, d == LOGNORMAL ? "log-normal" :
	       "log-Cauchy", 100 * p, SIMS, 100 * se);
	assert_int_equal(with_interval, SIMS);
	assert_true(p >= 0.95 - 3 * se);
}

static void test_coverage_skewed(void **state)
{
	(void)state;
	coverage(6, LOGNORMAL);
	coverage(11, LOGNORMAL);
	coverage(21, LOGNORMAL);
}

static void test_coverage_heavy_tailed(void **state)
{
	(void)state;
	coverage(6, LOGCAUCHY);
	coverage(11, LOGCAUCHY);
	coverage(21, LOGCAUCHY);
}

/* With 5 pairs no interval reaches 95%: none is printed and nothing is real, even when
 * every pair has one sign. */
static void test_five_pairs_no_interval(void **state)
{
	int real = 0;

	(void)state;
	for (int s = 0; s < 200; s++) {
		json_t *run = sim_run(5, LOGNORMAL, 0.5, "xdpdrv"), *sum = summary_compute(run);
		const json_t *x = delta_of(sum, "xdpdrv");

		assert_true(json_is_null(json_object_get(x, "ci95_lo")));
		real += json_is_true(json_object_get(x, "real"));
		json_decref(sum);
		json_decref(run);
	}
	assert_int_equal(real, 0);
}

/* On A/A data: an ordinary pair of arms with a true median ratio of 1 is called real at
 * most 5% of the time; the A/A arm itself (tc-aa) never. */
static void test_false_real_rate(void **state)
{
	(void)state;
	for (size_t n = 6; n <= 21; n += 15) {
		int real = 0, aa_real = 0;
		double p, se;

		for (int s = 0; s < SIMS; s++) {
			json_t *run = sim_run(n, s % 2 ? LOGCAUCHY : LOGNORMAL, 0, "xdpdrv");
			json_t *sum = summary_compute(run);

			real += json_is_true(json_object_get(delta_of(sum, "xdpdrv"), "real"));
			json_decref(sum);
			json_decref(run);
			run = sim_run(n, LOGNORMAL, 0, "tc-aa");
			sum = summary_compute(run);
			aa_real += json_is_true(json_object_get(delta_of(sum, "tc-aa"), "real"));
			assert_true(json_is_true(json_object_get(delta_of(sum, "tc-aa"), "aa")));
			json_decref(sum);
			json_decref(run);
		}
		p = (double)real / SIMS;
		se = sqrt(fmax(p, 0.05) * (1 - fmax(p, 0.05)) / SIMS);
		printf("# A/A data, n = %2zu: called real in %.1f%% of %d runs (simulation error "
		       "%.1f%%); the A/A arm in %d\n", n, 100 * p, SIMS, 100 * se, aa_real);
		assert_true(p <= 0.05 + 3 * se);
		assert_int_equal(aa_real, 0);
	}
}

/* The A/A arm of a first mode that is not the baseline ("none-aa" beside tc) is compared
 * with its own mode, not with tc. */
static void test_aa_arm_of_another_mode(void **state)
{
	json_t *trials = json_array(), *run, *sum;
	const json_t *x = NULL, *d;
	size_t i;

	(void)state;
	for (int r = 0; r < 11; r++) {
		static const char *const arms[] = { "none", "tc", "xdpdrv", "none-aa" };
		static const double base[] = { 500, 1000, 1050, 500 };

		for (int k = 0; k < 4; k++)
			json_array_append_new(trials, json_pack("{s:s, s:s, s:i, s:b, s:f}", "pass",
								"timing", "mode", arms[k], "rep", r,
								"valid", 1, "cpu_ns_per_pkt",
								base[k] * (1 + 0.01 * normal())));
	}
	run = json_pack("{s:{s:[s,s,s,s], s:i}, s:o}", "settings", "modes", "none", "tc", "xdpdrv",
			"none-aa", "seed", 1, "trials", trials);
	sum = summary_compute(run);
	json_array_foreach(json_object_get(sum, "deltas"), i, d)
		if (!strcmp(json_string_value(json_object_get(d, "b")), "none-aa"))
			x = d;
	assert_non_null(x);
	assert_string_equal(json_string_value(json_object_get(x, "a")), "none");
	assert_true(json_is_true(json_object_get(x, "aa")));
	assert_false(json_is_true(json_object_get(x, "real")));
	assert_true(fabs(json_number_value(json_object_get(x, "rel_delta"))) < 0.05);
	assert_non_null(json_object_get(sum, "noise_floor"));
	json_decref(sum);
	json_decref(run);
}

/* One synthetic A/A run from the recorded pairs @d[0..n-1] (log ratios, time order):
 * @blocks blocks of @k pairs, each a stretch of the recording from a random start
 * (circularly), each round pair (@chunk pairs) flipped in sign at random. */
static json_t *resampled_run(const double *d, size_t n, size_t blocks, size_t k, size_t chunk)
{
	json_t *trials = json_array();

	for (size_t b = 0; b < blocks; b++) {
		json_t *wa = json_pack("{s:[], s:[], s:[], s:[]}", "start_ms", "pkts", "cpu_ns", "valid");
		json_t *wb = json_pack("{s:[], s:[], s:[], s:[]}", "start_ms", "pkts", "cpu_ns", "valid");
		size_t start = (size_t)(uniform01() * (double)n);
		double sign = 1;

		for (size_t i = 0; i < k; i++) {
			double a = 1e6 * exp(0.1 * normal());

			if (i % chunk == 0)
				sign = uniform01() < 0.5 ? -1 : 1;
			json_array_append_new(json_object_get(wa, "pkts"), json_integer(1000));
			json_array_append_new(json_object_get(wa, "cpu_ns"), json_real(a));
			json_array_append_new(json_object_get(wa, "valid"), json_true());
			json_array_append_new(json_object_get(wb, "pkts"), json_integer(1000));
			json_array_append_new(json_object_get(wb, "cpu_ns"),
					      json_real(a * exp(sign * d[(start + i) % n])));
			json_array_append_new(json_object_get(wb, "valid"), json_true());
		}
		json_array_append_new(trials, json_pack("{s:s, s:s, s:i, s:b, s:f, s:o}", "pass",
							"timing", "mode", "tc", "rep", (int)b, "valid",
							1, "cpu_ns_per_pkt", 1000.0, "windows", wa));
		json_array_append_new(trials, json_pack("{s:s, s:s, s:i, s:b, s:f, s:o}", "pass",
							"timing", "mode", "tc-aa", "rep", (int)b,
							"valid", 1, "cpu_ns_per_pkt", 1000.0, "windows",
							wb));
	}
	return json_pack("{s:{s:[s,s], s:i}, s:o}", "settings", "modes", "tc", "tc-aa", "seed", 1,
			 "trials", trials);
}

static void test_coverage_autocorrelated(void **state)
{
	char err[512];
	json_t *rec = NULL;
	int le = report_load(AA_NOISE_RUN, &rec, err, sizeof(err));
	const json_t *ts = json_object_get(rec, "timing_schedule");
	double *d, p, pi, se;
	size_t *block, blocks, k, chunk;
	long n;
	int covered = 0, covered_ind = 0;

	(void)state;
	if (le || !rec)
		fail_msg("%s", err);
	n = window_pairs(rec, "tc", "tc-aa", &d, &block);
	assert_true(n > 200);
	blocks = (size_t)json_integer_value(json_object_get(ts, "blocks"));
	k = (size_t)n / blocks;
	chunk = 2 * (size_t)json_integer_value(json_object_get(ts, "windows_per_visit"));
	{
		double m = 0, num = 0, den = 0;

		for (long i = 0; i < n; i++)
			m += d[i] / (double)n;
		for (long i = 0; i < n; i++)
			den += (d[i] - m) * (d[i] - m);
		for (long i = 0; i + 1 < n; i++)
			num += (d[i] - m) * (d[i + 1] - m);
		printf("# recorded A/A noise (%s): %ld pairs in %zu blocks, %zu pairs to a round "
		       "pair, lag-1 autocorrelation of the pairs %.2f\n", AA_NOISE_RUN, n, blocks,
		       chunk, num / den);
	}
	for (int s = 0; s < AC_SIMS; s++) {
		/* the summary's delta of the time metric (window_delta_json, what summary.md
		 * prints; the rest of summary_compute is left out for speed) */
		json_t *run = resampled_run(d, (size_t)n, blocks, k, chunk);
		json_t *x = window_delta_json(run, "cpu_ns_per_pkt", "tc", "tc-aa");
		double lo = json_number_value(json_object_get(x, "ci95_lo"));
		double hi = json_number_value(json_object_get(x, "ci95_hi"));

		assert_non_null(json_object_get(x, "blocks"));
		covered += lo <= 0 && 0 <= hi;
		covered_ind += json_number_value(json_object_get(x, "independent_ci95_lo")) <= 0 &&
			       0 <= json_number_value(json_object_get(x, "independent_ci95_hi"));
		json_decref(x);
		json_decref(run);
	}
	p = (double)covered / AC_SIMS;
	pi = (double)covered_ind / AC_SIMS;
	se = sqrt(0.95 * 0.05 / AC_SIMS);
	printf("# resampled A/A runs: the printed interval (over blocks) covered 0 in %.1f%% of "
	       "%d, the pairs taken as independent in %.1f%% (simulation error %.1f%%)\n",
	       100 * p, AC_SIMS, 100 * pi, 100 * se);
	assert_true(p >= 0.95);
	assert_true(pi < 0.95 - 3 * se);
	free(d);
	free(block);
	json_decref(rec);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_coverage_skewed),
		cmocka_unit_test(test_coverage_heavy_tailed),
		cmocka_unit_test(test_five_pairs_no_interval),
		cmocka_unit_test(test_false_real_rate),
		cmocka_unit_test(test_aa_arm_of_another_mode),
		cmocka_unit_test(test_coverage_autocorrelated),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
