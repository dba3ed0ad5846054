/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration test of the tap topology on this machine, at CI size: a run of its default
 * modes (tc, xdpdrv, xdpgeneric) writes frames into a tap it made, as qemu writes a
 * guest's, and the mechanism must show as the tun driver's code says (drivers/net/tun.c):
 * - xdpdrv drops in tun_build_skb before any skb is built: no stack entry and no skb
 *   freed per packet;
 * - tc and xdpgeneric run after build_skb and netif_receive_skb: one stack entry and one
 *   skb freed per packet;
 * - every trial conserved its packets (what was written = what the program decided), and
 *   the tap's own rx_dropped counted xdpdrv's drops (tun_xdp_act);
 * - the tap sender is the tap topology's only one, and no other topology's (exit 2).
 * The CPU time per packet is printed, not asserted (a performance figure: make run-tap).
 * A killed tap run's cleanup is test_fault_kill's, as for every topology.
 * Needs root and /dev/net/tun. Run from the repository root.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

static const char *xdptc = "./build/xdptc";

#include "run_helpers.h"

/* The sum of @key over @mode's trials of @pass in @run. */
static double trials_sum(json_t *run, const char *mode, const char *pass, const char *key)
{
	double s = 0;
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (!strcmp(json_string_value(json_object_get(t, "mode")), mode) &&
		    !strcmp(json_string_value(json_object_get(t, "pass")), pass))
			s += num(t, key);
	return s;
}

static void test_tap_run_shows_where_the_skb_is_built(void **state)
{
	char tmpl[] = "/tmp/xdptc-ttest-XXXXXX", path[700], prefix[16], *dir;
	const char *modes[] = { "tc", "xdpdrv", "xdpgeneric" };
	json_t *run, *m[3];
	int st;

	(void)state;
	st = run_xdptc(xdptc, tmpl, "", "run --topology tap --packets 10k --reps 3 "
			"--count-reps 1 --schedule classic --no-flame --quiet", path, sizeof(path));
	run_prefix(path, prefix, sizeof(prefix));
	assert_run_ok(st, path);
	dir = find_run_dir(tmpl);
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	assert_run_json_valid(path);
	run = json_load_file(path, 0, NULL);
	assert_non_null(run);
	assert_string_equal(json_string_value(json_object_get(run, "topology")), "tap");
	assert_string_equal(json_string_value(json_object_get(json_object_get(run, "settings"),
							      "sender")), "tap");
	printf("# %d trials, all valid\n", assert_trials_valid(run));
	for (int i = 0; i < 3; i++) {
		m[i] = mode_summary(run, modes[i]);
		assert_non_null(m[i]);
		printf("# %-10s %.1f ns/pkt, stack %.3f, freed %.3f per packet\n", modes[i],
		       num(m[i], "cpu_ns_per_pkt"), num(m[i], "stack_entries_per_pkt"),
		       num(m[i], "skbs_freed_per_pkt"));
	}
	/* tc and generic XDP: after build_skb and netif_receive_skb */
	for (int i = 0; i < 3; i += 2) {
		assert_true(fabs(num(m[i], "stack_entries_per_pkt") - 1) < 0.01);
		assert_true(fabs(num(m[i], "skbs_freed_per_pkt") - 1) < 0.01);
	}
	/* native XDP: in tun_build_skb, before any skb */
	assert_true(num(m[1], "stack_entries_per_pkt") < 0.01);
	assert_true(num(m[1], "skbs_freed_per_pkt") < 0.01);
	/* tun counts a native XDP drop in the tap's rx_dropped (tun_xdp_act), nothing else */
	printf("# xdpdrv timing: dropped %.0f, the tap's rx_dropped %.0f; tc's rx_dropped %.0f\n",
	       trials_sum(run, "xdpdrv", "timing", "dropped"),
	       trials_sum(run, "xdpdrv", "timing", "dut_rx_dropped"),
	       trials_sum(run, "tc", "timing", "dut_rx_dropped"));
	assert_true(trials_sum(run, "xdpdrv", "timing", "dropped") > 0);
	assert_true(trials_sum(run, "xdpdrv", "timing", "dut_rx_dropped") ==
		    trials_sum(run, "xdpdrv", "timing", "dropped"));
	assert_true(trials_sum(run, "tc", "timing", "dut_rx_dropped") == 0);
	assert_int_equal(count_leftovers(prefix), 0);
	json_decref(run);
	free(dir);
	snprintf(path, sizeof(path), "rm -rf %s", tmpl);
	assert_int_equal(system(path), 0);
}

static void test_the_tap_sender_is_the_taps_own(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(run_xdptc_err(xdptc, "run --topology veth --sender tap", out,
				       sizeof(out)), 2);
	printf("# %s", out);
	assert_non_null(strstr(out, "--topology tap sends with --sender tap only"));
	assert_int_equal(run_xdptc_err(xdptc, "run --topology tap --sender udp", out,
				       sizeof(out)), 2);
	assert_non_null(strstr(out, "--topology tap sends with --sender tap only"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_tap_sender_is_the_taps_own),
		cmocka_unit_test(test_tap_run_shows_where_the_skb_is_built),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
