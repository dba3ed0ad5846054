/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of a run's options as data (run/run_opts_json.c), what the icount engine
 * hands its inner run and what run.json's settings hold: every row of the options'
 * declaration (run/run_opt_table.c) is well formed, its setting comes back as it went
 * and is in run.json's settings (a new row is covered without a change here), and bad
 * files are refused.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "run_json.h"
#include "run_opt_table.h"
#include "run_opts_json.h"
#include "sender.h"
#include "skb_counters.h"

/* @o's numbers and strings that a test leaves 0 or NULL and the declaration gives a
 * default: that default (as a run's options always start) */
static void fill_defaults(struct run_opts *o)
{
	struct run_opts d;

	memset(&d, 0, sizeof(d));
	run_opt_defaults(&d);
	for (const struct run_opt *r = run_opt_table; r->name; r++) {
		if (!r->size || r->type == RUN_OPT_FLAG || r->type == RUN_OPT_UNSET)
			continue;
		if (r->type == RUN_OPT_REAL || r->type == RUN_OPT_PERCENT) {
			if (!*run_opt_real(r, o))
				*run_opt_real(r, o) = *run_opt_real(r, &d);
		} else if (r->type == RUN_OPT_STRING) {
			if (!*run_opt_string(r, o))
				*run_opt_string(r, o) = *run_opt_string(r, &d);
		} else if (!run_opt_get_int(r, o)) {
			run_opt_set_int(r, o, run_opt_get_int(r, &d));
		}
	}
}

static void test_round_trip(void **state)
{
	static const int order[] = { BACKEND_FENTRY, BACKEND_TRACEPOINT, BACKEND_NONE };
	struct run_opts o = {
		.topology = "veth", .nmodes = 3, .aa_arm = 2, .packets = 20000, .warmup = 2000,
		.reps = 11, .count_reps = 2, .port = 4242, .payload_len = 86, .sender_cpu = 1,
		.rate_pps = 30000, .sender_cpu_set = true, .counter_order = order, .cross_check = true, .flame = false,
		.sender = SENDER_PACKET, .seed = 12345678901ull, .pmu_events = "",
		.engine = ENGINE_ICOUNT,
	}, back;
	struct run_icount_host host = { "QEMU emulator version 7.2.22", "shift=0,sleep=off",
					"AMD EPYC", "6.18.44" };
	char err[256] = "";
	json_t *j;

	(void)state;
	fill_defaults(&o);
	o.modes[0] = MODE_TC;
	o.modes[1] = MODE_XDPDRV;
	o.modes[2] = MODE_TC;
	j = run_opts_to_json(&o, &host);
	json_object_del(j, "host_time"); /* the test's clock stays as it is */
	memset(&back, 0, sizeof(back));
	assert_int_equal(run_opts_from_json(j, &back, err, sizeof(err)), 0);
	assert_string_equal(back.topology, "veth");
	assert_int_equal(back.nmodes, 3);
	assert_int_equal(back.modes[1], MODE_XDPDRV);
	assert_int_equal(back.aa_arm, 2);
	assert_int_equal(back.packets, 20000);
	assert_int_equal(back.warmup, 2000);
	assert_int_equal(back.reps, 11);
	assert_int_equal(back.count_reps, 2);
	assert_int_equal(back.port, 4242);
	assert_int_equal(back.payload_len, 86);
	assert_int_equal(back.sender_cpu, 1);
	assert_true(back.sender_cpu_set);
	assert_int_equal(back.rate_pps, 30000);
	assert_non_null(back.counter_order);
	assert_int_equal(back.counter_order[0], BACKEND_FENTRY);
	assert_int_equal(back.counter_order[1], BACKEND_TRACEPOINT);
	assert_int_equal(back.counter_order[2], BACKEND_NONE);
	assert_true(back.cross_check);
	assert_false(back.flame);
	assert_int_equal(back.sender, SENDER_PACKET);
	assert_int_equal(back.seed, 12345678901ull);
	assert_string_equal(back.pmu_events, "");
	assert_true(back.inside_icount);
	assert_string_equal(back.icount_host.qemu, host.qemu);
	assert_string_equal(back.icount_host.icount, host.icount);
	assert_string_equal(back.icount_host.host_cpu_model, host.host_cpu_model);
	assert_string_equal(back.icount_host.host_kernel, host.host_kernel);
	json_decref(j);
}

/* The options of a small run (one arm, tc, no --cpu) as the host writes them, without
 * the host's time (the test's clock stays as it is). */
static json_t *small_run_json(void)
{
	struct run_opts o = { .topology = "veth", .nmodes = 1, .aa_arm = -1, .packets = 10,
			      .reps = 2, .count_reps = 1, .port = 1, .sender_cpu = 4000,
			      .pmu_events = "" };
	struct run_icount_host host = { "q", "i", "c", "k" };
	json_t *j;

	fill_defaults(&o);
	o.modes[0] = MODE_TC;
	j = run_opts_to_json(&o, &host);
	json_object_del(j, "host_time");
	return j;
}

/* without --cpu the inner run takes its own machine's last CPU (a 1-vCPU guest has no
 * CPU 1, which the host's default would be) */
static void test_default_cpu_is_the_inner_machines(void **state)
{
	struct run_opts back;
	char err[256] = "";
	json_t *j = small_run_json();

	(void)state;
	assert_true(json_is_null(json_object_get(j, "sender_cpu")));
	memset(&back, 0, sizeof(back));
	assert_int_equal(run_opts_from_json(j, &back, err, sizeof(err)), 0);
	assert_int_equal(back.sender_cpu, (int)sysconf(_SC_NPROCESSORS_ONLN) - 1);
	assert_false(back.sender_cpu_set);
	json_decref(j);
}

/* Every row of the declaration: a JSON key, unless it is of this process only
 * (RUN_OPT_LOCAL), each key once; a field whose size fits its type; a range that holds
 * its default (or 0 meaning not given); the words of an enum and the refusal's words. */
static void test_every_row_is_well_formed(void **state)
{
	int n = run_opt_count();

	(void)state;
	assert_true(n > 30 && n <= RUN_OPT_MAX);
	for (int i = 0; i < n; i++) {
		const struct run_opt *r = &run_opt_table[i];

		if (!r->json != !!(r->flags & RUN_OPT_LOCAL))
			fail_msg("--%s: a JSON key, or RUN_OPT_LOCAL with a reason", r->name);
		for (int k = 0; k < i && r->json; k++)
			if (run_opt_table[k].json && !strcmp(run_opt_table[k].json, r->json))
				fail_msg("--%s and --%s share the key %s", run_opt_table[k].name,
					 r->name, r->json);
		assert_ptr_equal(run_opt_find(r->key), r);
		assert_non_null(r->help);
		switch (r->type) {
		case RUN_OPT_REAL:
		case RUN_OPT_PERCENT:
			assert_int_equal(r->size, sizeof(double));
			assert_true(r->min < r->max && r->what);
			assert_true((r->dflt >= r->min && r->dflt <= r->max) ||
				    (!r->dflt && (r->flags & RUN_OPT_ZERO_UNSET)));
			break;
		case RUN_OPT_STRING:
			assert_true(!r->size || r->size == sizeof(char *));
			break;
		case RUN_OPT_COUNT:
			assert_true(r->size == 2 || r->size == 4 || r->size == 8);
			assert_true(r->imin <= r->imax);
			assert_true(r->what || (r->flags & RUN_OPT_OWN_PARSER));
			break;
		case RUN_OPT_ENUM:
			assert_int_equal(r->size, sizeof(int));
			assert_non_null(r->word_of);
			assert_non_null(r->word_of((int)r->imin));
			assert_non_null(r->what);
			break;
		case RUN_OPT_FLAG:
		case RUN_OPT_UNSET:
			assert_true(!r->arg && (!r->size || r->size == sizeof(bool) ||
						r->size == sizeof(int)));
			break;
		case RUN_OPT_LIST:
			assert_true(r->flags & RUN_OPT_OWN_PARSER);
			assert_true(r->flags & RUN_OPT_OWN_JSON);
			break;
		}
	}
}

/* A value for row @r other than its default, within its range, into @o. */
static void set_other(const struct run_opt *r, struct run_opts *o)
{
	static char strs[RUN_OPT_MAX][64];
	int last = 0;

	switch (r->type) {
	case RUN_OPT_FLAG:
	case RUN_OPT_UNSET:
		run_opt_set_int(r, o, !r->dflt);
		break;
	case RUN_OPT_COUNT:
		run_opt_set_int(r, o, r->imax != (int64_t)r->dflt ? r->imax : r->imin);
		break;
	case RUN_OPT_REAL:
	case RUN_OPT_PERCENT:
		*run_opt_real(r, o) = (r->max != r->dflt ? r->max : r->min) /
				      (r->type == RUN_OPT_PERCENT ? 100 : 1);
		break;
	case RUN_OPT_STRING:
		snprintf(strs[r - run_opt_table], sizeof(strs[0]), "test-%s", r->name);
		*run_opt_string(r, o) = strs[r - run_opt_table];
		break;
	case RUN_OPT_ENUM:
		while (r->word_of(last + 1))
			last++;
		run_opt_set_int(r, o, last != (int)r->dflt ? last : (int)r->imin);
		break;
	case RUN_OPT_LIST:
		break;
	}
}

/* Every row with a JSON key, set to a value not its default: written, read back the
 * same, and in run.json's settings under its key. */
static void test_every_setting_round_trips(void **state)
{
	struct run_opts o, back;
	struct run_icount_host host = { "q", "i", "c", "k" };
	char err[256] = "";
	json_t *j, *set;
	int checked = 0;

	(void)state;
	memset(&o, 0, sizeof(o));
	run_opt_defaults(&o);
	o.nmodes = 1;
	o.modes[0] = MODE_TC;
	o.aa_arm = -1;
	for (const struct run_opt *r = run_opt_table; r->name; r++)
		if (r->json && !(r->flags & RUN_OPT_OWN_JSON))
			set_other(r, &o);
	j = run_opts_to_json(&o, &host);
	json_object_del(j, "host_time"); /* the test's clock stays as it is */
	{ /* through text, as engine_icount.c writes the file and the guest reads it */
		char *text = json_dumps(j, JSON_INDENT(2));
		json_error_t jerr;

		assert_non_null(text);
		json_decref(j);
		j = json_loads(text, 0, &jerr);
		free(text);
		assert_non_null(j);
	}
	memset(&back, 0, sizeof(back));
	run_opt_defaults(&back);
	if (run_opts_from_json(j, &back, err, sizeof(err)))
		fail_msg("read back: %s", err);
	set = settings_json(&o);
	for (const struct run_opt *r = run_opt_table; r->name; r++) {
		if (!r->json)
			continue;
		if (!json_object_get(j, r->json) || !json_object_get(set, r->json))
			fail_msg("--%s: no %s in the options as data or in run.json's settings",
				 r->name, r->json);
		if ((r->flags & RUN_OPT_OWN_JSON) || !r->size)
			continue; /* test_round_trip */
		if (r->type == RUN_OPT_REAL || r->type == RUN_OPT_PERCENT) {
			if (*run_opt_real(r, &back) != *run_opt_real(r, &o))
				fail_msg("--%s: %g came back %g", r->name, *run_opt_real(r, &o),
					 *run_opt_real(r, &back));
		} else if (r->type == RUN_OPT_STRING) {
			assert_string_equal(*run_opt_string(r, &back), *run_opt_string(r, &o));
		} else if (run_opt_get_int(r, &back) != run_opt_get_int(r, &o)) {
			fail_msg("--%s: %lld came back %lld", r->name, (long long)run_opt_get_int(r, &o),
				 (long long)run_opt_get_int(r, &back));
		}
		checked++;
	}
	assert_true(checked > 25);
	json_decref(set);
	json_decref(j);
}

static void test_bad_options_refused(void **state)
{
	struct run_opts back;
	char err[256] = "";
	json_t *j = small_run_json();

	(void)state;
	json_object_set_new(j, "reps", json_integer(1)); /* below 2 */
	assert_int_equal(run_opts_from_json(j, &back, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "reps"));
	json_object_set_new(j, "reps", json_integer(3));
	json_object_set_new(j, "modes", json_pack("[s]", "carrier-pigeon"));
	err[0] = '\0';
	assert_int_equal(run_opts_from_json(j, &back, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "modes"));
	json_object_set_new(j, "schema", json_string("something else"));
	assert_int_equal(run_opts_from_json(j, &back, err, sizeof(err)), -EINVAL);
	json_decref(j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_row_is_well_formed),
		cmocka_unit_test(test_every_setting_round_trips),
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_default_cpu_is_the_inner_machines),
		cmocka_unit_test(test_bad_options_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
