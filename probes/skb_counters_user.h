/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * skb_counters_user.h: the counting pass's event counters (skb_counters.bpf.c).
 *
 * stack_entries: tracepoint net:netif_receive_skb (inside __netif_receive_skb_core),
 *                for skbs on the DUT.
 * skbs_freed:    tracepoints skb:kfree_skb + skb:consume_skb, machine-wide.
 * skbs_built:    kprobes on __alloc_skb + __build_skb + __napi_build_skb, machine-wide,
 *                only where the kernel has kprobes; otherwise unavailable (no tracepoint
 *                marks skb construction: kmem:kmem_cache_alloc misses the NAPI skb
 *                cache's bulk allocations).
 */
#ifndef XDPTC_SKB_COUNTERS_USER_H
#define XDPTC_SKB_COUNTERS_USER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skb_counters.h"

struct skb_counters {
	void *skel;            /* struct skb_counters_bpf * */
	void *links[8];        /* struct bpf_link * */
	int nlinks;
	bool built_available;  /* kprobes on the construction functions attached */
	char built_reason[256]; /* why skbs_built is unavailable, when it is */
	char points[512];      /* the probe points attached, comma separated */
};

struct skb_counts {
	uint64_t v[CNT_NR]; /* events, summed over CPUs, indexed by enum skb_count_idx */
};

/*
 * skb_counters_open - load skb_counters.bpf.c for a DUT and attach its probes.
 * @dut_ifindex, @dut_netns_ino: the DUT's ifindex and network namespace inode.
 * Returns 0, or -errno with a sentence in @err (tracepoints could not attach).
 * A missing kprobe facility is not an error: built_available says so.
 */
int skb_counters_open(struct skb_counters *c, uint32_t dut_ifindex, uint32_t dut_netns_ino,
		      char *err, size_t errlen);

/* skb_counters_read - current totals. Returns 0 or -errno. */
int skb_counters_read(struct skb_counters *c, struct skb_counts *out);

/* skb_counters_close - detach and unload (safe on a zeroed struct). */
void skb_counters_close(struct skb_counters *c);

#endif
