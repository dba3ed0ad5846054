/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * skb_counters.bpf.c: count the receive path's skb events for the counting pass.
 *
 * Raw tracepoints (no kprobes or BPF trampolines needed):
 *   net:netif_receive_skb  fires inside __netif_receive_skb_core -> stack entries
 *   skb:kfree_skb          an skb freed as dropped                 -> skbs freed
 *   skb:consume_skb        an skb freed after normal use           -> skbs freed
 * Every tracepoint's first argument is the struct sk_buff *. Events are counted
 * machine-wide and, separately, for skbs whose skb->dev is the DUT (ifindex and
 * network namespace inode set through rodata before load).
 *
 * kprobes on __alloc_skb, __build_skb and __napi_build_skb count skbs built; they are
 * attached by user space only where the kernel has kprobes.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "skb_counters.h"

const volatile __u32 dut_ifindex = 0;
const volatile __u32 dut_netns_ino = 0;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, CNT_NR);
	__type(key, __u32);
	__type(value, __u64);
} counts SEC(".maps");

static __always_inline void bump(__u32 idx)
{
	__u64 *cnt = bpf_map_lookup_elem(&counts, &idx);

	if (cnt)
		*cnt += 1;
}

static __always_inline bool skb_on_dut(const struct sk_buff *skb)
{
	struct net_device *dev = BPF_CORE_READ(skb, dev);

	if (!dev || BPF_CORE_READ(dev, ifindex) != (int)dut_ifindex)
		return false;
	return BPF_CORE_READ(dev, nd_net.net, ns.inum) == dut_netns_ino;
}

static __always_inline void count_pair(struct bpf_raw_tracepoint_args *ctx, __u32 dut_idx,
				       __u32 all_idx)
{
	const struct sk_buff *skb = (const struct sk_buff *)ctx->args[0];

	bump(all_idx);
	if (skb_on_dut(skb))
		bump(dut_idx);
}

SEC("raw_tp/netif_receive_skb")
int count_stack_entry(struct bpf_raw_tracepoint_args *ctx)
{
	count_pair(ctx, CNT_STACK_DUT, CNT_STACK_ALL);
	return 0;
}

SEC("raw_tp/kfree_skb")
int count_kfree_skb(struct bpf_raw_tracepoint_args *ctx)
{
	count_pair(ctx, CNT_KFREE_DUT, CNT_KFREE_ALL);
	return 0;
}

SEC("raw_tp/consume_skb")
int count_consume_skb(struct bpf_raw_tracepoint_args *ctx)
{
	count_pair(ctx, CNT_CONSUME_DUT, CNT_CONSUME_ALL);
	return 0;
}

SEC("kprobe")
int count_alloc_skb(void *ctx)
{
	bump(CNT_BUILT_ALLOC);
	return 0;
}

SEC("kprobe")
int count_build_skb(void *ctx)
{
	bump(CNT_BUILT_BUILD);
	return 0;
}

SEC("kprobe")
int count_napi_build_skb(void *ctx)
{
	bump(CNT_BUILT_NAPI);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
