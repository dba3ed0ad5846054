/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * skb_counters_shared.h: counter slots shared by skb_counters.bpf.c and skb_counters.c.
 * Each slot is a per-CPU __u64 event count in the `counts` array map. Every backend has
 * slots of its own, so a run may take each count from the best backend that has it.
 */
#ifndef XDPTC_SKB_COUNTERS_SHARED_H
#define XDPTC_SKB_COUNTERS_SHARED_H

enum skb_count_idx {
	/* tracepoint backend (raw tracepoints) */
	CNT_TP_STACK_DUT = 0, /* net:netif_receive_skb for skbs whose skb->dev is the DUT */
	CNT_TP_STACK_ALL,     /* net:netif_receive_skb, any device */
	CNT_TP_KFREE_DUT,     /* skb:kfree_skb, skb->dev the DUT */
	CNT_TP_KFREE_ALL,     /* skb:kfree_skb */
	CNT_TP_CONSUME_DUT,   /* skb:consume_skb, skb->dev the DUT */
	CNT_TP_CONSUME_ALL,   /* skb:consume_skb */
	/* kprobe backend (every compiler clone of each function) */
	CNT_KP_STACK,         /* __netif_receive_skb_core */
	CNT_KP_FREED,         /* kfree_skbmem */
	CNT_KP_BUILT,         /* __alloc_skb, __build_skb, __napi_build_skb (else
			       * napi_build_skb), slab_build_skb, build_skb_around */
	/* fentry backend (BPF trampolines) */
	CNT_FE_STACK,
	CNT_FE_FREED,
	CNT_FE_BUILT,
	/* not the BPF programs' slots: the runs of each kprobe and fentry count's programs
	 * the kernel skipped (bpf_prog_info.recursion_misses: a probe hit while a BPF
	 * program of the same kind ran on that CPU, as when an interrupt's softirq receives
	 * a packet during a probe of the sender's path), filled by skb_counters_read */
	CNT_KP_STACK_MISSED,
	CNT_KP_FREED_MISSED,
	CNT_KP_BUILT_MISSED,
	CNT_FE_STACK_MISSED,
	CNT_FE_FREED_MISSED,
	CNT_FE_BUILT_MISSED,
	CNT_NR,
};

#endif /* XDPTC_SKB_COUNTERS_SHARED_H */
