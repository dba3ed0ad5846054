/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary.c: a run's summary from its run.json (summary.h): each mode's figures
 * (summary_modes.c), each mode's paired delta against the baseline with its interval,
 * the A/A noise floor, the load and conservation counts. */
#include "summary.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "metrics.h"
#include "stats.h"
#include "summary_facts.h"
#include "page_regime.h"
#include "summary_modes.h"
#include "window_delta.h"

#define PERF_METRICS_MAX 24

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

/* The delta object of @n pairs (pa[i], pb[i]), ratios d[i] = pb[i] / pa[i] - 1: the median
 * ratio and its distribution-free interval (order statistics of the paired ratios, the
 * sign test's), whose coverage is exact and at least 95% for any distribution. */
static json_t *delta_from_pairs(const char *metric, const char *a, const char *b,
				const double *pa, const double *pb, size_t n)
{
	struct stats_interval iv;
	double coverage = 0, d[SUMMARY_MAX_VALUES];
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
	double pa[SUMMARY_MAX_VALUES], pb[SUMMARY_MAX_VALUES];

	if (!strcmp(metric, summary_time_metric(run)) && window_pass_alternates(run))
		return window_delta_json(run, metric, a, b);
	size_t n = summary_pair_by_rep(json_object_get(run, "trials"), metric, "timing", a, "timing", b,
			       pa, pb);

	return delta_from_pairs(metric, a, b, pa, pb, n);
}

/* The saturation rates of modes a and b (rate search, DUT on the sender's CPU): trial i of
 * each was taken in the same interleaved round, so pairs by index cancel the host's
 * changes of speed between rounds. NULL when either mode has none. */
static json_t *saturation_delta(const json_t *run, const char *a, const char *b)
{
	const json_t *ra = NULL, *rb = NULL, *x;
	double pa[SUMMARY_MAX_VALUES], pb[SUMMARY_MAX_VALUES];
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
	for (i = 0; i < json_array_size(ra) && i < json_array_size(rb) && n < SUMMARY_MAX_VALUES; i++) {
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
		if (json_string_value(m) && !strcmp(json_string_value(m), "tc"))
			return "tc";
	return json_string_value(json_array_get(modes, 0));
}

/* The metrics @run compares between modes: its time metric, then each perf event's that
 * counted in some timing trial (runs before perf stat: cycles where the PMU was there). */
static int delta_metrics(const json_t *run, const char **out, int max)
{
	const char *perf[PERF_METRICS_MAX];
	int n = 0, np = summary_perf_metrics(run, perf, PERF_METRICS_MAX);
	bool legacy = !json_is_array(summary_perf_events(run));
	size_t i;
	json_t *t;

	if (summary_has_insns(run)) /* as a CPU counts them: first, the headline and noise floor */
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
static void conservation(json_t *s, const json_t *arr, bool sender_apart)
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
			/* the sender's own skb, one per packet, built apart (freed by its NIC's
			 * transmit completion, which no skbs_freed probe sees) */
			if (!k && sender_apart) {
				json_object_set_new(c, "skbs_built_at_dut",
						    json_real(json_number_value(v) -
							      json_number_value(pk)));
				v = json_object_get(c, "skbs_built_at_dut");
				snprintf(detail + n, sizeof(detail) - n, "%sskbs_built less the "
					 "sender's own skb, one per packet, compared", n ? ", " : "");
			}
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

/* Where the sender's own skb is built apart (run.json's sender_skb_apart: its socket
 * builds one per packet in the measured kernel, beside what the DUT builds), each mode's
 * skbs_built_at_dut_per_pkt: skbs_built_per_pkt less that one. */
static void sender_skbs_apart(const json_t *run, json_t *arr)
{
	size_t i;
	json_t *m;

	if (!json_is_true(json_object_get(run, "sender_skb_apart")))
		return;
	json_array_foreach(arr, i, m) {
		const json_t *v = json_object_get(m, "skbs_built_per_pkt");

		if (json_is_number(v))
			json_object_set_new(m, "skbs_built_at_dut_per_pkt",
					    json_real(json_number_value(v) - 1.0));
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
		json_array_append_new(arr, summary_mode(run, json_string_value(m)));
	json_array_foreach(modes, i, m)
		arm_deltas(run, s, deltas, base, json_string_value(m));
	load_counts(run, s);
	sender_skbs_apart(run, arr);
	conservation(s, arr, json_is_true(json_object_get(run, "sender_skb_apart")));
	page_regime_summarize(arr, run); /* the every-iteration count's regime per arm */
	json_object_set_new(s, "baseline", base ? json_string(base) : json_null());
	json_object_set_new(s, "modes", arr);
	json_object_set_new(s, "deltas", deltas);
	return s;
}
