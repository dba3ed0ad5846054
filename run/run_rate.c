/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_rate.c: a run's rate search (--find-max-rate), after its passes: for each mode the
 * highest rate dropped with no loss before the DUT (rate_search.h), checked, into
 * run.json's "max_rate" array.
 *
 * Two regimes, told apart by where the DUT's receive path runs:
 *   - on the sender's CPU (veth without a threaded NAPI, or --napi-cpu on the sender's
 *     CPU): the receive path runs whenever the sender yields, nothing can be lost, and
 *     the answer is the rate the pair saturates at, measured in interleaved rounds;
 *   - on a CPU of its own (--threaded-napi): a bisection between a lossless and a lossy
 *     rate, checked by repeats; trials whose loss a scheduling stall of the DUT's NAPI
 *     thread explains (napi_delay.h) are set aside and repeated.
 */
#include <errno.h>
#include <math.h>
#include <jansson.h>
#include <stdio.h>
#include <string.h>

#include "napi_delay.h"
#include "stats.h"
#include "rate_search.h"
#include "run_arms.h"
#include "run_rate.h"
#include "run_signals.h"
#include "trial.h"

/* The bisection stops when lossless and lossy rates are this close (a share), or after
 * this many trials */
#define RATE_SEARCH_RESOLUTION 0.02
#define RATE_SEARCH_MAX_TRIALS 12

/* max_drop_pps is confirmed when this much above it (a share) loses packets */
#define RATE_CHECK_STEP 0.05

/* unpaced trials behind a saturation rate: [x(6), x(15)] of 20 is a 95.9% interval of
 * their median that a few slow trials (the host's other load) do not move */
#define SATURATION_REPS 20

struct rate_ctx {
	struct trial_env *env;
	enum drop_mode mode;
	uint64_t packets;
	bool napi_thread_cpu; /* cost per packet = the DUT's NAPI thread (threaded NAPI) */
	struct napi_delay *napi_wait; /* threaded NAPI: its waits for a CPU, or NULL */
};

/* One paced trial: lossless when every packet sent reached the program. */
static int rate_probe_trial(void *p, uint64_t rate, struct rate_probe *out)
{
	struct rate_ctx *c = p;
	struct trial_result r;
	uint64_t saved = c->env->rate_pps;
	int e;

	c->env->rate_pps = rate;
	if (c->napi_wait)
		napi_delay_reset(c->napi_wait);
	/* a paced trial lasts at most about half a second (and has at least 10,000 packets) */
	e = trial_run(c->env, c->mode, PASS_TIMING,
		      rate ? (rate / 2 < 10000 ? 10000 : rate / 2 < c->packets ? rate / 2 : c->packets)
			   : c->packets,
		      &r);
	c->env->rate_pps = saved;
	if (e)
		return e;
	out->achieved_pps = r.wall_ns ? (double)r.sent * 1e9 / (double)r.wall_ns : 0;
	out->lossless = r.valid && r.lost_before_dut == 0 && r.pkts_at_dut == r.sent;
	if (c->napi_wait) {
		struct napi_wait_stats w;

		napi_delay_read(c->napi_wait, &w);
		out->max_wait_ns = w.max_wait_ns;
		out->max_poll_gap_ns = w.max_poll_gap_ns;
		memcpy(out->culprit, w.max_culprit, sizeof(out->culprit));
		/* an unpaced trial overruns the DUT by design: its loss is the bound, not a
		 * stall */
		out->stalled = rate && !out->lossless &&
			(w.max_wait_ns > w.max_poll_gap_ns ? w.max_wait_ns : w.max_poll_gap_ns) >=
			ring_overflow_wait_ns(rate ? (double)rate : out->achieved_pps);
	}
	/* with a threaded NAPI the DUT's whole receive path runs in its thread; the sender's
	 * own CPU (which includes its pacing spin) is not the DUT's cost */
	out->cpu_ns_per_pkt = c->napi_thread_cpu
		? (r.pkts_at_dut ? (double)r.softirq_cpu_ns / (double)r.pkts_at_dut : 0)
		: r.cpu_ns_per_pkt;
	{
		char how[256] = "";

		if (out->stalled)
			snprintf(how, sizeof(how), " (stalled: the NAPI thread waited up to %.0f us "
				 "for its CPU (then held by %s), %.0f us between two polls; the "
				 "ring lasts %.0f us)",
				 (double)out->max_wait_ns / 1e3, out->culprit[0] ? out->culprit : "?",
				 (double)out->max_poll_gap_ns / 1e3,
				 (double)ring_overflow_wait_ns(rate ? (double)rate
								    : out->achieved_pps) / 1e3);
		if (rate)
			fprintf(stderr, "xdptc: rate search %s: offered %llu pps, reached %.0f -> "
					"%s%s\n", drop_mode_name(c->mode), (unsigned long long)rate,
				out->achieved_pps, out->lossless ? "no loss" : "loss before the DUT",
				how);
		else
			fprintf(stderr, "xdptc: rate search %s: unpaced, reached %.0f pps -> %s%s\n",
				drop_mode_name(c->mode), out->achieved_pps,
				out->lossless ? "no loss" : "loss before the DUT", how);
	}
	return 0;
}

static json_t *rate_search_json(const char *mode, const struct rate_search_result *rs,
				const char *cpu_source, bool napi_wait, uint64_t trial_packets)
{
	json_t *o = json_object(), *steps = json_array();

	json_object_set_new(o, "mode", json_string(mode));
	json_object_set_new(o, "max_drop_pps", json_integer((json_int_t)rs->max_drop_pps));
	json_object_set_new(o, "sender_bound", json_boolean(rs->sender_bound));
	if (rs->at_max_n) { /* every lossless trial at the answer, and their median */
		json_t *v = json_array();

		for (int i = 0; i < rs->at_max_n; i++)
			json_array_append_new(v, json_real(rs->at_max_cpu[i]));
		json_object_set_new(o, "cpu_ns_per_pkt_at_max_values", v);
		json_object_set_new(o, "cpu_ns_per_pkt_at_max",
				    json_real(stats_median(rs->at_max_cpu, (size_t)rs->at_max_n)));
	} else if (isfinite(rs->cpu_ns_per_pkt)) {
		json_object_set_new(o, "cpu_ns_per_pkt_at_max", json_real(rs->cpu_ns_per_pkt));
	}
	json_object_set_new(o, "cpu_ns_per_pkt_at_max_source", json_string(cpu_source));
	if (rs->confirm_reps) {
		json_t *c = json_object();

		json_object_set_new(c, "reps", json_integer(rs->confirm_reps));
		json_object_set_new(c, "lossless_at_max", json_integer(rs->confirm_lossless_at_max));
		json_object_set_new(c, "above_pps", json_integer((json_int_t)rs->confirm_above_pps));
		json_object_set_new(c, "lossy_above", json_integer(rs->confirm_lossy_above));
		json_object_set_new(c, "lowered", json_integer(rs->confirm_lowered));
		json_object_set_new(c, "confirmed", json_boolean(rs->confirmed));
		json_object_set_new(c, "kind", json_string(rs->saturation ? "saturation"
									  : "bracket"));
		if (rs->saturation) {
			json_t *v = json_array();

			for (int i = 0; i < rs->sat_n; i++)
				json_array_append_new(v, json_real(rs->sat_reached[i]));
			json_object_set_new(c, "reached_pps", v);
			json_object_set_new(c, "trial_packets", json_integer((json_int_t)trial_packets));
			json_object_set_new(c, "reached_min_pps", json_real(rs->reached_min));
			json_object_set_new(c, "reached_max_pps", json_real(rs->reached_max));
			json_object_set_new(c, "median_ci_lo_pps", json_real(rs->ci_lo));
			json_object_set_new(c, "median_ci_hi_pps", json_real(rs->ci_hi));
			json_object_set_new(c, "median_ci_level", json_real(rs->ci_level));
		}
		json_object_set_new(o, "confirm", c);
	}
	if (napi_wait)
		json_object_set_new(o, "stalled_trials", json_integer(rs->stalled_trials));
	for (int i = 0; i < rs->steps; i++) {
		json_t *st = json_object();

		json_object_set_new(st, "offered_pps", json_integer((json_int_t)rs->probe[i].rate_pps));
		json_object_set_new(st, "achieved_pps", json_real(rs->probe[i].achieved_pps));
		json_object_set_new(st, "lossless", json_boolean(rs->probe[i].lossless));
		if (napi_wait) {
			json_object_set_new(st, "max_napi_wait_ns",
					    json_integer((json_int_t)rs->probe[i].max_wait_ns));
			json_object_set_new(st, "max_napi_poll_gap_ns",
					    json_integer((json_int_t)rs->probe[i].max_poll_gap_ns));
			json_object_set_new(st, "stalled", json_boolean(rs->probe[i].stalled));
			json_object_set_new(st, "stalled_before",
					    json_integer(rs->probe[i].stalled_before));
		}
		json_array_append_new(steps, st);
	}
	json_object_set_new(o, "steps", steps);
	return o;
}


/* The run's rate search as it goes: per arm its search, its context, whether it was
 * searched and whether its answer is a saturation rate still to be measured. */
struct rate_run {
	struct rate_search_result rs[RUN_MAX_MODES];
	struct rate_ctx rc[RUN_MAX_MODES];
	bool searched[RUN_MAX_MODES], saturating[RUN_MAX_MODES];
	int nsat;
	struct napi_delay napi_wait;
	bool remote, shared_cpu;
};

/* Watch the DUT's NAPI threads' waits for a CPU (a DUT on a CPU of its own): a wait
 * longer than the ring lasts loses frames whatever the mode, and such trials are told
 * apart and repeated (rate_search.h). Records in @run where the waits come from, or
 * why they are not watched (never silently). */
static void stall_watch_open(struct rate_run *rr, const pid_t *napi_pids, int n_napi,
			     json_t *run)
{
	char nerr[256];

	if (!n_napi || rr->shared_cpu)
		return;
	if (napi_delay_open(&rr->napi_wait, napi_pids, n_napi, nerr, sizeof(nerr))) {
		fprintf(stderr, "xdptc: WARNING: %s; the rate search cannot tell loss from the "
				"NAPI thread's waits for a CPU\n", nerr);
		json_object_set_new(run, "max_rate_stall_source", json_null());
		json_object_set_new(run, "max_rate_stall_source_error", json_string(nerr));
	} else {
		json_object_set_new(run, "max_rate_stall_source",
				    json_string("tp_btf:sched_waking,tp_btf:sched_switch,"
						"tp_btf:napi_poll"));
	}
}

/* Search arm @i: bisect for its lossless edge and confirm it, or, when even the unpaced
 * sender loses nothing on a shared CPU, mark it for the saturation rounds. Returns 0 or
 * -errno. */
static int search_arm(const struct run_opts *o, struct rate_run *rr, int i)
{
	struct rate_search_result *rs = &rr->rs[i];
	struct rate_ctx *rc = &rr->rc[i];
	int e = rate_search(rate_probe_trial, rc, RATE_SEARCH_RESOLUTION, RATE_SEARCH_MAX_TRIALS, rs);

	if (!e && !run_stopped() && rs->sender_bound && rr->shared_cpu) {
		/* measured below, all modes interleaved, each trial about a quarter of a
		 * second long: long enough that brief slowdowns average out, short enough
		 * that the whole measurement rarely straddles one of the host's lasting
		 * changes of speed */
		uint64_t quarter_second = (uint64_t)(rs->probe[0].achieved_pps / 4);

		if (quarter_second > rc->packets)
			rc->packets = quarter_second;
		rr->saturating[i] = true;
		rr->nsat++;
	} else if (!e && !run_stopped() && !rs->sender_bound && rs->max_drop_pps) {
		/* how the answer is checked: repeats at it and 5% above it */
		fprintf(stderr, "xdptc: rate search %s: confirming %llu pps (3 trials there, 3 "
				"at +5%%)\n",
			drop_mode_name(o->modes[i]), (unsigned long long)rs->max_drop_pps);
		e = rate_search_confirm(rate_probe_trial, rc, 3, RATE_CHECK_STEP, rs);
	}
	return e;
}

/* The saturation rate moves with the host's load: rounds of one unpaced trial per
 * saturating mode, in a seeded shuffle, expose every mode to the same moments. Returns 0
 * or -errno. */
static int saturation_rounds(const struct run_opts *o, struct rate_run *rr)
{
	int e;

	fprintf(stderr, "xdptc: rate search: the DUT shares the sender's CPU, so nothing can be "
			"lost; measuring each mode's saturation rate in %d rounds of one unpaced "
			"trial per mode\n", SATURATION_REPS);
	for (int r = 0; r < SATURATION_REPS && !run_stopped(); r++) {
		int order[RUN_MAX_MODES];

		fprintf(stderr, "xdptc: rate search: saturation round %d/%d\n", r + 1,
			SATURATION_REPS);
		shuffle_arms(o, PASS_NR + 1, r, order);
		for (int k = 0; k < o->nmodes && !run_stopped(); k++) {
			int i = order[k];
			struct rate_probe p = { 0 };

			if (!rr->saturating[i])
				continue;
			e = rate_probe_trial(&rr->rc[i], 0, &p);
			if (!e)
				e = rate_saturation_add(&rr->rs[i], &p);
			if (e)
				return e;
		}
	}
	for (int i = 0; i < o->nmodes && !run_stopped(); i++)
		if (rr->saturating[i] && (e = rate_saturation_finish(&rr->rs[i], RATE_CHECK_STEP)))
			return e;
	return 0;
}

int run_rate_searches(const struct run_opts *o, struct trial_env *env, bool remote,
		      const pid_t *napi_pids, int n_napi, json_t *run, char *why, size_t whylen)
{
	static struct rate_run rr;
	json_t *rates = json_array();
	int e = 0;

	memset(&rr, 0, sizeof(rr));
	rr.remote = remote;
	/* the DUT's receive path runs on the sender's CPU: in the sender's own softirq (no
	 * threaded NAPI), or in a NAPI thread pinned there */
	rr.shared_cpu = !remote && (!o->threaded_napi || o->napi_cpu == o->sender_cpu);
	json_object_set_new(run, "max_rate", rates);
	json_object_set_new(run, "max_rate_regime",
			    json_string(remote ? "DUT in the virtio guest"
					: rr.shared_cpu ? "DUT on the sender's CPU"
							: "DUT on a CPU of its own"));
	stall_watch_open(&rr, napi_pids, n_napi, run);
	for (int i = 0; i < o->nmodes && !run_stopped() && !e; i++) {
		rr.rc[i] = (struct rate_ctx){ .env = env, .mode = o->modes[i], .packets = o->packets,
					      .napi_thread_cpu = o->threaded_napi && !remote,
					      .napi_wait = rr.napi_wait.skel ? &rr.napi_wait : NULL };
		if (i == o->aa_arm || o->modes[i] == MODE_NONE)
			continue;
		e = search_arm(o, &rr, i);
		rr.searched[i] = !e;
	}
	if (!e && rr.nsat && !run_stopped())
		e = saturation_rounds(o, &rr);
	if (e == -EINTR || run_stopped()) {
		e = -EINTR;
	} else if (e) {
		snprintf(why, whylen, "the rate search failed: %s", strerror(-e));
		fprintf(stderr, "xdptc: %s\n", why);
	} else {
		for (int i = 0; i < o->nmodes; i++)
			if (rr.searched[i])
				json_array_append_new(rates, rate_search_json(
					arm_label(o, i), &rr.rs[i],
					remote ? "the guest's vCPU thread (host CPU time)"
					: rr.rc[i].napi_thread_cpu
						? "the DUT's NAPI thread"
						: "the sender thread and softirq tasks (the sender's "
						  "own time included)",
					rr.rc[i].napi_wait != NULL, rr.rc[i].packets));
	}
	napi_delay_close(&rr.napi_wait);
	return e;
}
