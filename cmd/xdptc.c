/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * xdptc: measure identical UDP-drop logic at native XDP and TC ingress.
 *
 * Commands (xdptc COMMAND --help for each; their options are tables in cmd_*.c, see
 * cli_table.h, from which --help, build/xdptc.8 and README's make variables come):
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
 *   help        the command list; --man the manual page; --make-vars docs/settings.md's table;
 *               --make-args the Makefile's RUN_ARGS;
 *               --metrics docs/metrics.md's table
 *
 * Exit status: 0 success, 1 runtime failure or missing privilege, 2 bad usage
 * (unknown mode, missing device or namespace, value out of range), 130 interrupted.
 */
#include <stdio.h>
#include <string.h>

#include "bpf_log.h"
#include "cli.h"
#include "cli_table.h"
#include "metrics.h"

/* xdptc help [--man|--make-vars|--make-args|--metrics|--synopsis|COMMAND]: the command
 * list, the manual page (troff, what make builds into build/xdptc.8), docs/settings.md's table
 * of make variables, the Makefile's RUN_ARGS, docs/metrics.md's table of metrics, or a
 * command's --help */
static int cmd_help(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_usage_main(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--man")) {
		cli_man(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--make-vars")) {
		cli_make_vars_md(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--make-args")) {
		cli_make_args(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--synopsis")) {
		cli_synopsis(stdout);
		return 0;
	}
	if (!strcmp(argv[1], "--metrics")) {
		metrics_doc_md(stdout);
		return 0;
	}
	c = cli_command_find(argv[1]);
	if (!c) {
		fprintf(stderr, "xdptc help: no command '%s' (--man, --make-vars, --make-args, --metrics, --synopsis or a command)\n",
			argv[1]);
		return EXIT_USAGE;
	}
	cli_help(c, stdout);
	return 0;
}

int main(int argc, char **argv)
{
	const struct cli_command *c;

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
		cli_usage_main(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	if (!strcmp(argv[1], "help"))
		return cmd_help(argc - 1, argv + 1);
	bpf_log_setup(0);
	c = cli_command_find(argv[1]);
	if (c)
		return c->fn(argc - 1, argv + 1);
	fprintf(stderr, "xdptc: unknown command '%s'\n", argv[1]);
	cli_usage_main(stderr);
	return EXIT_USAGE;
}
