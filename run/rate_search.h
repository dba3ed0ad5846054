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
	/* Set by a probe that watches the DUT's NAPI thread (threaded NAPI), else 0: */
	bool stalled;          /* lossy, and the thread once waited for its CPU (or went
				* from one poll to the next) longer than the receive ring
				* lasts at this rate: the loss is the scheduler's or the
				* hypervisor's, and says nothing of the DUT's capacity */
	uint64_t max_wait_ns;  /* the thread's longest wait for a CPU in the trial, ns */
	uint64_t max_poll_gap_ns; /* its longest time between two polls on its CPU, ns */
	char culprit[16];      /* the task that held the CPU until then */
	int stalled_before;    /* filled by the search: stalled trials at this rate that
				* were set aside and repeated before this one */
};

/* Stalled trials at one rate are repeated at most this often; if every repeat is
 * stalled too, the rate counts as lossy. */
#define RATE_STALL_REPEATS 6

/* One trial at @rate_pps (0: unpaced). Returns 0 (the result in @out) or -errno. */
typedef int (*rate_probe_fn)(void *ctx, uint64_t rate_pps, struct rate_probe *out);

struct rate_search_result {
	uint64_t max_drop_pps;   /* highest rate found lossless (0: none) */
	bool sender_bound;       /* even the unpaced trial lost nothing: the sender is the
				  * limit, or (DUT on the sender's CPU) the pair together */
	double cpu_ns_per_pkt;   /* at that rate (the last lossless trial there) */
	double at_max_cpu[32];   /* every lossless trial's at the answer (the check's
				  * repeats, or the saturation rounds), ns per packet */
	int at_max_n;
	int steps;
	struct rate_probe probe[32];
	int stalled_trials;      /* trials set aside as stalled, search and check together */
	/* filled by rate_search_confirm */
	int confirm_reps;            /* trials at each rate (0: not confirmed) */
	int confirm_lossless_at_max; /* of confirm_reps at max_drop_pps */
	uint64_t confirm_above_pps;  /* max_drop_pps * (1 + margin) */
	int confirm_lossy_above;     /* of confirm_reps at confirm_above_pps, lost packets
				      * with no stall to explain it */
	int confirm_lowered;         /* times max_drop_pps was lowered 2% (a lossy repeat) */
	bool confirmed;              /* every trial at max lossless, one or more above lossy */
	/* filled by rate_saturation_add and rate_saturation_finish */
	bool saturation;             /* checked as the saturation rate of a sender and a DUT
				      * that share one CPU */
	double reached_min, reached_max; /* unpaced repeats' reached rates, pps */
	double ci_lo, ci_hi;         /* a distribution-free confidence interval of their
				      * median (order statistics), pps */
	double ci_level;             /* its confidence, e.g. 0.979 for 10 repeats */
	int sat_n;                   /* unpaced repeats so far (rate_saturation_add) */
	double sat_reached[32];      /* their reached rates, pps, in the order taken */
};

/*
 * A stalled trial (struct rate_probe.stalled) is set aside and the same rate tried
 * again, up to RATE_STALL_REPEATS times, by rate_search and rate_search_confirm alike;
 * the last outcome counts, and a rate whose every trial stalled counts as lossy.
 *
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

/*
 * The saturation rate: the check of a sender-bound search whose DUT shares the
 * sender's CPU (veth without a threaded NAPI, or with its thread on the sender's CPU).
 * There the receive path runs whenever the sender yields, so nothing can be lost and
 * the highest lossless rate is the rate the pair saturates at; on a shared machine
 * that rate varies from trial to trial (and with the host's load).
 *
 * rate_saturation_add - record one unpaced trial (at most 32) of a sender-bound search.
 * Returns 0, or -E2BIG when full.
 *
 * rate_saturation_finish - from 6 or more recorded trials: max_drop_pps becomes the
 * median of their reached rates, with the distribution-free interval [x(k), x(n+1-k)] of
 * the sorted rates, the narrowest whose confidence of covering the true median (sign
 * test) is at least 95%. Confirmed when every trial was lossless and that interval lies
 * within @margin (e.g. 0.05) of max_drop_pps. Returns 0, or -EINVAL when fewer than 6
 * trials were recorded or the search was not sender-bound.
 * A run takes the trials itself, one per mode per round, so that every mode sees the same
 * moments of the host (run_rate.c).
 */
int rate_saturation_add(struct rate_search_result *res, const struct rate_probe *p);
int rate_saturation_finish(struct rate_search_result *res, double margin);

/*
 * median_ci_order_stat - for @n values, the largest k such that [x(k), x(n+1-k)] (1-based,
 * sorted) covers the true median with probability at least @level: 1 - 2 P(Bin(n, 1/2)
 * <= k-1). Stores k in @k (0 when no such interval exists) and returns that probability.
 * For n = 10, level 0.95: k = 2, 0.979.
 */
double median_ci_order_stat(int n, double level, int *k);

#endif
