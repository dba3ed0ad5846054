/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_modes.c: each mode's figures in the summary (summary_modes.h): medians,
 * spreads, counts, the cross-check of counter backends, the observers' cost, the rate
 * search's result. */
#include "summary_modes.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "metrics.h"
#include "skb_counters.h"
#include "stats.h"
#include "summary_facts.h"

/* Values of @field from valid trials of @mode in @pass, in repetition order; missing
 * or null fields are skipped. Also returns each value's repetition in @reps. */
static size_t collect(const json_t *trials, const char *pass, const char *mode,
		      const char *field, double *vals, int *reps)
{
	size_t n = 0, i;
	json_t *t;

	json_array_foreach(trials, i, t) {
		json_t *v = json_object_get(t, field);

		if (n >= SUMMARY_MAX_VALUES)
			break;
		if (strcmp(json_str_of(t, "pass", ""), pass) ||
		    strcmp(json_str_of(t, "mode", ""), mode) ||
		    !json_is_true(json_object_get(t, "valid")) || !json_is_number(v))
			continue;
		vals[n] = json_number_value(v);
		if (reps)
			reps[n] = (int)json_integer_value(json_object_get(t, "rep"));
		n++;
	}
	return n;
}

static size_t count_trials(const json_t *trials, const char *pass, const char *mode,
			   size_t *invalid)
{
	size_t n = 0, i;
	json_t *t;

	*invalid = 0;
	json_array_foreach(trials, i, t) {
		if (strcmp(json_str_of(t, "pass", ""), pass) ||
		    strcmp(json_str_of(t, "mode", ""), mode))
			continue;
		n++;
		if (!json_is_true(json_object_get(t, "valid")))
			(*invalid)++;
	}
	return n;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* Set @key to the median of @field (pass, mode), or null with @reason. */
static double set_median(json_t *m, const json_t *trials, const char *pass, const char *mode,
			 const char *field, const char *key, const char *reason)
{
	double vals[SUMMARY_MAX_VALUES];
	size_t n = collect(trials, pass, mode, field, vals, NULL);
	double med = n ? stats_median(vals, n) : NAN;

	json_object_set_new(m, key, num_or_null(med));
	if (!n) {
		char rkey[96];

		snprintf(rkey, sizeof(rkey), "%s_reason", key);
		json_object_set_new(m, rkey, json_string(reason));
	}
	return med;
}

/* The perf events of @run's timing trials of @mode into @m: per event its metric's
 * median (min, max), the lowest running percentage where perf multiplexed, or null with
 * perf's reason; IPC where cycles and instructions counted. */
static void perf_summary(json_t *m, const json_t *run, const char *mode)
{
	const json_t *trials = json_object_get(run, "trials");
	size_t i, k;
	json_t *e, *t;

	json_array_foreach(summary_perf_events(run), k, e) {
		const char *ev = json_str_of(e, "event", "?");
		const char *metric = json_str_of(e, "metric", "?");
		char key[128], reason[200] = "no valid timing trial";
		double vals[SUMMARY_MAX_VALUES], pct = 100;
		size_t n = collect(trials, "timing", mode, metric, vals, NULL);

		json_array_foreach(trials, i, t) { /* perf's own words for an empty metric */
			const json_t *o = json_object_get(json_object_get(t, "perf"), ev);

			if (strcmp(json_str_of(t, "mode", ""), mode))
				continue;
			if (json_is_string(json_object_get(o, "reason")))
				snprintf(reason, sizeof(reason), "%s",
					 json_string_value(json_object_get(o, "reason")));
			if (json_is_number(json_object_get(o, "pct_running")) &&
			    json_number_value(json_object_get(o, "pct_running")) < pct)
				pct = json_number_value(json_object_get(o, "pct_running"));
		}
		set_median(m, trials, "timing", mode, metric, metric, reason);
		snprintf(key, sizeof(key), "%s_min", metric);
		json_object_set_new(m, key, num_or_null(n ? stats_min(vals, n) : NAN));
		snprintf(key, sizeof(key), "%s_max", metric);
		json_object_set_new(m, key, num_or_null(n ? stats_max(vals, n) : NAN));
		snprintf(key, sizeof(key), "%s_min_pct_running", metric);
		json_object_set_new(m, key, n ? json_real(pct) : json_null());
	}
	set_median(m, trials, "timing", mode, "ipc", "ipc", "cycles and instructions did not both count");
}

/* Trials of @mode in each pass, and how many of them were invalid. */
static void mode_trial_counts(json_t *m, const json_t *trials, const char *mode)
{
	static const char *const passes[] = { "timing", "count", "bpfstats" };

	for (int k = 0; k < 3; k++) {
		char key[64];
		size_t invalid, total = count_trials(trials, passes[k], mode, &invalid);

		snprintf(key, sizeof(key), "%s_trials", passes[k]);
		json_object_set_new(m, key, json_integer((json_int_t)total));
		snprintf(key, sizeof(key), "invalid_%s_trials", passes[k]);
		json_object_set_new(m, key, json_integer((json_int_t)invalid));
	}
}

/* The run's time metric @tm for @mode: median, min, max and coefficient of variation
 * over the valid timing trials. */
static void time_summary(json_t *m, const json_t *trials, const char *mode, const char *tm)
{
	double vals[SUMMARY_MAX_VALUES];
	size_t n = collect(trials, "timing", mode, tm, vals, NULL);
	char k1[64];

	set_median(m, trials, "timing", mode, tm, tm, "no valid timing trial");
	json_object_set_new(m, summary_time_key(k1, sizeof(k1), tm, "_min"),
			    num_or_null(n ? stats_min(vals, n) : NAN));
	json_object_set_new(m, summary_time_key(k1, sizeof(k1), tm, "_max"),
			    num_or_null(n ? stats_max(vals, n) : NAN));
	json_object_set_new(m, summary_time_key(k1, sizeof(k1), tm, "_cv"), num_or_null(stats_cv(vals, n)));
}

/* Why @mode has no @x (a METRIC_MEDIAN row) when no valid trial has it, into @buf. */
static const char *median_reason(const struct metric *x, const json_t *run, const char *mode,
				 char *buf, size_t len)
{
	const json_t *caps = json_object_get(run, "capabilities");
	const json_t *c = json_object_get(json_object_get(caps, "counters"),
					  x->counter ? x->counter : "");

	if (x->counter && !strcmp(json_str_of(c, "backend", ""),
				  "unavailable"))
		snprintf(buf, len, "unavailable: %s",
			 json_str_of(c, "passed_over", ""));
	else if (x->counter)
		snprintf(buf, len, "no valid count trial");
	else if (!strcmp(x->pass, "bpfstats") && !strcmp(mode, "none"))
		snprintf(buf, len, "no program in mode none");
	else
		snprintf(buf, len, "%s", x->unavailable ? x->unavailable : "no valid trial");
	return buf;
}

/* Every METRIC_MEDIAN row of the metric table for @mode: its median over the valid
 * trials of its pass (the timing pass for fields every trial has), or null with why;
 * the time metric with its spread; the perf events. */
static void mode_medians(json_t *m, const json_t *run, const char *mode)
{
	const json_t *trials = json_object_get(run, "trials");
	const char *tm = summary_time_metric(run);
	const char *pmu_why = json_string_value(json_object_get(
		json_object_get(json_object_get(run, "capabilities"), "pmu"), "reason"));

	for (const struct metric *x = metrics; x->name; x++) {
		const char *pass = !strcmp(x->pass, "any") ? "timing" : x->pass;
		char why[600];

		if ((x->flags & METRIC_INSNS) && x->label && summary_has_insns(run)) {
			if (x->format == METRIC_FMT_RANGE) /* with its spread, as the time */
				time_summary(m, trials, mode, x->name);
			else
				set_median(m, trials, "timing", mode, x->name, x->name,
					   "no valid timing trial");
			continue;
		}
		if (!(x->flags & METRIC_MEDIAN))
			continue;
		if (x->flags & METRIC_TIME) {
			time_summary(m, trials, mode, tm);
		} else if ((x->flags & METRIC_PERF) && json_is_array(summary_perf_events(run))) {
			perf_summary(m, run, mode);
		} else if (x->flags & METRIC_PERF) {
			/* runs before perf stat: cycles and instructions from perf_event_open */
			set_median(m, trials, "timing", mode, "cycles_per_pkt", "cycles_per_pkt",
				   pmu_why ? pmu_why : "no PMU");
			if (strcmp(tm, "instructions_per_pkt"))
				set_median(m, trials, "timing", mode, "instructions_per_pkt",
					   "instructions_per_pkt", pmu_why ? pmu_why : "no PMU");
		} else {
			set_median(m, trials, pass, mode, x->from ? x->from : x->name, x->name,
				   median_reason(x, run, mode, why, sizeof(why)));
		}
	}
}

/* The same counts from every backend that was attached (--cross-check-counters):
 * "cross_check" of @mode, each count's median per backend. */
static void mode_cross_check(json_t *m, const json_t *trials, const char *mode)
{
	json_t *xc = json_object();

	for (int k = 0; k < SKB_COUNT_NR; k++) {
		const char *count = skb_count_name((enum skb_count)k);
		char key[64];
		json_t *per = json_object();
		size_t i;
		json_t *t;

		snprintf(key, sizeof(key), "%s_by_backend", count);
		json_array_foreach(trials, i, t) {
			const char *b;
			json_t *v;

			if (strcmp(json_str_of(t, "mode", ""), mode) ||
			    !json_is_true(json_object_get(t, "valid")))
				continue;
			json_object_foreach(json_object_get(t, key), b, v) {
				json_t *arr = json_object_get(per, b);

				if (!arr) {
					arr = json_array();
					json_object_set_new(per, b, arr);
				}
				json_array_append(arr, v);
			}
		}
		if (json_object_size(per)) {
			const char *b;
			json_t *arr, *med = json_object();

			json_object_foreach(per, b, arr) {
				double v[SUMMARY_MAX_VALUES];
				size_t n = 0, j;
				json_t *x;

				json_array_foreach(arr, j, x)
					if (n < SUMMARY_MAX_VALUES)
						v[n++] = json_number_value(x);
				json_object_set_new(med, b, json_real(stats_median(v, n)));
			}
			json_object_set_new(xc, count, med);
		}
		json_decref(per);
	}
	if (json_object_size(xc))
		json_object_set_new(m, "cross_check", xc);
	else
		json_decref(xc);
}

/* Pairs of @metric by repetition: each valid trial of (@pass_b, @mode_b) with the valid
 * trial of (@pass_a, @mode_a) of the same repetition, whose value must be above 0, as
 * (pa[i], pb[i]). Returns how many. */
size_t summary_pair_by_rep(const json_t *trials, const char *metric, const char *pass_a,
			  const char *mode_a, const char *pass_b, const char *mode_b, double *pa,
			  double *pb)
{
	double va[SUMMARY_MAX_VALUES], vb[SUMMARY_MAX_VALUES];
	int ra[SUMMARY_MAX_VALUES], rb[SUMMARY_MAX_VALUES];
	size_t na = collect(trials, pass_a, mode_a, metric, va, ra);
	size_t nb = collect(trials, pass_b, mode_b, metric, vb, rb), n = 0;

	for (size_t j = 0; j < nb; j++)
		for (size_t i = 0; i < na; i++)
			if (ra[i] == rb[j] && va[i] > 0) {
				pa[n] = va[i];
				pb[n++] = vb[j];
				break;
			}
	return n;
}

/* The observer effect: what the count and BPF-statistics passes cost per packet against
 * the timing pass, repetition r of a pass paired with repetition r of the timing pass (the
 * passes come one after another, so the pairs are minutes apart, not adjacent). */
static void mode_observer(json_t *m, const json_t *run, const char *mode, const char *tm)
{
	static const char *const passes[] = { "count", "bpfstats" };
	const json_t *trials = json_object_get(run, "trials");

	for (int k = 0; k < 2; k++) {
		double pa[SUMMARY_MAX_VALUES], pb[SUMMARY_MAX_VALUES];
		size_t n = summary_pair_by_rep(trials, tm, "timing", mode, passes[k], mode, pa, pb), ord = 0;
		struct stats_interval iv;
		double cov = 0;
		char key[80];
		int e;

		snprintf(key, sizeof(key), "observer_%s_pass_pct", passes[k]);
		/* BPF statistics on in the timing pass too: nothing to compare against */
		if (!n || (k == 1 && summary_bpf_stats_outside(run))) {
			json_object_set_new(m, key, json_null());
			continue;
		}
		e = stats_paired_rel_delta_exact(pa, pb, n, 0.95, &iv, &cov, &ord);
		json_object_set_new(m, key, e && e != -ERANGE ? json_null()
							    : json_real(100 * iv.estimate));
		snprintf(key, sizeof(key), "observer_%s_pass_pairs", passes[k]);
		json_object_set_new(m, key, json_integer((json_int_t)n));
		if (!e) {
			snprintf(key, sizeof(key), "observer_%s_pass_ci95_lo", passes[k]);
			json_object_set_new(m, key, json_real(100 * iv.lo));
			snprintf(key, sizeof(key), "observer_%s_pass_ci95_hi", passes[k]);
			json_object_set_new(m, key, json_real(100 * iv.hi));
		}
	}
}

/* The rate search's answer for @mode: max_drop_pps, its check, the CPU time per packet
 * there, or null with why. */
static void mode_max_rate(json_t *m, const json_t *run, const char *mode)
{
	const json_t *found = NULL;
	size_t i;
	json_t *x;

	json_array_foreach(json_object_get(run, "max_rate"), i, x)
		if (!strcmp(json_str_of(x, "mode", ""), mode))
			found = x;
	if (found && json_integer_value(json_object_get(found, "max_drop_pps")) > 0) {
		json_object_set_new(m, "max_drop_pps",
				    json_real((double)json_integer_value(
					    json_object_get(found, "max_drop_pps"))));
		json_object_set_new(m, "max_drop_pps_sender_bound",
				    json_boolean(json_is_true(json_object_get(found, "sender_bound"))));
		json_object_set_new(m, "cpu_ns_per_pkt_at_max_drop",
				    json_deep_copy(json_object_get(found, "cpu_ns_per_pkt_at_max")));
		{ /* the spread of the lossless trials at the answer, where recorded */
			const json_t *vals = json_object_get(found, "cpu_ns_per_pkt_at_max_values");
			double v[SUMMARY_MAX_VALUES];
			size_t k, nv = 0;
			json_t *x;

			json_array_foreach(vals, k, x)
				if (nv < SUMMARY_MAX_VALUES && json_is_number(x))
					v[nv++] = json_number_value(x);
			if (nv) {
				json_object_set_new(m, "cpu_ns_per_pkt_at_max_drop_min",
						    json_real(stats_min(v, nv)));
				json_object_set_new(m, "cpu_ns_per_pkt_at_max_drop_max",
						    json_real(stats_max(v, nv)));
				json_object_set_new(m, "cpu_ns_per_pkt_at_max_drop_n",
						    json_integer((json_int_t)nv));
			}
		}
		if (json_object_get(found, "confirm"))
			json_object_set_new(m, "max_drop_pps_confirm",
					    json_deep_copy(json_object_get(found, "confirm")));
		{
			const json_t *c = json_object_get(found, "confirm");

			json_object_set_new(
				m, "max_drop_pps_check",
				json_string(json_is_true(json_object_get(c, "confirmed"))
						    ? "within 5%"
					    : c ? "NOT within 5%"
					    : json_is_true(json_object_get(found, "sender_bound"))
						    ? "lower bound (sender-bound)"
						    : "not checked"));
		}
		if (json_object_get(found, "stalled_trials"))
			json_object_set_new(m, "max_drop_pps_stalled_trials",
					    json_deep_copy(json_object_get(found,
									   "stalled_trials")));
	} else {
		json_object_set_new(m, "max_drop_pps", json_null());
		json_object_set_new(m, "max_drop_pps_reason",
				    json_string(found ? "no lossless rate found"
					: !json_is_array(json_object_get(run, "max_rate"))
						? "rate search not run (--find-max-rate)"
					: !strcmp(mode, "none")
						? "not searched: mode none has no program to drop"
						: "not searched: the A/A arm"));
	}
}

json_t *summary_mode(const json_t *run, const char *mode)
{
	const json_t *trials = json_object_get(run, "trials");
	json_t *m = json_object();

	json_object_set_new(m, "mode", json_string(mode));
	mode_trial_counts(m, trials, mode);
	mode_medians(m, run, mode);
	mode_cross_check(m, trials, mode);
	mode_observer(m, run, mode, summary_time_metric(run));
	mode_max_rate(m, run, mode);
	return m;
}
