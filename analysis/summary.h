/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * summary.h: turn a run's trials (run.json) into per-mode summaries, within-run deltas
 * and the markdown table a reviewer reads (summary.md).
 *
 * Input: the run object as written to run.json (schema "xdptc.run/1"): "settings",
 * "machine", "capabilities" and "trials" (see README.md, "run.json").
 * Only valid trials (conservation within 0.1%) enter the statistics.
 */
#ifndef XDPTC_SUMMARY_H
#define XDPTC_SUMMARY_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "json_read.h"

/* Fewer than 6 pairs have no interval of 95% coverage (stats_median_ci_order: with 5
 * pairs, all five of one sign happens by chance 1 time in 16, 2 * 0.5^5), so no delta
 * of theirs is called real. */
#define SUMMARY_FEW_PAIRS_REASON "fewer than 6 pairs: no interval reaches 95%"

/*
 * summary_compute - build the "summary" object of @run: "modes" (one object per mode
 * in settings.modes order, with "mode" and the metric names of docs/method.md as numbers, or
 * null with a "<metric>_reason" string beside it) and "deltas" (each other mode
 * against the baseline mode: tc when measured, else the first; paired by repetition,
 * median relative delta with the distribution-free interval of the median ratio, whose
 * exact coverage, at least 95%, is stored as ci_coverage; the A/A arm against its own
 * mode, never called real).
 * Returns a new reference, or NULL when @run lacks settings or trials.
 */
json_t *summary_compute(const json_t *run);

/* summary_time_metric - the run's time metric (its "time_metric"): "cpu_ns_per_pkt"
 * (CPU time, ns per packet; the default) or "guest_instructions_per_pkt" (the icount
 * engine: guest ns at -icount shift=0, one per guest instruction; older runs:
 * "instructions_per_pkt"). */
const char *summary_time_metric(const json_t *run);

struct metric;

/* summary_metric_key - the key under which @run holds metric row @x: the run's time
 * metric for the METRIC_TIME row, the row's name otherwise. */
const char *summary_metric_key(const struct metric *x, const json_t *run);

/* summary_perf_metrics - the per-packet metrics of @run's perf events, in the order
 * asked for, into @out (at most @max): E_per_pkt for each event E; for a run from before
 * perf stat, cycles_per_pkt and (unless its time metric had that name)
 * instructions_per_pkt. Returns how many. */
int summary_perf_metrics(const json_t *run, const char **out, int max);

/* summary_pct_decimals - how many decimals a relative delta with interval [@lo, @hi]
 * (fractions) needs in percent: enough to show the interval's width, and to show that it
 * excludes 0 when it does (1 to 4). */
int summary_pct_decimals(double lo, double hi);

/* summary_engine - where @run measured: "host", or "icount" (run.json's engine.name;
 * runs written before the engine was recorded were host runs). */
const char *summary_engine(const json_t *run);

/* summary_time_is_guest - is time metric @tm guest instructions (the icount engine's
 * "guest_instructions_per_pkt", or "instructions_per_pkt" in runs written before it got
 * its own name, apart from a PMU's instructions_per_pkt)? */
bool summary_time_is_guest(const char *tm);

/* summary_bpf_stats_outside - why BPF run-time statistics were on during the run's
 * timing pass without xdptc turning them on (kernel.bpf_stats_enabled set at the start
 * or end of the run, or a timing trial whose program run count moved: another process
 * held BPF_ENABLE_STATS), in words; NULL when they were off. */
const char *summary_bpf_stats_outside(const json_t *run);

/* summary_headline - the answer of @run in plain words, one line per compared mode
 * (its delta of each metric with interval and verdict, and the mechanism counts beside
 * the baseline's: skbs built and freed, stack entries per packet), built only from the
 * figures of its summary. Writes nothing when there is no delta. Returns the lines
 * written. */
int summary_headline(const json_t *run, FILE *out);

/* summary_render_md - write the markdown summary of @run (which must hold "summary")
 * to @out. Returns 0, or -EINVAL when fields are missing. */
int summary_render_md(const json_t *run, FILE *out);

#endif
