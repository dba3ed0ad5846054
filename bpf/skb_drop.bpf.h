/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * skb_drop.bpf.h: the UDP-drop decision on an skb, written once for every program that
 * runs on one (tc_drop.bpf.c: clsact ingress and tcx; netkit_drop.bpf.c: netkit). The
 * classifier (udp_classifier.h) reads the frame from the linear data; when the headers it
 * may need lie in paged fragments, they are pulled first (bpf_skb_pull_data), so a
 * non-linear skb is decided like a linear one, and how often that happened is counted in
 * `pulled`. A VLAN tag the kernel has moved into skb metadata counts as the classifier's
 * tags do, so a frame is judged as XDP judges it on the wire.
 */
#ifndef XDPTC_SKB_DROP_BPF_H
#define XDPTC_SKB_DROP_BPF_H

#include "drop_common.bpf.h"

/* Frames for which the program called bpf_skb_pull_data because its linear data ended
 * before the headers the classifier may read: one per-CPU __u64 at key 0, read by user
 * space like `verdicts` (summed over the CPUs). Counts only; no verdict depends on it. */
struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, __u64);
} pulled SEC(".maps");

/* The verdict on @skb (UDP_VERDICT_DROP or UDP_VERDICT_PASS), counted in `verdicts`. */
static __always_inline enum udp_verdict skb_drop_decide(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;

	if (data_end - data < UDPC_MAX_HDR_BYTES && skb->len > (__u32)(data_end - data)) {
		__u32 want = skb->len < UDPC_MAX_HDR_BYTES ? skb->len : UDPC_MAX_HDR_BYTES, key = 0;
		__u64 *cnt = bpf_map_lookup_elem(&pulled, &key);

		if (cnt)
			*cnt += 1;
		bpf_skb_pull_data(skb, want);
		data = (void *)(long)skb->data;
		data_end = (void *)(long)skb->data_end;
	}
	/* the outer VLAN tag may be in skb metadata by now (skb_vlan_untag() in
	 * __netif_receive_skb_core, or the driver's VLAN offload): it still counts */
	if (udp_classify(data, data_end, drop_port, skb->vlan_present ? 1 : 0) ==
	    UDP_VERDICT_DROP) {
		count_verdict(VERDICT_DROPPED);
		return UDP_VERDICT_DROP;
	}
	count_verdict(VERDICT_PASSED);
	return UDP_VERDICT_PASS;
}

#endif /* XDPTC_SKB_DROP_BPF_H */
