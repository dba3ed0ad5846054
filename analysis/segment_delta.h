/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * segment_delta.h: the segments of an alternating timing pass and the interval for the
 * next run's figure (docs/method.md, "Segments and the next run").
 *
 * A run's timing pass comes in S segments spread over its time, the topology built anew
 * before each (run.json: each timing trial's "segment"). Each segment's estimate is the
 * Hodges-Lehmann estimate of its blocks' estimates (log ratios). What moves a figure
 * from one run to the next (a new topology: its namespaces, devices, page pools; the
 * machine's state minutes apart) moves it from one segment to the next too, so the
 * segments' spread s (their standard deviation, log ratio) carries it; the within-run
 * interval over blocks does not. The next run's figure is, like this one's, about the
 * mean of S segment estimates, so their difference has variance 2 s^2 / S, and the
 * prediction interval is this run's estimate +- t(0.975, S - 1) s sqrt(2 / S), exact for
 * normal segment estimates whatever the split of their variance between segments and
 * windows.
 */
#ifndef XDPTC_ANALYSIS_SEGMENT_DELTA_H
#define XDPTC_ANALYSIS_SEGMENT_DELTA_H

#include <jansson.h>
#include <stddef.h>

#define SEGMENT_MAX 64       /* segments a run can hold (--segments and the stopping
			      * rule's extra ones) */
#define SEGMENT_MIN_NEXT 3   /* segments needed for a next-run interval */

struct segment_delta {
	size_t segments;          /* segments with at least one block */
	double est[SEGMENT_MAX];  /* each segment's estimate, log ratio */
	size_t blocks[SEGMENT_MAX]; /* its blocks */
	double sd;                /* the segment estimates' standard deviation, log ratio */
	double t;                 /* t(0.975, segments - 1) */
	double lo, hi;            /* the next run's interval, relative (0.05 = +5%); NaN
				   * with fewer than SEGMENT_MIN_NEXT segments */
};

/* t_quantile_975 - the 0.975 quantile of Student's t with @df degrees of freedom (a
 * table to 30, then the Cornish-Fisher expansion). NaN for df < 1. */
double t_quantile_975(int df);

/*
 * segment_delta_compute - from @n blocks' estimates @block_est (log ratios) and their
 * segments @block_seg (numbered from 0), centred on this run's estimate @center (log
 * ratio): each segment's estimate, their spread and the next run's interval (above).
 * Returns 0; -ERANGE with fewer than SEGMENT_MIN_NEXT segments (the estimates still
 * set, lo and hi NaN); -EINVAL for a segment number of SEGMENT_MAX or more; -ENOMEM.
 */
int segment_delta_compute(const double *block_est, const size_t *block_seg, size_t n,
			  double center, struct segment_delta *out);

/* segment_of_rep - the "segment" of @run's timing trials of block (rep) @rep, 0 when
 * they name none (a run before segments). */
size_t segment_of_rep(const json_t *run, long long rep);

/*
 * segment_delta_add - the segments of the delta object @o (window_delta.h) of pairs @d
 * in blocks @block (@n of them) of @run, centred on @center (log ratio): "segments",
 * "segment_estimates" (relative), "segment_sd" (log ratio), "next_run_lo",
 * "next_run_hi", "next_run_t", "next_run_interval" (its kind). Nothing for a run with
 * one segment or none recorded.
 */
void segment_delta_add(json_t *o, const json_t *run, const double *d, const size_t *block,
		       size_t n, double center);

#endif
