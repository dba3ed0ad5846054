/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_dev.c: xdptc attach, detach and status. */
#include <jansson.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cmd_dev_attach.h"
#include "bpf_log.h"
#include "cli_parse.h"
#include "netns.h"


#include "cli.h"
#include "cli_table.h"

/* ---- attach / detach / status ---- */

struct dev_args {
	const char *dev, *netns, *mode_str;
	enum drop_mode mode;
	uint16_t port;
	int json, have_mode;
};

/* Parse --dev/--netns/--mode/--port/--json. Returns -1 to go on, else an exit status. */
static int parse_dev_args(const struct cli_command *cc, int argc, char **argv,
			  struct dev_args *a)
{
	const char *cmd = cc->name;
	int c;

	memset(a, 0, sizeof(*a));
	a->port = DROP_DEFAULT_PORT;
	a->mode = MODE_NR;
	while ((c = cli_next(cc, argc, argv)) > 0) {
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
		}
	}
	if (c < 0)
		return cli_exit(c);
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
	struct drop_attachment att;
	struct dev_args a;
	char err[1024], note[1024];
	int r = parse_dev_args(&cli_cmd_attach, argc, argv, &a), saved, e;

	if (r >= 0)
		return r;
	if (!a.have_mode)
		return need_opt("attach", "--mode MODE");
	if ((r = enter_and_check(a.netns, a.dev, &saved)))
		return r;
	e = attach_check_path(a.dev, a.netns, a.mode, err, sizeof(err), note, sizeof(note));
	if (!e)
		e = drop_attach(a.dev, a.mode, a.port, &att, err, sizeof(err));
	if (!e)
		e = attach_persist(&att, err, sizeof(err));
	netns_return(saved);
	if (e) {
		fprintf(stderr, "xdptc: %s\n", err);
		return 1;
	}
	printf("attached %s program id %u to %s%s%s (drops UDP port %u)\n",
	       drop_mode_name(a.mode), att.prog_id, a.dev, a.netns ? " in " : "",
	       a.netns ? a.netns : "", a.port);
	if (note[0] && a.mode != MODE_NONE)
		fprintf(stderr, "xdptc: note: after it on the receive path, so no longer seeing the "
				"packets it drops: %s\n", note);
	return 0;
}

int cmd_detach(int argc, char **argv)
{
	struct dev_args a;
	char err[2048], done[1024];
	int r = parse_dev_args(&cli_cmd_detach, argc, argv, &a), saved, e;

	if (r >= 0)
		return r;
	if ((r = enter_and_check(a.netns, a.dev, &saved)))
		return r;
	e = attach_detach_dev(a.dev, a.have_mode ? a.mode : MODE_NR, done, sizeof(done), err,
			      sizeof(err));
	netns_return(saved);
	if (err[0])
		fprintf(stderr, "xdptc: %s\n", err);
	if (e)
		return 1;
	if (done[0])
		printf("detached from %s: %s\n", a.dev, done);
	else
		printf("nothing of xdptc's %s%sis attached to %s\n", a.have_mode ? a.mode_str : "",
		       a.have_mode ? " " : "", a.dev);
	return 0;
}

int cmd_status(int argc, char **argv)
{
	struct attach_status st;
	struct dev_args a;
	char err[512];
	int r = parse_dev_args(&cli_cmd_status, argc, argv, &a), saved, e;
	json_t *j;

	if (r >= 0)
		return r;
	if ((r = enter_and_check(a.netns, a.dev, &saved)))
		return r;
	e = attach_status_read(a.dev, &st, err, sizeof(err));
	j = e ? NULL : attach_status_json(a.dev, &st);
	netns_return(saved);
	if (e) {
		fprintf(stderr, "xdptc: cannot query %s: %s\n", a.dev, err);
		return 1;
	}
	if (a.json) {
		char *out = json_dumps(j, JSON_COMPACT);

		printf("%s\n", out ? out : "{}");
		free(out);
	} else {
		size_t i;
		json_t *o;

		printf("%s (ifindex %d): receive path, in the order a frame meets it:\n", a.dev,
		       st.path.ifindex);
		if (!st.path.n)
			printf("  nothing\n");
		json_array_foreach(json_object_get(j, "receive_path"), i, o) {
			const json_t *own = json_object_get(
				j, json_string_value(json_object_get(o, "hook")));

			printf("  %zu. %s: ", i + 1, json_string_value(json_object_get(o, "what")));
			if (!json_is_true(json_object_get(o, "xdptc"))) {
				printf("not xdptc's\n");
				continue;
			}
			printf("xdptc's (%s)", json_string_value(json_object_get(o, "mode")));
			if (json_object_get(own, "dropped")) {
				long long dr = json_integer_value(json_object_get(own, "dropped"));
				long long pa = json_integer_value(json_object_get(own, "passed"));

				printf(", dropped %lld packet%s, passed %lld packet%s", dr,
				       dr == 1 ? "" : "s", pa, pa == 1 ? "" : "s");
			}
			printf("%s\n", !strcmp(json_string_value(json_object_get(o, "hook")), "tc") &&
					       st.clsact_created
				       ? " (clsact created by xdptc)" : "");
		}
	}
	json_decref(j);
	return 0;
}

/* ---- the commands' options ---- */

#define OPT_DEV { "dev", 'd', "IF", "the device, used exactly as named: xdptc never " \
		  "chooses an interface by itself", .flags = CLI_REQUIRED }
#define OPT_NETNS { "netns", 'n', "NS", "the network namespace IF is in (ip netns)", \
		    "the current one" }

static const struct cli_opt attach_opts[] = {
	OPT_DEV,
	OPT_NETNS,
	{ "mode", 'm', "MODE", "xdpdrv (native XDP; fails with the kernel's reason if the "
	  "driver lacks it, never falls back), xdpgeneric, tc (clsact ingress, direct-action; "
	  "an existing clsact qdisc is reused), tcx (TC ingress through a BPF link), none",
	  .flags = CLI_REQUIRED },
	{ "port", 'p', "N", "UDP destination port to drop, 1-65535", "9999" },
	{ "verbose", 'v', NULL, "print libbpf's messages (verifier and kernel errors)" },
	{ NULL },
};

const struct cli_command cli_cmd_attach = {
	.name = "attach",
	.fn = cmd_attach,
	.brief = "load and attach the drop program to a device in a mode",
	.about = "Load the UDP-drop program and attach it to IF (in network namespace NS). "
		 "--dev and --mode are required.",
	.opts = attach_opts,
	.notes = "Refused (exit 1), with each occupant named, when anything on IF's receive "
		 "path would see the frames before this program or holds its place (an XDP "
		 "program, a tcx program before cls_bpf, a clsact filter of a higher "
		 "priority): its verdict counters would be wrong. Nothing of another tool is "
		 "touched.\nThe program stays attached after xdptc exits: XDP and tcx as BPF "
		 "links pinned under /sys/fs/bpf/xdptc (bpffs is mounted when missing), with a "
		 "record of their identity under /run/xdptc/attach; 'xdptc detach' removes "
		 "them.",
};

static const struct cli_opt detach_opts[] = {
	OPT_DEV,
	OPT_NETNS,
	{ "mode", 'm', "MODE", "detach only the program of this mode", "all of xdptc's" },
	{ NULL },
};

const struct cli_command cli_cmd_detach = {
	.name = "detach",
	.fn = cmd_detach,
	.brief = "remove what xdptc attached to a device (proven by identity)",
	.about = "Detach what xdptc attached to IF: the program of MODE, or all of them. "
		 "What is xdptc's is proven by the identity recorded when it was attached (the "
		 "pinned link and its program, the program at the filter's place), never by a "
		 "name or a priority. Anything else is left alone and named; exit 1 when a hook "
		 "asked for holds only something that is not xdptc's. The clsact qdisc is "
		 "removed only if xdptc created it and nothing else sits on it.",
	.opts = detach_opts,
};

static const struct cli_opt status_opts[] = {
	OPT_DEV,
	OPT_NETNS,
	{ "json", 'j', NULL, "the receive path and the verdict counters as one line of JSON" },
	{ NULL },
};

const struct cli_command cli_cmd_status = {
	.name = "status",
	.fn = cmd_status,
	.brief = "a device's receive path, whose each part is, xdptc's verdicts",
	.about = "Show everything on IF's receive path in the order a frame meets it (XDP, "
		 "tcx ingress, the ingress qdisc's filters by priority; bpf_xdp_query, "
		 "bpf_prog_query, tc -j filter show), which of it is xdptc's (proven by the "
		 "identity recorded at attach) and xdptc's programs' verdict counters "
		 "(packets).",
	.opts = status_opts,
};
