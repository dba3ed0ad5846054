/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * xdp_tx.bpf.c: the xdp-live sender's program. Run by BPF_PROG_TEST_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES on the sending veth, it sends every frame back out of that
 * device (XDP_TX), so frames reach the peer (the DUT) as XDP frames, with no skb.
 */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

SEC("xdp")
int xdp_tx(struct xdp_md *ctx)
{
	(void)ctx;
	return XDP_TX;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
