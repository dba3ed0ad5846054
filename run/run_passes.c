/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_passes.c: a run's passes (run_passes.h): timing, count, bpfstats and profile, each
 * repetition every arm once in the seeded order, or the alternating timing pass's blocks
 * (run_timing.c); each trial's line of progress; the profile pass's flame graphs.
 */
#include "run_passes.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cpu_time.h"
#include "flame_render.h"
#include "flamegraph.h"
#include "json_read.h"
#include "stats.h"
#include "run_arms.h"
#include "run_json.h"
#include "run_segments.h"
#include "run_signals.h"

/* the timing trials the profile pass's window is sized from, at most */
#define RUN_MAX_TRIALS_SIZING 1024

static void progress_line(struct progress *p, const struct trial_result *r, const char *label,
			  int rep, int reps, const struct skb_counters_plan *plan)
{
	/* on a terminal one line that updates itself; elsewhere one line per trial */
	bool tty = isatty(STDERR_FILENO);
	struct timespec now;
	double el, eta;

	p->done++;
	clock_gettime(CLOCK_MONOTONIC, &now);
	el = (double)(now.tv_sec - p->start.tv_sec) + (double)(now.tv_nsec - p->start.tv_nsec) / 1e9;
	eta = el / p->done * (p->total - p->done);
	fprintf(stderr, "%s[%3d/%d] %-8s rep %2d/%-2d %-10s ", tty ? "\r\033[K" : "", p->done,
		p->total, trial_pass_name(r->pass), rep + 1, reps, label);
	if ((r->pass == PASS_TIMING || r->pass == PASS_PROFILE) && p->instructions)
		fprintf(stderr, "%8.1f instr/pkt   ", r->cpu_ns_per_pkt);
	else if (r->pass == PASS_TIMING || r->pass == PASS_PROFILE)
		fprintf(stderr, "%8.1f ns/pkt      ", r->cpu_ns_per_pkt);
	else if (r->pass == PASS_COUNT && plan->backend[SKB_STACK_ENTRIES] == BACKEND_NONE)
		fprintf(stderr, "   n/a stack/pkt    ");
	else if (r->pass == PASS_COUNT)
		fprintf(stderr, "%6.3f stack/pkt    ",
			per_pkt(skb_count_value(r->counts.v, SKB_STACK_ENTRIES,
						plan->backend[SKB_STACK_ENTRIES]),
				r->pkts_at_dut));
	else
		fprintf(stderr, "%8.1f %s/BPF run  ",
			r->bpf_run_cnt ? (double)r->bpf_run_time_ns / (double)r->bpf_run_cnt : 0.0,
			p->instructions ? "instr" : "ns");
	/* an invalid trial says why, in its own words (run.json's invalid_reason) */
	fprintf(stderr, "pkts_at_dut %llu%s%.80s%s  %d left", (unsigned long long)r->pkts_at_dut,
		r->valid ? "" : " INVALID: ", r->valid ? "" : r->invalid_reason,
		!r->valid && strlen(r->invalid_reason) > 80 ? "..." : "", p->total - p->done);
	if (!p->no_eta)
		fprintf(stderr, ", ETA %.0fs", eta);
	fprintf(stderr, "%s", tty && r->valid && p->done < p->total ? "" : "\n");
}

/* Repetitions of @pass: the timing pass needs many for its interval; the counts are
 * near-deterministic and BPF run time is read from the kernel, so fewer serve. */
static int pass_reps(const struct run_opts *o, int pass)
{
	if (pass == PASS_PROFILE)
		return o->flame ? 1 : 0;
	return pass == PASS_TIMING ? o->reps : o->count_reps;
}

/* Where the profile pass's perf data of arm @label goes: the run directory, or inside
 * the icount engine's guest its own /tmp (perf writing through the 9p share would
 * profile 9p). */
static void profile_data_path(const struct run_opts *o, const char *dir, const char *label,
			      char *buf, size_t len)
{
	if (o->inside_icount)
		snprintf(buf, len, "/tmp/xdptc-perf-%d-%s.data", (int)getpid(), label);
	else
		snprintf(buf, len, "%s/perf-%s.data", dir, label);
}

static int pass_modes(const struct run_opts *o, int pass)
{
	int n = 0;

	for (int i = 0; i < o->nmodes; i++)
		n += !(pass == PASS_BPFSTATS && o->modes[i] == MODE_NONE) &&
		     !(pass == PASS_PROFILE && i == o->aa_arm);
	return n;
}

/* The profile pass's window, when --profile-packets does not set it, holds this many
 * (2: "twice over", as run.json says) times the packets that FLAME_MIN_SAMPLES need at
 * the fastest timing trial's time per packet (one long window runs at a time per packet
 * of its own, mostly faster than short windows on a cold path: a short classic run's tc
 * trials measured 2,492.5 ns per packet and its profile window ran at about half that,
 * giving 1,589 samples under "half again" of the median), and lasts at most
 * PROFILE_MAX_S at the timing pass's rate */
#define PROFILE_MARGIN 2.0
#define PROFILE_MAX_S 30.0

/* The packets of arm @label's profile window: --profile-packets when given; else enough
 * for FLAME_MIN_SAMPLES samples: every CPU is sampled, so the samples of one window are
 * at least the measured tasks' time (the timing pass's fastest valid trial's time metric
 * per packet) over one sample's period; never fewer than --packets. @why says which, in
 * words, for run.json. */
static uint64_t profile_packets(const struct run_ctx *c, const char *label, char *why,
				size_t len)
{
	const struct run_opts *o = &c->o;
	double t[RUN_MAX_TRIALS_SIZING], pps[RUN_MAX_TRIALS_SIZING], per, need, most, fastest;
	size_t n = 0, i;
	const json_t *tr;

	if (o->profile_packets) {
		snprintf(why, len, c->icount_clock ? "--profile-packets (or the icount engine's "
			 "default)" : "--profile-packets");
		return o->profile_packets;
	}
	if (c->env.window_ns) { /* traffic from outside: the window is a time */
		snprintf(why, len, "--window");
		return o->packets;
	}
	json_array_foreach(c->trials, i, tr) {
		if (n == RUN_MAX_TRIALS_SIZING)
			break;
		if (strcmp(json_str_of(tr, "pass", ""), "timing") ||
		    strcmp(json_str_of(tr, "mode", ""), label) ||
		    !json_is_true(json_object_get(tr, "valid")) ||
		    !(json_num_of(tr, c->time_key) > 0))
			continue;
		t[n] = json_num_of(tr, c->time_key);
		pps[n++] = json_num_or(tr, "pps", 0);
	}
	if (!n) {
		snprintf(why, len, "--packets (the timing pass has no valid trial of %s to size "
			 "it from)", label);
		return o->packets;
	}
	per = (double)(o->profile_period ? o->profile_period : 1000000000 / FLAME_FREQ_HZ);
	fastest = t[0];
	for (i = 1; i < n; i++)
		fastest = t[i] < fastest ? t[i] : fastest;
	need = ceil(PROFILE_MARGIN * FLAME_MIN_SAMPLES * per / fastest);
	most = stats_median(pps, n) * PROFILE_MAX_S;
	if (most > 0 && need > most) {
		snprintf(why, len, "%.0f s at the timing pass's %.0f packets/s (the %.0f packets "
			 "that %d samples twice over need at its fastest %.1f %s per packet "
			 "would take longer)",
			 PROFILE_MAX_S, stats_median(pps, n), need, FLAME_MIN_SAMPLES,
			 fastest, c->icount_clock ? "guest instructions" : "ns");
		need = most;
	} else {
		snprintf(why, len, "sized from the timing pass for %.0f samples (%d twice over): "
			 "%.1f %s per packet (the fastest of %zu trials) at a sample every %.0f",
			 PROFILE_MARGIN * FLAME_MIN_SAMPLES, FLAME_MIN_SAMPLES, fastest,
			 c->icount_clock ? "guest instructions" : "ns", n, per);
	}
	if (need < (double)o->packets) {
		snprintf(why + strlen(why), len - strlen(why), "; --packets, more");
		need = (double)o->packets;
	}
	return (uint64_t)need;
}

/* The profile pass's flame graph of arm @label (from its perf data in the run
 * directory, the trial @r, its window sized as @sized says), recorded in run.json's
 * "flamegraphs": with the sampling period ("period", in "period_unit") and the trial's
 * packets at the DUT, a profile's samples x period / packets is per packet; the figures
 * and the SVG from flame_render_entry. */
static void run_flamegraph(struct run_ctx *c, const char *label, const struct trial_result *r,
			   const char *sized)
{
	char data[PATH_MAX + 64], folded[PATH_MAX + 64], f[64];
	long n, idle = 0;
	json_t *fg = json_object();

	profile_data_path(&c->o, c->dir, label, data, sizeof(data));
	snprintf(folded, sizeof(folded), "%s/flame-%s.folded", c->dir, label);
	n = flame_make(data, folded, &idle);
	json_object_set_new(fg, "mode", json_string(label));
	json_object_set_new(fg, "event", json_string("cpu-clock"));
	json_object_set_new(fg, "period", c->o.profile_period ?
			    json_integer((json_int_t)c->o.profile_period) : json_null());
	json_object_set_new(fg, "period_unit", json_string(c->icount_clock ? "guest instructions"
									   : "ns"));
	json_object_set_new(fg, "pkts_at_dut", json_integer((json_int_t)r->pkts_at_dut));
	json_object_set_new(fg, "window_from", json_string(sized));
	if (n > 0) {
		snprintf(f, sizeof(f), "flame-%s.svg", label);
		json_object_set_new(fg, "svg", json_string(f));
		snprintf(f, sizeof(f), "flame-%s.folded", label);
		json_object_set_new(fg, "folded", json_string(f));
		json_object_set_new(fg, "idle_samples", json_integer(idle));
		n = flame_render_entry(c->run, fg, c->dir, NULL);
	}
	if (n < 0) {
		json_object_del(fg, "svg");
		json_object_set_new(fg, "error", json_string(strerror((int)-n)));
	}
	json_array_append_new(c->flames, fg);
}

/* One repetition @rep of pass @p: every arm once, in the seeded order. Returns 0,
 * -EINTR when stopped, or -EIO when a trial failed (c->why says which and why). */
static int run_pass_rep(struct run_ctx *c, int p, int rep)
{
	const struct run_opts *o = &c->o;
	char profile_path[PATH_MAX + 64], sized[320] = "";
	int order[RUN_MAX_MODES];

	shuffle_arms(o, p, rep, order);
	for (int i = 0; i < o->nmodes && !run_stopped(); i++) {
		struct trial_result r;
		enum drop_mode mode = o->modes[order[i]];
		const char *label = arm_label(o, order[i]);
		int e;

		if (p == PASS_BPFSTATS && mode == MODE_NONE)
			continue;
		if (p == PASS_PROFILE && order[i] == o->aa_arm)
			continue; /* the same flame graph twice says nothing */
		if (p == PASS_PROFILE) {
			profile_data_path(o, c->dir, label, profile_path, sizeof(profile_path));
			c->env.profile_path = profile_path;
			c->env.profile_period = o->profile_period;
		}
		e = trial_run(&c->env, mode, (enum trial_pass)p, p == PASS_PROFILE
			      ? profile_packets(c, label, sized, sizeof(sized)) : o->packets, &r);
		if (e)
			trial_result_release(&r);
		if (e == -EINTR || run_stopped())
			return -EINTR;
		if (e && p == PASS_PROFILE) {
			/* a flame graph is an explanation, not a measurement: its loss is said
			 * (run.json, summary) and the run goes on */
			fprintf(stderr, "xdptc: profile trial of %s failed, no flame graph: %s\n",
				label, r.error);
			json_array_append_new(c->flames, json_pack("{s:s, s:s, s:s}", "mode", label,
								   "event", "cpu-clock", "error",
								   r.error));
			continue;
		}
		if (e) {
			snprintf(c->why, sizeof(c->why), "%s trial of %s (rep %d) failed: %s",
				 trial_pass_name((enum trial_pass)p), label, rep + 1, r.error);
			fprintf(stderr, "xdptc: %s\n", c->why);
			return -EIO;
		}
		json_array_append_new(c->trials, trial_json(&r, label, rep, c->seq++, &c->ci.plan,
							    c->time_key));
		progress_line(&c->prog, &r, label, rep, pass_reps(o, p), &c->ci.plan);
		run_insns_add(&c->insns.arm[order[i]], &r);
		if (p == PASS_PROFILE)
			run_flamegraph(c, label, &r, sized);
	}
	return run_stopped() ? -EINTR : 0;
}

/* A trial of the alternating pass done: its progress line. */
static void timing_trial_done(struct run_ctx *c, const struct trial_result *r,
			      const char *label, int rep, int reps)
{
	progress_line(&c->prog, r, label, rep, reps, &c->ci.plan);
}

/* The timing pass as an alternation of short windows, in segments (run_segments.h).
 * Returns as run_pass_rep. */
static int run_timing_alternating(struct run_ctx *c)
{
	int e = run_timing_segments(c, timing_trial_done);

	if (e == -EINTR || run_stopped())
		return -EINTR;
	if (e) {
		char w[sizeof(c->why)];

		snprintf(w, sizeof(w), "%s", c->why);
		snprintf(c->why, sizeof(c->why), "the timing pass failed: %s", w);
		fprintf(stderr, "xdptc: %s\n", c->why);
		return -EIO;
	}
	return 0;
}

int run_passes(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	int e = 0;

	c->trials = json_array();
	json_object_set_new(c->run, "trials", c->trials);
	c->flames = json_array();
	json_object_set_new(c->run, "flamegraphs", c->flames);
	memset(&c->prog, 0, sizeof(c->prog));
	c->prog.no_eta = o->inside_icount;
	c->prog.instructions = c->icount_clock;
	for (int p = 0; p < PASS_NR; p++)
		c->prog.total += pass_reps(o, p) * pass_modes(o, p);
	clock_gettime(CLOCK_MONOTONIC, &c->prog.start);

	for (int p = 0; p < PASS_NR && !e && !run_stopped(); p++) {
		bool stats_on = false;

		/* perf stat in the timing pass only (never beside probes or BPF statistics) */
		c->env.perf_events = c->perf_events;
		c->env.perf_nevents = p == PASS_TIMING ? c->perf_n : 0;
		c->env.perf_event_list = o->pmu_events;
		if (p == PASS_PROFILE && !pass_reps(o, p))
			continue;
		if (p == PASS_BPFSTATS) {
			e = dut_bpf_stats(&c->dut, true);
			if (e) {
				fprintf(stderr, "xdptc: BPF statistics cannot be enabled (%s); "
						"bpf_ns_per_run will be n/a\n", strerror(-e));
				c->prog.total -= pass_reps(o, p) * pass_modes(o, p);
				e = 0;
				continue;
			}
			stats_on = true;
		}
		if (p == PASS_COUNT) {
			if (dut_counters_open(&c->dut, o->counter_order, o->cross_check, &c->ci,
					      c->why, sizeof(c->why))) {
				fprintf(stderr, "xdptc: %s\n", c->why);
				return -EIO;
			}
			c->counters_open = true;
		}
		if (p == PASS_TIMING && c->plan.alternating)
			e = run_timing_alternating(c);
		for (int rep = 0; rep < pass_reps(o, p) && !e && !(p == PASS_TIMING &&
								  c->plan.alternating); rep++)
			e = run_pass_rep(c, p, rep);
		if (stats_on)
			dut_bpf_stats(&c->dut, false);
		if (c->counters_open) {
			dut_counters_close(&c->dut);
			c->counters_open = false;
		}
	}
	return e ? e : run_stopped() ? -EINTR : 0;
}
