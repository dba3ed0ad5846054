/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Never touch what is not ours, never measure behind someone else's program.
 *
 * Another tool's programs and filters sit on two devices of a veth pair made here (the
 * test plays that tool, and some of its programs are even named like xdptc's: xdp_drop,
 * tc_drop):
 *   DEV1 (the pair's DUT end): a generic XDP program 'xdp_drop', a tcx program 'tc_drop'
 *        held by a BPF link of this process, and a clsact qdisc with a u32 filter (pref
 *        5) and a cls_bpf filter 'tc_drop' (pref 49152);
 *   DEV2 (the sending end): a legacy ingress qdisc with a u32 filter and a cls_bpf one.
 * Every xdptc command is run against them (attach in every mode, detach in every mode
 * and all, status, send, cleanup, doctor, a run), and after each `bpftool net` and the
 * qdiscs and filters of both devices must be exactly as before; an attach that is
 * refused must name the occupant. Then: a clsact of xdptc's deleted and re-made by
 * another tool is not claimed; a namespace deleted and made again (its inode reused) is
 * not mistaken for the old one; a program behind a tcx program, an XDP program or a
 * higher-priority filter is refused.
 * Needs root. Run from the repository root.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <net/if.h>
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

#include "netns.h"
#include "tc_drop.skel.h"
#include "test_topology.h"
#include "test_main.h"

static const char *xdptc = "./build/xdptc";
static struct test_topology topo;
/* the pair's two ends: DEV1 (topo.dut_dev) in the DUT namespace, DEV2 (topo.snd_dev) in
 * the sending one */
static struct tc_drop_bpf *foreign_tcx;
static int foreign_link = -1;

static int run_cmd(char *out, size_t len, const char *fmt, ...)
{
	char cmd[2048], buf[512];
	size_t used = 0;
	va_list ap;
	FILE *p;
	int st;

	va_start(ap, fmt);
	snprintf(cmd, sizeof(cmd), "{ ");
	vsnprintf(cmd + 2, sizeof(cmd) - 16, fmt, ap);
	va_end(ap);
	strncat(cmd, "; } 2>&1", sizeof(cmd) - strlen(cmd) - 1);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	if (out && len)
		out[0] = '\0';
	while (fgets(buf, sizeof(buf), p))
		if (out && used + strlen(buf) < len) {
			strcpy(out + used, buf);
			used += strlen(buf);
		}
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Everything another tool could lose: what bpftool reports on both namespaces' devices,
 * and both devices' qdiscs, filters and XDP state (no counters: traffic moves them). */
static void snapshot(char *buf, size_t len)
{
	assert_int_equal(run_cmd(buf, len,
				 "{ ip netns exec %s bpftool net; ip netns exec %s bpftool net; "
				 "tc -n %s qdisc show dev %s; tc -n %s filter show dev %s ingress; "
				 "tc -n %s filter show dev %s egress; tc -n %s qdisc show dev %s; "
				 "tc -n %s filter show dev %s ingress; ip -n %s -d link show dev %s | "
				 "grep -i xdp; ip -n %s -d link show dev %s | grep -i xdp; } | sort",
				 topo.dut_ns, topo.snd_ns, topo.dut_ns, topo.dut_dev, topo.dut_ns, topo.dut_dev, topo.dut_ns, topo.dut_dev, topo.snd_ns, topo.snd_dev,
				 topo.snd_ns, topo.snd_dev, topo.dut_ns, topo.dut_dev, topo.snd_ns, topo.snd_dev),
			 0);
}

static char before[16384];

static void unchanged(const char *after_what)
{
	static char now[16384];

	snapshot(now, sizeof(now));
	if (strcmp(before, now)) {
		fprintf(stderr, "after %s another tool's programs changed:\n--- before\n%s--- "
				"after\n%s", after_what, before, now);
		fail();
	}
}

static void make_foreign(void)
{
	char out[1024];
	int saved;

	/* XDP 'xdp_drop' of another tool, generic mode, through netlink */
	assert_int_equal(run_cmd(out, sizeof(out), "ip -n %s link set dev %s xdpgeneric obj "
				 "build/xdp_drop.bpf.o sec xdp", topo.dut_ns, topo.dut_dev), 0);
	/* a tcx program 'tc_drop' held by this process's BPF link */
	foreign_tcx = tc_drop_bpf__open();
	assert_non_null(foreign_tcx);
	foreign_tcx->rodata->drop_port = 7; /* another tool's: not the port xdptc drops */
	bpf_program__set_expected_attach_type(foreign_tcx->progs.tc_drop, BPF_TCX_INGRESS);
	assert_int_equal(tc_drop_bpf__load(foreign_tcx), 0);
	assert_int_equal(netns_enter(topo.dut_ns, &saved), 0);
	foreign_link = bpf_link_create(bpf_program__fd(foreign_tcx->progs.tc_drop),
				       (int)if_nametoindex(topo.dut_dev), BPF_TCX_INGRESS, NULL);
	assert_int_equal(netns_return(saved), 0);
	assert_true(foreign_link >= 0);
	/* clsact with a u32 filter and a cls_bpf 'tc_drop' */
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc add dev %s clsact && "
				 "tc -n %s filter add dev %s ingress prio 5 protocol ip u32 match ip "
				 "dst 198.18.99.9/32 && tc -n %s filter add dev %s ingress bpf da obj "
				 "build/tc_drop.bpf.o sec tc", topo.dut_ns, topo.dut_dev, topo.dut_ns, topo.dut_dev, topo.dut_ns,
				 topo.dut_dev), 0);
	/* the legacy ingress qdisc with a u32 and a cls_bpf filter */
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc add dev %s ingress && "
				 "tc -n %s filter add dev %s parent ffff: prio 5 protocol ip u32 match "
				 "ip dst 198.18.99.9/32 && tc -n %s filter add dev %s parent ffff: bpf "
				 "da obj build/tc_drop.bpf.o sec tc", topo.snd_ns, topo.snd_dev, topo.snd_ns, topo.snd_dev, topo.snd_ns,
				 topo.snd_dev), 0);
}

static void remove_foreign(void)
{
	char out[512];

	if (foreign_link >= 0)
		close(foreign_link);
	foreign_link = -1;
	tc_drop_bpf__destroy(foreign_tcx);
	foreign_tcx = NULL;
	run_cmd(out, sizeof(out), "ip -n %s link set dev %s xdpgeneric off; "
		"tc -n %s qdisc del dev %s clsact; tc -n %s qdisc del dev %s ingress", topo.dut_ns, topo.dut_dev,
		topo.dut_ns, topo.dut_dev, topo.snd_ns, topo.snd_dev);
}

static void test_every_command_leaves_them_alone(void **state)
{
	static const char *const modes[] = { "none", "xdpdrv", "xdpgeneric", "tc", "tcx" };
	char out[8192], what[256];

	(void)state;
	make_foreign();
	snapshot(before, sizeof(before));
	printf("# another tool's: on %s generic XDP 'xdp_drop', tcx 'tc_drop', clsact with u32 "
	       "and cls_bpf 'tc_drop'; on %s the ingress qdisc with u32 and cls_bpf\n", topo.dut_dev, topo.snd_dev);
	for (int d = 0; d < 2; d++) {
		const char *ns = d ? topo.snd_ns : topo.dut_ns, *dev = d ? topo.snd_dev : topo.dut_dev;

		for (size_t m = 0; m < sizeof(modes) / sizeof(modes[0]); m++) {
			int st = run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode %s",
					 xdptc, ns, dev, modes[m]);

			snprintf(what, sizeof(what), "attach --dev %s --mode %s", dev, modes[m]);
			if (st == 0) {
				/* a free place (XDP and tcx on DEV2): ours goes there, and
				 * comes off again; theirs stays as it was */
				printf("# %s: attached (the path before it was free)\n", what);
				assert_true(d == 1);
				assert_int_equal(run_cmd(out, sizeof(out), "%s detach --netns %s "
							 "--dev %s --mode %s", xdptc, ns, dev,
							 modes[m]), 0);
			} else {
				printf("# %s: exit %d: %s", what, st, out);
				assert_int_equal(st, 1);
				assert_non_null(strstr(out, "refused"));
				assert_non_null(strstr(out, "not xdptc's: left alone"));
			}
			unchanged(what);
		}
		for (size_t m = 1; m <= sizeof(modes) / sizeof(modes[0]); m++) {
			bool all = m == sizeof(modes) / sizeof(modes[0]);
			int st = run_cmd(out, sizeof(out), "%s detach --netns %s --dev %s%s%s", xdptc,
					 ns, dev, all ? "" : " --mode ", all ? "" : modes[m]);

			snprintf(what, sizeof(what), "detach --dev %s%s%s", dev, all ? "" : " --mode ",
				 all ? "" : modes[m]);
			printf("# %s: exit %d\n", what, st);
			/* a hook of theirs asked for: left alone, exit 1; an empty one: exit 0 */
			assert_true(st == 0 || st == 1);
			if (st == 1)
				assert_non_null(strstr(out, "not xdptc's"));
			unchanged(what);
		}
		assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s", xdptc,
					 ns, dev), 0);
		printf("# status --dev %s:\n%s", dev, out);
		assert_null(strstr(out, "xdptc's ("));
		assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s --json",
					 xdptc, ns, dev), 0);
		assert_non_null(strstr(out, "\"xdp\":null"));
		assert_non_null(strstr(out, "\"tcx\":null"));
		assert_non_null(strstr(out, "\"tc\":null"));
		assert_non_null(strstr(out, "\"clsact_created_by_xdptc\":false"));
		assert_null(strstr(out, "\"xdptc\":true"));
		assert_non_null(strstr(out, d ? "\"qdisc\":\"ingress\"" : "\"hook\":\"tcx\""));
		unchanged("status");
	}
	assert_int_equal(run_cmd(out, sizeof(out), "%s send --netns %s --dst 198.18.0.2 --count 100",
				 xdptc, topo.snd_ns), 0);
	unchanged("send");
	assert_int_equal(run_cmd(out, sizeof(out), "%s cleanup", xdptc), 0);
	unchanged("cleanup");
	assert_int_equal(run_cmd(out, sizeof(out), "%s doctor", xdptc), 0);
	unchanged("doctor");
	assert_int_equal(run_cmd(out, sizeof(out), "%s run --packets 5k --reps 2 --count-reps 1 --schedule classic "
				 "--no-flame --quiet --out /tmp/xdptc-foreign-%d", xdptc,
				 (int)getpid()), 0);
	run_cmd(NULL, 0, "rm -rf /tmp/xdptc-foreign-%d", (int)getpid());
	unchanged("run");
	remove_foreign();
}

/* A clsact xdptc made, deleted and made again by another tool with a filter of its own
 * (even at xdptc's handle and priority), is not xdptc's: not claimed, not removed. */
static void test_a_remade_clsact_is_not_claimed(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode tc", xdptc,
				 topo.dut_ns, topo.dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s --json", xdptc,
				 topo.dut_ns, topo.dut_dev), 0);
	assert_non_null(strstr(out, "\"clsact_created_by_xdptc\":true"));
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc del dev %s clsact && "
				 "tc -n %s qdisc add dev %s clsact && tc -n %s filter add dev %s "
				 "ingress handle 0x7d7c prio 32124 bpf da obj build/tc_drop.bpf.o sec tc",
				 topo.dut_ns, topo.dut_dev, topo.dut_ns, topo.dut_dev, topo.dut_ns, topo.dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s --json", xdptc,
				 topo.dut_ns, topo.dut_dev), 0);
	printf("# after another tool re-made the clsact: %s", out);
	assert_non_null(strstr(out, "\"tc\":null"));
	assert_non_null(strstr(out, "\"clsact_created_by_xdptc\":false"));
	assert_non_null(strstr(out, "\"xdptc\":false"));
	assert_int_equal(run_cmd(out, sizeof(out), "%s detach --netns %s --dev %s", xdptc, topo.dut_ns,
				 topo.dut_dev), 1);
	assert_non_null(strstr(out, "not xdptc's"));
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s filter show dev %s ingress", topo.dut_ns,
				 topo.dut_dev), 0);
	assert_non_null(strstr(out, "tc_drop")); /* theirs is still there */
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc del dev %s clsact", topo.dut_ns, topo.dut_dev),
			 0);
}

/* A namespace deleted under an xdptc attachment and made again (the kernel reuses its
 * inode at once) is another namespace: what another tool puts there is not xdptc's. */
static void test_a_remade_namespace_is_another(void **state)
{
	char ns[40], out[4096], ino1[32] = "", ino2[32] = "";

	(void)state;
	snprintf(ns, sizeof(ns), "%s-r", topo.prefix);
	assert_int_equal(run_cmd(out, sizeof(out), "ip netns add %s && ip -n %s link add name r0 "
				 "type veth peer name r1 && ip -n %s link set dev r0 up", ns, ns, ns),
			 0);
	run_cmd(ino1, sizeof(ino1), "stat -L -c %%i /run/netns/%s", ns);
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev r0 --mode tc", xdptc,
				 ns), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "ip netns delete %s && ip netns add %s && "
				 "ip -n %s link add name r0 type veth peer name r1 && ip -n %s link "
				 "set dev r0 up && tc -n %s qdisc add dev r0 clsact && tc -n %s filter "
				 "add dev r0 ingress handle 0x7d7c prio 32124 bpf da obj "
				 "build/tc_drop.bpf.o sec tc", ns, ns, ns, ns, ns, ns), 0);
	run_cmd(ino2, sizeof(ino2), "stat -L -c %%i /run/netns/%s", ns);
	printf("# namespace inode before %s after %s", ino1, ino2);
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev r0 --json", xdptc,
				 ns), 0);
	assert_non_null(strstr(out, "\"tc\":null"));
	assert_non_null(strstr(out, "\"clsact_created_by_xdptc\":false"));
	assert_int_equal(run_cmd(out, sizeof(out), "%s detach --netns %s --dev r0", xdptc, ns), 1);
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s filter show dev r0 ingress", ns), 0);
	assert_non_null(strstr(out, "tc_drop"));
	assert_int_equal(run_cmd(out, sizeof(out), "ip netns delete %s", ns), 0);
	/* the record of the attachment that went with the first namespace proves nothing:
	 * cleanup removes it */
	assert_int_equal(run_cmd(out, sizeof(out), "%s cleanup", xdptc), 0);
	printf("# cleanup: %s", out);
	assert_non_null(strstr(out, "removed 1 record(s) or pin(s) of attachments that are gone"));
}

/* A program behind another one on the path is refused, with the occupant named: a tcx
 * program (xdptc's own) before cls_bpf, an XDP program before TC, a filter of a higher
 * priority on the same hook. */
static void test_behind_another_program_is_refused(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode tcx", xdptc,
				 topo.dut_ns, topo.dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode tc", xdptc,
				 topo.dut_ns, topo.dut_dev), 1);
	printf("# tc behind xdptc's tcx: %s", out);
	assert_non_null(strstr(out, "tcx ingress program id"));
	assert_non_null(strstr(out, "xdptc's, from an earlier attach"));
	assert_int_equal(run_cmd(out, sizeof(out), "%s send --netns %s --dst 198.18.0.2 --count 200",
				 xdptc, topo.snd_ns), 0);
	usleep(100000);
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s --json", xdptc,
				 topo.dut_ns, topo.dut_dev), 0);
	assert_non_null(strstr(out, "\"tcx\":{\"mode\":\"tcx\""));
	assert_non_null(strstr(out, "\"dropped\":200,"));
	assert_int_equal(run_cmd(out, sizeof(out), "%s detach --netns %s --dev %s", xdptc, topo.dut_ns,
				 topo.dut_dev), 0);
	/* an XDP program of another tool before TC */
	assert_int_equal(run_cmd(out, sizeof(out), "ip -n %s link set dev %s xdpgeneric obj "
				 "build/xdp_drop.bpf.o sec xdp", topo.dut_ns, topo.dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode tcx", xdptc,
				 topo.dut_ns, topo.dut_dev), 1);
	assert_non_null(strstr(out, "generic XDP program id"));
	assert_int_equal(run_cmd(out, sizeof(out), "ip -n %s link set dev %s xdpgeneric off", topo.dut_ns,
				 topo.dut_dev), 0);
	/* a filter of a higher priority (a lower pref) on the clsact */
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc add dev %s clsact && tc -n %s "
				 "filter add dev %s ingress prio 5 protocol ip u32 match ip dst "
				 "198.18.99.9/32", topo.dut_ns, topo.dut_dev, topo.dut_ns, topo.dut_dev), 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s attach --netns %s --dev %s --mode tc", xdptc,
				 topo.dut_ns, topo.dut_dev), 1);
	assert_non_null(strstr(out, "u32 filter pref 5"));
	assert_int_equal(run_cmd(out, sizeof(out), "tc -n %s qdisc del dev %s clsact", topo.dut_ns, topo.dut_dev),
			 0);
	assert_int_equal(run_cmd(out, sizeof(out), "%s status --netns %s --dev %s --json", xdptc,
				 topo.dut_ns, topo.dut_dev), 0);
	assert_non_null(strstr(out, "\"receive_path\":[]"));
}

static int setup(void **state)
{
	(void)state;
	if (getenv("XDPTC_BIN"))
		xdptc = getenv("XDPTC_BIN");
	return test_topology_up(&topo, 'o');
}

static int teardown(void **state)
{
	(void)state;
	remove_foreign();
	return test_topology_down(&topo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_command_leaves_them_alone),
		cmocka_unit_test(test_a_remade_clsact_is_not_claimed),
		cmocka_unit_test(test_a_remade_namespace_is_another),
		cmocka_unit_test(test_behind_another_program_is_refused),
	};

	INTEGRATION_MAIN("test_foreign_hooks", tests, setup, teardown, NULL);
}
