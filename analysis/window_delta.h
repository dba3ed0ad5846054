/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * window_delta.h: the time metric's delta of an alternating timing pass, from the
 * windows each of its trials lists (run.json "windows", docs/run-json.md): window i of
 * arm A and window i of arm B in the same block are a pair (the same round, the same place
 * in their visits); each pair's log ratio ln((cpu_b / pkts_b) / (cpu_a / pkts_a)); the
 * blocks' estimates and the interval over them as block_delta.h computes them.
 */
#ifndef XDPTC_ANALYSIS_WINDOW_DELTA_H
#define XDPTC_ANALYSIS_WINDOW_DELTA_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* window_pass_alternates - whether @run's timing pass alternated: a timing trial lists
 * its windows. */
bool window_pass_alternates(const json_t *run);

/* window_pairs - the pairs of arms @a and @b over @run's valid timing windows, in time
 * order: log ratios into *@d, their blocks (the trials' "rep") into *@block, both
 * malloc'd (the caller frees). Returns how many, or -ENOMEM. */
long window_pairs(const json_t *run, const char *a, const char *b, double **d, size_t **block);

/* window_independent_interval - the interval the @n log ratios @d would give if every
 * pair were independent: the order statistics of the median (stats_median_ci_order), as
 * relative deltas into *@lo, *@hi. Returns 0, -ERANGE (too few), -ENOMEM. */
int window_independent_interval(const double *d, size_t n, double level, double *lo,
				double *hi);

/* window_delta_json - the delta object of arm @b against @a over @run's windows (as the
 * summary's other deltas: metric @metric, a, b, pairs, rel_delta, ci95_lo, ci95_hi,
 * ci_coverage, real, pair_min and pair_max (the blocks' estimates), and "blocks",
 * "interval" (its kind), "pair_autocorrelation", "independent_ci95_lo"/"_hi" (the
 * order-statistics interval of the median pair, right only if every pair were
 * independent: for comparison, never used for a verdict).
 * Returns a new reference. */
json_t *window_delta_json(const json_t *run, const char *metric, const char *a, const char *b);

 /* window_schedule_md - @run's timing schedule and the noise it was chosen from, as a
 * bullet of summary.md (nothing for a classic pass). */
void window_schedule_md(const json_t *run, FILE *out);

#endif
