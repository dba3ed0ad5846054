/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * repeatability.h: how often a run's figure lies inside the previous run's intervals
 * (`make repeatability`, `xdptc repeatability`; docs/method.md, "Segments and the next
 * run"). From runs of one command back to back, in the order they ran: for each run
 * after the first, whether its delta (the time metric, arm B against the baseline) lies
 * inside the previous run's next-run interval, and inside its within-run interval, for
 * comparison; the figures' spread between runs; the machine they ran on.
 */
#ifndef XDPTC_ANALYSIS_REPEATABILITY_H
#define XDPTC_ANALYSIS_REPEATABILITY_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#define REPEATABILITY_SCHEMA "xdptc-repeatability/1"

/*
 * repeatability_compute - the report of @n runs @runs (run.json objects, their
 * directories' names @names, in the order they ran) for arm @b: per run its figure,
 * within-run and next-run intervals (null where the run has none), A/A half-width; the
 * counts "checked" (runs with a previous one that has the interval), "inside_next_run",
 * "inside_within_run"; "spread_sd" (the figures' standard deviation, relative); "machine"
 * (the first run's cpu_model, cpus, kernel_release; "same_machine" false when a run names
 * another). Each run's summary is computed from its trials (summary_compute), as
 * `xdptc report` does. Returns a new reference, or NULL when a run has no delta of @b
 * against its baseline for its time metric (said in @err).
 */
json_t *repeatability_compute(json_t *const *runs, const char *const *names, size_t n,
			      const char *b, char *err, size_t errlen);

/* repeatability_md - the report @rep as summary.md, to @out. */
void repeatability_md(const json_t *rep, FILE *out);

#endif
