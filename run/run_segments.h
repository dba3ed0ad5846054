/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_segments.h: the host engine's alternating timing pass (run_timing.h) in segments,
 * with its stopping rule (docs/method.md, "Segments and the next run", "Stopping on what
 * was measured").
 *
 * The pass is --segments segments of equal numbers of blocks, spread over its time; on a
 * topology that allows it (TOPOLOGY_REBUILD: veth's kind) the topology is built anew before
 * each segment after the first (script down and up, the DUT opened again, a new sender),
 * so what a new topology changes shows between segments as it does between runs. After
 * the planned segments the pass looks at what it measured (analysis/stop_rule.h): when
 * every interval is at its target it stops; else it adds a segment while the budget
 * (--timing-budget) holds one more of the length the segments so far took and, with the
 * default budget, the whole run stays within RUN_WALL_S by an estimate of its remaining
 * passes at the pace of the timing pass's windows. run.json's "timing_schedule"."stop"
 * says why it stopped ("target", "budget", "wall", "segments": the most it can hold),
 * after how many segments and blocks, and the half-widths then.
 */
#ifndef XDPTC_RUN_SEGMENTS_H
#define XDPTC_RUN_SEGMENTS_H

#include "run_ctx.h"

/* A trial done (its progress line): @r of arm @label in block @rep of @reps. */
typedef void (*run_trial_done_fn)(struct run_ctx *c, const struct trial_result *r,
				  const char *label, int rep, int reps);

/* run_timing_segments - the alternating timing pass of run @c (its trials appended to
 * c->trials, its schedule and stop to run.json), @done called after each trial.
 * Returns 0, -EINTR when stopped, or -EIO with the failure in c->why. */
int run_timing_segments(struct run_ctx *c, run_trial_done_fn done);

#endif
