/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration test of the routed topology on this machine, at CI size: the sender's
 * namespace, a router's namespace that forwards, and the DUT's namespace behind it
 * (topologies/routed.sh). The mechanism must show:
 * - the router forwarded every packet the DUT received (its namespace's ForwDatagrams,
 *   counted in ip_forward_finish: run.json's "router"), and the DUT received packets;
 * - tc drops in __netif_receive_skb_core (one stack entry per packet on the DUT),
 *   xdpdrv on the DUT's veth before it (none there); counted machine-wide (the kprobe
 *   and fentry backends), the router's own stack entry adds one in both modes;
 * - every trial conserved its packets;
 * - the raw senders (packet, xdp-live) are refused before anything is made (exit 2,
 *   nothing left);
 * - a topology whose owner has died is removed by `xdptc cleanup`, all three namespaces
 *   (routed.sh's own `down`), and one whose owner lives is left alone.
 * The CPU time per packet and the skbs freed are printed, not asserted (a performance
 * figure: make run-routed). Needs root. Run from the repository root.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
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

static void test_routed_forwards_every_packet(void **state)
{
	char tmpl[] = "/tmp/xdptc-rtest-XXXXXX", path[700], prefix[16];
	const char *modes[] = { "tc", "xdpdrv" };
	json_t *run, *m, *r;
	int st, router_entry;

	(void)state;
	st = run_xdptc(xdptc, tmpl, "", "run --topology routed --modes tc,xdpdrv --packets 10k "
		       "--reps 3 --count-reps 1 --schedule classic --no-flame --quiet", path,
		       sizeof(path));
	run_prefix(path, prefix, sizeof(prefix));
	assert_run_ok(st, path);
	run = load_run_json(tmpl, path, sizeof(path));
	assert_run_json_valid(path);
	assert_string_equal(json_string_value(json_object_get(run, "topology")), "routed");
	assert_trials_valid(run);
	r = json_object_get(run, "router");
	assert_true(json_is_object(r));
	printf("# the router %s forwarded %.0f packets, the DUT received %.0f\n",
	       json_string_value(json_object_get(r, "netns")), num(r, "forwarded_packets"),
	       num(r, "dut_rx_packets"));
	assert_true(num(r, "dut_rx_packets") > 0);
	assert_true(num(r, "forwarded_packets") >= num(r, "dut_rx_packets"));
	for (int k = 0; k < 2; k++) {
		m = mode_summary(run, modes[k]);
		assert_non_null(m);
		printf("# %-7s %.1f ns/pkt, stack %.3f, freed %.3f per packet\n", modes[k],
		       num(m, "cpu_ns_per_pkt"), num(m, "stack_entries_per_pkt"),
		       num(m, "skbs_freed_per_pkt"));
	}
	/* the DUT's own stack entry is the one xdpdrv spares; a machine-wide count (kprobe,
	 * fentry) also has the router's, one per packet in every mode */
	router_entry = strstr(json_string_value(json_object_get(json_object_get(json_object_get(
			      json_object_get(run, "capabilities"), "counters"), "stack_entries"),
			      "points")), "DUT only") ? 0 : 1;
	printf("# stack entries counted %s\n", router_entry ? "machine-wide" : "on the DUT only");
	assert_true(fabs(num(mode_summary(run, "tc"), "stack_entries_per_pkt") - 1 - router_entry)
		    < 0.01);
	assert_true(fabs(num(mode_summary(run, "xdpdrv"), "stack_entries_per_pkt") - router_entry)
		    < 0.01);
	finish_run_test(prefix, run, tmpl);
}

static void test_routed_refuses_raw_sender(void **state)
{
	const char *raw[] = { "packet", "xdp-live" };
	char err[2048], args[256];

	(void)state;
	/* refused as a usage error before anything is made, and before the kernel is asked
	 * whether it runs XDP on live frames */
	for (int i = 0; i < 2; i++) {
		snprintf(args, sizeof(args), "run --topology routed --sender %s --packets 1k "
			 "--out /tmp/xdptc-rtest-none", raw[i]);
		assert_int_equal(run_xdptc_err(xdptc, args, err, sizeof(err)), 2);
		assert_non_null(strstr(err, "UDP socket"));
		assert_null(strstr(err, ": up"));
		assert_int_equal(system("test ! -e /tmp/xdptc-rtest-none"), 0);
	}
}

/* `sh topologies/routed.sh up @prefix` owned by @owner; 0 on success. */
static int routed_up(const char *prefix, pid_t owner)
{
	char cmd[256];

	snprintf(cmd, sizeof(cmd), "XDPTC_OWNER_PID=%d sh topologies/routed.sh up %s >/dev/null",
		 (int)owner, prefix);
	return system(cmd);
}

static void test_routed_cleanup_removes_a_dead_owners(void **state)
{
	char dead[16], live[16], cmd[128];
	pid_t owner = fork();

	(void)state;
	assert_true(owner >= 0);
	if (!owner) {
		pause();
		_exit(0);
	}
	snprintf(dead, sizeof(dead), "xdptc-r%05d", (int)(getpid() % 100000));
	snprintf(live, sizeof(live), "xdptc-l%05d", (int)(getpid() % 100000));
	assert_int_equal(routed_up(dead, owner), 0);
	assert_int_equal(routed_up(live, getpid()), 0);
	assert_int_equal(count_leftovers(dead), 3); /* -snd, -rtr, -dut */
	kill(owner, SIGKILL);
	waitpid(owner, NULL, 0);
	assert_int_equal(system("./build/xdptc cleanup >/dev/null 2>&1"), 0);
	assert_int_equal(count_leftovers(dead), 0);
	assert_int_equal(count_leftovers(live), 3);
	snprintf(cmd, sizeof(cmd), "sh topologies/routed.sh down %s", live);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(count_leftovers(live), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_routed_forwards_every_packet),
		cmocka_unit_test(test_routed_refuses_raw_sender),
		cmocka_unit_test(test_routed_cleanup_removes_a_dead_owners),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
