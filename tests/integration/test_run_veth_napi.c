/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration test of the veth-napi topology on this machine, at CI size: a run of tc and
 * xdpdrv on the veth pair with GRO on at the DUT and TSO off at the sender, and the
 * mechanism must show as veth's code says (drivers/net/veth.c):
 * - veth's NAPI (veth_poll -> veth_xdp_rcv, counted in the DUT's rx_queue_N_xdp_packets)
 *   took every packet the DUT received, in both modes (run.json's dut_napi), where on
 *   the veth topology the tc arm's packets go to the backlog (__netif_rx);
 * - tc drops in __netif_receive_skb_core (one stack entry and one skb freed per
 *   packet), xdpdrv in veth_xdp_rcv_skb before it (no stack entry);
 * - every trial conserved its packets.
 * The CPU time per packet is printed, not asserted (a performance figure: make
 * run-veth-napi). A killed run's cleanup is veth.sh's, tested for the veth topology.
 * Needs root. Run from the repository root.
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

static void test_veth_napi_takes_every_mode_through_napi(void **state)
{
	char tmpl[] = "/tmp/xdptc-ntest-XXXXXX", path[700], prefix[16];
	const char *modes[] = { "tc", "xdpdrv" };
	json_t *run, *m, *napi;
	int st;

	(void)state;
	st = run_xdptc(xdptc, tmpl, "", "run --topology veth-napi --modes tc,xdpdrv --packets 10k "
		       "--reps 3 --count-reps 1 --schedule classic --no-flame --quiet", path,
		       sizeof(path));
	run_prefix(path, prefix, sizeof(prefix));
	assert_run_ok(st, path);
	run = load_run_json(tmpl, path, sizeof(path));
	assert_string_equal(json_string_value(json_object_get(run, "topology")), "veth-napi");
	assert_trials_valid(run);
	napi = json_object_get(run, "dut_napi");
	assert_true(json_is_object(napi));
	printf("# veth's NAPI took %.0f of the %.0f packets the DUT received\n",
	       num(napi, "napi_packets"), num(napi, "rx_packets"));
	assert_true(num(napi, "rx_packets") > 0);
	assert_true(num(napi, "napi_packets") >= 0.99 * num(napi, "rx_packets"));
	for (int k = 0; k < 2; k++) {
		m = mode_summary(run, modes[k]);
		assert_non_null(m);
		printf("# %-7s %.1f ns/pkt, stack %.3f, freed %.3f per packet\n", modes[k],
		       num(m, "cpu_ns_per_pkt"), num(m, "stack_entries_per_pkt"),
		       num(m, "skbs_freed_per_pkt"));
	}
	assert_true(fabs(num(mode_summary(run, "tc"), "stack_entries_per_pkt") - 1) < 0.01);
	assert_true(num(mode_summary(run, "xdpdrv"), "stack_entries_per_pkt") < 0.01);
	finish_run_test(prefix, run, tmpl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_veth_napi_takes_every_mode_through_napi),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
