/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * drop_common.bpf.h: the parts both drop programs share: the load-time port
 * (read-only data, set by the loader before load) and the per-CPU verdict counters.
 */
#ifndef XDPTC_DROP_COMMON_BPF_H
#define XDPTC_DROP_COMMON_BPF_H

#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>
#include "udp_classifier.h"
#include "drop_verdicts.h"

/* UDP destination port to drop, host byte order. Set through the skeleton's rodata. */
const volatile __u16 drop_port = DROP_DEFAULT_PORT;

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, VERDICT_NR);
	__type(key, __u32);
	__type(value, __u64);
} verdicts SEC(".maps");

/* Count one verdict on this CPU. */
static __always_inline void count_verdict(enum drop_verdict_idx idx)
{
	__u32 key = idx;
	__u64 *cnt = bpf_map_lookup_elem(&verdicts, &key);

	if (cnt)
		*cnt += 1;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";

#endif /* XDPTC_DROP_COMMON_BPF_H */
