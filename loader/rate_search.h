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
	/* filled by rate_search_confirm */
	int confirm_reps;            /* trials at each rate (0: not confirmed) */
	int confirm_lossless_at_max; /* of confirm_reps at max_drop_pps */
	uint64_t confirm_above_pps;  /* max_drop_pps * (1 + margin) */
	int confirm_lossy_above;     /* of confirm_reps at confirm_above_pps */
	int confirm_lowered;         /* times max_drop_pps was lowered 2% (a lossy repeat) */
	bool confirmed;              /* every trial at max lossless, one or more above lossy */
};

/*
 * rate_search - probe unpaced first (its achieved rate is the upper bound; lossless
 * there means the sender, not the DUT, is the limit), then bisect between a lossless
 * and a lossy rate until they are within @precision (e.g. 0.02) of each other or
 * @max_steps (at most 32) probes were made. Returns 0 or the probe's -errno.
 */
int rate_search(rate_probe_fn fn, void *ctx, double precision, int max_steps,
		struct rate_search_result *res);

/*
 * rate_search_confirm - check a search's answer with repeats: @reps trials at
 * max_drop_pps must all be lossless (if one is not, max_drop_pps is lowered by 2% and
 * checked again, at most 3 times), and at least one of @reps trials at
 * max_drop_pps * (1 + @margin) (e.g. 0.05) must lose packets: then the true lossless
 * rate lies in [max, max * (1 + margin)). Does nothing when the search was sender-bound
 * or found nothing. Returns 0 (the outcome in @res->confirm_*) or the probe's -errno.
 */
int rate_search_confirm(rate_probe_fn fn, void *ctx, int reps, double margin,
			struct rate_search_result *res);

#endif
