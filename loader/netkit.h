/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * netkit.h: a netkit pair made over rtnetlink (RTM_NEWLINK, IFLA_INFO_KIND "netkit",
 * drivers/net/netkit.c, Linux 6.7 or newer with CONFIG_NETKIT), so that no iproute2 of
 * 6.8 or newer is needed (`ip link add ... type netkit`): Debian 12's iproute2 is 6.1.
 */
#ifndef XDPTC_NETKIT_H
#define XDPTC_NETKIT_H

#include <stddef.h>

/* netkit_pair_add - make the netkit pair @primary (in the calling thread's network
 * namespace) and @peer (moved into the namespace @peer_netns, a name under
 * /var/run/netns, or NULL: beside the primary), in L3 mode (netkit's default, Cilium's:
 * no ARP, no MAC addresses), both default policies pass. Returns 0, or -errno with a
 * sentence in @err: -EOPNOTSUPP when this kernel has no netkit. */
int netkit_pair_add(const char *primary, const char *peer, const char *peer_netns, char *err,
		    size_t errlen);

/* netkit_probe - can this kernel make a netkit pair? Tries one in a network namespace of
 * its own (a child process, unshare(CLONE_NEWNET)), which goes with the child. Returns 1
 * yes, 0 no (why in @why: "this kernel has no netkit (CONFIG_NETKIT, Linux 6.7 or
 * newer)"), -errno when it could not try. */
int netkit_probe(char *why, size_t whylen);

#endif
