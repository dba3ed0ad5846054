/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * xdptc: measure identical UDP-drop logic at native XDP and TC ingress.
 *
 * Commands (xdptc COMMAND --help for each):
 *   attach      load and attach the drop program to a device in a mode
 *   detach      remove what xdptc attached to a device (proven by identity)
 *   status      a device's receive path, whose each part is, xdptc's verdicts
 *   send        UDP traffic generator (sendmmsg)
 *   run         a whole measurement run on a topology (what `make run-veth` calls)
 *   sweep       runs over frame sizes or senders, side by side
 *   cleanup     remove what a killed run left behind
 *   doctor      what this machine and kernel offer, and why
 *   report      recompute a run's summary from its run.json; CSV export
 *   compare     two runs' within-run deltas side by side, with their settings
 *   agent       (inside a guest) serve the host's DUT requests on a virtio-serial port
 *   guest-exec  (on the host) run a command in a guest through its agent
 *
 * Exit status: 0 success, 1 runtime failure or missing privilege, 2 bad usage
 * (unknown mode, missing device or namespace, value out of range), 130 interrupted.
 */
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

static void usage_main(FILE *f)
{
	fprintf(f,
		"usage: xdptc COMMAND [OPTIONS]\n"
		"\n"
		"Measure how much work the kernel does when identical UDP-drop logic runs at\n"
		"native XDP (xdpdrv) versus TC ingress (clsact, direct-action).\n"
		"\n"
		"commands:\n"
		"  attach   --dev IF [--netns NS] --mode MODE [--port N]   attach the drop program\n"
		"  detach   --dev IF [--netns NS] [--mode MODE]            detach xdptc's program(s)\n"
		"  status   --dev IF [--netns NS] [--json]                 the receive path, verdicts\n"
		"  send     --dst ADDR [--netns NS] [--count N] ...        UDP traffic generator\n"
		"  run      [--topology veth|virtio] [--packets N] ...     a whole measurement run\n"
		"  sweep    --over size|sender [RUN OPTIONS]               runs over frame sizes or senders\n"
		"  cleanup                                                 remove leftovers of killed runs\n"
		"  doctor   [--json] [--boot] [--guest]                    what this kernel offers, and why\n"
		"  report   DIR [--csv FILE|-] [--quiet]                   rebuild a run's summary; CSV export\n"
		"  compare  DIR_A DIR_B [--mixed]                          two runs' within-run deltas side by side\n"
		"\n"
		"modes: %s\n"
		"Run 'xdptc COMMAND --help' for a command's options. Needs root (or CAP_BPF,\n"
		"CAP_NET_ADMIN and CAP_SYS_ADMIN) for everything but --help.\n",
		drop_mode_choices());
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "attach", cmd_attach }, { "detach", cmd_detach }, { "status", cmd_status },
		{ "send", cmd_send },     { "run", cmd_run },       { "cleanup", cmd_cleanup },
		{ "agent", cmd_agent },   { "guest-exec", cmd_guest_exec },
		{ "doctor", cmd_doctor }, { "sweep", cmd_sweep }, { "report", cmd_report },   { "compare", cmd_compare },
	};

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage_main(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	bpf_log_setup(0);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "xdptc: unknown command '%s'\n", argv[1]);
	usage_main(stderr);
	return EXIT_USAGE;
}
