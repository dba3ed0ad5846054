/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * xdp_tx.bpf.c: the xdp-live sender's program. Run by BPF_PROG_TEST_RUN with
 * BPF_F_TEST_XDP_LIVE_FRAMES on the sending veth, it sends every frame of the sender's
 * own (Ethernet source = sender_mac) back out of that device (XDP_TX), so frames reach
 * the peer (the DUT) as XDP frames, with no skb.
 *
 * The sender also attaches this same program natively to the sending veth for as long as
 * it sends. That keeps it resident in the kernel's XDP dispatcher: every test-run call
 * with repeat > 1 adds its program to the dispatcher and removes it again
 * (bpf_prog_change_xdp in bpf_prog_test_run_xdp), which rewrites the dispatcher image,
 * about 350 us per call here; a program already there only takes a reference. Attached,
 * it sees what the DUT sends back (neighbour discovery and the like): frames whose
 * source is not the sender's own pass to the stack untouched.
 */
#include <linux/bpf.h>
#include <linux/if_ether.h>
#include <bpf/bpf_helpers.h>

const volatile unsigned char sender_mac[ETH_ALEN];
/* paced sending: iterations of an empty bpf_loop before each frame is sent. User space
 * sets it (the skeleton's .bss) from a calibration, so one long test-run call sends at
 * the offered rate, in bursts of at most the 16 frames of a devmap bulk queue, instead of
 * many short calls whose page pools cannot recycle the frames still in flight. */
volatile __u32 spin_iters;

static long spin_once(__u32 i, void *ctx)
{
	(void)i;
	(void)ctx;
	return 0;
}

SEC("xdp")
int xdp_tx(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data, *data_end = (void *)(long)ctx->data_end;
	struct ethhdr *eth = data;

	if ((void *)(eth + 1) > data_end)
		return XDP_PASS;
	for (int i = 0; i < ETH_ALEN; i++)
		if (eth->h_source[i] != sender_mac[i])
			return XDP_PASS;
	if (spin_iters)
		bpf_loop(spin_iters, spin_once, NULL, 0);
	return XDP_TX;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
