/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "run_segments.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cpu_time.h"
#include "flame_render.h"
#include "stop_rule.h"
#include "segment_delta.h"
#include "run_arms.h"
#include "run_json.h"
#include "run_signals.h"
#include "topology_script.h"

/* The alternating pass's settle wait after each window: the DUT's counters unchanged for
 * this long (us), on this machine's DUT and on a guest's (through its agent) */
#define SETTLE_US_LOCAL 500
#define SETTLE_US_REMOTE 10000
/* With the default budget a run adds no segment that would take it past this many
 * seconds of wall time by the estimate of its remaining passes (a default `make
 * run-veth` within 75 s, make and the writing of the results besides) */
#define RUN_WALL_S 68.0
#define REST_TRIAL_S 0.35        /* a trial's attach, warm-up, settle waits, detach */
#define REST_PROFILE_SAMPLES 3000.0 /* the profile pass's samples per mode (run_passes.c:
				     * 2,000 and half again) */
#define REST_PROFILE_MAX_S 30.0  /* its longest window (run_passes.c's PROFILE_MAX_S) */

/* The topology built anew between segments: the sender's session closed, the DUT
 * closed, the script's down and up (the same prefix), the DUT opened again, its trial
 * environment and receive path made ready, the programs kept, a new session. Returns 0,
 * or -EIO with the failure in c->why. */
static int rebuild(struct run_ctx *c, struct trial_session *s)
{
	trial_session_close(s);
	dut_keep_programs(&c->dut, false);
	dut_close(&c->dut);
	c->have_dut = false;
	run_topology_cmd(&c->o, c->td, "down", &c->topo);
	c->topo.up = 0;
	if (run_stopped())
		return -EINTR;
	if (run_topology_cmd(&c->o, c->td, "up", &c->topo) || !c->topo.dut_dev[0] ||
	    c->td->dut_open(c)) {
		snprintf(c->why, sizeof(c->why), "building the %s topology anew for a segment "
			 "failed", c->o.topology);
		return -EIO;
	}
	c->topo.up = 1;
	c->have_dut = true;
	if (c->td->trial_env && c->td->trial_env(c, &c->env)) {
		snprintf(c->why, sizeof(c->why), "the %s topology built anew has no trial "
			 "environment", c->o.topology);
		return -EIO;
	}
	c->n_napi = 0;
	if (c->td->rx_prepare)
		c->td->rx_prepare(c);
	dut_keep_programs(&c->dut, true);
	return trial_session_open(&c->env, PASS_TIMING, s, c->why, sizeof(c->why));
}

/* Within the planned blocks the budget holds: when the blocks so far (@b of them since
 * @t0) took longer than foreseen, the rest get fewer rounds (by the time alone, never by
 * what was measured). */
static void fit_rounds(struct run_ctx *c, int b, uint64_t t0)
{
	double spent = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / 1e9;
	double left = c->plan.budget_s - spent;
	double per_round = spent / b / c->plan.rounds_per_block;
	int fit;

	if (!b || b >= c->plan.blocks)
		return;
	fit = (int)(left / (c->plan.blocks - b) / per_round);
	fit -= fit % 2;
	if (fit < c->plan.rounds_per_block) {
		c->plan.rounds_per_block = fit > 2 ? fit : 2;
		c->plan.rounds_cut = true;
	}
}

/* Block @b of segment @seg: its trials (one per arm) appended to run.json. */
static int run_block(struct run_ctx *c, struct trial_session *s, int b, int seg, int blocks,
		     uint64_t t0, run_trial_done_fn done)
{
	const struct run_opts *o = &c->o;
	struct trial_result agg[RUN_MAX_MODES];
	json_t *win[RUN_MAX_MODES];
	int e = timing_block(o, s, &c->plan, b, t0, agg, win, c->why, sizeof(c->why));

	for (int a = 0; !e && a < o->nmodes; a++) {
		json_t *t = trial_json(&agg[a], arm_label(o, a), b, c->seq++, &c->ci.plan,
				       c->time_key);

		json_object_set_new(t, "windows", win[a]);
		json_object_set_new(t, "segment", json_integer(seg));
		json_array_append_new(c->trials, t);
		done(c, &agg[a], arm_label(o, a), b, blocks);
	}
	return e;
}

/* What the passes after the timing pass will take, s, at the pace the timing pass's
 * windows ran (their wall time per packet, which a loaded machine stretches): the count
 * and BPF-statistics passes' windows, the profile pass's (sized as run_passes.c sizes
 * them: REST_PROFILE_SAMPLES at FLAME_FREQ_HZ, at most PROFILE_MAX_S each), and
 * REST_TRIAL_S of attach, warm-up and settling per trial. */
static double rest_estimate_s(const struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	double wall = 0, pkts = 0, cpu = 0, per, prof = 0;
	int trials = 2 * o->count_reps * o->nmodes;
	size_t i;
	json_t *t;

	json_array_foreach(c->trials, i, t) {
		wall += json_number_value(json_object_get(t, "wall_ns"));
		pkts += json_number_value(json_object_get(t, "pkts_at_dut"));
		cpu += json_number_value(json_object_get(t, c->time_key)) *
		       json_number_value(json_object_get(t, "pkts_at_dut"));
	}
	if (!(pkts > 0) || !(cpu > 0))
		return 0;
	per = wall / pkts / 1e9;
	if (o->flame && !o->profile_packets) { /* each mode but the A/A twin */
		double n = REST_PROFILE_SAMPLES * 1e9 / FLAME_FREQ_HZ / (cpu / pkts);

		prof = (o->nmodes - (o->aa_arm >= 0)) *
		       fmin(fmax(n, (double)o->packets) * per, REST_PROFILE_MAX_S);
		trials += o->nmodes - (o->aa_arm >= 0);
	} else if (o->flame) {
		prof = (o->nmodes - (o->aa_arm >= 0)) * (double)o->profile_packets * per;
	}
	return trials * ((double)(o->packets + o->warmup) * per + REST_TRIAL_S) + prof;
}

/* After segment @seg (from 0) ended, @b blocks in, @t0 the pass's start: NULL to go on,
 * else why the pass stops ("target", "budget", "wall": the run's RUN_WALL_S, "segments"),
 * the check in @chk. */
static const char *stop_reason(struct run_ctx *c, int seg, int b, uint64_t t0,
			       struct stop_check *chk)
{
	double spent = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / 1e9;

	if (seg + 1 < c->plan.segments)
		return NULL; /* never before the planned segments */
	stop_rule_check(c->run, c->time_key, c->plan.target_halfwidth, chk);
	if (chk->met)
		return "target";
	if (seg + 1 >= SEGMENT_MAX || b + c->plan.blocks_per_segment > RUN_REPS_MAX * 4)
		return "segments";
	/* one more segment of the length they took so far, within the budget */
	if (spent + spent / (seg + 1) > c->plan.budget_s)
		return "budget";
	/* with the default budget, the whole run within RUN_WALL_S: the run so far, the
	 * segment, the passes after it as they would go now */
	if (c->o.timing_budget_s == RUN_TIMING_BUDGET_DEFAULT &&
	    (double)(time(NULL) - timegm((struct tm *)&c->tm)) + spent / (seg + 1) +
			    rest_estimate_s(c) > RUN_WALL_S)
		return "wall";
	return NULL;
}

/* run.json's timing_schedule.stop and the line on stderr. */
static void stop_record(struct run_ctx *c, const char *why, int segs, int blocks,
			const struct stop_check *chk)
{
	json_t *ts = json_object_get(c->run, "timing_schedule");

	json_object_set_new(ts, "stop", json_pack("{s:s, s:i, s:i, s:o}", "reason", why,
						  "segments", segs, "blocks", blocks,
						  "halfwidths", stop_check_json(chk)));
	fprintf(stderr, "xdptc: timing pass: %d segment%s, %d blocks; %s", segs,
		segs == 1 ? "" : "s", blocks, !strcmp(why, "target") ? "every interval at its "
		"target" : !strcmp(why, "wall") ? "the run's time ended before the target:"
		: !strcmp(why, "segments") ? "the most segments a run holds, before the target:"
		: "the budget ended before the target:");
	for (int k = 0; k < chk->narms && strcmp(why, "target"); k++)
		fprintf(stderr, "%s %s %.2f%% (target %.2f%%%s)", k ? "," : "", chk->arm[k],
			100 * chk->halfwidth[k], 100 * chk->target[k],
			chk->halfwidth[k] <= chk->target[k] ? ", met" : "");
	fprintf(stderr, "\n");
}

/* The segments, each of blocks_per_segment blocks, until the stop. */
static int run_all_segments(struct run_ctx *c, struct trial_session *s, uint64_t t0,
			    run_trial_done_fn done)
{
	struct stop_check chk;
	const char *why = NULL;
	bool rebuilds = (c->td->allows & TOPOLOGY_REBUILD) && !c->remote;
	int b = 0, seg, e = 0;

	memset(&chk, 0, sizeof(chk));
	for (seg = 0; !e && !why && !run_stopped(); seg++) {
		if (seg && rebuilds)
			e = rebuild(c, s);
		/* a segment more: its blocks on the progress, and "rep N/M" counts to the blocks
		 * planned so far (not past the plan: "rep 25/24") */
		int planned = (seg + 1) * c->plan.blocks_per_segment;

		if (seg >= c->plan.segments)
			c->prog.total += c->plan.blocks_per_segment * c->o.nmodes;
		if (planned < c->plan.blocks)
			planned = c->plan.blocks;
		for (int k = 0; !e && k < c->plan.blocks_per_segment && !run_stopped(); k++, b++) {
			fit_rounds(c, b, t0);
			e = run_block(c, s, b, seg, planned, t0, done);
		}
		if (!e && !run_stopped())
			why = stop_reason(c, seg, b, t0, &chk);
	}
	if (why)
		stop_record(c, why, seg, b, &chk);
	json_object_set_new(json_object_get(c->run, "timing_schedule"), "rebuilt_per_segment",
			    json_boolean(rebuilds));
	return e;
}

int run_timing_segments(struct run_ctx *c, run_trial_done_fn done)
{
	const struct run_opts *o = &c->o;
	struct trial_session s;
	cpu_set_t saved_cpus;
	bool pinned = false;
	int e;

	c->env.settle_us = c->remote ? SETTLE_US_REMOTE : SETTLE_US_LOCAL;
	/* each mode's program loaded once, not per window (a local DUT) */
	dut_keep_programs(&c->dut, true);
	/* this process (attach, detach, snapshots) off the sender's CPU: the work it leaves
	 * behind there (RCU callbacks, deferred frees) would run inside the next window */
	if (!o->threaded_napi && o->sender_cpu >= 0 &&
	    !sched_getaffinity(0, sizeof(saved_cpus), &saved_cpus))
		pinned = !cpu_keep_off(0, o->sender_cpu);
	e = trial_session_open(&c->env, PASS_TIMING, &s, c->why, sizeof(c->why));
	if (!e) { /* the noise without perf (its start per window would be the overhead) */
		int np = c->env.perf_nevents;

		c->env.perf_nevents = 0;
		e = timing_calibrate(o, &s, &c->plan, c->why, sizeof(c->why));
		c->env.perf_nevents = np;
	}
	if (!e) {
		json_object_set_new(c->run, "timing_schedule", timing_plan_json(&c->plan));
		c->prog.total += (c->plan.blocks - o->reps) * o->nmodes;
		e = run_all_segments(c, &s, clock_ns(CLOCK_MONOTONIC), done);
	}
	if (c->plan.rounds_cut) { /* the schedule as planned, and what the budget left */
		json_t *ts = json_object_get(c->run, "timing_schedule");

		json_object_set_new(ts, "rounds_cut", json_true());
		json_object_set_new(ts, "rounds_last_block", json_integer(c->plan.rounds_per_block));
	}
	trial_session_close(&s);
	dut_keep_programs(&c->dut, false);
	if (pinned)
		sched_setaffinity(0, sizeof(saved_cpus), &saved_cpus);
	c->env.settle_us = 0;
	return e;
}
