/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * skb_counters.h: the count pass's event counters, each count taken from the best
 * backend the running kernel allows, tried in order (by default kprobe, fentry,
 * tracepoint):
 *
 *   stack_entries  calls of __netif_receive_skb_core (every compiler clone), or the
 *                  net:netif_receive_skb tracepoint inside it (DUT only)
 *   skbs_freed     kfree_skbmem, or skb:kfree_skb + skb:consume_skb
 *   skbs_built     __alloc_skb + __build_skb + __napi_build_skb (+ slab_build_skb
 *                  where it exists) + build_skb_around (a head allocated in bulk, as
 *                  veth does for XDP frames): the __alloc_skb and build_skb families, which do
 *                  not call one another, so no skb is counted twice. Where the kernel has no
 *                  __napi_build_skb (7.2 inlines it into its callers), napi_build_skb
 *                  is probed in its place, never both; an skb another caller builds
 *                  through its inlined copy (napi_alloc_skb, in the sources of
 *                  earlier kernels) then goes uncounted. No tracepoint
 *                  marks skb construction (kmem:kmem_cache_alloc misses the NAPI skb
 *                  cache's bulk allocations): without kprobes or fentry it is
 *                  unavailable, never 0.
 *
 * A backend is taken for a count only after a real attach: kprobes need the kernel's
 * kprobe PMU and the symbols in /proc/kallsyms; fentry is proven by loading and
 * attaching each program (BTF alone proves nothing: a kernel may refuse trampolines).
 */
#ifndef XDPTC_SKB_COUNTERS_H
#define XDPTC_SKB_COUNTERS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "skb_counters_shared.h"

enum counter_backend {
	BACKEND_NONE = -1,
	BACKEND_KPROBE = 0,
	BACKEND_FENTRY,
	BACKEND_TRACEPOINT,
	BACKEND_NR,
};

enum skb_count { SKB_STACK_ENTRIES = 0, SKB_FREED, SKB_BUILT, SKB_COUNT_NR };

#define SKB_COUNTERS_MAX_LINKS 48

/* The backend chosen for each count, its probe points, and why better backends (or
 * all of them) were not taken. */
struct skb_counters_plan {
	int backend[SKB_COUNT_NR];           /* enum counter_backend, BACKEND_NONE */
	unsigned int also[SKB_COUNT_NR];     /* cross-check: more backends counting it
					      * (bit 1 << backend) */
	char points[SKB_COUNT_NR][384];      /* e.g. "kprobe:__netif_receive_skb_core.constprop.0" */
	char reason[SKB_COUNT_NR][512];      /* backends passed over, and why */
};

struct skb_counters {
	void *skel; /* struct skb_counters_bpf * */
	void *links[SKB_COUNTERS_MAX_LINKS];
	int nlinks;
	struct skb_counters_plan plan;
};

struct skb_counts {
	uint64_t v[CNT_NR]; /* events per slot, summed over CPUs (enum skb_count_idx) */
};

const char *counter_backend_name(int backend); /* "kprobe", ..., "unavailable" */
const char *skb_count_name(enum skb_count k);  /* "stack_entries", ... */

/* parse_counter_backends - "kprobe,fentry,tracepoint" (any non-empty subset, in the
 * order to try) into @order (BACKEND_NR entries, ended by BACKEND_NONE). Returns the
 * number parsed or -EINVAL. */
int parse_counter_backends(const char *s, int order[BACKEND_NR + 1]);

/*
 * skb_counters_open - choose a backend for each count, load and attach its probes.
 * @dut_ifindex, @dut_netns_ino: the DUT (the tracepoint backend's per-DUT counts).
 * @order: backends to try, in order, ended by BACKEND_NONE; NULL: kprobe, fentry,
 *         tracepoint.
 * @cross_check: also attach every other backend of @order that works for a count
 *         (plan.also), so one trial gives the same count from each of them.
 * Returns 0 (c->plan says what was chosen; a count may be BACKEND_NONE, with its reason,
 * and when every count is, nothing is loaded), or -errno with a sentence in @err when
 * a chosen backend failed to load or attach.
 * Test hook: XDPTC_COUNTERS_DISABLE=LIST makes the listed backends fail.
 */
int skb_counters_open(struct skb_counters *c, uint32_t dut_ifindex, uint32_t dut_netns_ino,
		      const int *order, bool cross_check, char *err, size_t errlen);

/* skb_counters_read - current totals of every slot. Returns 0 or -errno. */
int skb_counters_read(struct skb_counters *c, struct skb_counts *out);

/* skb_count_value - count @k from slot deltas @slots under @backend; 0 for
 * BACKEND_NONE (callers print such a count as unavailable, never as 0). Under kprobe
 * and fentry it includes the probe hits whose program the kernel skipped
 * (skb_count_missed): every hit of the probed functions is counted. */
uint64_t skb_count_value(const uint64_t slots[CNT_NR], enum skb_count k, int backend);
/* skb_count_missed - of count @k under @backend (kprobe or fentry; else 0), the probe
 * hits whose program the kernel skipped (bpf_prog_info.recursion_misses: it runs no
 * kprobe program while another runs on that CPU, nor a trampoline's program inside
 * itself), from slot deltas @slots. */
uint64_t skb_count_missed(const uint64_t slots[CNT_NR], enum skb_count k, int backend);

/* skb_counters_close - detach and unload (safe on a zeroed struct). */
void skb_counters_close(struct skb_counters *c);

#endif
