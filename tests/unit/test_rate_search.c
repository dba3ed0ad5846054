/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of the rate search (loader/rate_search.c) on synthetic loss models. */
#include <errno.h>
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
};

static int model_probe(void *ctx, uint64_t rate, struct rate_probe *out)
{
	struct model *m = ctx;
	double offered = rate ? (double)rate : m->sender_max;

	m->calls++;
	if (offered > m->sender_max)
		offered = m->sender_max;
	out->achieved_pps = offered;
	out->lossless = offered <= m->capacity;
	if (m->noise && offered > 0.99 * m->capacity && offered <= m->capacity)
		out->lossless = rand_r(&m->seed) % 2;
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
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
