/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_tap.c: the tap topology (topologies/tap.sh): a tap device in a namespace of
 * its own, the host's side of a VM's virtual NIC, and the frames a VM would send written
 * into it (the tap sender, loader/tap_sender.h), as qemu without vhost-net writes them.
 * The writer's own thread runs the tap's receive path: tun_get_user (drivers/net/tun.c)
 * copies a small frame into a page fragment, where tun_build_skb runs a native XDP
 * program before it builds any skb; only then does build_skb wrap the fragment and
 * netif_receive_skb carry it to TC ingress (and to generic XDP before it). So native XDP
 * drops here before the skb exists, as virtio-net does in a guest, with no guest: on any
 * machine, under the host engine.
 */
#include <stdio.h>

#include "cpu_time.h"
#include "dut_local.h"
#include "run_ctx.h"
#include "sender.h"
#include "topology_local.h"

/* The write, the skb (or none) and the receive path all run on the sender's thread, in
 * its system call (tun_rx_batched -> netif_receive_skb, bottom halves off): its CPU time
 * is the packets' cost, with the softirq threads of its CPU in case any is deferred. */
static int tap_trial_env(struct run_ctx *c, struct trial_env *env)
{
	env->rx_is_sent = true;
	return local_trial_env(c, env);
}

const struct topology_desc topology_tap = {
	.name = "tap",
	.script = "tap.sh",
	.help = "a tap device, the host's side of a VM's NIC, written into as qemu writes",
	/* the veth topology's: one host path a packet, a few microseconds each */
	.host = { .packets = 200000, .reps = 21 },
	.icount = { .packets = 20000, .reps = 11 },
	.modes = "tc,xdpdrv,xdpgeneric",
	.own_sender = SENDER_TAP,
	.icount_inside = true,
	.timed = "CPU time in ns of the thread writing into the tap (tun_get_user and the "
		 "receive path run in its system call) + its CPU's softirq threads",
	.dut_open = local_dut_open, /* the tap in its namespace, on this machine */
	.trial_env = tap_trial_env,
};
