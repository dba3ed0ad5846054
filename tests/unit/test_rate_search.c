/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of the rate search (run/rate_search.c) on synthetic loss models. */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "rate_search.h"

/* A DUT that takes up to `capacity` pps without loss, fed by a sender that reaches at
 * most `sender_max`; `noise` makes rates within 1% below capacity lossy at random. */
struct model {
	double capacity, sender_max;
	int noise, calls;
	unsigned int seed;
	double jitter;     /* reached rate varies uniformly by +-jitter (fraction) */
	double slow;       /* every other trial reaches only (1 - slow) of it: two host states */
	int stall_every;   /* every Nth trial above stall_above loses packets and is stalled */
	double stall_above;
	int stalled_seen;
};

static int model_probe(void *ctx, uint64_t rate, struct rate_probe *out)
{
	struct model *m = ctx;
	double offered = rate ? (double)rate : m->sender_max;

	m->calls++;
	if (offered > m->sender_max)
		offered = m->sender_max;
	if (m->jitter)
		offered *= 1 - m->jitter + 2 * m->jitter * ((double)rand_r(&m->seed) / RAND_MAX);
	if (m->slow && m->calls % 2)
		offered *= 1 - m->slow;
	out->achieved_pps = offered;
	out->lossless = offered <= m->capacity;
	if (m->noise && offered > 0.99 * m->capacity && offered <= m->capacity)
		out->lossless = rand_r(&m->seed) % 2;
	if (m->stall_every && offered > m->stall_above && m->calls % m->stall_every == 0) {
		/* a scheduling stall: loss whatever the rate, and the probe says so */
		out->lossless = false;
		out->stalled = true;
		m->stalled_seen++;
	}
	out->cpu_ns_per_pkt = 1e9 / m->capacity;
	return 0;
}

static void test_converges_within_two_percent(void **state)
{
	struct model m = { .capacity = 1.47e6, .sender_max = 4e6 };
	struct rate_search_result r;

	(void)state;
	assert_int_equal(rate_search(model_probe, &m, 0.02, 20, &r), 0);
	assert_false(r.sender_bound);
	assert_true((double)r.max_drop_pps <= m.capacity);
	assert_true((double)r.max_drop_pps >= 0.98 * m.capacity);
	assert_true(r.steps <= 20);
	assert_int_equal(m.calls, r.steps);
}

static void test_noisy_edge_still_within_five_percent(void **state)
{
	(void)state;
	for (unsigned int seed = 1; seed <= 50; seed++) {
		struct model m = { .capacity = 2.06e6, .sender_max = 3.1e6, .noise = 1, .seed = seed };
		struct rate_search_result r;

		assert_int_equal(rate_search(model_probe, &m, 0.02, 20, &r), 0);
		assert_true((double)r.max_drop_pps <= m.capacity);
		assert_true((double)r.max_drop_pps >= 0.95 * m.capacity);
	}
}

static void test_sender_bound(void **state)
{
	struct model m = { .capacity = 5e6, .sender_max = 1e6 };
	struct rate_search_result r;

	(void)state;
	assert_int_equal(rate_search(model_probe, &m, 0.02, 20, &r), 0);
	assert_true(r.sender_bound);
	assert_int_equal(r.max_drop_pps, 1000000);
	assert_int_equal(r.steps, 1);
}

static void test_bounded_steps(void **state)
{
	struct model m = { .capacity = 1e6, .sender_max = 1e9 };
	struct rate_search_result r;

	(void)state;
	assert_int_equal(rate_search(model_probe, &m, 0.0001, 6, &r), 0);
	assert_int_equal(r.steps, 6);
	assert_true((double)r.max_drop_pps <= m.capacity);
	assert_int_equal(rate_search(model_probe, &m, 0.02, 1, &r), -EINVAL);
}

/* the repeats confirm an exact search: lossless at max, lossy 5% above */
static void test_confirm_brackets_capacity(void **state)
{
	struct model m = { .capacity = 1.47e6, .sender_max = 4e6 };
	struct rate_search_result r;

	(void)state;
	assert_int_equal(rate_search(model_probe, &m, 0.02, 20, &r), 0);
	assert_int_equal(rate_search_confirm(model_probe, &m, 3, 0.05, &r), 0);
	assert_true(r.confirmed);
	assert_int_equal(r.confirm_lossless_at_max, 3);
	assert_int_equal(r.confirm_lossy_above, 3);
	assert_int_equal(r.confirm_lowered, 0);
	assert_true((double)r.confirm_above_pps > m.capacity);
}

/* a search that landed on a flaky rate is lowered until every repeat is lossless */
static void test_confirm_lowers_a_flaky_max(void **state)
{
	(void)state;
	for (unsigned int seed = 1; seed <= 50; seed++) {
		struct model m = { .capacity = 2.06e6, .sender_max = 3.1e6, .noise = 1, .seed = seed };
		struct rate_search_result r = { .max_drop_pps = 2060000 }; /* at the noisy edge */

		assert_int_equal(rate_search_confirm(model_probe, &m, 3, 0.05, &r), 0);
		assert_true(r.confirmed);
		assert_true((double)r.max_drop_pps <= m.capacity);
		assert_true((double)r.max_drop_pps >= 0.95 * m.capacity);
		assert_true(r.confirm_lowered <= 3);
	}
}

/* a wrong answer (far below capacity) is caught: 5% above it is still lossless */
static void test_confirm_rejects_a_low_answer(void **state)
{
	struct model m = { .capacity = 1.47e6, .sender_max = 4e6 };
	struct rate_search_result r = { .max_drop_pps = 1000000 };

	(void)state;
	assert_int_equal(rate_search_confirm(model_probe, &m, 3, 0.05, &r), 0);
	assert_false(r.confirmed);
	assert_int_equal(r.confirm_lossy_above, 0);
}

/* nothing to confirm when the sender was the limit */
static void test_confirm_skips_sender_bound(void **state)
{
	struct model m = { .capacity = 5e6, .sender_max = 2e6 };
	struct rate_search_result r;

	(void)state;
	assert_int_equal(rate_search(model_probe, &m, 0.02, 20, &r), 0);
	assert_int_equal(rate_search_confirm(model_probe, &m, 3, 0.05, &r), 0);
	assert_int_equal(r.confirm_reps, 0);
	assert_false(r.confirmed);
}

/* stalled trials (loss a scheduling stall explains) are repeated, not taken as lossy */
static void test_stalled_trials_are_repeated(void **state)
{
	struct model m = { .capacity = 1.47e6, .sender_max = 4e6, .stall_every = 2,
			   .stall_above = 1e5 };
	struct rate_search_result r;

	(void)state;
	assert_int_equal(rate_search(model_probe, &m, 0.02, 20, &r), 0);
	assert_true(m.stalled_seen > 0);
	assert_int_equal(r.stalled_trials, m.stalled_seen);
	assert_true((double)r.max_drop_pps <= m.capacity);
	assert_true((double)r.max_drop_pps >= 0.98 * m.capacity);
	assert_int_equal(rate_search_confirm(model_probe, &m, 3, 0.05, &r), 0);
	assert_true(r.confirmed);
}

/* a rate whose every trial stalls counts as lossy: the answer stays below it */
static void test_always_stalled_counts_as_lossy(void **state)
{
	struct model m = { .capacity = 2e6, .sender_max = 4e6, .stall_every = 1,
			   .stall_above = 1e6 };
	struct rate_search_result r;

	(void)state;
	assert_int_equal(rate_search(model_probe, &m, 0.02, 20, &r), 0);
	assert_true((double)r.max_drop_pps <= 1e6);
	assert_true((double)r.max_drop_pps >= 0.98e6);
	for (int i = 0; i < r.steps; i++)
		if (r.probe[i].stalled)
			assert_int_equal(r.probe[i].stalled_before, RATE_STALL_REPEATS);
}

/* the sign-test interval of a median: [x(k), x(n+1-k)] */
static void test_median_ci_order_stat(void **state)
{
	int k;

	(void)state;
	assert_true(median_ci_order_stat(6, 0.95, &k) > 0.968);
	assert_int_equal(k, 1); /* 1 - 2/64 */
	assert_true(fabs(median_ci_order_stat(10, 0.95, &k) - (1 - 22.0 / 1024)) < 1e-12);
	assert_int_equal(k, 2);
	assert_true(fabs(median_ci_order_stat(20, 0.95, &k) - 0.958610534667969) < 1e-9);
	assert_int_equal(k, 6);
	median_ci_order_stat(5, 0.95, &k); /* 1 - 2/32 < 0.95: no interval */
	assert_int_equal(k, 0);
}

/* @reps unpaced trials of @m recorded as saturation trials, then finished (the run
 * interleaves modes; one mode is enough here). */
static int saturate(struct model *m, int reps, struct rate_search_result *r)
{
	for (int i = 0; i < reps; i++) {
		struct rate_probe p = { 0 };

		model_probe(m, 0, &p);
		if (rate_saturation_add(r, &p))
			return -1;
	}
	return rate_saturation_finish(r, 0.05);
}

/* a DUT sharing the sender's CPU: every trial lossless, the rate jitters 2% */
static void test_saturation_confirms_a_steady_pair(void **state)
{
	struct model m = { .capacity = 1e9, .sender_max = 3e6, .jitter = 0.02, .seed = 7 };
	struct rate_search_result r;

	(void)state;
	assert_int_equal(rate_search(model_probe, &m, 0.02, 20, &r), 0);
	assert_true(r.sender_bound);
	assert_int_equal(saturate(&m, 20, &r), 0);
	assert_true(r.saturation);
	assert_true(r.confirmed);
	assert_int_equal(r.confirm_reps, 20);
	assert_int_equal(r.confirm_lossless_at_max, 20);
	assert_true((double)r.max_drop_pps > 0.98 * 3e6 && (double)r.max_drop_pps < 1.02 * 3e6);
	assert_true(r.ci_lo <= (double)r.max_drop_pps && r.ci_hi >= (double)r.max_drop_pps);
	assert_true(r.reached_min <= r.ci_lo && r.reached_max >= r.ci_hi);
}

/* a host that flips between two speeds 20% apart: no 5% answer, and it says so */
static void test_saturation_rejects_two_states(void **state)
{
	struct model m = { .capacity = 1e9, .sender_max = 3e6, .slow = 0.2 };
	struct rate_search_result r;

	(void)state;
	assert_int_equal(rate_search(model_probe, &m, 0.02, 20, &r), 0);
	assert_int_equal(saturate(&m, 20, &r), 0);
	assert_true(r.saturation);
	assert_false(r.confirmed);
	assert_true(r.reached_max / r.reached_min > 1.2);
}

/* one lossy trial among the repeats: not a saturation rate */
static void test_saturation_needs_every_trial_lossless(void **state)
{
	struct rate_search_result r = { .sender_bound = true };
	struct rate_probe p = { .achieved_pps = 1e6, .lossless = true };

	(void)state;
	for (int i = 0; i < 10; i++) {
		p.lossless = i != 4;
		assert_int_equal(rate_saturation_add(&r, &p), 0);
	}
	assert_int_equal(rate_saturation_finish(&r, 0.05), 0);
	assert_int_equal(r.confirm_lossless_at_max, 9);
	assert_false(r.confirmed);
	/* too few trials, or a search that was not sender-bound: refused */
	{
		struct rate_search_result few = { .sender_bound = true }, bracket = { 0 };

		for (int i = 0; i < 5; i++)
			rate_saturation_add(&few, &p);
		assert_int_equal(rate_saturation_finish(&few, 0.05), -EINVAL);
		for (int i = 0; i < 10; i++)
			rate_saturation_add(&bracket, &p);
		assert_int_equal(rate_saturation_finish(&bracket, 0.05), -EINVAL);
	}
}

/* loss above the answer that stalls explain on every repeat does not confirm it */
static void test_confirm_needs_loss_no_stall_explains(void **state)
{
	struct model m = { .capacity = 2e6, .sender_max = 4e6, .stall_every = 1,
			   .stall_above = 1.02e6 };
	struct rate_search_result r = { .max_drop_pps = 1000000 };

	(void)state;
	assert_int_equal(rate_search_confirm(model_probe, &m, 3, 0.05, &r), 0);
	assert_int_equal(r.confirm_lossless_at_max, 3);
	assert_int_equal(r.confirm_lossy_above, 0); /* lossy, but every repeat stalled */
	assert_false(r.confirmed);
	assert_int_equal(r.stalled_trials, 3 * RATE_STALL_REPEATS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_converges_within_two_percent),
		cmocka_unit_test(test_noisy_edge_still_within_five_percent),
		cmocka_unit_test(test_sender_bound),
		cmocka_unit_test(test_bounded_steps),
		cmocka_unit_test(test_confirm_brackets_capacity),
		cmocka_unit_test(test_confirm_lowers_a_flaky_max),
		cmocka_unit_test(test_confirm_rejects_a_low_answer),
		cmocka_unit_test(test_confirm_skips_sender_bound),
		cmocka_unit_test(test_stalled_trials_are_repeated),
		cmocka_unit_test(test_always_stalled_counts_as_lossy),
		cmocka_unit_test(test_median_ci_order_stat),
		cmocka_unit_test(test_confirm_needs_loss_no_stall_explains),
		cmocka_unit_test(test_saturation_confirms_a_steady_pair),
		cmocka_unit_test(test_saturation_rejects_two_states),
		cmocka_unit_test(test_saturation_needs_every_trial_lossless),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
