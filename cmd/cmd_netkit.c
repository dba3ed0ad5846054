/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_netkit.c: xdptc netkit-pair (the container topology's netkit pair, made over
 * rtnetlink: loader/netkit.c). */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "netkit.h"
#include "netns.h"

#include "cli.h"
#include "cli_table.h"

int cmd_netkit_pair(int argc, char **argv)
{
	const char *netns = NULL, *name = NULL, *peer = NULL, *peer_netns = NULL;
	char err[320];
	int c, saved = -1, e;

	while ((c = cli_next(&cli_cmd_netkit_pair, argc, argv)) > 0) {
		switch (c) {
		case 'n': netns = optarg; break;
		case 'N': name = optarg; break;
		case 'p': peer = optarg; break;
		case 'P': peer_netns = optarg; break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (!name || !peer)
		return need_opt("netkit-pair", "--name PRIMARY and --peer PEER");
	if ((e = enter_and_check(netns, NULL, &saved)))
		return e;
	e = netkit_pair_add(name, peer, peer_netns, err, sizeof(err));
	if (saved >= 0)
		netns_return(saved);
	if (e) {
		fprintf(stderr, "xdptc netkit-pair: %s\n", err);
		return e == -EOPNOTSUPP ? 3 : 1;
	}
	return 0;
}

static const struct cli_opt netkit_pair_opts[] = {
	{ "netns", 'n', "NS", "the primary's network namespace (default: this one)" },
	{ "name", 'N', "PRIMARY", "the primary device's name (the host's side)",
	  .flags = CLI_REQUIRED },
	{ "peer", 'p', "PEER", "the peer device's name (the container's side)",
	  .flags = CLI_REQUIRED },
	{ "peer-netns", 'P', "NS", "the peer's network namespace (default: the primary's)" },
	{ NULL },
};

const struct cli_command cli_cmd_netkit_pair = {
	.name = "netkit-pair",
	.fn = cmd_netkit_pair,
	.brief = "make a netkit pair (the container topology's; over rtnetlink)",
	.about = "Make the netkit pair PRIMARY and PEER in L3 mode (netkit's default), both "
		 "default policies pass, the peer moved into its namespace. netkit is Linux 6.7's "
		 "(CONFIG_NETKIT); xdptc makes the pair over rtnetlink itself, since `ip link add "
		 "type netkit` needs iproute2 6.8 or newer. Used by topologies/container.sh.",
	.opts = netkit_pair_opts,
	.notes = "Exit status: 0 made, 1 failed, 2 bad usage, 3 this kernel has no netkit.",
};
