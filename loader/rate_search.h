/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rate_search.h: the highest offered rate a mode drops with no loss before the DUT
 * (RFC 2544-style binary search, bounded in steps). A probe offers one rate and says
 * whether every packet reached the program; loss is read from counters, not timing.
 */
#ifndef XDPTC_RATE_SEARCH_H
#define XDPTC_RATE_SEARCH_H

#include <stdbool.h>
#include <stdint.h>

struct rate_probe {
	uint64_t rate_pps;     /* offered; 0 = as fast as the sender goes */
	double achieved_pps;   /* what the sender reached */
	bool lossless;         /* every packet sent reached the program */
	double cpu_ns_per_pkt;
};

/* One trial at @rate_pps (0: unpaced). Returns 0 (the result in @out) or -errno. */
typedef int (*rate_probe_fn)(void *ctx, uint64_t rate_pps, struct rate_probe *out);

struct rate_search_result {
	uint64_t max_drop_pps;   /* highest rate found lossless (0: none) */
	bool sender_bound;       /* even the unpaced sender lost nothing: the DUT is faster */
	double cpu_ns_per_pkt;   /* at that rate */
	int steps;
	struct rate_probe probe[32];
};

/*
 * rate_search - probe unpaced first (its achieved rate is the upper bound; lossless
 * there means the sender, not the DUT, is the limit), then bisect between a lossless
 * and a lossy rate until they are within @precision (e.g. 0.02) of each other or
 * @max_steps (at most 32) probes were made. Returns 0 or the probe's -errno.
 */
int rate_search(rate_probe_fn fn, void *ctx, double precision, int max_steps,
		struct rate_search_result *res);

#endif
