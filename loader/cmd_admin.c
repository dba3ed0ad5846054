/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_admin.c: xdptc doctor and xdptc cleanup. */
#include <bpf/libbpf.h>
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <linux/capability.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bpf_log.h"
#include "cleanup.h"
#include "cli_parse.h"
#include "doctor.h"
#include "plots.h"
#include "report.h"
#include "summary.h"
#include "drop_prog.h"
#include "dut.h"
#include "netns.h"
#include "run.h"
#include "skb_counters_user.h"
#include "udp_sender.h"

#include "cli.h"

int cmd_doctor(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc doctor [--json] [--boot] [--guest]\n"
		"Report what this machine and kernel offer the suite, each item tried for real\n"
		"where it can be (XDP, clsact and tcx on a veth pair of its own; a kprobe, an\n"
		"fentry program and the tracepoints loaded and attached; PMU counters opened;\n"
		"BPF statistics enabled), with the reason for every no. Also qemu, KVM, the\n"
		"versions of the packages the suite uses, whether tracefs, debugfs and bpffs\n"
		"are mounted (a fresh boot has none) and what of xdptc needs each, and the\n"
		"global settings the numbers depend on (kernel.bpf_stats_enabled,\n"
		"net.core.bpf_jit_enable, kernel.perf_event_paranoid, kernel.kptr_restrict):\n"
		"read and reported, never changed.\n"
		"  --json  the report as JSON (what run.json stores under \"doctor\")\n"
		"  --boot  prove KVM with a test boot of the guest kernel (may download it)\n"
		"  --guest inside a guest: leave out qemu and KVM\n";
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' }, { "boot", no_argument, NULL, 'b' },
		{ "guest", no_argument, NULL, 'g' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char topodir[PATH_MAX];
	int c, as_json = 0, boot = 0, guest = 0;
	json_t *r;

	while ((c = getopt_long(argc, argv, "jbgh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': as_json = 1; break;
		case 'b': boot = 1; break;
		case 'g': guest = 1; break;
		case 'h': printf("%s", help); return 0;
		default: fprintf(stderr, "see 'xdptc doctor --help'\n"); return EXIT_USAGE;
		}
	}
	if ((c = check_privilege()))
		return c;
	default_topologies_dir(topodir, sizeof(topodir));
	r = doctor_report(topodir, boot, guest);
	if (as_json) {
		json_dumpf(r, stdout, JSON_INDENT(2));
		printf("\n");
	} else {
		doctor_print(r, stdout);
	}
	json_decref(r);
	return 0;
}

int cmd_cleanup(int argc, char **argv)
{
	char topodir[PATH_MAX];
	int n;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: xdptc cleanup\n"
		       "Remove what killed runs left: namespaces, links and guests named xdptc-*\n"
		       "whose run is gone (a topology whose run still goes is left alone), xdptc's\n"
		       "clsact markers of namespaces that no longer exist, and empty run directories\n"
		       "under ./results. Touches nothing else. Every run does this when it starts.\n");
		return 0;
	}
	if (check_privilege())
		return 1;
	default_topologies_dir(topodir, sizeof(topodir));
	n = cleanup_leftovers(topodir, "results", "");
	if (n < 0) {
		fprintf(stderr, "xdptc: cleanup failed: %s\n", strerror(-n));
		return 1;
	}
	if (!n)
		fprintf(stderr, "nothing to clean: nothing of a killed xdptc run is left\n");
	return 0;
}
