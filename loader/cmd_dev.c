/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_dev.c: xdptc attach, detach and status. */
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

#include <jansson.h>

#include "cli.h"

/* ---- attach / detach / status ---- */

static const struct option dev_opts[] = {
	{ "dev", required_argument, NULL, 'd' },   { "netns", required_argument, NULL, 'n' },
	{ "mode", required_argument, NULL, 'm' },  { "port", required_argument, NULL, 'p' },
	{ "json", no_argument, NULL, 'j' },        { "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },        { NULL, 0, NULL, 0 },
};

struct dev_args {
	const char *dev, *netns, *mode_str;
	enum drop_mode mode;
	uint16_t port;
	int json, have_mode;
};

/* Parse --dev/--netns/--mode/--port/--json. Returns -1 to go on, else an exit status. */
static int parse_dev_args(const char *cmd, const char *help, int argc, char **argv,
			  struct dev_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	a->port = DROP_DEFAULT_PORT;
	a->mode = MODE_NR;
	while ((c = getopt_long(argc, argv, "d:n:m:p:jvh", dev_opts, NULL)) != -1) {
		switch (c) {
		case 'd': a->dev = optarg; break;
		case 'n': a->netns = optarg; break;
		case 'm':
			a->mode_str = optarg;
			if (drop_mode_parse(optarg, &a->mode))
				return bad_mode(optarg);
			a->have_mode = 1;
			break;
		case 'p':
			if (parse_port(optarg, &a->port))
				return bad_port(optarg);
			break;
		case 'j': a->json = 1; break;
		case 'v': verbose = 1; bpf_log_setup(1); break;
		case 'h': printf("%s", help); return 0;
		default: fprintf(stderr, "see 'xdptc %s --help'\n", cmd); return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "xdptc %s: unexpected argument '%s'\n", cmd, argv[optind]);
		return EXIT_USAGE;
	}
	if (!a->dev)
		return need_opt(cmd, "--dev IF");
	if (strlen(a->dev) >= IF_NAMESIZE)
		return bad_value("--dev", a->dev, "an interface name of at most 15 characters");
	return -1;
}

int cmd_attach(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc attach --dev IF [--netns NS] --mode MODE [--port N] [--verbose]\n"
		"Load the UDP-drop program and attach it to IF (in network namespace NS).\n"
		"IF is used exactly as named; xdptc never chooses an interface by itself.\n"
		"  --mode  xdpdrv (native XDP; fails with the kernel's reason if the driver\n"
		"          lacks it, never falls back), xdpgeneric, tc (clsact ingress,\n"
		"          direct-action; an existing clsact qdisc is reused), tcx (TC\n"
		"          ingress through a BPF link, pinned under /sys/fs/bpf/xdptc), none\n"
		"  --port  UDP destination port to drop, 1-65535 (default 9999)\n"
		"  --verbose  print libbpf's messages (verifier and kernel errors)\n"
		"The program stays attached after xdptc exits; 'xdptc detach' removes it.\n";
	struct drop_attachment att;
	struct dev_args a;
	char err[512];
	int r = parse_dev_args("attach", help, argc, argv, &a), saved, e;

	if (r >= 0)
		return r;
	if (!a.have_mode)
		return need_opt("attach", "--mode MODE");
	if ((r = enter_and_check(a.netns, a.dev, &saved)))
		return r;
	e = drop_attach(a.dev, a.mode, a.port, &att, err, sizeof(err));
	if (e) {
		fprintf(stderr, "xdptc: %s\n", err);
		netns_return(saved);
		return 1;
	}
	printf("attached %s program id %u to %s%s%s (drops UDP port %u)\n",
	       drop_mode_name(a.mode), att.prog_id, a.dev, a.netns ? " in " : "",
	       a.netns ? a.netns : "", a.port);
	drop_release(&att);
	netns_return(saved);
	return 0;
}

int cmd_detach(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc detach --dev IF [--netns NS] [--mode MODE]\n"
		"Detach xdptc's program(s) from IF: the one of MODE, or all of them.\n"
		"Programs that are not xdptc's are left alone (exit 1). The clsact qdisc is\n"
		"removed only if xdptc created it.\n";
	struct dev_args a;
	char err[512];
	int r = parse_dev_args("detach", help, argc, argv, &a), saved, e;

	if (r >= 0)
		return r;
	if ((r = enter_and_check(a.netns, a.dev, &saved)))
		return r;
	e = drop_detach_dev(a.dev, a.have_mode ? a.mode : MODE_NR, err, sizeof(err));
	netns_return(saved);
	if (e) {
		fprintf(stderr, "xdptc: %s\n", err);
		return 1;
	}
	printf("detached xdptc's %s%sprogram(s) from %s\n", a.have_mode ? a.mode_str : "",
	       a.have_mode ? " " : "", a.dev);
	return 0;
}

int cmd_status(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc status --dev IF [--netns NS] [--json]\n"
		"Show what is attached to IF, the mode as the kernel reports it\n"
		"(bpf_xdp_query, bpf_tc_query) and the program's verdict counters (packets).\n";
	struct drop_status st;
	struct dev_args a;
	int r = parse_dev_args("status", help, argc, argv, &a), saved, e;

	if (r >= 0)
		return r;
	if ((r = enter_and_check(a.netns, a.dev, &saved)))
		return r;
	e = drop_query(a.dev, &st);
	netns_return(saved);
	if (e) {
		fprintf(stderr, "xdptc: cannot query %s: %s\n", a.dev, strerror(-e));
		return 1;
	}
	{
		struct {
			const char *key, *label, *mode, *name;
			uint32_t id;
		} hooks[3] = {
			{ "xdp", "xdp", drop_mode_name(st.xdp_mode), st.xdp_prog_name, st.xdp_prog_id },
			{ "tc", "tc ingress", "tc", st.tc_prog_name, st.tc_prog_id },
			{ "tcx", "tcx ingress", "tcx", "tc_drop", st.tcx_prog_id },
		};
		json_t *j = json_object();

		json_object_set_new(j, "dev", json_string(a.dev));
		json_object_set_new(j, "ifindex", json_integer(st.ifindex));
		if (!a.json)
			printf("%s (ifindex %d)\n", a.dev, st.ifindex);
		for (int h = 0; h < 3; h++) {
			uint64_t v[VERDICT_NR];
			bool have = hooks[h].id && !verdicts_read_prog(hooks[h].id, v);
			json_t *o;

			if (!hooks[h].id) {
				json_object_set_new(j, hooks[h].key, json_null());
				if (!a.json)
					printf("  %s: none from xdptc\n", hooks[h].label);
				continue;
			}
			o = json_object();
			json_object_set_new(o, "mode", json_string(hooks[h].mode));
			json_object_set_new(o, "prog_id", json_integer(hooks[h].id));
			json_object_set_new(o, "prog_name", json_string(hooks[h].name));
			if (have) {
				json_object_set_new(o, "dropped", json_integer((json_int_t)v[VERDICT_DROPPED]));
				json_object_set_new(o, "passed", json_integer((json_int_t)v[VERDICT_PASSED]));
			}
			json_object_set_new(j, hooks[h].key, o);
			if (a.json)
				continue;
			printf("  %s: %s, program id %u '%s'", hooks[h].label, hooks[h].mode, hooks[h].id,
			       hooks[h].name);
			if (have)
				printf(", dropped %llu, passed %llu packets",
				       (unsigned long long)v[VERDICT_DROPPED],
				       (unsigned long long)v[VERDICT_PASSED]);
			printf("%s\n", h == 1 && st.clsact_marker ? " (clsact created by xdptc)" : "");
		}
		json_object_set_new(j, "clsact_created_by_xdptc", json_boolean(st.clsact_marker));
		if (a.json) {
			char *out = json_dumps(j, JSON_COMPACT);

			printf("%s\n", out ? out : "{}");
			free(out);
		}
		json_decref(j);
	}
	return 0;
}
