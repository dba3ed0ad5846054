/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * skb_counters.bpf.c: the count pass's probes, three backends of the same three counts.
 * User space (skb_counters.c) loads only the programs of the backend it chose for each
 * count.
 *
 *   count          kprobe                  fentry                  tracepoint
 *   stack_entries  __netif_receive_skb_core __netif_receive_skb_core net:netif_receive_skb
 *   skbs_freed     kfree_skbmem            kfree_skbmem            skb:kfree_skb + skb:consume_skb
 *   skbs_built     __alloc_skb, __build_skb, __napi_build_skb, slab_build_skb  (no tracepoint)
 *
 * Every tracepoint's first argument is the struct sk_buff *; tracepoint events are also
 * counted for skbs whose skb->dev is the DUT (ifindex and network namespace inode set
 * through rodata before load). kprobes and fentry count machine-wide: a compiler clone
 * (.constprop.N) may have dropped or reordered its arguments, so they are not read.
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

/* ---- tracepoint backend ---- */

SEC("raw_tp/netif_receive_skb")
int tp_stack(struct bpf_raw_tracepoint_args *ctx)
{
	count_pair(ctx, CNT_TP_STACK_DUT, CNT_TP_STACK_ALL);
	return 0;
}

SEC("raw_tp/kfree_skb")
int tp_kfree(struct bpf_raw_tracepoint_args *ctx)
{
	count_pair(ctx, CNT_TP_KFREE_DUT, CNT_TP_KFREE_ALL);
	return 0;
}

SEC("raw_tp/consume_skb")
int tp_consume(struct bpf_raw_tracepoint_args *ctx)
{
	count_pair(ctx, CNT_TP_CONSUME_DUT, CNT_TP_CONSUME_ALL);
	return 0;
}

/* ---- kprobe backend: attached by user space to every clone of each function ---- */

SEC("kprobe")
int kp_stack(void *ctx)
{
	bump(CNT_KP_STACK);
	return 0;
}

SEC("kprobe")
int kp_freed(void *ctx)
{
	bump(CNT_KP_FREED);
	return 0;
}

SEC("kprobe")
int kp_built(void *ctx)
{
	bump(CNT_KP_BUILT);
	return 0;
}

/* ---- fentry backend: one program per function (a trampoline has one target) ---- */

SEC("fentry/__netif_receive_skb_core")
int BPF_PROG(fe_stack)
{
	bump(CNT_FE_STACK);
	return 0;
}

SEC("fentry/kfree_skbmem")
int BPF_PROG(fe_freed)
{
	bump(CNT_FE_FREED);
	return 0;
}

SEC("fentry/__alloc_skb")
int BPF_PROG(fe_built_alloc)
{
	bump(CNT_FE_BUILT);
	return 0;
}

SEC("fentry/__build_skb")
int BPF_PROG(fe_built_build)
{
	bump(CNT_FE_BUILT);
	return 0;
}

SEC("fentry/__napi_build_skb")
int BPF_PROG(fe_built_napi)
{
	bump(CNT_FE_BUILT);
	return 0;
}

SEC("fentry/slab_build_skb")
int BPF_PROG(fe_built_slab)
{
	bump(CNT_FE_BUILT);
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
