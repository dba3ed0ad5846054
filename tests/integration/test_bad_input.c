/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The bad-input table: each wrong call of xdptc gets its one sentence and its exit
 * status (2: bad usage, nothing changed; 1: cannot be done), and changes nothing on
 * the system. Needs root (one case drops it on purpose). Run from the repository root.
 */
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
#include "test_main.h"
#include "topologies.h"

struct bad_case {
	const char *args;     /* after "xdptc"; %s is a scratch directory */
	int status;
	const char *sentence; /* a piece of what it must say */
};

static const struct bad_case cases[] = {
	{ "", 2, "usage: xdptc COMMAND" },
	{ "frobnicate", 2, "unknown command 'frobnicate'" },
	{ "attach --mode tc", 2, "--dev IF is required" },
	{ "attach --dev lo --mode bogus", 2, "choose one of: none, xdpdrv, xdpgeneric, tc, tcx" },
	{ "attach --dev lo --mode tc --port 0", 2, "outside 1-65535" },
	{ "attach --dev lo --mode tc --port 70000", 2, "outside 1-65535" },
	{ "attach --netns xdptc-nosuch --dev x --mode tc", 2, "existing namespaces:" },
	{ "attach --dev xdptc-nosuch0 --mode tc", 2, "devices there:" },
	{ "attach --dev lo --mode tc extra", 2, "unexpected argument 'extra'" },
	/* a missing driver feature: lo has no native XDP, and xdptc never falls back */
	{ "attach --dev lo --mode xdpdrv", 1, "does not support XDP in native mode" },
	{ "send --dst not-an-address --count 1", 2, "an IPv4 or IPv6 address" },
	{ "send --count 1", 2, "--dst ADDR is required" },
	{ "run --packets abc", 2, "expected a packet count" },
	{ "run --packets 0", 2, "expected a packet count" },
	{ "run --reps 1", 2, "2-100 repetitions" },
	{ "run --modes tc,tc", 2, "a comma list of distinct modes" },
	{ "run --modes tc,bogus", 2, "a comma list of distinct modes" },
	{ "run --topology bogus", 2, "expected @TOPOLOGIES" },
	{ "run --cpu 4095", 2, "expected an online CPU" },
	{ "run --size 2000", 2, "payload bytes, 0-1472" },
	{ "run --rate fast", 2, "packets per second" },
	{ "run --topology virtio --guest-kernel 5.10", 2, "no Debian kernel matches '5.10'" },
	{ "run --topology virtio --guest-kernel 'v6'", 2, "a kernel version such as 6.1" },
	{ "matrix --kernels '6.1;x'", 2, "at most 24 kernel versions" },
	{ "matrix --modes xdpdrv,tc", 2, "tc first" },
	{ "run --guest-kernel 6.12", 2, "applies to --topology @GUEST_KERNEL or --engine icount only" },
	{ "run --engine qemu", 2, "host or icount" },
	{ "run --qemu bookworm", 2, "installed or backports" },
	{ "run --topology nic --engine icount --nic igbx", 2, "not a NIC model xdptc knows; it "
	  "knows: virtio-net, vmxnet3, e1000e, e1000, rtl8139, pcnet, tulip, ne2k_pci, i82559er, igb" },
	/* Debian 12's qemu 7.2 has no igb (qemu 8.0 and later): refused with the models it
	 * has, and where igb is */
	{ "run --topology nic --engine icount --nic igb", 2, "(--qemu installed) does not emulate "
	  "it; the NIC models it emulates: virtio-net, vmxnet3, e1000e, e1000, rtl8139, pcnet, "
	  "tulip, ne2k_pci, i82559er (--qemu backports" },
	{ "run --engine icount --find-max-rate", 2, "measures instructions, not time" },
	{ "run --napi-cpu 4095", 2, "expected 'sender' or an online CPU" },
	{ "run --napi-cpu elsewhere", 2, "expected 'sender' or an online CPU" },
	{ "run --engine icount --napi-cpu sender", 2, "measures instructions, not time" },
	{ "run --counters kprobes", 2, "kprobe, fentry, tracepoint" },
	{ "run --sender carrier-pigeon", 2, "udp, packet, xdp-live or tap" },
	{ "run --out /proc/xdptc-nope", 1, "cannot create a results directory" },
	{ "report %s/nonexistent", 1, "cannot read" },
	{ "report %s/corrupt", 2, "is not valid JSON" },
	{ "report %s/foreign", 2, "is not an xdptc run" },
	{ "compare --absolute %s/foreign %s/foreign", 2, "refuses absolute figures" },
	{ "sweep --over moods", 2, "size or sender" },
	{ "doctor --frobnicate", 2, "see 'xdptc doctor --help'" },
	{ "run --packets", 2, "--packets needs a value" },
	{ "run -Z", 2, "unknown option '-Z'" },
	{ "cleanup everything", 2, "unexpected argument 'everything'" },
	{ "help nosuch", 2, "no command 'nosuch'" },
};

static const char *xdptc = "./build/xdptc";
static char dir[] = "/tmp/xdptc-bad-XXXXXX";

/* Run xdptc with @args; its output into @out; its exit status. */
static int run(const char *args, char *out, size_t len)
{
	char cmd[1024], a[512];
	FILE *p;
	size_t n;
	int st;

	snprintf(a, sizeof(a), args, dir, dir);
	snprintf(cmd, sizeof(cmd), "%s %s 2>&1 </dev/null", xdptc, a);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* What a user could see change: namespaces, links, qdiscs, and the files of runs and
 * attachments in the suite's state directory. Its directories are the suite's own
 * bookkeeping: a freshly booted machine has no /run/xdptc, and the first xdptc call that
 * needs it makes it, which is no change to anything of the user's. */
static int snapshot(char *buf, size_t len)
{
	FILE *p = popen("{ ip netns list; ip -o link show; tc qdisc show; "
			"find /run/xdptc ! -type d 2>/dev/null; } 2>&1 | sort",
			"r");
	size_t n;

	if (!p)
		return -1;
	n = fread(buf, 1, len - 1, p);
	buf[n] = '\0';
	return pclose(p);
}

/* @sentence with the table of topologies' words in place of its token: @TOPOLOGIES (every
 * name, "veth or virtio") or @GUEST_KERNEL (those that take --guest-kernel), into @buf. */
static const char *expected(const char *sentence, char *buf, size_t len)
{
	const char *at = strchr(sentence, '@');
	const char *names = NULL;
	size_t tok = 0;

	if (at && !strncmp(at, "@TOPOLOGIES", 11)) {
		names = topology_names(0, NULL, ", ", " or ");
		tok = 11;
	} else if (at && !strncmp(at, "@GUEST_KERNEL", 13)) {
		names = topology_names(TOPOLOGY_GUEST_KERNEL, NULL, ", ", " or ");
		tok = 13;
	}
	if (!names)
		return sentence;
	snprintf(buf, len, "%.*s%s%s", (int)(at - sentence), sentence, names, at + tok);
	return buf;
}

static void test_bad_input_table(void **state)
{
	static char before[65536], after[65536];
	char out[8192];
	size_t i;

	(void)state;
	assert_true(sizeof(cases) / sizeof(cases[0]) >= 20);
	snapshot(before, sizeof(before));
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int st = run(cases[i].args, out, sizeof(out));
		char shown[512], want[256];
		const char *sentence = expected(cases[i].sentence, want, sizeof(want));

		snprintf(shown, sizeof(shown), cases[i].args, dir, dir);
		printf("# %2zu exit %d: xdptc %s\n", i + 1, st, shown);
		if (st != cases[i].status || !strstr(out, sentence)) {
			fprintf(stderr, "expected exit %d and \"%s\", got exit %d and:\n%s\n",
				cases[i].status, sentence, st, out);
			fail();
		}
	}
	/* without privilege: one sentence, exit 1 */
	{
		char cmd[512];
		FILE *p;
		size_t n;
		int st;

		snprintf(cmd, sizeof(cmd), "setpriv --reuid=65534 --regid=65534 --clear-groups "
					   "--inh-caps=-all --bounding-set=-all %s run 2>&1", xdptc);
		p = popen(cmd, "r");
		assert_non_null(p);
		n = fread(out, 1, sizeof(out) - 1, p);
		out[n] = '\0';
		st = pclose(p);
		printf("# %2zu exit %d: xdptc run, as nobody\n", i + 1, WEXITSTATUS(st));
		assert_int_equal(WEXITSTATUS(st), 1);
		assert_non_null(strstr(out, "needs root"));
	}
	snapshot(after, sizeof(after));
	assert_string_equal(before, after); /* nothing changed on the system */
}

static int setup(void **state)
{
	char cmd[512];

	(void)state;
	if (getenv("XDPTC_BIN"))
		xdptc = getenv("XDPTC_BIN");
	if (!mkdtemp(dir))
		return -1;
	snprintf(cmd, sizeof(cmd), "mkdir %s/corrupt %s/foreign && echo '{\"schema\": ' > "
				   "%s/corrupt/run.json && echo '{\"schema\": \"something/else\"}' > "
				   "%s/foreign/run.json", dir, dir, dir, dir);
	return system(cmd) == 0 ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : -1;
}

/* A full disk for results: the run measures, then cannot write run.json; it says so in
 * one sentence, exits 1 and leaves its topology removed. */
static void test_full_results_disk(void **state)
{
	char mnt[] = "/tmp/xdptc-full-XXXXXX", cmd[1024], out[8192];
	FILE *p;
	size_t n;
	int st;

	(void)state;
	assert_non_null(mkdtemp(mnt));
	snprintf(cmd, sizeof(cmd), "mount -t tmpfs -o size=64k xdptcfull %s && "
				   "dd if=/dev/zero of=%s/fill bs=4k count=15 2>/dev/null", mnt, mnt);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s run --packets 2k --reps 2 --count-reps 1 --no-flame --schedule classic "
				   "--quiet --out %s 2>&1 </dev/null", xdptc, mnt);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	st = pclose(p);
	printf("# full disk: exit %d\n", WEXITSTATUS(st));
	snprintf(cmd, sizeof(cmd), "umount %s && rmdir %s", mnt, mnt);
	assert_int_equal(system(cmd), 0);
	if (WEXITSTATUS(st) != 1 || !strstr(out, "cannot write"))
		fprintf(stderr, "%s\n", out);
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_non_null(strstr(out, "cannot write"));
	assert_non_null(strstr(out, "topology"));
	assert_non_null(strstr(out, ": down"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bad_input_table),
		cmocka_unit_test(test_full_results_disk),
	};

	INTEGRATION_MAIN("test_bad_input", tests, setup, teardown, NULL);
}
