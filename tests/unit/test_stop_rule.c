/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The alternating pass's stopping rule and the next run's interval (analysis/stop_rule.h,
 * analysis/segment_delta.h), checked by simulation on recorded noise in the manner of
 * test_summary_coverage: the A/A pairs of a recorded run (AA_NOISE_RUN) resampled in
 * stretches (a circular moving-block bootstrap), each counterbalanced pair of rounds
 * flipped in sign at random (the true delta exactly 0).
 *
 * - stop_rule_check reads the same half-widths the summary prints and calls the target
 *   met only when every arm is at or under its own (the A/A's, twice that for another
 *   arm), and never with fewer than 6 blocks.
 * - Sequential stopping: runs of 6 segments of 4 blocks, then a segment more while the
 *   A/A half-width is above a target set at the median half-width of fixed runs (so the
 *   rule decides about half the runs), at most 16 segments: the printed interval must
 *   still cover 0 in at least 95% of the runs, less three simulation errors.
 * - The next run's interval: pairs of runs whose segments each carry an effect of their
 *   own (what a topology built anew and the machine's state minutes apart add; normal or
 *   heavy-tailed), the second run's estimate inside the first run's next-run interval in
 *   at least 95% of the pairs less three simulation errors, while the within-run
 *   interval, blind to those effects, covers it less often (the case matters). Without
 *   segment effects the next-run interval still holds.
 * Deterministic: a fixed seed.
 */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <errno.h>

#include "report.h"
#include "segment_delta.h"
#include "stats.h"
#include "stop_rule.h"
#include "window_delta.h"

#define AA_NOISE_RUN "results/examples/20261202T001012Z-veth"
#define PAIRS_PER_BLOCK 40  /* five round pairs of 8 windows' pairs */
#define CHUNK 8
#define BLOCKS_PER_SEGMENT 4
#define SEGMENTS 6
#define MAX_SEGMENTS 16
#define SIMS 300      /* runs under the stopping rule (and half as many fixed ones) */
#define NEXT_SIMS 250 /* pairs of runs per case of the next-run interval */

static uint64_t rng = 0x5eed5;

static double uniform01(void)
{
	uint64_t z = (rng += 0x9e3779b97f4a7c15ull);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

static double normal(void)
{
	return sqrt(-2 * log(uniform01())) * cos(2 * M_PI * uniform01());
}

static double *noise;
static size_t nnoise;

/* which arms beside tc the simulated runs have (each case builds only what it reads) */
static bool with_xdp = true, with_aa = true;

/* A run of arms tc, xdpdrv and tc-aa (as with_xdp and with_aa say), no trials yet. */
static json_t *new_run(void)
{
	json_t *m = json_pack("[s]", "tc");

	if (with_xdp)
		json_array_append_new(m, json_string("xdpdrv"));
	if (with_aa)
		json_array_append_new(m, json_string("tc-aa"));
	return json_pack("{s:{s:o, s:i}, s:[]}", "settings", "modes", m, "seed", 1, "trials");
}

/* One arm's trial of block @b, segment @seg: its windows from @y (times per packet). */
static json_t *trial(const char *mode, int b, int seg, const double *y)
{
	json_t *w = json_pack("{s:[], s:[], s:[], s:[]}", "start_ms", "pkts", "cpu_ns", "valid");

	for (int i = 0; i < PAIRS_PER_BLOCK; i++) {
		json_array_append_new(json_object_get(w, "pkts"), json_integer(1000));
		json_array_append_new(json_object_get(w, "cpu_ns"), json_real(1000 * y[i]));
		json_array_append_new(json_object_get(w, "valid"), json_true());
	}
	return json_pack("{s:s, s:s, s:i, s:i, s:b, s:f, s:o}", "pass", "timing", "mode", mode,
			 "rep", b, "segment", seg, "valid", 1, "cpu_ns_per_pkt", 1000.0,
			 "windows", w);
}

/* Block @b of segment @seg into @run: tc's windows drift, tc-aa's are tc's times a
 * resampled A/A ratio (signs flipped by round pair), xdpdrv's tc's times exp(@mu + @u +
 * a second resampled ratio). */
static void add_block(json_t *run, int b, int seg, double mu, double u)
{
	double a[PAIRS_PER_BLOCK], x[PAIRS_PER_BLOCK], t[PAIRS_PER_BLOCK];
	size_t s1 = (size_t)(uniform01() * (double)nnoise), s2 = (size_t)(uniform01() * (double)nnoise);
	double f1 = 1, f2 = 1;
	json_t *tr = json_object_get(run, "trials");

	for (int i = 0; i < PAIRS_PER_BLOCK; i++) {
		if (i % CHUNK == 0) {
			f1 = uniform01() < 0.5 ? -1 : 1;
			f2 = uniform01() < 0.5 ? -1 : 1;
		}
		t[i] = exp(0.1 * normal());
		a[i] = t[i] * exp(f1 * noise[(s1 + (size_t)i) % nnoise]);
		x[i] = t[i] * exp(mu + u + f2 * noise[(s2 + (size_t)i) % nnoise]);
	}
	json_array_append_new(tr, trial("tc", b, seg, t));
	if (with_xdp)
		json_array_append_new(tr, trial("xdpdrv", b, seg, x));
	if (with_aa)
		json_array_append_new(tr, trial("tc-aa", b, seg, a));
}

static int setup(void **state)
{
	char err[512];
	json_t *rec = NULL;
	size_t *block;
	long n;

	(void)state;
	if (report_load(AA_NOISE_RUN, &rec, err, sizeof(err)) || !rec)
		return -1;
	n = window_pairs(rec, "tc", "tc-aa", &noise, &block);
	free(block);
	json_decref(rec);
	if (n < 200)
		return -1;
	nnoise = (size_t)n;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	free(noise);
	return 0;
}

static const json_t *delta_of(const json_t *x)
{
	return x;
}

/* The A/A arm's half-width in @c. */
static double aa_hw(const struct stop_check *c)
{
	for (int k = 0; k < c->narms; k++)
		if (c->aa[k])
			return c->halfwidth[k];
	return NAN;
}

/* stop_rule_check against window_delta_json's intervals, and its refusals. */
static void test_check_reads_the_summary(void **state)
{
	json_t *run = new_run();
	struct stop_check c;

	(void)state;
	with_xdp = with_aa = true;
	for (int b = 0; b < 5; b++)
		add_block(run, b, 0, 0.08, 0);
	assert_int_equal(stop_rule_check(run, "cpu_ns_per_pkt", 0.5, &c), 0);
	assert_int_equal(c.narms, 2);
	assert_true(isnan(c.halfwidth[0]) && isnan(c.halfwidth[1]));
	assert_false(c.met); /* 5 blocks: no interval, never met */
	for (int b = 5; b < 12; b++)
		add_block(run, b, b / 4, 0.08, 0);
	assert_int_equal(stop_rule_check(run, "cpu_ns_per_pkt", 0.5, &c), 0);
	for (int k = 0; k < c.narms; k++) {
		json_t *d = window_delta_json(run, "cpu_ns_per_pkt", "tc", c.arm[k]);
		double hw = (json_number_value(json_object_get(delta_of(d), "ci95_hi")) -
			     json_number_value(json_object_get(d, "ci95_lo"))) / 2;

		assert_true(fabs(hw - c.halfwidth[k]) < 1e-12);
		assert_true(c.target[k] == (c.aa[k] ? 0.5 : STOP_ARM_FACTOR * 0.5));
		json_decref(d);
	}
	assert_true(c.met);
	/* a target between the two arms' half-widths: not met */
	assert_int_equal(stop_rule_check(run, "cpu_ns_per_pkt", aa_hw(&c) * 0.99, &c), 0);
	assert_false(c.met);
	json_decref(run);
	run = json_pack("{s:{s:[]}, s:[]}", "settings", "modes", "trials");
	assert_int_equal(stop_rule_check(run, "cpu_ns_per_pkt", 0.5, &c), -EINVAL);
	json_decref(run);
}

/* One run under the stopping rule at @target (0: fixed, SEGMENTS segments): whether its
 * A/A interval covers 0, its half-width into *@hw, its segments into *@segs. */
static bool stopped_run(double target, double *hw, int *segs)
{
	json_t *run = new_run(), *d;
	struct stop_check c;
	int seg = 0, b = 0;
	bool cov;

	for (;; seg++) {
		for (int k = 0; k < BLOCKS_PER_SEGMENT; k++)
			add_block(run, b++, seg, 0.08, 0);
		if (seg + 1 < SEGMENTS)
			continue;
		stop_rule_check(run, "cpu_ns_per_pkt", target > 0 ? target : 1, &c);
		if (target <= 0 || aa_hw(&c) <= target || seg + 1 >= MAX_SEGMENTS)
			break;
	}
	d = window_delta_json(run, "cpu_ns_per_pkt", "tc", "tc-aa");
	cov = json_number_value(json_object_get(d, "ci95_lo")) <= 0 &&
	      0 <= json_number_value(json_object_get(d, "ci95_hi"));
	*hw = (json_number_value(json_object_get(d, "ci95_hi")) -
	       json_number_value(json_object_get(d, "ci95_lo"))) / 2;
	*segs = seg + 1;
	json_decref(d);
	json_decref(run);
	return cov;
}

static void test_coverage_under_stopping(void **state)
{
	double hws[SIMS / 2], target, hw, p, se;
	int covered = 0, extended = 0, segs;

	(void)state;
	with_xdp = false; /* the A/A arm only: the rule's target is its half-width here */
	with_aa = true;
	for (int s = 0; s < SIMS / 2; s++) /* fixed runs: their median half-width */
		stopped_run(0, &hws[s], &segs);
	qsort(hws, SIMS / 2, sizeof(*hws), stats_cmp_double);
	target = hws[SIMS / 4];
	for (int s = 0; s < SIMS; s++) {
		covered += stopped_run(target, &hw, &segs);
		extended += segs > SEGMENTS;
	}
	p = (double)covered / SIMS;
	se = sqrt(0.95 * 0.05 / SIMS);
	printf("# stopping rule (target %.3f%%, the median A/A half-width of fixed runs): %d of "
	       "%d runs added segments; the printed interval covered 0 in %.1f%% (simulation "
	       "error %.1f%%)\n", 100 * target, extended, SIMS, 100 * p, 100 * se);
	assert_true(extended > SIMS / 5); /* the rule decided: the case proves something */
	assert_true(p >= 0.95 - 3 * se);
}

/* A run of SEGMENTS segments, each with an effect @su x (normal, or Laplace when
 * @heavy): the xdpdrv delta's estimate, within-run and next-run intervals. */
static void segment_run(double su, bool heavy, double *est, double iv[4])
{
	json_t *run = new_run(), *d;
	int b = 0;

	for (int seg = 0; seg < SEGMENTS; seg++) {
		double e = uniform01() - 0.5;
		double u = su * (heavy ? -copysign(1, e) * log(1 - 2 * fabs(e)) / sqrt(2)
				       : normal());

		for (int k = 0; k < BLOCKS_PER_SEGMENT; k++)
			add_block(run, b++, seg, 0.08, u);
	}
	d = window_delta_json(run, "cpu_ns_per_pkt", "tc", "xdpdrv");
	*est = json_number_value(json_object_get(d, "rel_delta"));
	iv[0] = json_number_value(json_object_get(d, "ci95_lo"));
	iv[1] = json_number_value(json_object_get(d, "ci95_hi"));
	iv[2] = json_number_value(json_object_get(d, "next_run_lo"));
	iv[3] = json_number_value(json_object_get(d, "next_run_hi"));
	assert_int_equal(json_integer_value(json_object_get(d, "segments")), SEGMENTS);
	json_decref(d);
	json_decref(run);
}

static void next_run_case(double su, bool heavy)
{
	int next = 0, within = 0;
	double p, pw, se = sqrt(0.95 * 0.05 / NEXT_SIMS);

	for (int s = 0; s < NEXT_SIMS; s++) {
		double e1, e2, iv[4], iv2[4];

		segment_run(su, heavy, &e1, iv);
		segment_run(su, heavy, &e2, iv2);
		next += iv[2] <= e2 && e2 <= iv[3];
		within += iv[0] <= e2 && e2 <= iv[1];
	}
	p = (double)next / NEXT_SIMS;
	pw = (double)within / NEXT_SIMS;
	printf("# segment effects %.2f%% (%s): the next run's estimate inside this run's "
	       "next-run interval in %.1f%% of %d pairs of runs, inside its within-run interval "
	       "in %.1f%% (simulation error %.1f%%)\n", 100 * su, heavy ? "Laplace" : "normal",
	       100 * p, NEXT_SIMS, 100 * pw, 100 * se);
	assert_true(p >= 0.95 - 3 * se);
	if (su > 0)
		assert_true(pw < 0.95 - 3 * se);
}

static void test_next_run_coverage(void **state)
{
	(void)state;
	with_xdp = true;
	with_aa = false;
	next_run_case(0, false);
	next_run_case(0.01, false);
	next_run_case(0.01, true);
}

/* The t quantiles and the interval's arithmetic on known numbers. */
static void test_segment_arithmetic(void **state)
{
	double est[6] = { 0.01, 0.03, 0.02, 0.04, 0.0, 0.02 };
	size_t seg[6] = { 0, 1, 2, 3, 4, 5 };
	struct segment_delta sd;

	(void)state;
	assert_true(fabs(t_quantile_975(5) - 2.571) < 1e-9);
	assert_true(fabs(t_quantile_975(60) - 2.000) < 2e-3);
	assert_true(fabs(t_quantile_975(1000) - 1.962) < 1e-3);
	assert_int_equal(segment_delta_compute(est, seg, 6, 0.02, &sd), 0);
	assert_int_equal(sd.segments, 6);
	assert_true(fabs(sd.sd - sqrt(0.001 / 5)) < 1e-12);
	assert_true(fabs(log1p(sd.hi) - (0.02 + 2.571 * sd.sd * sqrt(2.0 / 6))) < 1e-12);
	assert_true(fabs(log1p(sd.lo) - (0.02 - 2.571 * sd.sd * sqrt(2.0 / 6))) < 1e-12);
	assert_int_equal(segment_delta_compute(est, seg, 2, 0.02, &sd), -ERANGE);
	assert_true(isnan(sd.lo));
	seg[0] = SEGMENT_MAX;
	assert_int_equal(segment_delta_compute(est, seg, 6, 0.02, &sd), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_segment_arithmetic),
		cmocka_unit_test(test_check_reads_the_summary),
		cmocka_unit_test(test_coverage_under_stopping),
		cmocka_unit_test(test_next_run_coverage),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
