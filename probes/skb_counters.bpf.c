/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * skb_counters.bpf.c: the count pass's probes, three backends of the same three counts.
 * User space (skb_counters.c) loads only the programs of the backend it chose for each
 * count.
 *
 *   count          kprobe                  fentry                  tracepoint
 *   stack_entries  __netif_receive_skb_core __netif_receive_skb_core net:netif_receive_skb
 *   skbs_freed     kfree_skbmem            kfree_skbmem            skb:kfree_skb + skb:consume_skb
 *   skbs_built     __alloc_skb, __build_skb, __napi_build_skb (or napi_build_skb where
 *                  the kernel inlined __napi_build_skb into it, as 7.2 does; never
 *                  both), slab_build_skb, build_skb_around (an skb head allocated in
 *                  bulk, as veth and cpumap do for XDP frames)       (no tracepoint)
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
#include "skb_counters_shared.h"

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

/* One program per probe point, each a single counter bump: written once per backend as
 * a macro so that the table below reads as the header's table does. */
#define TP_COUNT(name, tp, dut_idx, all_idx)                                  \
	SEC("raw_tp/" tp)                                                    \
	int name(struct bpf_raw_tracepoint_args *ctx)                        \
	{                                                                    \
		count_pair(ctx, dut_idx, all_idx);                           \
		return 0;                                                    \
	}
#define KPROBE_COUNT(name, idx)                                               \
	SEC("kprobe")                                                        \
	int name(void *ctx)                                                  \
	{                                                                    \
		bump(idx);                                                   \
		return 0;                                                    \
	}
#define FENTRY_COUNT(name, fn, idx)                                           \
	SEC("fentry/" fn)                                                    \
	int BPF_PROG(name)                                                   \
	{                                                                    \
		bump(idx);                                                   \
		return 0;                                                    \
	}

/* ---- tracepoint backend ---- */
TP_COUNT(tp_stack, "netif_receive_skb", CNT_TP_STACK_DUT, CNT_TP_STACK_ALL)
TP_COUNT(tp_kfree, "kfree_skb", CNT_TP_KFREE_DUT, CNT_TP_KFREE_ALL)
TP_COUNT(tp_consume, "consume_skb", CNT_TP_CONSUME_DUT, CNT_TP_CONSUME_ALL)

/* ---- kprobe backend: attached by user space to every clone of each function ---- */
KPROBE_COUNT(kp_stack, CNT_KP_STACK)
KPROBE_COUNT(kp_freed, CNT_KP_FREED)
KPROBE_COUNT(kp_built, CNT_KP_BUILT)

/* ---- fentry backend: one program per function (a trampoline has one target) ---- */
FENTRY_COUNT(fe_stack, "__netif_receive_skb_core", CNT_FE_STACK)
FENTRY_COUNT(fe_freed, "kfree_skbmem", CNT_FE_FREED)
FENTRY_COUNT(fe_built_alloc, "__alloc_skb", CNT_FE_BUILT)
FENTRY_COUNT(fe_built_build, "__build_skb", CNT_FE_BUILT)
FENTRY_COUNT(fe_built_napi, "__napi_build_skb", CNT_FE_BUILT)
/* only where __napi_build_skb cannot attach (inlined into napi_build_skb, as on 7.2) */
FENTRY_COUNT(fe_built_napi_outer, "napi_build_skb", CNT_FE_BUILT)
FENTRY_COUNT(fe_built_slab, "slab_build_skb", CNT_FE_BUILT)
FENTRY_COUNT(fe_built_around, "build_skb_around", CNT_FE_BUILT)

char LICENSE[] SEC("license") = "Dual BSD/GPL";
