/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "metrics.h"
#include "skb_counters_user.h"
#include "stats.h"
#include "window_delta.h"

#define MAX_VALUES 1024
#define PERF_METRICS_MAX 24

static const char *str_or(const char *s, const char *fallback)
{
	return s ? s : fallback;
}

/* Values of @field from valid trials of @mode in @pass, in repetition order; missing
 * or null fields are skipped. Also returns each value's repetition in @reps. */
static size_t collect(const json_t *trials, const char *pass, const char *mode,
		      const char *field, double *vals, int *reps)
{
	size_t n = 0, i;
	json_t *t;

	json_array_foreach(trials, i, t) {
		json_t *v = json_object_get(t, field);

		if (n >= MAX_VALUES)
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
	double vals[MAX_VALUES];
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

const char *summary_time_metric(const json_t *run)
{
	const char *tm = json_string_value(json_object_get(run, "time_metric"));

	return tm && summary_time_is_guest(tm) ? tm : "cpu_ns_per_pkt";
}

const char *summary_metric_key(const struct metric *x, const json_t *run)
{
	return x->flags & METRIC_TIME ? summary_time_metric(run) : x->name;
}

int summary_perf_metrics(const json_t *run, const char **out, int max)
{
	const json_t *pev = json_object_get(json_object_get(run, "settings"), "perf_events");
	size_t k;
	json_t *e;
	int n = 0;

	if (!json_is_array(pev)) { /* before perf stat: perf_event_open's two */
		if (n < max)
			out[n++] = "cycles_per_pkt";
		if (n < max && strcmp(summary_time_metric(run), "instructions_per_pkt"))
			out[n++] = "instructions_per_pkt";
		return n;
	}
	json_array_foreach(pev, k, e)
		if (n < max && json_is_string(json_object_get(e, "metric")))
			out[n++] = json_string_value(json_object_get(e, "metric"));
	return n;
}

const char *summary_engine(const json_t *run)
{
	const char *e = json_string_value(json_object_get(json_object_get(run, "engine"), "name"));

	return e ? e : "host";
}

bool summary_time_is_guest(const char *tm)
{
	/* runs before the rename called it instructions_per_pkt */
	return !strcmp(tm, "guest_instructions_per_pkt") || !strcmp(tm, "instructions_per_pkt");
}

/* @buf = the time metric's name + @suffix ("_min", "_cv", ...) */
static const char *tm_key(char *buf, size_t len, const char *tm, const char *suffix)
{
	snprintf(buf, len, "%s%s", tm, suffix);
	return buf;
}

/* Does the delta @d's interval exclude zero? */
static bool stats_excludes_zero_json(const json_t *d)
{
	struct stats_interval iv = { 0, json_number_value(json_object_get(d, "ci95_lo")),
				     json_number_value(json_object_get(d, "ci95_hi")) };

	return json_is_number(json_object_get(d, "ci95_lo")) && stats_interval_excludes_zero(&iv);
}

/* The noise floor of A/A delta @d: its interval, half-width, and whether it excludes 0. */
static json_t *noise_floor_json(const json_t *d, const char *metric)
{
	double lo = json_number_value(json_object_get(d, "ci95_lo"));
	double hi = json_number_value(json_object_get(d, "ci95_hi"));

	return json_pack("{s:s, s:f, s:f, s:f, s:f, s:b}", "metric", metric, "rel_delta",
			 json_number_value(json_object_get(d, "rel_delta")), "ci95_lo", lo,
			 "ci95_hi", hi, "half_width", (hi - lo) / 2, "systematic",
			 stats_excludes_zero_json(d));
}

const char *summary_bpf_stats_outside(const json_t *run)
{
	const json_t *a = json_object_get(json_object_get(json_object_get(run, "doctor"), "sysctls"),
					  "kernel.bpf_stats_enabled");
	const json_t *b = json_object_get(json_object_get(run, "sysctls_at_end"),
					  "kernel.bpf_stats_enabled");
	size_t i;
	json_t *t;

	if (json_integer_value(a) > 0 && json_integer_value(b) > 0)
		return "kernel.bpf_stats_enabled=1 throughout the run, set outside xdptc";
	if (json_integer_value(a) > 0)
		return "kernel.bpf_stats_enabled=1 at the start of the run, set outside xdptc";
	if (json_integer_value(b) > 0)
		return "kernel.bpf_stats_enabled=1 at the end of the run, set outside xdptc";
	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (json_is_true(json_object_get(t, "bpf_stats_on")))
			return "the drop program's run count moved during a timing trial: another "
			       "process held BPF statistics on (BPF_ENABLE_STATS)";
	return NULL;
}

static const json_t *perf_events_of(const json_t *run)
{
	return json_object_get(json_object_get(run, "settings"), "perf_events");
}

/* The perf events of @run's timing trials of @mode into @m: per event its metric's
 * median (min, max), the lowest running percentage where perf multiplexed, or null with
 * perf's reason; IPC where cycles and instructions counted. */
static void perf_summary(json_t *m, const json_t *run, const char *mode)
{
	const json_t *trials = json_object_get(run, "trials");
	size_t i, k;
	json_t *e, *t;

	json_array_foreach(perf_events_of(run), k, e) {
		const char *ev = json_str_of(e, "event", "?");
		const char *metric = json_str_of(e, "metric", "?");
		char key[128], reason[200] = "no valid timing trial";
		double vals[MAX_VALUES], pct = 100;
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
	double vals[MAX_VALUES];
	size_t n = collect(trials, "timing", mode, tm, vals, NULL);
	char k1[64];

	set_median(m, trials, "timing", mode, tm, tm, "no valid timing trial");
	json_object_set_new(m, tm_key(k1, sizeof(k1), tm, "_min"),
			    num_or_null(n ? stats_min(vals, n) : NAN));
	json_object_set_new(m, tm_key(k1, sizeof(k1), tm, "_max"),
			    num_or_null(n ? stats_max(vals, n) : NAN));
	json_object_set_new(m, tm_key(k1, sizeof(k1), tm, "_cv"), num_or_null(stats_cv(vals, n)));
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
		snprintf(buf, len, "%s", str_or(x->unavailable, "no valid trial"));
	return buf;
}

/* Did the icount engine's plugin count @run's timing trials (METRIC_INSNS)? */
static bool run_has_insns(const json_t *run)
{
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (json_is_number(json_object_get(t, "retired_instructions_per_pkt")))
			return true;
	return false;
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

		if ((x->flags & METRIC_INSNS) && x->label && run_has_insns(run)) {
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
		} else if ((x->flags & METRIC_PERF) && json_is_array(perf_events_of(run))) {
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
				double v[MAX_VALUES];
				size_t n = 0, j;
				json_t *x;

				json_array_foreach(arr, j, x)
					if (n < MAX_VALUES)
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
static size_t pair_by_rep(const json_t *trials, const char *metric, const char *pass_a,
			  const char *mode_a, const char *pass_b, const char *mode_b, double *pa,
			  double *pb)
{
	double va[MAX_VALUES], vb[MAX_VALUES];
	int ra[MAX_VALUES], rb[MAX_VALUES];
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
		double pa[MAX_VALUES], pb[MAX_VALUES];
		size_t n = pair_by_rep(trials, tm, "timing", mode, passes[k], mode, pa, pb), ord = 0;
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
			double v[MAX_VALUES];
			size_t k, nv = 0;
			json_t *x;

			json_array_foreach(vals, k, x)
				if (nv < MAX_VALUES && json_is_number(x))
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

static json_t *mode_summary(const json_t *run, const char *mode)
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


/* The delta object of @n pairs (pa[i], pb[i]), ratios d[i] = pb[i] / pa[i] - 1: the median
 * ratio and its distribution-free interval (order statistics of the paired ratios, the
 * sign test's), whose coverage is exact and at least 95% for any distribution. */
static json_t *delta_from_pairs(const char *metric, const char *a, const char *b,
				const double *pa, const double *pb, size_t n)
{
	struct stats_interval iv;
	double coverage = 0, d[MAX_VALUES];
	size_t k = 0;
	json_t *o = json_object();
	int e;

	for (size_t i = 0; i < n; i++)
		d[i] = pb[i] / pa[i] - 1.0;
	json_object_set_new(o, "metric", json_string(metric));
	json_object_set_new(o, "a", json_string(a));
	json_object_set_new(o, "b", json_string(b));
	json_object_set_new(o, "pairs", json_integer((json_int_t)n));
	e = n ? stats_paired_rel_delta_exact(pa, pb, n, 0.95, &iv, &coverage, &k) : -EINVAL;
	if (e && e != -ERANGE) {
		json_object_set_new(o, "rel_delta", n ? json_real(stats_median(d, n)) : json_null());
		json_object_set_new(o, "ci95_lo", json_null());
		json_object_set_new(o, "ci95_hi", json_null());
		json_object_set_new(o, "real", json_false());
		json_object_set_new(o, "reason", json_string(n ? "the pairs hold values that cannot "
								 "be compared"
							       : "no valid pairs"));
		return o;
	}
	json_object_set_new(o, "rel_delta", json_real(iv.estimate));
	json_object_set_new(o, "pair_min", json_real(stats_min(d, n)));
	json_object_set_new(o, "pair_max", json_real(stats_max(d, n)));
	if (e == -ERANGE) { /* n < 6: no interval reaches 95% */
		json_object_set_new(o, "ci95_lo", json_null());
		json_object_set_new(o, "ci95_hi", json_null());
		json_object_set_new(o, "real", json_false());
		json_object_set_new(o, "reason", json_string(SUMMARY_FEW_PAIRS_REASON));
		return o;
	}
	json_object_set_new(o, "ci95_lo", json_real(iv.lo));
	json_object_set_new(o, "ci95_hi", json_real(iv.hi));
	json_object_set_new(o, "ci_coverage", json_real(coverage));
	json_object_set_new(o, "ci_order", json_integer((json_int_t)k));
	json_object_set_new(o, "real", json_boolean(stats_interval_excludes_zero(&iv)));
	return o;
}

/* Paired delta of @metric, mode b against mode a, over timing repetitions (an
 * alternating pass's time metric: over its windows, window_delta.h). */
static json_t *pair_delta(const json_t *run, const char *metric, const char *a, const char *b)
{
	double pa[MAX_VALUES], pb[MAX_VALUES];

	if (!strcmp(metric, summary_time_metric(run)) && window_run(run))
		return window_delta_json(run, metric, a, b);
	size_t n = pair_by_rep(json_object_get(run, "trials"), metric, "timing", a, "timing", b,
			       pa, pb);

	return delta_from_pairs(metric, a, b, pa, pb, n);
}

/* The saturation rates of modes a and b (rate search, DUT on the sender's CPU): trial i of
 * each was taken in the same interleaved round, so pairs by index cancel the host's
 * changes of speed between rounds. NULL when either mode has none. */
static json_t *saturation_delta(const json_t *run, const char *a, const char *b)
{
	const json_t *ra = NULL, *rb = NULL, *x;
	double pa[MAX_VALUES], pb[MAX_VALUES];
	size_t i, n = 0;

	json_array_foreach(json_object_get(run, "max_rate"), i, x) {
		const json_t *c = json_object_get(x, "confirm");
		const char *mode = json_str_of(x, "mode", "");

		if (strcmp(json_str_of(c, "kind", ""), "saturation"))
			continue;
		if (!strcmp(mode, a))
			ra = json_object_get(c, "reached_pps");
		if (!strcmp(mode, b))
			rb = json_object_get(c, "reached_pps");
	}
	if (!json_is_array(ra) || !json_is_array(rb))
		return NULL;
	for (i = 0; i < json_array_size(ra) && i < json_array_size(rb) && n < MAX_VALUES; i++) {
		double va = json_number_value(json_array_get(ra, i));
		double vb = json_number_value(json_array_get(rb, i));

		if (va > 0 && vb > 0) {
			pa[n] = va;
			pb[n++] = vb;
		}
	}
	return delta_from_pairs("max_drop_pps (saturation, paired by round)", a, b, pa, pb, n);
}

static const char *baseline_mode(const json_t *modes)
{
	size_t i;
	json_t *m;

	json_array_foreach(modes, i, m)
		if (!strcmp(str_or(json_string_value(m), ""), "tc"))
			return "tc";
	return json_string_value(json_array_get(modes, 0));
}

/* The metrics @run compares between modes: its time metric, then each perf event's that
 * counted in some timing trial (runs before perf stat: cycles where the PMU was there). */
static int delta_metrics(const json_t *run, const char **out, int max)
{
	const char *perf[PERF_METRICS_MAX];
	int n = 0, np = summary_perf_metrics(run, perf, PERF_METRICS_MAX);
	bool legacy = !json_is_array(perf_events_of(run));
	size_t i;
	json_t *t;

	if (run_has_insns(run)) /* as a CPU counts them: first, the headline and noise floor */
		out[n++] = "retired_instructions_per_pkt";
	out[n++] = summary_time_metric(run);
	for (int k = 0; k < np && n < max; k++) {
		bool counted = false;

		if (legacy) /* before perf stat: cycles where the PMU was there */
			counted = !strcmp(perf[k], "cycles_per_pkt") &&
				  json_is_true(json_object_get(json_object_get(json_object_get(
					  run, "capabilities"), "pmu"), "available"));
		else
			json_array_foreach(json_object_get(run, "trials"), i, t)
				counted |= json_is_number(json_object_get(t, perf[k]));
		if (counted)
			out[n++] = perf[k];
	}
	return n;
}

/* The deltas of arm @b into @deltas: against the baseline @base for every compared
 * metric (and the saturation rate), or for the A/A arm "MODE-aa" against its own mode,
 * never real, whose interval of the time metric is the run's noise floor (into @s). */
static void arm_deltas(const json_t *run, json_t *s, json_t *deltas, const char *base,
		       const char *b)
{
	size_t bl = strlen(b);
	/* the A/A arm "MODE-aa" is compared with its own mode, every other arm with the
	 * baseline */
	bool aa = bl > 3 && !strcmp(b + bl - 3, "-aa");
	char a[64];
	const char *metrics[1 + 16];
	int nmetrics = delta_metrics(run, metrics, 17);

	snprintf(a, sizeof(a), "%.*s", aa ? (int)(bl - 3) : (int)bl, b);
	if (!aa && (!base || !strcmp(b, base)))
		return;
	if (!aa)
		snprintf(a, sizeof(a), "%s", base);
	for (int k = 0; k < nmetrics; k++) {
		json_t *d = pair_delta(run, metrics[k], a, b);

		if (aa) { /* identical arms: the noise floor, never "real", for every metric */
			bool sys = stats_excludes_zero_json(d);

			json_object_set_new(d, "aa", json_true());
			json_object_set_new(d, "real", json_false());
			json_object_set_new(d, "reason", json_string(
				sys ? "the A/A arm: identical arms differ systematically (the "
				      "interval excludes 0): the noise floor is at least this "
				      "difference"
				: json_is_number(json_object_get(d, "ci95_lo"))
				    ? "the A/A arm: its interval is the noise floor"
				    : "the A/A arm: " SUMMARY_FEW_PAIRS_REASON));
			if (sys)
				json_object_set_new(d, "aa_systematic", json_true());
			if (k == 0 && json_is_number(json_object_get(d, "ci95_lo")))
				json_object_set_new(s, "noise_floor", noise_floor_json(d, metrics[k]));
		}
		json_array_append_new(deltas, d);
	}
	if (!aa) {
		json_t *sd = saturation_delta(run, base, b);

		if (sd)
			json_array_append_new(deltas, sd);
	}
}

/* Timing trials that ran while other work kept a CPU busy, or while the hypervisor gave
 * the vCPUs to others (local DUT only): how many, into @s. */
static void load_counts(const json_t *run, json_t *s)
{
	long long loaded = 0, stolen = 0, counted = 0;
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(run, "trials"), i, t) {
		if (strcmp(json_str_of(t, "pass", ""), "timing") ||
		    !json_is_boolean(json_object_get(t, "other_load")))
			continue;
		counted++;
		loaded += json_is_true(json_object_get(t, "other_load"));
		stolen += json_is_true(json_object_get(t, "host_steal"));
	}
	if (counted) {
		json_object_set_new(s, "timing_trials_other_load", json_integer(loaded));
		json_object_set_new(s, "timing_trials_host_steal", json_integer(stolen));
		json_object_set_new(s, "timing_trials_load_checked", json_integer(counted));
	}
}

/* Conservation: in a TC drop every packet's skb is built once and freed once; the count
 * pass's medians against pkts_at_dut, into @s. */
static void conservation(json_t *s, const json_t *arr)
{
	size_t i;
	json_t *m;

	json_array_foreach(arr, i, m) {
		const json_t *pk = json_object_get(m, "count_pkts_at_dut");
		json_t *c;
		bool agree = true;
		char detail[256] = "";

		if (strcmp(json_string_value(json_object_get(m, "mode")), "tc") || !json_is_number(pk))
			continue;
		c = json_object();
		for (int k = 0; k < 2; k++) {
			const char *name = k ? "skbs_freed" : "skbs_built";
			const json_t *v = json_object_get(m, name);
			size_t n = strlen(detail);

			if (!json_is_number(v)) {
				snprintf(detail + n, sizeof(detail) - n, "%s%s unavailable", n ? ", " : "",
					 name);
				continue;
			}
			json_object_set_new(c, name, json_real(json_number_value(v)));
			if (fabs(json_number_value(v) - json_number_value(pk)) >
			    0.01 * json_number_value(pk))
				agree = false;
		}
		json_object_set_new(c, "mode", json_string("tc"));
		json_object_set_new(c, "pkts_at_dut", json_real(json_number_value(pk)));
		/* with neither count there is nothing to agree or disagree */
		json_object_set_new(c, "agree_within_1pct",
				    json_object_size(c) > 2 ? json_boolean(agree) : json_null());
		if (*detail)
			json_object_set_new(c, "note", json_string(detail));
		json_object_set_new(s, "conservation", c);
	}
}

json_t *summary_compute(const json_t *run)
{
	const json_t *modes = json_object_get(json_object_get(run, "settings"), "modes");
	const char *base;
	json_t *s, *arr, *deltas, *m;
	size_t i;

	if (!json_is_array(modes) || !json_is_array(json_object_get(run, "trials")))
		return NULL;
	base = baseline_mode(modes);
	s = json_object();
	arr = json_array();
	deltas = json_array();
	json_array_foreach(modes, i, m)
		json_array_append_new(arr, mode_summary(run, json_string_value(m)));
	json_array_foreach(modes, i, m)
		arm_deltas(run, s, deltas, base, json_string_value(m));
	load_counts(run, s);
	conservation(s, arr);
	json_object_set_new(s, "baseline", base ? json_string(base) : json_null());
	json_object_set_new(s, "modes", arr);
	json_object_set_new(s, "deltas", deltas);
	return s;
}

/* ---- markdown ---- */

static const char *fmt_num(char *buf, size_t len, const json_t *v, int decimals)
{
	if (!json_is_number(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	snprintf(buf, len, "%.*f", decimals, json_number_value(v));
	return buf;
}

/* @frac (0.055 = +5.5%) as a signed percentage with @dec decimals. */
static const char *fmt_pct(char *buf, size_t len, double frac, int dec)
{
	snprintf(buf, len, "%+.*f%%", dec, 100 * frac);
	return buf;
}

/* Decimals that show the percentages of @lo..@hi (fractions): the width with two
 * significant digits (1 decimal for intervals a point or more wide, up to 4 for icount's
 * thousandths of a percent), and an interval that excludes 0 never as an end of 0.0. */
int summary_pct_decimals(double lo, double hi)
{
	double w = fabs(hi - lo) * 100, m = fmin(fabs(lo), fabs(hi)) * 100;
	int dec = 1;

	while (dec < 4 && w > 0 && w * pow(10, dec) < 10)
		dec++;
	while (dec < 4 && (lo > 0 || hi < 0) && m * pow(10, dec) < 1)
		dec++;
	return dec;
}

static const char *fmt_count(char *buf, size_t len, const json_t *v)
{
	char tmp[32];
	size_t n, o = 0;

	if (!json_is_number(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	snprintf(tmp, sizeof(tmp), "%.0f", json_number_value(v));
	n = strlen(tmp);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		if (i && tmp[i - 1] != '-' && (n - i) % 3 == 0)
			buf[o++] = ',';
		buf[o++] = tmp[i];
	}
	buf[o] = '\0';
	return buf;
}

static void row(FILE *out, const json_t *modes, const char *label, const char *key,
		enum metric_format kind)
{
	char kmin[64], kmax[64];

	size_t i;
	json_t *m;

	snprintf(kmin, sizeof(kmin), "%s_min", key);
	snprintf(kmax, sizeof(kmax), "%s_max", key);
	fprintf(out, "| %s |", label);
	json_array_foreach(modes, i, m) {
		char a[48], b[48], c[48];
		const json_t *v = json_object_get(m, key);

		if (kind == METRIC_FMT_STRING)
			fprintf(out, " %s |", json_is_string(v) ? json_string_value(v) : "n/a");
		else if (kind == METRIC_FMT_2SIG && json_is_number(v)) /* a CV */
			fprintf(out, " %.2g |", json_number_value(v));
		else if (kind == METRIC_FMT_2SIG)
			fprintf(out, " n/a |");
		else if (kind == METRIC_FMT_COUNT)
			fprintf(out, " %s |", fmt_count(a, sizeof(a), v));
		else if (kind == METRIC_FMT_3DP)
			fprintf(out, " %s |", fmt_num(a, sizeof(a), v, 3));
		else if (kind == METRIC_FMT_1DP)
			fprintf(out, " %s |", fmt_num(a, sizeof(a), v, 1));
		else if (!json_is_number(json_object_get(m, kmin))) /* no spread recorded */
			fprintf(out, " %s |", fmt_num(a, sizeof(a), v, 1));
		else /* median (min-max) */
			fprintf(out, " %s (%s-%s) |", fmt_num(a, sizeof(a), v, 1),
				fmt_num(b, sizeof(b), json_object_get(m, kmin), 1),
				fmt_num(c, sizeof(c), json_object_get(m, kmax), 1));
	}
	fprintf(out, "\n");
}

/* An observer-effect row: the median paired cost with its interval, or marked not
 * significant ("n.s.") when no interval exists or it includes 0. */
static void observer_row(FILE *out, const json_t *modes, const char *label, const char *key)
{
	/* @key is observer_PASS_pass_pct; beside it _ci95_lo, _ci95_hi and _pairs */
	int stem = (int)(strlen(key) - strlen("_pct"));
	char k[96], kl[96], kh[96], kp[96];
	size_t i;
	json_t *m;

	snprintf(k, sizeof(k), "%s", key);
	snprintf(kl, sizeof(kl), "%.*s_ci95_lo", stem, key);
	snprintf(kh, sizeof(kh), "%.*s_ci95_hi", stem, key);
	snprintf(kp, sizeof(kp), "%.*s_pairs", stem, key);
	fprintf(out, "| %s |", label);
	json_array_foreach(modes, i, m) {
		const json_t *v = json_object_get(m, k), *lo = json_object_get(m, kl);
		double l = json_number_value(lo), h = json_number_value(json_object_get(m, kh));

		if (!json_is_number(v))
			fprintf(out, " n/a |");
		else if (!json_object_get(m, kp)) /* written before pairs were recorded */
			fprintf(out, " %.1f |", json_number_value(v));
		else if (json_is_number(lo) && (l > 0 || h < 0))
			fprintf(out, " %+.1f [%+.1f, %+.1f] |", json_number_value(v), l, h);
		else if (json_is_number(lo))
			fprintf(out, " %+.1f [%+.1f, %+.1f], n.s. |", json_number_value(v), l, h);
		else
			fprintf(out, " %+.1f (%lld pairs: no interval), n.s. |", json_number_value(v),
				json_integer_value(json_object_get(m, kp)));
	}
	fprintf(out, "\n");
}

static const json_t *mode_of(const json_t *modes, const char *name)
{
	size_t i;
	json_t *m;

	json_array_foreach(modes, i, m)
		if (!strcmp(json_str_of(m, "mode", ""), name))
			return m;
	return NULL;
}

/* "; per packet xdpdrv builds 0.00 skbs (tc 1.00), frees 0.00 (tc 1.00), enters the
 * stack 0.00 times (tc 1.00)": the mechanism counts both modes have. */
static void mechanism_words(FILE *out, const json_t *mb, const json_t *ma, const char *b,
			    const char *a)
{
	static const struct {
		const char *key, *fmt;
	} c[] = {
		{ "skbs_built_per_pkt", "builds %.2f skbs (%s %.2f)" },
		{ "skbs_freed_per_pkt", "frees %.2f skbs (%s %.2f)" },
		{ "stack_entries_per_pkt", "enters the stack %.2f times (%s %.2f)" },
	};
	int n = 0;

	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		const json_t *x = json_object_get(mb, c[i].key), *y = json_object_get(ma, c[i].key);

		if (!json_is_number(x) || !json_is_number(y))
			continue;
		fprintf(out, n++ ? ", " : "; per packet %s ", b);
		fprintf(out, c[i].fmt, json_number_value(x), a, json_number_value(y));
	}
}

int summary_headline(const json_t *run, FILE *out)
{
	const json_t *s = json_object_get(run, "summary");
	const json_t *modes = json_object_get(s, "modes");
	size_t i;
	json_t *d;
	int n = 0;

	json_array_foreach(json_object_get(s, "deltas"), i, d) {
		const char *metric = json_str_of(d, "metric", "");
		const char *a = json_str_of(d, "a", "?");
		const char *b = json_str_of(d, "b", "?");
		const json_t *lo = json_object_get(d, "ci95_lo");
		double l = json_number_value(lo), h = json_number_value(json_object_get(d, "ci95_hi"));
		bool time = !strcmp(metric, summary_time_metric(run));
		/* the older name of the icount time metric is also a PMU event's metric: only
		 * the run's time metric is guest instructions */
		const char *what = time && summary_time_is_guest(metric)
					   ? "guest instructions per packet"
				   : !strcmp(metric, "retired_instructions_per_pkt")
					   ? "retired guest instructions per packet (a rep string "
					     "instruction once, as a CPU counts it)"
				   : !strcmp(metric, "cpu_ns_per_pkt")	    ? "CPU time per packet"
				   : !strncmp(metric, "max_drop_pps", 12)   ? "highest drop rate"
									    : metric;
		int pr = json_is_number(lo) ? summary_pct_decimals(l, h) : 1;
		char x[32], y[32], v[32];

		if (json_is_true(json_object_get(d, "aa")) ||
		    !json_is_number(json_object_get(d, "rel_delta")))
			continue;
		fprintf(out, "%s%s vs %s: %s %s", n++ ? "\n" : "", b, a,
			fmt_pct(v, sizeof(v), json_number_value(json_object_get(d, "rel_delta")), pr),
			what);
		if (json_is_number(lo))
			fprintf(out, " [%s, %s], %s", fmt_pct(x, sizeof(x), l, pr),
				fmt_pct(y, sizeof(y), h, pr),
				json_is_true(json_object_get(d, "real")) ? "real"
									: "not distinguishable from noise");
		else
			fprintf(out, ", %lld pairs: too few to call",
				json_integer_value(json_object_get(d, "pairs")));
		if (time) { /* the mechanism, once: beside the time metric */
			const json_t *mb = mode_of(modes, b), *ma = mode_of(modes, a);

			mechanism_words(out, mb, ma, b, a);
		}
		fprintf(out, ".");
	}
	if (n)
		fprintf(out, "\n");
	return n;
}

/* What every part of summary.md reads. */
struct render_ctx {
	const json_t *run, *s, *modes, *set, *mach, *caps, *cnt, *pmu, *guest;
	const char *bpf_stats_outside, *timing_words;
	FILE *out;
};

/* The line saying where the time metric comes from (and the engine, or the guest). */
static void header_time_source(const struct render_ctx *rc)
{
	const json_t *set = rc->set;
	const json_t *guest = rc->guest;
	const char *timing_words = rc->timing_words;
	const json_t *run = rc->run;
	FILE *out = rc->out;

	if (summary_time_is_guest(summary_time_metric(run))) {
		const json_t *en = json_object_get(run, "engine");
		const char *qemu = json_str_of(en, "qemu", "?");
		const char *args = json_str_of(en, "icount", "?");
		const char *kern = json_str_of(en, "guest_kernel", "?");

		if (guest) /* virtio: the guest is the DUT */
			fprintf(out, "- Engine: icount: the DUT is a qemu TCG guest (%s, %s), kernel "
				     "%s, its virtio-net eth0 fed from this host's tap\n",
				qemu, args, kern);
		else /* veth: the whole experiment in the guest */
			fprintf(out, "- Engine: icount: the whole experiment ran inside a qemu TCG "
				     "guest (%s, %s), guest kernel %s, on a host with %s, kernel %s\n",
				qemu, args, kern,
				json_str_of(en, "host_cpu_model", "?"),
				json_str_of(en, "host_kernel", "?"));
		fprintf(out, "- Time: %s = %s, over pkts_at_dut; at -icount "
			     "shift=0 the guest clock advances 1 ns per guest instruction, so these "
			     "ns are instructions (no cpu_ns_per_pkt: emulated time is no host "
			     "time); %s\n",
			summary_time_metric(run),
			guest ? "the guest's CPU time in ns of its NAPI thread (threaded NAPI on "
				"eth0) and ksoftirqd"
			      : "guest CPU time in ns of the sender thread (which runs the veth "
				"receive softirq) + ksoftirqd/NAPI threads",
			timing_words);
	} else if (guest) {
		bool emulated = json_is_true(json_object_get(guest, "emulated_time"));

		fprintf(out, "- Guest (the DUT is its virtio-net eth0): kernel %s, %lld vCPU, %s, %s\n",
			json_str_of(guest, "kernel_release", "?"),
			json_integer_value(json_object_get(guest, "vcpus")),
			json_str_of(guest, "accelerator", "?"),
			json_str_of(guest, "qemu", "?"));
		fprintf(out, "- Time: cpu_ns_per_pkt = host CPU time of the guest's vCPU thread over "
			     "pkts_at_dut; %s\n", timing_words);
		if (emulated)
			fprintf(out, "- **These are emulation times (TCG)**: the guest's instructions "
				     "are translated and run by qemu, so only the within-run "
				     "comparison and the counts carry meaning, not the absolute "
				     "nanoseconds\n");
	} else if (json_is_true(json_object_get(set, "threaded_napi"))) {
		const json_t *nc = json_object_get(set, "napi_cpu");

		if (json_is_integer(nc) &&
		    json_integer_value(nc) == json_integer_value(json_object_get(set, "sender_cpu")))
			fprintf(out, "- Threaded NAPI: the DUT's receive path runs in its own kernel "
				     "thread (napi/DEV, %s) on the sender's CPU %lld: the two take "
				     "turns, and the thread's CPU time is the DUT's\n",
				json_str_of(set, "napi_thread_sched", "?"),
				json_integer_value(nc));
		else if (json_is_integer(nc))
			fprintf(out, "- Threaded NAPI: the DUT's receive path runs in its own kernel "
				     "thread (napi/DEV, %s) on CPU %lld\n",
				json_str_of(set, "napi_thread_sched", "?"),
				json_integer_value(nc));
		else
			fprintf(out, "- Threaded NAPI: the DUT's receive path runs in its own kernel "
				     "thread (napi/DEV, %s), kept off the sender's CPU\n",
				json_str_of(set, "napi_thread_sched", "?"));
		fprintf(out, "- Time: cpu_ns_per_pkt = CPU time of the sender thread + the DUT's "
			     "NAPI thread and ksoftirqd, over pkts_at_dut; at max_drop_pps the NAPI "
			     "thread's alone (the sender's own time, pacing included, is not the DUT's cost); %s\n",
			timing_words);
	} else {
		fprintf(out, "- Time: cpu_ns_per_pkt = CPU time of the sender thread (which runs the "
			     "veth receive softirq) + ksoftirqd/NAPI threads, over pkts_at_dut; "
			     "%s\n", timing_words);
	}
}

/* What may have disturbed the timing pass: steal time, other load, BPF statistics held
 * on by someone else, the JIT off. */
/* One of the load notes: @fmt (with the count of trials under @key and the count of
 * load-checked trials, both %lld) when @key counts any trial. */
static void load_note(FILE *out, const json_t *s, const char *key, const char *fmt)
{
	long long n = json_integer_value(json_object_get(s, key));

	if (n > 0)
		fprintf(out, fmt, n,
			(long long)json_integer_value(json_object_get(s, "timing_trials_load_checked")));
}

static void header_disturbances(const struct render_ctx *rc)
{
	const json_t *s = rc->s;
	const char *bpf_stats_outside = rc->bpf_stats_outside;
	const json_t *run = rc->run;
	FILE *out = rc->out;

	load_note(out, s, "timing_trials_host_steal",
		  "- **Steal time**: in %lld of %lld timing trials the hypervisor ran other "
		  "work on this VM's CPUs for at least a quarter of the window "
		  "(`host_steal` and `steal_ns` in run.json): the host was loaded, so "
		  "absolute times per packet are inflated and spread wider; the paired "
		  "deltas, which compare trials taken next to each other, are the ones to "
		  "read\n");
	load_note(out, s, "timing_trials_other_load",
		  "- **Other load**: %lld of %lld timing trials ran while other work kept "
		  "a CPU busy for at least a quarter of the window (`other_load` and "
		  "`other_busy_ns` in run.json): such work slows the measured path (shared "
		  "caches, memory bandwidth, the hypervisor), so absolute times per packet "
		  "are inflated and spread wider; the paired deltas, which compare trials "
		  "taken next to each other, are the ones to read\n");
	if (bpf_stats_outside)
		fprintf(out, "- **BPF statistics were on during the timing pass** (%s; xdptc "
			     "leaves such a setting as it was): every run of a BPF program read the "
			     "clock twice, which adds to the XDP and TC modes' time alike but not to "
			     "mode none; the BPF-stats pass cost cannot be measured\n",
			bpf_stats_outside);
	{
		long jit = (long)json_integer_value(json_object_get(
			json_object_get(json_object_get(run, "doctor"), "sysctls"),
			"net.core.bpf_jit_enable"));

		if (json_is_integer(json_object_get(json_object_get(json_object_get(run, "doctor"),
								    "sysctls"),
						    "net.core.bpf_jit_enable")) && jit == 0)
			fprintf(out, "- **The BPF JIT was off** (net.core.bpf_jit_enable=0): the drop "
				     "programs were interpreted, several times slower than the JIT "
				     "code a production kernel runs\n");
	}
}

static void header_time(const struct render_ctx *rc)
{
	header_time_source(rc);
	header_disturbances(rc);
}

static void header_sources(const struct render_ctx *rc)
{
	const json_t *modes = rc->modes;
	const json_t *set = rc->set;
	const json_t *cnt = rc->cnt;
	const json_t *pmu = rc->pmu;
	const json_t *run = rc->run;
	FILE *out = rc->out;
	size_t i;
	json_t *m;

	if (json_is_array(perf_events_of(run))) {
		size_t k;
		json_t *e;

		if (!json_array_size(perf_events_of(run)))
			fprintf(out, "- perf events: none counted (%s)\n",
				json_str_of(set, "perf_events_reason", "?"));
		else
			fprintf(out, "- perf events: counted by perf stat over each timing window (its "
				     "counters on right before the sender's window and off right after "
				     "it, not during the settle wait) on %s; scaled by perf where "
				     "counters were shared:",
				json_str_of(set, "perf_scope", "?"));
		json_array_foreach(perf_events_of(run), k, e) {
			const char *metric = json_str_of(e, "metric", "?");
			char rkey[140];

			snprintf(rkey, sizeof(rkey), "%s_reason", metric);
			fprintf(out, "%s %s", k ? ";" : "",
				json_str_of(e, "event", "?"));
			json_array_foreach(modes, i, m)
				if (json_is_string(json_object_get(m, rkey))) {
					fprintf(out, " (none: %s)",
						json_string_value(json_object_get(m, rkey)));
					break;
				}
		}
		if (json_array_size(perf_events_of(run)))
			fprintf(out, "\n");
	} else {
		fprintf(out, "- Cycles: %s\n",
			json_is_true(json_object_get(pmu, "available"))
				? "PMU counters (perf_event_open, all CPUs)"
				: json_str_of(pmu, "reason", "n/a"));
	}
	{
		fprintf(out, "- Counters (count pass):\n");
		for (int k = 0; k < SKB_COUNT_NR; k++) {
			const char *count = skb_count_name((enum skb_count)k);
			const json_t *c = json_object_get(cnt, count);
			const char *b = json_str_of(c, "backend", "?");

			if (!strcmp(b, "unavailable"))
				fprintf(out, "  - %s: unavailable (%s)\n", count,
					json_str_of(c, "passed_over", ""));
			else
				fprintf(out, "  - %s: %s backend, %s\n", count, b,
					json_str_of(c, "points", "?"));
		}
	}
}

static void render_header(const struct render_ctx *rc)
{
	const json_t *set = rc->set;
	const json_t *mach = rc->mach;
	const json_t *run = rc->run;
	FILE *out = rc->out;
	char a[48], b[48], c[48];

	fprintf(out, "# xdptc run: %s topology, %s\n\n",
		json_str_of(run, "topology", "?"),
		json_str_of(run, "created_utc", "?"));
	if (json_is_string(json_object_get(run, "incomplete")))
		fprintf(out, "**INCOMPLETE RUN**: %s. The figures below cover only the trials "
			     "measured before that.\n\n",
			json_string_value(json_object_get(run, "incomplete")));
	/* the answer first, in words, built only from the figures below */
	if (summary_headline(run, out))
		fprintf(out, "\n");
	fprintf(out, "- Machine: %s, %lld CPU%s; kernel %s %s\n",
		json_str_of(mach, "cpu_model", "?"),
		json_integer_value(json_object_get(mach, "cpus")),
		json_integer_value(json_object_get(mach, "cpus")) == 1 ? "" : "s",
		json_str_of(mach, "kernel_release", "?"),
		json_str_of(mach, "arch", ""));
	{
		const json_t *rate = json_object_get(set, "rate_pps");
		char r[48];

		/* the alternating pass's blocks are its repetitions; its windows its own */
		fprintf(out, window_run(run)
			? "- Sender: %s, pinned to CPU %lld, %s; the count and BPF-statistics passes "
			  "%s packets per trial after a warm-up of %s, %lld blocks of the timing pass "
			  "(below) and %lld repetitions of the others, in shuffled order (seed "
			  "%lld)\n"
			: "- Sender: %s, pinned to CPU %lld, %s; %s packets per trial after a warm-up "
			  "of %s; %lld repetitions of the timing pass and %lld of the count and "
			  "BPF-statistics passes, in shuffled order (seed %lld)\n",
			json_str_of(set, "sender", "?"),
			json_integer_value(json_object_get(set, "sender_cpu")),
			json_integer_value(rate) > 0 ? (snprintf(r, sizeof(r), "paced at %s pps",
								 fmt_count(c, sizeof(c), rate)), r)
						     : "unpaced",
			fmt_count(a, sizeof(a), json_object_get(set, "packets")),
			fmt_count(b, sizeof(b), json_object_get(set, "warmup")),
			json_integer_value(json_object_get(set, "reps")),
			json_integer_value(json_object_get(set, "count_reps")),
			json_integer_value(json_object_get(set, "seed")));
	}
	window_schedule_md(run, out);
	header_time(rc);
	header_sources(rc);
}

/* The rows of the run's time metric: median (min-max), and its coefficient of variation. */
static void time_rows(FILE *out, const json_t *modes, const char *tm)
{
	char label[96], key[64];

	snprintf(label, sizeof(label), "%s, median (min-max)", tm);
	row(out, modes, label, tm, METRIC_FMT_RANGE);
	snprintf(label, sizeof(label), "%s coefficient of variation", tm);
	row(out, modes, label, tm_key(key, sizeof(key), tm, "_cv"), METRIC_FMT_2SIG);
}

/* The rows of the run's perf events (each E_per_pkt, how much of the window perf counted
 * where it multiplexed, ipc), or of a run before perf stat its cycles and instructions. */
static void perf_rows(FILE *out, const json_t *modes, const json_t *run)
{
	size_t i, k;
	json_t *m, *e;

	if (!json_is_array(perf_events_of(run))) {
		row(out, modes, "cycles_per_pkt", "cycles_per_pkt", METRIC_FMT_1DP);
		if (strcmp(summary_time_metric(run), "instructions_per_pkt"))
			row(out, modes, "instructions_per_pkt", "instructions_per_pkt", METRIC_FMT_1DP);
		return;
	}
	json_array_foreach(perf_events_of(run), k, e) {
		const char *metric = json_str_of(e, "metric", "?");
		char label[160], key[128];
		bool shared = false;

		snprintf(label, sizeof(label), "%s (perf stat), median (min-max)", metric);
		row(out, modes, label, metric, METRIC_FMT_RANGE);
		snprintf(key, sizeof(key), "%s_min_pct_running", metric);
		json_array_foreach(modes, i, m)
			shared |= json_number_value(json_object_get(m, key)) < 100 &&
				  json_is_number(json_object_get(m, key));
		if (shared) { /* multiplexed: perf scaled the counts */
			snprintf(label, sizeof(label), "%s: lowest %% of the window counted "
						       "(perf scaled it)", metric);
			row(out, modes, label, key, METRIC_FMT_1DP);
		}
	}
	json_array_foreach(modes, i, m)
		if (json_is_number(json_object_get(m, "ipc"))) {
			row(out, modes, "ipc (instructions per cycle, perf stat)", "ipc", METRIC_FMT_3DP);
			break;
		}
}

/* summary.md's table: a column per mode, a row per metric of the metric table that has
 * a label (rate-search rows only when the run searched), in the table's order. */
static void render_table(const struct render_ctx *rc)
{
	const json_t *modes = rc->modes;
	const json_t *run = rc->run;
	FILE *out = rc->out;
	size_t i;
	json_t *m;

	fprintf(out, "\n| metric |");
	json_array_foreach(modes, i, m)
		fprintf(out, " %s |", json_string_value(json_object_get(m, "mode")));
	fprintf(out, "\n|---|");
	json_array_foreach(modes, i, m)
		fprintf(out, "---|");
	fprintf(out, "\n");
	for (const struct metric *x = metrics; x->name; x++) {
		if (x->flags & METRIC_TIME)
			time_rows(out, modes, summary_time_metric(run));
		else if (x->flags & METRIC_PERF)
			perf_rows(out, modes, run);
		else if (x->flags & METRIC_INSNS) {
			if (x->label && run_has_insns(run))
				row(out, modes, x->label, x->name, x->format);
		} else if (!x->label || ((x->flags & METRIC_RATE) && !json_object_get(run, "max_rate")))
			continue;
		else if (x->format == METRIC_FMT_OBSERVER)
			observer_row(out, modes, x->label, x->name);
		else
			row(out, modes, x->label, x->name, x->format);
	}

}

/* An unpaced sender that overran the DUT: each mode's time is over what reached it. */
static void note_loss(FILE *out, const json_t *modes, const json_t *set)
{
	char a[48], b[48];
	size_t i;
	json_t *m;

	json_array_foreach(modes, i, m) {
		double sent = json_number_value(json_object_get(m, "sent"));
		double at = json_number_value(json_object_get(m, "pkts_at_dut"));

		if (sent > 0 && at < 0.99 * sent)
			fprintf(out, "\nLoss in the timing pass: %s's DUT got %s of %s packets "
				     "(medians), %.1f%% lost before it. Per-packet times then compare "
				     "unlike loads; %s.\n",
				json_string_value(json_object_get(m, "mode")),
				fmt_count(a, sizeof(a), json_object_get(m, "pkts_at_dut")),
				fmt_count(b, sizeof(b), json_object_get(m, "sent")),
				100 * (1 - at / sent),
				json_is_true(json_object_get(set, "threaded_napi"))
					? "pace the sender (RATE=) or keep the DUT on the sender's CPU "
					  "(NAPI_CPU=sender)"
					: "pace the sender lower (RATE=)");
	}
}

/* The saturation check of @m's max_drop_pps (the DUT on the sender's CPU). */
static void note_saturation(FILE *out, const json_t *m, const json_t *c, long long reps)
{
	char a[48], x[48], y[48], z[48], w[48], v[64] = "";

	fmt_count(x, sizeof(x), json_object_get(c, "reached_min_pps"));
	fmt_count(y, sizeof(y), json_object_get(c, "reached_max_pps"));
	fmt_count(z, sizeof(z), json_object_get(c, "median_ci_lo_pps"));
	fmt_count(w, sizeof(w), json_object_get(c, "median_ci_hi_pps"));
	if (json_is_number(json_object_get(c, "trial_packets"))) {
		char t[48];

		snprintf(v, sizeof(v), " of %s packets",
			 fmt_count(t, sizeof(t), json_object_get(c, "trial_packets")));
	}
	fprintf(out, "\nmax_drop_pps of %s, a saturation rate: the DUT's "
		     "receive path shares the sender's CPU and runs whenever the sender "
		     "yields, so no packet can be lost and the highest lossless rate is "
		     "the rate the pair reaches. Checked: %lld of %lld unpaced trials%s "
		     "lossless, reaching %s to %s pps; median %s, its %.1f%% interval "
		     "[%s, %s]",
		json_string_value(json_object_get(m, "mode")),
		json_integer_value(json_object_get(c, "lossless_at_max")), reps, v, x, y,
		fmt_count(a, sizeof(a), json_object_get(m, "max_drop_pps")),
		100 * json_number_value(json_object_get(c, "median_ci_level")), z, w);
	if (json_is_true(json_object_get(c, "confirmed")))
		fprintf(out, ": within 5%% of the median.\n");
	else {
		double med = json_number_value(json_object_get(m, "max_drop_pps"));

		fprintf(out, ": NOT within 5%% of the median (%+.1f%%, %+.1f%%)%s.\n",
			med > 0 ? 100 * (json_number_value(json_object_get(
				      c, "median_ci_lo_pps")) / med - 1) : 0,
			med > 0 ? 100 * (json_number_value(json_object_get(
				      c, "median_ci_hi_pps")) / med - 1) : 0,
			json_integer_value(json_object_get(c, "lossless_at_max")) < reps
				? ", and not every trial was lossless" : "");
	}
}

/* The bisection's check of @m's max_drop_pps (the DUT on a CPU of its own). */
static void note_bisection(FILE *out, const json_t *m, const json_t *c, long long reps)
{
	char a[48], x[48];

	fprintf(out, "\nmax_drop_pps of %s checked: %lld of %lld trials lossless at %s pps",
		json_string_value(json_object_get(m, "mode")),
		json_integer_value(json_object_get(c, "lossless_at_max")), reps,
		fmt_count(a, sizeof(a), json_object_get(m, "max_drop_pps")));
	fprintf(out, ", %lld of %lld lost packets at %s pps (+5%%)",
		json_integer_value(json_object_get(c, "lossy_above")), reps,
		fmt_count(x, sizeof(x), json_object_get(c, "above_pps")));
	if (json_integer_value(json_object_get(c, "lowered")))
		fprintf(out, "; lowered %lld time(s) by 2%% after a lossy repeat",
			json_integer_value(json_object_get(c, "lowered")));
	if (json_integer_value(json_object_get(m, "max_drop_pps_stalled_trials")))
		fprintf(out, "; %lld trial(s) set aside and repeated because they lost packets "
			     "while the DUT's NAPI thread waited for its CPU longer than the "
			     "256-frame ring lasts (loss such a stall alone causes), so the "
			     "rate is the highest at which the trials that did not stall were "
			     "lossless, and a rate whose every repeat stalled counts as lossy",
			json_integer_value(json_object_get(m, "max_drop_pps_stalled_trials")));
	fprintf(out, "%s\n", json_is_true(json_object_get(c, "confirmed"))
		? ": the highest lossless rate is within 5% above it."
		: ": NOT confirmed within 5%.");
}

/* The rate search: its regime, a stall watch that failed, sender-bound answers, and each
 * mode's check. */
static void note_rates(FILE *out, const json_t *modes, const json_t *run)
{
	char a[48];
	size_t i;
	json_t *m;

	if (json_is_array(json_object_get(run, "max_rate"))) {
		const json_t *first = json_array_get(json_object_get(run, "max_rate"), 0);

		if (first && json_is_string(json_object_get(run, "max_rate_regime")))
			fprintf(out, "\nRate search with the %s; cpu_ns_per_pkt at max_drop_pps is the "
				     "CPU time of %s.\n",
				json_string_value(json_object_get(run, "max_rate_regime")),
				json_str_of(first, "cpu_ns_per_pkt_at_max_source", "?"));
		if (json_is_string(json_object_get(run, "max_rate_stall_source_error")))
			fprintf(out, "\nWARNING: the NAPI thread's waits for a CPU were not watched "
				     "(%s): loss that such a wait caused counts against the mode.\n",
				json_string_value(json_object_get(run, "max_rate_stall_source_error")));
	}
	json_array_foreach(modes, i, m)
		if (json_is_true(json_object_get(m, "max_drop_pps_sender_bound")) &&
		    strcmp(json_str_of(json_object_get(m, "max_drop_pps_confirm"), "kind", ""),
			   "saturation"))
			fprintf(out, "\nmax_drop_pps of %s is a lower bound: even the unpaced sender "
				     "(%s pps) lost nothing before the DUT, so the sender, not the DUT, "
				     "was the limit.\n",
				json_string_value(json_object_get(m, "mode")),
				fmt_count(a, sizeof(a), json_object_get(m, "max_drop_pps")));
	json_array_foreach(modes, i, m) {
		const json_t *c = json_object_get(m, "max_drop_pps_confirm");
		long long reps = json_integer_value(json_object_get(c, "reps"));

		if (!c)
			continue;
		if (!strcmp(json_str_of(c, "kind", ""), "saturation"))
			note_saturation(out, m, c, reps);
		else
			note_bisection(out, m, c, reps);
	}
}

/* Conservation in the TC drop: skbs built and freed against packets. */
static void note_conservation(FILE *out, const json_t *s)
{
	const json_t *c = json_object_get(s, "conservation");
	bool built = json_is_number(json_object_get(c, "skbs_built"));
	bool freed = json_is_number(json_object_get(c, "skbs_freed"));
	char x[48], y[48], z[48], which[64];

	if (!c)
		return;
	/* name the counts that were compared: an unavailable one agrees with nothing */
	snprintf(which, sizeof(which), "%s%s%s", built ? "skbs_built" : "",
		 built && freed ? " and " : "", freed ? "skbs_freed" : "");
	fprintf(out, "\nConservation in the TC drop (count pass medians): skbs_built %s, "
		     "skbs_freed %s, pkts_at_dut %s: ",
		fmt_count(x, sizeof(x), json_object_get(c, "skbs_built")),
		fmt_count(y, sizeof(y), json_object_get(c, "skbs_freed")),
		fmt_count(z, sizeof(z), json_object_get(c, "pkts_at_dut")));
	if (json_is_null(json_object_get(c, "agree_within_1pct")))
		fprintf(out, "nothing to compare");
	else if (json_is_true(json_object_get(c, "agree_within_1pct")))
		fprintf(out, "%s %s pkts_at_dut within 1%%", which, built && freed ? "agree with"
										    : "agrees with");
	else
		fprintf(out, "**MISMATCH: %s and pkts_at_dut differ by more than 1%%**", which);
	fprintf(out, "%s%s\n", json_is_string(json_object_get(c, "note")) ? "; " : "",
		json_str_of(c, "note", ""));
}

static void render_notes(const struct render_ctx *rc)
{
	note_loss(rc->out, rc->modes, rc->set);
	note_rates(rc->out, rc->modes, rc->run);
	note_conservation(rc->out, rc->s);
}

static void render_cross_check(const struct render_ctx *rc)
{
	const json_t *modes = rc->modes;
	FILE *out = rc->out;
	size_t i;
	json_t *m;
	char a[48];

	json_array_foreach(modes, i, m) {
		const json_t *xc = json_object_get(m, "cross_check");
		const char *cname;
		json_t *per;

		if (!xc)
			continue;
		fprintf(out, "\nCross-check of the counter backends, %s (count pass medians):",
			json_string_value(json_object_get(m, "mode")));
		json_object_foreach((json_t *)xc, cname, per) {
			const char *b;
			json_t *v;
			int first = 1;

			fprintf(out, " %s", cname);
			json_object_foreach(per, b, v) {
				fprintf(out, "%s %s %s", first ? "" : ",", b, fmt_count(a, sizeof(a), v));
				first = 0;
			}
			fputc(';', out);
		}
		fputc('\n', out);
	}
}

static void render_deltas(const struct render_ctx *rc)
{
	const json_t *s = rc->s;
	FILE *out = rc->out;
	bool by_rep = false; /* a delta paired by repetition (not over windows) */
	size_t i;
	json_t *d;

	json_array_foreach(json_object_get(s, "deltas"), i, d)
		by_rep |= !json_object_get(d, "blocks");

	if (!json_array_size(json_object_get(s, "deltas"))) {
		fprintf(out, "\nOne mode measured: no within-run delta.\n");
	} else {
		if (window_run(rc->run))
			fprintf(out, "\nWithin-run deltas (B against A = %s; the A/A arm against its "
				     "own mode; %s: window by window, in blocks, each block's "
				     "Hodges-Lehmann estimate and the signed-rank interval over the "
				     "blocks, with its exact coverage%s):\n\n",
				json_str_of(s, "baseline", "?"),
				summary_time_metric(rc->run), by_rep ? "; other metrics paired by "
				"block, interval of the median paired ratio from order statistics" : "");
		else
			fprintf(out, "\nWithin-run deltas (B against A = %s; the A/A arm against its "
				     "own mode; paired by repetition; interval of the median paired "
				     "ratio from order statistics, with its exact coverage):\n\n",
				json_str_of(s, "baseline", "?"));
		fprintf(out, "| metric | A | B | delta (median) | interval (coverage) | per-pair range | "
			     "pairs | verdict |\n");
		fprintf(out, "|---|---|---|---|---|---|---|---|\n");
	}
	json_array_foreach(json_object_get(s, "deltas"), i, d) {
		const json_t *lo = json_object_get(d, "ci95_lo");
		json_int_t pairs = json_integer_value(json_object_get(d, "pairs"));
		double l = json_number_value(lo), h = json_number_value(json_object_get(d, "ci95_hi"));
		char x[32], y[32], z[32], w[32], v[32], blk[32];
		int pr;

		fprintf(out, "| %s | %s | %s | ", json_string_value(json_object_get(d, "metric")),
			json_string_value(json_object_get(d, "a")),
			json_string_value(json_object_get(d, "b")));
		if (!json_is_number(json_object_get(d, "rel_delta"))) {
			fprintf(out, "n/a | n/a | n/a | %lld | %s |\n", pairs,
				json_str_of(d, "reason", ""));
			continue;
		}
		pr = json_is_number(lo) ? summary_pct_decimals(l, h) : 1;
		if (json_is_number(lo))
			snprintf(w, sizeof(w), "[%s, %s] (%.1f%%)", fmt_pct(x, sizeof(x), l, pr),
				 fmt_pct(y, sizeof(y), h, pr),
				 100 * json_number_value(json_object_get(d, "ci_coverage")));
		else
			snprintf(w, sizeof(w), "none below 6 pairs");
		fprintf(out, "%s | %s | %s%s .. %s | %lld%s | %s |\n",
			fmt_pct(v, sizeof(v), json_number_value(json_object_get(d, "rel_delta")), pr), w,
			json_object_get(d, "blocks") ? "blocks " : "",
			fmt_pct(x, sizeof(x), json_number_value(json_object_get(d, "pair_min")), pr),
			fmt_pct(z, sizeof(z), json_number_value(json_object_get(d, "pair_max")), pr),
			pairs, json_object_get(d, "blocks") ? (snprintf(blk, sizeof(blk), " in %lld blocks",
					json_integer_value(json_object_get(d, "blocks"))), blk) : "",
			json_is_true(json_object_get(d, "aa_systematic"))
				? "A/A arm: identical arms differ systematically"
			: json_is_true(json_object_get(d, "aa")) ? "A/A arm: the noise floor"
			: json_is_true(json_object_get(d, "real")) ? "real (interval excludes 0)"
			: !json_is_number(lo) ? "too few pairs to call"
					      : "not distinguishable from noise");
	}
	{
		const json_t *nf = json_object_get(s, "noise_floor");
		double l = json_number_value(json_object_get(nf, "ci95_lo"));
		double h = json_number_value(json_object_get(nf, "ci95_hi"));
		int pr = summary_pct_decimals(l, h);
		char x[32], y[32];

		if (nf && json_is_true(json_object_get(nf, "systematic")))
			fprintf(out, "\nA/A noise floor (a mode measured as two identical arms): "
				     "interval [%s, %s], which excludes 0: the two identical arms "
				     "differ systematically (by the order of the trials, or the "
				     "machine), so no delta smaller than %.*f%% means anything here.\n",
				fmt_pct(x, sizeof(x), l, pr), fmt_pct(y, sizeof(y), h, pr), pr,
				100 * fmax(fabs(l), fabs(h)));
		else if (nf)
			fprintf(out, "\nA/A noise floor (a mode measured as two identical arms): "
				     "interval [%s, %s], half-width %.*f%%. A delta inside that band is "
				     "no larger than what this run measures between identical arms.\n",
				fmt_pct(x, sizeof(x), l, pr), fmt_pct(y, sizeof(y), h, pr), pr,
				100 * (h - l) / 2);
	}
	if (json_array_size(json_object_get(s, "deltas")) && window_run(rc->run))
		fprintf(out, "\nThe time metric's pairs are windows of two arms in the same round "
			     "and place; adjacent pairs share the machine's noise and the rounds' "
			     "random order, so they are not independent, and its interval is computed "
			     "over the blocks, whose orders are drawn independently: the block "
			     "estimates' Walsh averages, the c-th smallest and c-th largest, with c "
			     "from the signed-rank statistic's exact distribution (coverage as shown "
			     "for estimates symmetric about the true delta; for the A/A arm exactly, "
			     "by the randomization). run.json keeps beside it the narrower interval "
			     "the pairs would give if they were independent (independent_ci95_lo, "
			     "_hi). A delta is called real only when its interval excludes 0.\n");
	if (by_rep)
		fprintf(out, "\nEach interval is the k-th smallest and k-th largest of the paired "
			     "ratios, with k chosen from the binomial distribution so that it covers "
			     "the true median ratio with the probability shown (at least 95%%), "
			     "whatever the distribution of the ratios%s. A delta is called real only "
			     "when its interval excludes 0; fewer than 6 pairs give no such interval "
			     "(all 5 of one sign happens by chance 1 time in 16).\n",
			window_run(rc->run) ? " (for the time metric of an alternating pass: see "
					      "above; for the rest, blocks are the repetitions)" : "");
}

/* A negative observer cost, in words: drift, not probes that speed the path up. */
static void note_negative_cost(FILE *out, const json_t *modes)
{
	bool neg = false;
	size_t i;
	json_t *m;

	json_array_foreach(modes, i, m)
		neg |= json_number_value(json_object_get(m, "observer_count_pass_pct")) < 0 ||
		       json_number_value(json_object_get(m, "observer_bpfstats_pass_pct")) < 0;
	if (neg)
		fprintf(out, "\nA negative cost does not mean that probes or BPF statistics "
			     "make the path faster: that pass's trials ran at other moments "
			     "than the timing pass's, when the machine happened to be faster; "
			     "read it as no cost measurable above the drift.\n");
}

static void render_footer(const struct render_ctx *rc)
{
	fprintf(rc->out, "\nThe two \"cost\" rows are the observer effect: the median ratio of the "
		     "%s of the count pass (probes attached) and of the BPF-statistics pass to the "
		     "timing pass's, repetition by repetition, in percent, with its interval when "
		     "there are 6 or more pairs; \"n.s.\" (not significant) when the interval "
		     "includes 0 or there is none. The passes run one after another, so these "
		     "pairs are minutes apart and carry the host's drift. No trial is dropped as "
		     "an outlier: medians and order statistics resist them.\n",
		summary_time_metric(rc->run));
	note_negative_cost(rc->out, rc->modes);
	fprintf(rc->out, "\nCompare deltas inside this run only. Absolute times depend on the machine, "
		     "its load and the topology; they are not comparable across runs or machines. "
		     "Trials whose packets are not conserved (sent = dropped + passed + lost before "
		     "the DUT, within 0.1%%) are marked invalid in run.json and left out above.\n");
}

int summary_render_md(const json_t *run, FILE *out)
{
	struct render_ctx rc = { .run = run, .out = out };

	rc.s = json_object_get(run, "summary");
	rc.modes = json_object_get(rc.s, "modes");
	rc.set = json_object_get(run, "settings");
	rc.mach = json_object_get(run, "machine");
	rc.caps = json_object_get(run, "capabilities");
	rc.cnt = json_object_get(rc.caps, "counters");
	rc.pmu = json_object_get(rc.caps, "pmu");
	rc.guest = json_object_get(run, "guest");
	rc.bpf_stats_outside = summary_bpf_stats_outside(run);
	rc.timing_words = rc.bpf_stats_outside
		? "timing pass with no tracing, but with BPF statistics on (see below)"
		: "timing pass with no tracing and BPF statistics off";
	if (!json_is_array(rc.modes) || !rc.set || !rc.mach)
		return -EINVAL;
	render_header(&rc);  /* the answer, the machine, settings, sources */
	render_table(&rc);   /* one column per mode */
	render_notes(&rc);   /* loss, rate search, its checks, conservation */
	render_cross_check(&rc);
	render_deltas(&rc);  /* the paired deltas, the noise floor */
	render_footer(&rc);  /* how to read the rest */
	return 0;
}
