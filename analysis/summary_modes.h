/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_modes.h: each mode's figures of a run's summary (summary_modes.c). */
#ifndef XDPTC_SUMMARY_MODES_H
#define XDPTC_SUMMARY_MODES_H

#include <jansson.h>
#include <stddef.h>

/* The most trials of one mode and pass that enter a figure. */
#define SUMMARY_MAX_VALUES 1024

/* summary_mode - the summary object of mode @mode of @run: its medians (null with a
 * reason beside), spreads, trial counts, counter cross-check, observers' cost and rate
 * search result. Returns a new reference. */
json_t *summary_mode(const json_t *run, const char *mode);

/* summary_pair_by_rep - the valid trials' @metric of (@pass_a, @mode_a) and (@pass_b,
 * @mode_b) paired by repetition, into @pa and @pb (SUMMARY_MAX_VALUES each). Returns the
 * pairs. */
size_t summary_pair_by_rep(const json_t *trials, const char *metric, const char *pass_a,
			   const char *mode_a, const char *pass_b, const char *mode_b,
			   double *pa, double *pb);

#endif
