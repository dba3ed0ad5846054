/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * skb_counters.h: counter slots shared by skb_counters.bpf.c and skb_counters.c.
 * Each slot is a per-CPU __u64 event count in the `counts` array map.
 */
#ifndef XDPTC_SKB_COUNTERS_H
#define XDPTC_SKB_COUNTERS_H

enum skb_count_idx {
	/* tracepoint net:netif_receive_skb, fired inside __netif_receive_skb_core */
	CNT_STACK_DUT = 0, /* ... for skbs whose skb->dev is the DUT (ifindex + netns) */
	CNT_STACK_ALL,     /* ... for any device */
	/* tracepoint skb:kfree_skb (skb freed as dropped) */
	CNT_KFREE_DUT,
	CNT_KFREE_ALL,
	/* tracepoint skb:consume_skb (skb freed after normal use) */
	CNT_CONSUME_DUT,
	CNT_CONSUME_ALL,
	/* kprobes on the skb construction functions (where the kernel has kprobes) */
	CNT_BUILT_ALLOC, /* __alloc_skb */
	CNT_BUILT_BUILD, /* __build_skb */
	CNT_BUILT_NAPI,  /* __napi_build_skb */
	CNT_NR,
};

#endif /* XDPTC_SKB_COUNTERS_H */
