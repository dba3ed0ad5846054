/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * summary_segments.h: summary.md's words on an alternating timing pass's segments and
 * stop (segment_delta.h, run/run_segments.h): the table of each delta's within-run
 * interval beside the segments' spread and the next run's interval, and how the pass
 * stopped (at its target, or the budget before it, with the half-widths).
 */
#ifndef XDPTC_ANALYSIS_SUMMARY_SEGMENTS_H
#define XDPTC_ANALYSIS_SUMMARY_SEGMENTS_H

#include <jansson.h>
#include <stdio.h>

/* summary_segments_md - the paragraph and table above for @run (with its "summary"),
 * written to @out; nothing for a run without segments or a stop recorded. */
void summary_segments_md(const json_t *run, FILE *out);

/* summary_stop_md - the bullet of how the timing pass stopped (nothing for a run before
 * the stopping rule). */
void summary_stop_md(const json_t *run, FILE *out);

#endif
