/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of a run's options as data (run/run_opts_json.c), what the icount engine
 * hands its inner run: every setting comes back as it went, and bad files are refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>
#include <jansson.h>

#include "run_opts_json.h"
#include "sender.h"
#include "skb_counters.h"

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
		cmocka_unit_test(test_round_trip),
		cmocka_unit_test(test_default_cpu_is_the_inner_machines),
		cmocka_unit_test(test_bad_options_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
