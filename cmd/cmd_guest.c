/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_guest.c: xdptc agent (inside a guest) and xdptc guest-exec (on the host). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "dut_remote.h"

#include "cli.h"
#include "cli_table.h"

/* ---- agent (inside a guest) and guest-exec ---- */

int cmd_agent(int argc, char **argv)
{
	const char *port = NULL, *dev = NULL;
	int c, fd, e;

	while ((c = cli_next(&cli_cmd_agent, argc, argv)) > 0) {
		switch (c) {
		case 's': port = optarg; break;
		case 'd': dev = optarg; break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (!port || !dev)
		return need_opt("agent", "--serial PORT and --dev IF");
	fd = open(port, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "xdptc agent: cannot open %s: %s\n", port, strerror(errno));
		return 1;
	}
	printf("XDPTC-AGENT-READY on %s for %s\n", port, dev);
	fflush(stdout);
	e = dut_agent_serve(fd, dev);
	close(fd);
	return e ? 1 : 0;
}

int cmd_guest_exec(int argc, char **argv)
{
	const char *ctl = NULL;
	char cmd[1000] = "", out[16384], err[512];
	struct dut d;
	int c, st = 0, e;

	while ((c = cli_next(&cli_cmd_guest_exec, argc, argv)) > 0) {
		switch (c) {
		case 'c': ctl = optarg; break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (!ctl || optind >= argc)
		return need_opt("guest-exec", "--ctl SOCKET and a COMMAND");
	if ((c = check_privilege()))
		return c;
	for (int i = optind; i < argc; i++) {
		strncat(cmd, argv[i], sizeof(cmd) - strlen(cmd) - 2);
		strcat(cmd, " ");
	}
	e = dut_remote_connect(&d, ctl, 120000, err, sizeof(err));
	if (e) {
		fprintf(stderr, "xdptc: %s\n", err);
		return 1;
	}
	e = dut_exec(&d, cmd, &st, out, sizeof(out));
	dut_close(&d);
	if (e) {
		fprintf(stderr, "xdptc: guest-exec failed: %s\n", out[0] ? out : strerror(-e));
		return 1;
	}
	fputs(out, stdout);
	return st;
}

static const struct cli_opt agent_opts[] = {
	{ "serial", 's', "PORT", "the virtio-serial port to serve (/dev/vportNpM)",
	  .flags = CLI_REQUIRED },
	{ "dev", 'd', "IF", "the guest's DUT interface", .flags = CLI_REQUIRED },
	{ NULL },
};

const struct cli_command cli_cmd_agent = {
	.name = "agent",
	.fn = cmd_agent,
	.brief = "(inside a guest) serve the host's DUT requests on a virtio-serial port",
	.about = "Inside a virtio guest (started by topologies/guest/guest-init.sh): serve "
		 "the host's requests (attach, detach, snapshot, counters, bpfstats, exec) on "
		 "the virtio-serial PORT for the DUT interface IF. Not for use on the host.",
	.opts = agent_opts,
};

static const struct cli_opt guest_exec_opts[] = {
	{ "ctl", 'c', "SOCKET", "the guest agent's control socket (/run/xdptc/PREFIX/ctl.sock)",
	  .flags = CLI_REQUIRED },
	{ NULL },
};

const struct cli_command cli_cmd_guest_exec = {
	.name = "guest-exec",
	.fn = cmd_guest_exec,
	.operands = "-- COMMAND...",
	.brief = "(on the host) run a command in a guest through its agent",
	.about = "Run a shell command inside a running virtio guest through its agent's "
		 "control socket; print its output; exit with its status.",
	.opts = guest_exec_opts,
	.stop_at_operand = 1,
};
