/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tc_drop.bpf.c: the UDP-drop classifier as a TC program (clsact ingress, cls_bpf
 * direct-action, or tcx): the decision on the skb is skb_drop.bpf.h's, shared with the
 * netkit program; `pulled` counts the frames whose headers had to be pulled out of paged
 * fragments first.
 */
#include "skb_drop.bpf.h"

#define TC_ACT_OK 0
#define TC_ACT_SHOT 2

SEC("tc")
int tc_drop(struct __sk_buff *skb)
{
	return skb_drop_decide(skb) == UDP_VERDICT_DROP ? TC_ACT_SHOT : TC_ACT_OK;
}
