/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_timing.h: the host engine's timing pass as a fast alternation of short windows,
 * its schedule chosen from this machine's own noise (docs/method.md, "The timing
 * schedule").
 *
 * 1. Noise: one sender for the whole pass; the baseline arm attached once, back-to-back
 *    windows of about SLOT_MS each for about CAL_MS (longer, up to 4 x, until there are
 *    twice MIN_NOISE_WINDOWS); from them, for windows of 1, 2, 4, 8 slots (each with at
 *    least MIN_NOISE_WINDOWS windows), the structure function D(tau): the robust spread
 *    (1.4826 x the median absolute deviation) of ln(y(t + tau) / y(t)), never falling
 *    with the lag; the slots' cv and autocorrelation; how much wider a Hodges-Lehmann
 *    estimate spreads than that robust spread says (the windows' tails); the overhead of
 *    a visit of each arm (attach, warm-up, settle waits, snapshots, detach).
 * 2. Schedule: for each window length L and W windows per attach (1, 2, 4, 8) the
 *    variance of a round's paired estimate from the semivariogram D^2 / 2 (pairs tau
 *    apart, windows of one attach covarying), times the round's time: the least wins.
 *    Rounds: what the target half-width needs as predicted, at most what the budget holds, in
 *    blocks (the repetitions), in counterbalanced pairs (a shuffled order, then its
 *    reverse), the arm slowest to attach (not of the A/A pair) where the two meet.
 * 3. Each block gives one trial per arm: the sums over that arm's windows in the block,
 *    listed in the trial. The time metric is compared window pair by window pair, its
 *    interval over blocks (analysis/window_delta.h): adjacent windows are not
 *    independent, blocks (seconds, orders drawn independently) are.
 */
#ifndef XDPTC_RUN_TIMING_H
#define XDPTC_RUN_TIMING_H

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>

#include "run_opts.h"
#include "trial.h"

#define TIMING_MAX_LENGTHS 4  /* window lengths tried: 1, 2, 4, 8 slots */
#define TIMING_MAX_LAGS 32    /* the structure function's lags, in windows */
#define TIMING_MAX_PER_VISIT 8

/* The calibration: the baseline arm's time metric in back-to-back slots, and from them
 * the structure function D(L, tau): the robust spread of ln(y(t + tau) / y(t)) for windows
 * of length L tau apart, the spread of one paired ratio. */
struct timing_noise {
	const char *mode;          /* the arm measured */
	int slots;                 /* back-to-back windows measured (valid ones) */
	double slot_ms;            /* their mean length, ms of wall time */
	double slot_cycle_ms;      /* from one slot's start to the next's */
	uint64_t slot_packets;
	double wall_ns_per_pkt;    /* the sender's wall time per packet */
	double span_ms;
	double cv;                 /* robust coefficient of variation of the slots */
	double ac[4];              /* autocorrelation of ln(slot) at lags 1, 2, 5, 10 slots */
	int nlen;
	struct timing_noise_len {
		int slots;                    /* slots per window */
		double window_ms;
		int nlags;
		double d[TIMING_MAX_LAGS];    /* D at lags 1..nlags windows */
	} len[TIMING_MAX_LENGTHS];
	double gap_ms;             /* between back-to-back windows (settle, snapshots) */
	double hl_inflation;       /* the Hodges-Lehmann estimate's spread over what the
				    * robust sd predicts, on these slots (>= 1) */
	double overhead_ms_by_arm[RUN_MAX_MODES]; /* per visit outside its windows: attach,
						   * warm-up, settle, snapshots, detach */
};

struct timing_plan {
	bool alternating;          /* false: the classic schedule (one trial per arm per rep) */
	double window_ms;          /* the window chosen */
	const char *window_from;   /* "noise" (chosen from it) or "--window-ms" */
	uint64_t window_packets;   /* packets per window */
	uint64_t window_warmup;    /* packets after each attach, before its first window */
	int per_visit;             /* windows per attach of an arm */
	int junction_arm;          /* the arm slowest to attach (not of the A/A pair): last in
				    * a pair's first round, first in its second, one attach
				    * for both; -1 none */
	int blocks;                /* the blocks planned: segments x blocks_per_segment, at
				    * least --reps (the stopping rule may add segments) */
	int segments;              /* segments planned (--segments) */
	int blocks_per_segment;
	int rounds_per_block;      /* even: counterbalanced pairs of rounds (the last blocks
				    * may have fewer: rounds_cut) */
	bool rounds_cut;           /* the budget ran short: later blocks had fewer rounds */
	int pairs_for_target;      /* window pairs the target half-width needs */
	double pair_lag_ms;        /* the typical time between paired windows */
	double pair_sd;            /* D at that lag: the spread of one paired ratio */
	double target_halfwidth;   /* e.g. 0.005 */
	double predicted_halfwidth;
	double budget_s;           /* the pass's time budget */
	double predicted_s;
	struct timing_noise noise;
};

/* timing_calibrate - measure the noise and choose the schedule (above) through the open
 * session @s (its pass PASS_TIMING). Prints what it found. Returns 0, -EINTR when
 * stopped, or -errno with a sentence in @why. */
int timing_calibrate(const struct run_opts *o, struct trial_session *s,
		     struct timing_plan *p, char *why, size_t whylen);

/* timing_block - block @block: its rounds (every arm visited once per round: attached,
 * warmed up, per_visit windows, detached), each arm's windows summed into @agg[arm] (a
 * trial_result of pass timing: packets, CPU time, conservation summed; valid only if
 * every window was) and listed in @windows[arm] (a new object of arrays: start_ms from
 * the pass's @t0_ns, pkts, cpu_ns (the time metric's numerator), valid; window i of
 * every arm belongs to the same round). Returns 0, -EINTR, or -errno with the failure in
 * @why. */
int timing_block(const struct run_opts *o, struct trial_session *s,
		 const struct timing_plan *p, int block, uint64_t t0_ns,
		 struct trial_result agg[RUN_MAX_MODES], json_t *windows[RUN_MAX_MODES],
		 char *why, size_t whylen);

#endif
