/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * netkit_drop.bpf.c: the UDP-drop classifier as a netkit program (BPF_PROG_TYPE_SCHED_CLS,
 * attached through a BPF link as BPF_NETKIT_PEER on the primary device's ifindex: it runs
 * in netkit_xmit on what the peer, the container's side, transmits). The decision on the
 * skb is skb_drop.bpf.h's, the TC program's; only the return codes are netkit's (the same
 * numbers as TC_ACT_OK and TC_ACT_SHOT, include/uapi/linux/if_link.h). A drop frees the
 * skb in netkit_xmit: it never reaches __netif_rx or __netif_receive_skb_core.
 */
#include "skb_drop.bpf.h"

#define NETKIT_PASS 0
#define NETKIT_DROP 2

SEC("netkit/peer")
int netkit_drop(struct __sk_buff *skb)
{
	return skb_drop_decide(skb) == UDP_VERDICT_DROP ? NETKIT_DROP : NETKIT_PASS;
}
