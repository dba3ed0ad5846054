/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_nic.c: the nic topology (topologies/nic.sh, inside an icount guest): the
 * guest's emulated NIC under test (virtio-net) and a second NIC of the same guest, the
 * sender's (an e1000), on one qemu hub. The engine boots the guest with FEED=hub
 * (virtio.sh) and runs the whole experiment inside it, as it does veth's.
 *
 * Why: fed from a host tap, when a frame reaches the guest follows the host's timing,
 * so how frames batch into NAPI polls, and how much idle work a window holds, moved
 * the count by tens of percent between hosts and under load (docs/engines.md). The
 * e1000 transmits inside the guest's own register write (qemu's e1000 start_xmit), the
 * hub hands the frame on at once (net_hub_receive -> qemu_send_packet), virtio-net
 * writes it into the receive ring and raises its interrupt there: every frame arrives at
 * a point of the guest's instruction stream, whatever the host does.
 */
#include <stdio.h>

#include "cpu_time.h"
#include "dut_local.h"
#include "run_ctx.h"

/* The DUT is the NIC in its namespace, in this (guest) machine. */
static int nic_dut_open(struct run_ctx *c)
{
	dut_local_init(&c->dut, c->topo.dut_ns, c->topo.dut_dev);
	return 0;
}

/* The receive path runs where the sender's transmit raised the DUT's interrupt: on the
 * guest's one CPU, in the sender's context (its softirq on the way out of the
 * interrupt or of the transmit) or its ksoftirqd. */
static int nic_trial_env(struct run_ctx *c, struct trial_env *env)
{
	env->cpu_source = CPU_SENDER_AND_SOFTIRQ;
	if (c->o.sender_cpu >= 0)
		softirq_tasks_find_cpu(c->o.sender_cpu, &c->dut.softirq);
	return 0;
}

const struct topology_desc topology_nic = {
	.name = "nic",
	.script = "nic.sh",
	.help = "a qemu guest's virtio-net NIC fed by a second NIC of the same guest on a "
		"qemu hub (icount engine only)",
	/* the sender shares the guest's one vCPU: only instructions compare */
	.icount_only = true,
	.icount = { .packets = 20000, .reps = 11 },
	.allows = TOPOLOGY_GUEST_KERNEL,
	.icount_inside = true,
	.icount_feed = "hub",
	.sender_skb_apart = true,
	.timed = "guest CPU time in ns of the sender thread + ksoftirqd/NAPI threads (the "
		 "DUT's virtio-net receive path runs in the interrupts and softirqs that follow "
		 "the sender's e1000 transmits, on the guest's one CPU)",
	.dut_open = nic_dut_open,
	.trial_env = nic_trial_env,
};
