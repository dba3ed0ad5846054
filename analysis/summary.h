/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * summary.h: turn a run's trials (run.json) into per-mode summaries and within-run
 * deltas, its "summary" object; summary_md.h writes it as the markdown a reviewer reads
 * (summary.md).
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

#endif
