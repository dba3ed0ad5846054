/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_notes.c: summary.md's notes (loss, saturation, the rate search, conservation),
 * the cross-check of counter backends, the deltas and the footer (summary_notes.h). */
#include "summary_notes.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "metrics.h"
#include "page_regime.h"
#include "skb_counters.h"
#include "summary_facts.h"
#include "summary_segments.h"
#include "summary_words.h"
#include "window_delta.h"

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
				summary_fmt_count(a, sizeof(a), json_object_get(m, "pkts_at_dut")),
				summary_fmt_count(b, sizeof(b), json_object_get(m, "sent")),
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

	summary_fmt_count(x, sizeof(x), json_object_get(c, "reached_min_pps"));
	summary_fmt_count(y, sizeof(y), json_object_get(c, "reached_max_pps"));
	summary_fmt_count(z, sizeof(z), json_object_get(c, "median_ci_lo_pps"));
	summary_fmt_count(w, sizeof(w), json_object_get(c, "median_ci_hi_pps"));
	if (json_is_number(json_object_get(c, "trial_packets"))) {
		char t[48];

		snprintf(v, sizeof(v), " of %s packets",
			 summary_fmt_count(t, sizeof(t), json_object_get(c, "trial_packets")));
	}
	fprintf(out, "\nmax_drop_pps of %s, a saturation rate: the DUT's "
		     "receive path shares the sender's CPU and runs whenever the sender "
		     "yields, so no packet can be lost and the highest lossless rate is "
		     "the rate the pair reaches. Checked: %lld of %lld unpaced trials%s "
		     "lossless, reaching %s to %s pps; median %s, its %.1f%% interval "
		     "[%s, %s]",
		json_string_value(json_object_get(m, "mode")),
		json_integer_value(json_object_get(c, "lossless_at_max")), reps, v, x, y,
		summary_fmt_count(a, sizeof(a), json_object_get(m, "max_drop_pps")),
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
		summary_fmt_count(a, sizeof(a), json_object_get(m, "max_drop_pps")));
	fprintf(out, ", %lld of %lld lost packets at %s pps (+5%%)",
		json_integer_value(json_object_get(c, "lossy_above")), reps,
		summary_fmt_count(x, sizeof(x), json_object_get(c, "above_pps")));
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
				summary_fmt_count(a, sizeof(a), json_object_get(m, "max_drop_pps")));
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
		summary_fmt_count(x, sizeof(x), json_object_get(c, "skbs_built")),
		summary_fmt_count(y, sizeof(y), json_object_get(c, "skbs_freed")),
		summary_fmt_count(z, sizeof(z), json_object_get(c, "pkts_at_dut")));
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

/* The every-iteration count's regimes, when the arms or one arm's windows differ. */
static void note_page_regime(FILE *out, const json_t *modes)
{
	char buf[2048];

	if (page_regime_sentence(modes, buf, sizeof(buf)))
		fprintf(out, "\n%s\n", buf);
}

void summary_notes_render(const struct render_ctx *rc)
{
	note_page_regime(rc->out, rc->modes);
	note_loss(rc->out, rc->modes, rc->set);
	note_rates(rc->out, rc->modes, rc->run);
	note_conservation(rc->out, rc->s);
}

void summary_cross_check_render(const struct render_ctx *rc)
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
				fprintf(out, "%s %s %s", first ? "" : ",", b, summary_fmt_count(a, sizeof(a), v));
				first = 0;
			}
			fputc(';', out);
		}
		fputc('\n', out);
	}
}

/* The deltas' heading and the table's head (or the sentence when there is no delta). */
static void deltas_head(const struct render_ctx *rc, bool by_rep)
{
	const json_t *s = rc->s;
	FILE *out = rc->out;

	if (!json_array_size(json_object_get(s, "deltas"))) {
		fprintf(out, "\nOne mode measured: no within-run delta.\n");
		return;
	}
	if (window_pass_alternates(rc->run))
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

/* One row of the deltas' table: delta @d. */
static void delta_row(FILE *out, const json_t *d)
{
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
		return;
	}
	pr = json_is_number(lo) ? summary_pct_decimals(l, h) : 1;
	if (json_is_number(lo))
		snprintf(w, sizeof(w), "[%s, %s] (%.1f%%)", summary_fmt_pct(x, sizeof(x), l, pr),
			 summary_fmt_pct(y, sizeof(y), h, pr),
			 100 * json_number_value(json_object_get(d, "ci_coverage")));
	else
		snprintf(w, sizeof(w), "none below 6 pairs");
	fprintf(out, "%s | %s | %s%s .. %s | %lld%s | %s |\n",
		summary_fmt_pct(v, sizeof(v), json_number_value(json_object_get(d, "rel_delta")), pr), w,
		json_object_get(d, "blocks") ? "blocks " : "",
		summary_fmt_pct(x, sizeof(x), json_number_value(json_object_get(d, "pair_min")), pr),
		summary_fmt_pct(z, sizeof(z), json_number_value(json_object_get(d, "pair_max")), pr),
		pairs, json_object_get(d, "blocks") ? (snprintf(blk, sizeof(blk), " in %lld blocks",
				json_integer_value(json_object_get(d, "blocks"))), blk) : "",
		json_is_true(json_object_get(d, "aa_systematic"))
			? "A/A arm: identical arms differ systematically"
		: json_is_true(json_object_get(d, "aa")) ? "A/A arm: the noise floor"
		: json_is_true(json_object_get(d, "real")) ? "real (interval excludes 0)"
		: !json_is_number(lo) ? "too few pairs to call"
				      : "not distinguishable from noise");
}

/* The A/A noise floor @nf in a sentence (nothing when the run has none). */
static void noise_floor_md(FILE *out, const json_t *nf)
{
	double l = json_number_value(json_object_get(nf, "ci95_lo"));
	double h = json_number_value(json_object_get(nf, "ci95_hi"));
	int pr = summary_pct_decimals(l, h);
	char x[32], y[32];

	if (nf && json_is_true(json_object_get(nf, "systematic")))
		fprintf(out, "\nA/A noise floor (a mode measured as two identical arms): "
			     "interval [%s, %s], which excludes 0: the two identical arms "
			     "differ systematically (by the order of the trials, or the "
			     "machine), so no delta smaller than %.*f%% means anything here.\n",
			summary_fmt_pct(x, sizeof(x), l, pr), summary_fmt_pct(y, sizeof(y), h, pr), pr,
			100 * fmax(fabs(l), fabs(h)));
	else if (nf)
		fprintf(out, "\nA/A noise floor (a mode measured as two identical arms): "
			     "interval [%s, %s], half-width %.*f%%. A delta inside that band is "
			     "no larger than what this run measures between identical arms.\n",
			summary_fmt_pct(x, sizeof(x), l, pr), summary_fmt_pct(y, sizeof(y), h, pr), pr,
			100 * (h - l) / 2);
}

/* How the intervals were computed: over blocks (an alternating pass's time metric), and
 * from order statistics (@by_rep: a delta paired by repetition). */
static void deltas_method_md(const struct render_ctx *rc, bool by_rep)
{
	FILE *out = rc->out;

	if (json_array_size(json_object_get(rc->s, "deltas")) && window_pass_alternates(rc->run))
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
			window_pass_alternates(rc->run) ?
				" (for the time metric of an alternating pass: see above; for the "
				"rest, blocks are the repetitions)" : "");
}

void summary_deltas_render(const struct render_ctx *rc)
{
	bool by_rep = false; /* a delta paired by repetition (not over windows) */
	size_t i;
	json_t *d;

	json_array_foreach(json_object_get(rc->s, "deltas"), i, d)
		by_rep |= !json_object_get(d, "blocks");
	deltas_head(rc, by_rep);
	json_array_foreach(json_object_get(rc->s, "deltas"), i, d)
		delta_row(rc->out, d);
	summary_segments_md(rc->run, rc->out);
	noise_floor_md(rc->out, json_object_get(rc->s, "noise_floor"));
	deltas_method_md(rc, by_rep);
}

/* A negative observer cost (one that prints below -0.0), in words: drift, not probes
 * that speed the path up. */
static void note_negative_cost(FILE *out, const json_t *modes)
{
	bool neg = false;
	size_t i;
	json_t *m;

	json_array_foreach(modes, i, m)
		neg |= json_number_value(json_object_get(m, "observer_count_pass_pct")) <= -0.05 ||
		       json_number_value(json_object_get(m, "observer_bpfstats_pass_pct")) <= -0.05;
	if (neg)
		fprintf(out, "\nA negative cost does not mean that probes or BPF statistics "
			     "make the path faster: that pass's trials ran at other moments "
			     "than the timing pass's, when the machine happened to be faster; "
			     "read it as no cost measurable above the drift.\n");
}

void summary_footer_render(const struct render_ctx *rc)
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
		     "%s are marked invalid in run.json and left out above.\n",
		json_is_object(json_object_get(rc->run, "device"))
		? "Trials whose packets the program did not decide as the device's driver counted "
		  "them (within 0.1% and 256 packets), and trials whose offered rate is more than "
		  "the rate tolerance from their pass's median,"
		: "Trials whose packets are not conserved (sent = dropped + passed + lost before "
		  "the DUT, within 0.1%)");
}
