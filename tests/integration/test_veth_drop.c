/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration tests on a real veth pair (topologies/veth.sh) with real programs and
 * real packets: each mode drops exactly the packets sent to port 9999, lets the
 * others pass, and leaves the skb counters the mechanism predicts (the TC program pulls
 * nothing from these linear skbs: its `pulled` counter stays 0); the CLI refuses
 * bad input with the documented exit codes; nothing is left behind.
 * Needs root. Run from the repository root.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "bpf_log.h"
#include "drop_prog.h"
#include "netns.h"
#include "rx_path.h"
#include "sender.h"
#include "skb_counters.h"
#include "tc_drop.skel.h"
#include "udp_sender.h"
#include "test_main.h"

#define DROP_PORT 9999
#define OTHER_PORT 9998
#define N_DROP 10000
#define N_PASS 1000

static char prefix[16], snd_ns[32], dut_ns[32], snd_dev[24], dut_dev[24];
static const char *xdptc = "./build/xdptc";

/* Run @cmd through sh, output (stdout+stderr) into @out. Returns the exit status. */
static int run_cmd(char *out, size_t len, const char *fmt, ...)
{
	char cmd[1024], buf[512];
	va_list ap;
	size_t used = 0;
	FILE *p;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	strncat(cmd, " 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (out && len)
		out[0] = '\0';
	while (fgets(buf, sizeof(buf), p)) {
		if (out && used + strlen(buf) < len) {
			strcpy(out + used, buf);
			used += strlen(buf);
		}
	}
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static int setup(void **state)
{
	char out[1024];

	(void)state;
	bpf_log_setup(0);
	if (getenv("XDPTC_BIN"))
		xdptc = getenv("XDPTC_BIN");
	snprintf(prefix, sizeof(prefix), "xdptc-t%05x", (unsigned int)getpid() & 0xfffff);
	snprintf(snd_ns, sizeof(snd_ns), "%s-snd", prefix);
	snprintf(dut_ns, sizeof(dut_ns), "%s-dut", prefix);
	snprintf(snd_dev, sizeof(snd_dev), "%s-s", prefix);
	snprintf(dut_dev, sizeof(dut_dev), "%s-d", prefix);
	if (run_cmd(out, sizeof(out), "XDPTC_OWNER_PID=%d sh topologies/veth.sh up %s",
		    (int)getpid(), prefix)) {
		fprintf(stderr, "topology up failed: %s\n", out);
		return -1;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	return run_cmd(NULL, 0, "sh topologies/veth.sh down %s", prefix);
}

static void send_from_sender(uint16_t port, uint64_t count)
{
	struct udp_sender_opts o = { .dst_addr = "198.18.0.2", .dst_port = port,
				     .payload_len = 18 };
	struct udp_send_result res;
	struct udp_sender s;
	int saved;

	assert_int_equal(netns_enter(snd_ns, &saved), 0);
	assert_int_equal(udp_sender_open(&s, &o), 0);
	assert_int_equal(udp_sender_send(&s, count, NULL, &res), 0);
	udp_sender_close(&s);
	assert_int_equal(netns_return(saved), 0);
	assert_int_equal(res.sent, count);
	usleep(100000); /* let anything deferred to ksoftirqd finish */
}

struct mode_counts {
	uint64_t dropped, passed, stack_entries, skbs_freed;
	uint64_t pulled; /* tc, tcx: frames the program called bpf_skb_pull_data for */
};

/* The TC program's `pulled` counter, summed over the CPUs. */
static uint64_t tc_pulled(const struct drop_attachment *a)
{
	struct tc_drop_bpf *skel = a->skel;
	int ncpu = libbpf_num_possible_cpus();
	uint64_t sum = 0, vals[ncpu > 0 ? ncpu : 1];
	uint32_t key = 0;

	assert_true(ncpu > 0);
	assert_int_equal(bpf_map_lookup_elem(bpf_map__fd(skel->maps.pulled), &key, vals), 0);
	for (int c = 0; c < ncpu; c++)
		sum += vals[c];
	return sum;
}

/* Attach @mode on the DUT, send N_DROP to the drop port (counted) and N_PASS to
 * another port, detach, and check that nothing stays attached. */
static void run_mode(enum drop_mode mode, struct mode_counts *mc)
{
	struct drop_attachment a;
	struct rx_path st;
	struct skb_counters c;
	struct skb_counts before, after;
	uint64_t v[VERDICT_NR];
	char err[512];
	int saved, e;

	assert_int_equal(netns_enter(dut_ns, &saved), 0);
	e = drop_attach(dut_dev, mode, DROP_PORT, &a, err, sizeof(err));
	if (e)
		fprintf(stderr, "attach: %s\n", err);
	assert_int_equal(e, 0);
	/* the kernel reports the program at the hook of the mode asked for, in that mode */
	assert_int_equal(rx_path_read(dut_dev, &st, err, sizeof(err)), 0);
	assert_int_equal(st.n, 1);
	assert_int_equal(st.occ[0].prog_id, a.prog_id);
	assert_int_equal(st.occ[0].hook, rx_hook_of_mode(mode));
	assert_string_equal(st.occ[0].mode, drop_mode_name(mode));
	assert_int_equal(skb_counters_open(&c, if_nametoindex(dut_dev), netns_current_ino(), NULL,
					   false, err, sizeof(err)),
			 0);
	assert_int_equal(netns_return(saved), 0);

	assert_int_equal(skb_counters_read(&c, &before), 0);
	send_from_sender(DROP_PORT, N_DROP);
	assert_int_equal(skb_counters_read(&c, &after), 0);
	send_from_sender(OTHER_PORT, N_PASS);
	skb_counters_close(&c);
	/* stack entries on the DUT need the per-DUT tracepoint or a quiet machine */
	assert_int_not_equal(c.plan.backend[SKB_STACK_ENTRIES], BACKEND_NONE);
	assert_int_not_equal(c.plan.backend[SKB_FREED], BACKEND_NONE);

	assert_int_equal(verdicts_read_fd(a.verdicts_fd, v), 0);
	mc->dropped = v[VERDICT_DROPPED];
	mc->passed = v[VERDICT_PASSED];
	for (int i = 0; i < CNT_NR; i++)
		after.v[i] -= before.v[i];
	mc->stack_entries = skb_count_value(after.v, SKB_STACK_ENTRIES,
					    c.plan.backend[SKB_STACK_ENTRIES]);
	mc->skbs_freed = skb_count_value(after.v, SKB_FREED, c.plan.backend[SKB_FREED]);
	mc->pulled = 0;
	if (mode == MODE_TC || mode == MODE_TCX) {
		mc->pulled = tc_pulled(&a);
		printf("# %s: pulled %llu\n", drop_mode_name(mode), (unsigned long long)mc->pulled);
	}
	printf("# %s: dropped %llu passed %llu stack_entries %llu skbs_freed %llu\n",
	       drop_mode_name(mode), (unsigned long long)mc->dropped,
	       (unsigned long long)mc->passed, (unsigned long long)mc->stack_entries,
	       (unsigned long long)mc->skbs_freed);

	assert_int_equal(netns_enter(dut_ns, &saved), 0);
	assert_int_equal(drop_detach(&a), 0);
	assert_int_equal(rx_path_read(dut_dev, &st, err, sizeof(err)), 0);
	assert_int_equal(st.n, 0); /* nothing left on the receive path */
	assert_int_equal(netns_return(saved), 0);
}

static void test_xdpdrv_drops_before_the_stack(void **state)
{
	struct mode_counts mc;

	(void)state;
	run_mode(MODE_XDPDRV, &mc);
	assert_int_equal(mc.dropped, N_DROP);
	assert_true(mc.passed >= N_PASS);
	assert_true(mc.stack_entries * 100 < N_DROP); /* under 1% of the dropped */
}

static void test_xdpgeneric_drops(void **state)
{
	struct mode_counts mc;

	(void)state;
	run_mode(MODE_XDPGENERIC, &mc);
	assert_int_equal(mc.dropped, N_DROP);
	assert_true(mc.passed >= N_PASS);
	/* generic XDP runs inside __netif_receive_skb_core, after its tracepoint */
	assert_true(mc.stack_entries >= N_DROP);
}

static void test_tc_drops_after_the_stack_entry(void **state)
{
	struct mode_counts mc;
	char out[1024];

	(void)state;
	run_mode(MODE_TC, &mc);
	assert_int_equal(mc.dropped, N_DROP);
	assert_true(mc.passed >= N_PASS);
	assert_true(mc.stack_entries >= N_DROP);
	assert_true(mc.skbs_freed >= N_DROP);
	assert_int_equal(mc.pulled, 0); /* a socket's small frames arrive linear */
	/* the clsact qdisc xdptc created is gone */
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc show dev %s", dut_ns, dut_dev), 0);
	assert_null(strstr(out, "clsact"));
}

static void test_tcx_drops_after_the_stack_entry(void **state)
{
	struct mode_counts mc;

	(void)state;
	run_mode(MODE_TCX, &mc);
	assert_int_equal(mc.dropped, N_DROP);
	assert_true(mc.passed >= N_PASS);
	/* tcx runs where clsact does, inside __netif_receive_skb_core */
	assert_true(mc.stack_entries >= N_DROP);
	assert_int_equal(mc.pulled, 0);
}

static void test_tcx_cli_pins_and_detaches(void **state)
{
	char out[2048];

	(void)state;
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode tcx", xdptc,
				 dut_ns, dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s send --netns %s --dst 198.18.0.2 --count 300",
				 xdptc, snd_ns), 0);
	usleep(100000);
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s --json", xdptc,
				 dut_ns, dut_dev), 0);
	printf("# status: %s", out);
	assert_non_null(strstr(out, "\"tcx\":{\"mode\":\"tcx\""));
	assert_non_null(strstr(out, "\"dropped\":300,"));
	assert_int_equal(run_cmd(out, sizeof(out), "%s detach --netns %s --dev %s --mode tcx", xdptc,
				 dut_ns, dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s --json", xdptc,
				 dut_ns, dut_dev), 0);
	assert_non_null(strstr(out, "\"tcx\":null"));
}

/* Each sender delivers exactly the requested count to the DUT's program. */
static void test_each_sender_delivers_its_count(void **state)
{
	static const enum sender_kind kinds[] = { SENDER_UDP, SENDER_PACKET, SENDER_XDP_LIVE };
	struct drop_attachment a;
	char err[512], mac[32] = "", out[256];
	int saved;

	(void)state;
	assert_int_equal(run_cmd(out, sizeof(out), "ip -n %s -br link show dev %s | awk '{printf $3}'",
				 dut_ns, dut_dev), 0);
	snprintf(mac, sizeof(mac), "%s", out);
	assert_int_equal(netns_enter(dut_ns, &saved), 0);
	assert_int_equal(drop_attach(dut_dev, MODE_XDPDRV, DROP_PORT, &a, err, sizeof(err)), 0);
	assert_int_equal(netns_return(saved), 0);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		struct sender_opts o = { .kind = kinds[k], .dev = snd_dev, .src_addr = "198.18.0.1",
					 .dst_addr = "198.18.0.2", .dst_mac = mac,
					 .dst_port = DROP_PORT, .payload_len = 18 };
		struct udp_send_result res;
		uint64_t before[VERDICT_NR], after[VERDICT_NR];
		struct sender s;
		char why[256] = "";
		int live = kinds[k] != SENDER_XDP_LIVE || sender_xdp_live_probe(why, sizeof(why)) == 1;
		int e;

		assert_int_equal(verdicts_read_fd(a.verdicts_fd, before), 0);
		assert_int_equal(netns_enter(snd_ns, &saved), 0);
		e = sender_open(&s, &o);
		if (!e)
			e = sender_send(&s, 10000, &res);
		sender_close(&s); /* sender_open cleared it first: safe after a failure */
		assert_int_equal(netns_return(saved), 0);
		/* a kernel that refuses XDP on live frames (some do, with EPERM): the probe must
		 * have said so, and the sender must fail; the other senders are still checked */
		if (!live) {
			printf("# %s: %s; the sender failed as the probe said: %s\n",
			       sender_name(kinds[k]), why, strerror(-e));
			assert_true(e < 0);
			continue;
		}
		assert_int_equal(e, 0);
		usleep(100000);
		assert_int_equal(verdicts_read_fd(a.verdicts_fd, after), 0);
		printf("# %s: sent %llu, dropped by the DUT %llu (%.2f Mpps)\n",
		       sender_name(kinds[k]), (unsigned long long)res.sent,
		       (unsigned long long)(after[VERDICT_DROPPED] - before[VERDICT_DROPPED]),
		       res.wall_ns ? (double)res.sent * 1e3 / (double)res.wall_ns : 0.0);
		assert_int_equal(res.sent, 10000);
		assert_int_equal(after[VERDICT_DROPPED] - before[VERDICT_DROPPED], 10000);
	}
	assert_int_equal(netns_enter(dut_ns, &saved), 0);
	assert_int_equal(drop_detach(&a), 0);
	assert_int_equal(netns_return(saved), 0);
}

static void test_tc_reuses_an_existing_clsact(void **state)
{
	struct drop_attachment a;
	char err[512], out[1024];
	int saved;

	(void)state;
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc add dev %s clsact", dut_ns,
				 dut_dev), 0);
	assert_int_equal(netns_enter(dut_ns, &saved), 0);
	assert_int_equal(drop_attach(dut_dev, MODE_TC, DROP_PORT, &a, err, sizeof(err)), 0);
	assert_false(a.created_clsact);
	assert_int_equal(drop_detach(&a), 0);
	assert_int_equal(netns_return(saved), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc show dev %s", dut_ns, dut_dev), 0);
	assert_non_null(strstr(out, "clsact")); /* not ours: left in place */
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc del dev %s clsact", dut_ns,
				 dut_dev), 0);
}

static void test_xdpdrv_refused_never_falls_back(void **state)
{
	struct drop_attachment a;
	struct rx_path st;
	char err[512];
	int saved, e;

	(void)state;
	/* loopback has no native XDP */
	assert_int_equal(netns_enter(dut_ns, &saved), 0);
	e = drop_attach("lo", MODE_XDPDRV, DROP_PORT, &a, err, sizeof(err));
	assert_int_not_equal(e, 0);
	printf("# xdpdrv on lo: %s\n", err);
	assert_non_null(strstr(err, "not falling back"));
	assert_non_null(strstr(err, "kernel: ")); /* the kernel's own reason */
	assert_int_equal(rx_path_read("lo", &st, err, sizeof(err)), 0);
	assert_int_equal(st.n, 0);
	assert_int_equal(netns_return(saved), 0);
}

static void test_cli_round_trip(void **state)
{
	char out[2048];

	(void)state;
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode tc", xdptc,
				 dut_ns, dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s send --netns %s --dst 198.18.0.2 --count 500",
				 xdptc, snd_ns), 0);
	assert_non_null(strstr(out, "sent 500 packets"));
	usleep(100000);
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s --json", xdptc,
				 dut_ns, dut_dev), 0);
	printf("# status: %s", out);
	assert_non_null(strstr(out, "\"tc\":{\"mode\":\"tc\""));
	assert_non_null(strstr(out, "\"dropped\":500,"));
	assert_non_null(strstr(out, "\"clsact_created_by_xdptc\":true"));
	assert_int_equal(run_cmd(out, sizeof(out), "%s detach --netns %s --dev %s", xdptc, dut_ns,
				 dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s --json", xdptc,
				 dut_ns, dut_dev), 0);
	assert_non_null(strstr(out, "\"xdp\":null"));
	assert_non_null(strstr(out, "\"tc\":null"));
	assert_non_null(strstr(out, "\"receive_path\":[]"));
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc show dev %s", dut_ns, dut_dev), 0);
	assert_null(strstr(out, "clsact"));
	/* xdpdrv through the CLI, reported as xdpdrv */
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode xdpdrv",
				 xdptc, dut_ns, dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s", xdptc, dut_ns,
				 dut_dev), 0);
	assert_non_null(strstr(out, "native XDP program id"));
	assert_non_null(strstr(out, "xdptc's (xdpdrv)"));
	assert_int_equal(run_cmd(out, sizeof(out), "%s detach --netns %s --dev %s --mode xdpdrv",
				 xdptc, dut_ns, dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "ip -n %s link show dev %s", dut_ns, dut_dev), 0);
	assert_null(strstr(out, "prog/xdp"));
}

static void test_cli_bad_input(void **state)
{
	char out[2048];

	(void)state;
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode xdp", xdptc,
				 dut_ns, dut_dev), 2);
	assert_non_null(strstr(out, "choose one of: none, xdpdrv, xdpgeneric, tc, tcx"));
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode tc --port 0",
				 xdptc, dut_ns, dut_dev), 2);
	assert_non_null(strstr(out, "outside 1-65535"));
	assert_int_equal(run_cmd(out, sizeof(out),
				 "%s attach --netns %s --dev %s --mode tc --port 65536", xdptc,
				 dut_ns, dut_dev), 2);
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev nosuchdev --mode tc",
				 xdptc, dut_ns), 2);
	assert_non_null(strstr(out, "devices there:"));
	assert_non_null(strstr(out, dut_dev));
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns xdptc-nosuch --dev x --mode tc",
				 xdptc), 2);
	assert_non_null(strstr(out, "existing namespaces:"));
	assert_int_equal(run_cmd(out, sizeof(out), "%s run --modes tc,bogus", xdptc), 2);
	assert_int_equal(run_cmd(out, sizeof(out), "%s frobnicate", xdptc), 2);
	/* nothing was attached by any of those */
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s --json", xdptc,
				 dut_ns, dut_dev), 0);
	assert_non_null(strstr(out, "\"xdp\":null"));
	assert_non_null(strstr(out, "\"tc\":null"));
	assert_non_null(strstr(out, "\"receive_path\":[]"));
	/* without privilege: one sentence, exit 1 */
	assert_int_equal(run_cmd(out, sizeof(out),
				 "setpriv --reuid=65534 --regid=65534 --clear-groups "
				 "--inh-caps=-all --bounding-set=-all %s attach --netns %s --dev %s "
				 "--mode tc", xdptc, dut_ns, dut_dev), 1);
	assert_non_null(strstr(out, "needs root"));
}

/* The bpftrace tracepoint script counts what xdptc's tracepoint backend counts. */
static void test_bpftrace_tracepoint_script(void **state)
{
	char out[4096], ip[128] = "ip", bin[PATH_MAX];
	unsigned long stack = 0, freed = 0;
	char *p;
	FILE *f;

	(void)state;
	f = popen("command -v ip", "r");
	if (f) {
		if (!fgets(ip, sizeof(ip), f))
			strcpy(ip, "ip");
		ip[strcspn(ip, "\n")] = '\0';
		pclose(f);
	}
	/* bpftrace -c wants one unambiguous binary path */
	assert_non_null(realpath(xdptc, bin));
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode tc", xdptc,
				 dut_ns, dut_dev), 0);
	/* bpftrace finds tracepoints through tracefs, which a fresh machine lacks: mounted
	 * where missing in a mount namespace of bpftrace's own, so the machine is unchanged */
	assert_int_equal(run_cmd(out, sizeof(out),
				 "unshare --mount --propagation private sh -c '"
				 "mountpoint -q /sys/kernel/tracing || "
				 "mount -t tracefs tracefs /sys/kernel/tracing; "
				 "exec bpftrace probes/skb_counts_tracepoint.bt %s -c \"%s netns exec %s "
				 "%s send --dst 198.18.0.2 --count 5000\"'",
				 dut_dev, ip, snd_ns, bin), 0);
	printf("# bpftrace: %s", strstr(out, "@") ? strstr(out, "@") : out);
	p = strstr(out, "@stack_entries: ");
	assert_non_null(p);
	stack = strtoul(p + 16, NULL, 10);
	p = strstr(out, "@skbs_freed: ");
	assert_non_null(p);
	freed = strtoul(p + 13, NULL, 10);
	assert_int_equal(stack, 5000); /* filtered on the DUT: exact */
	assert_true(freed >= 5000);    /* machine-wide: anything else running adds to it */
	assert_int_equal(run_cmd(out, sizeof(out), "%s detach --netns %s --dev %s", xdptc, dut_ns,
				 dut_dev), 0);
}

/* `xdptc cleanup` removes a topology whose run is gone and spares one whose run lives
 * (this test's own topology, owned by this process). */
static void test_cleanup_spares_live_runs(void **state)
{
	char out[2048], dead[24];

	(void)state;
	snprintf(dead, sizeof(dead), "xdptc-k%05x", (unsigned int)(getpid() + 1) & 0xfffff);
	/* a topology whose owner ends after `up` (`up` refuses an owner that is gone) and
	 * whose owner watch has ended with `up`: what a run killed later leaves */
	assert_int_equal(run_cmd(out, sizeof(out), "sleep 30 & o=$!; XDPTC_OWNER_PID=$o "
				 "sh topologies/veth.sh up %s >/dev/null && kill $o && wait $o; "
				 "[ $? -eq 143 ]", dead), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "ip netns list"), 0);
	assert_non_null(strstr(out, dead));
	assert_int_equal(run_cmd(out, sizeof(out), "%s cleanup", xdptc), 0);
	printf("# cleanup: %s", out);
	assert_int_equal(run_cmd(out, sizeof(out), "ip netns list"), 0);
	assert_null(strstr(out, dead));
	assert_non_null(strstr(out, snd_ns));
	assert_non_null(strstr(out, dut_ns));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xdpdrv_drops_before_the_stack),
		cmocka_unit_test(test_xdpgeneric_drops),
		cmocka_unit_test(test_tc_drops_after_the_stack_entry),
		cmocka_unit_test(test_tcx_drops_after_the_stack_entry),
		cmocka_unit_test(test_tcx_cli_pins_and_detaches),
		cmocka_unit_test(test_each_sender_delivers_its_count),
		cmocka_unit_test(test_tc_reuses_an_existing_clsact),
		cmocka_unit_test(test_xdpdrv_refused_never_falls_back),
		cmocka_unit_test(test_cli_round_trip),
		cmocka_unit_test(test_cli_bad_input),
		cmocka_unit_test(test_bpftrace_tracepoint_script),
		cmocka_unit_test(test_cleanup_spares_live_runs),
	};

	INTEGRATION_MAIN("test_veth_drop", tests, setup, teardown, NULL);
}
