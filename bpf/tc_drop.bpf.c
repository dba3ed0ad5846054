/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * tc_drop.bpf.c: the UDP-drop classifier as a TC program (clsact ingress, cls_bpf
 * direct-action, or tcx). The classifier reads the frame from the linear data; when
 * the headers it may need lie in paged fragments, they are pulled first
 * (bpf_skb_pull_data), so a non-linear skb is decided like a linear one.
 */
#include "drop_common.bpf.h"

#define TC_ACT_OK 0
#define TC_ACT_SHOT 2

SEC("tc")
int tc_drop(struct __sk_buff *skb)
{
	void *data = (void *)(long)skb->data;
	void *data_end = (void *)(long)skb->data_end;

	if (data_end - data < UDPC_MAX_HDR_BYTES && skb->len > (__u32)(data_end - data)) {
		__u32 want = skb->len < UDPC_MAX_HDR_BYTES ? skb->len : UDPC_MAX_HDR_BYTES;

		bpf_skb_pull_data(skb, want);
		data = (void *)(long)skb->data;
		data_end = (void *)(long)skb->data_end;
	}
	if (udp_classify(data, data_end, drop_port) == UDP_VERDICT_DROP) {
		count_verdict(VERDICT_DROPPED);
		return TC_ACT_SHOT;
	}
	count_verdict(VERDICT_PASSED);
	return TC_ACT_OK;
}
