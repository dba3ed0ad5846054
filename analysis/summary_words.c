/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_words.c: numbers, rows and sentences as summary.md writes them
 * (summary_words.h), and the headline. */
#include "summary_words.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "metrics.h"
#include "summary_facts.h"

const char *summary_fmt_num(char *buf, size_t len, const json_t *v, int decimals)
{
	if (!json_is_number(v)) {
		snprintf(buf, len, "n/a");
		return buf;
	}
	snprintf(buf, len, "%.*f", decimals, json_number_value(v));
	return buf;
}

/* @frac (0.055 = +5.5%) as a signed percentage with @dec decimals. */
const char *summary_fmt_pct(char *buf, size_t len, double frac, int dec)
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

const char *summary_fmt_count(char *buf, size_t len, const json_t *v)
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

void summary_row(FILE *out, const json_t *modes, const char *label, const char *key,
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
			fprintf(out, " %s |", summary_fmt_count(a, sizeof(a), v));
		else if (kind == METRIC_FMT_3DP)
			fprintf(out, " %s |", summary_fmt_num(a, sizeof(a), v, 3));
		else if (kind == METRIC_FMT_1DP)
			fprintf(out, " %s |", summary_fmt_num(a, sizeof(a), v, 1));
		else if (!json_is_number(json_object_get(m, kmin))) /* no spread recorded */
			fprintf(out, " %s |", summary_fmt_num(a, sizeof(a), v, 1));
		else /* median (min-max) */
			fprintf(out, " %s (%s-%s) |", summary_fmt_num(a, sizeof(a), v, 1),
				summary_fmt_num(b, sizeof(b), json_object_get(m, kmin), 1),
				summary_fmt_num(c, sizeof(c), json_object_get(m, kmax), 1));
	}
	fprintf(out, "\n");
}

/* @x as "%+.1f" prints it, but 0 for what rounds to zero ("+0.0", never "-0.0"). */
static double tenth(double x)
{
	return x > -0.05 && x < 0.05 ? 0.0 : x;
}

/* An observer-effect row: the median paired cost with its interval, or marked not
 * significant ("n.s.") when no interval exists or it includes 0. */
void summary_observer_row(FILE *out, const json_t *modes, const char *label, const char *key)
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
		double lr = json_number_value(lo), hr = json_number_value(json_object_get(m, kh));
		double l = tenth(lr), h = tenth(hr), c = tenth(json_number_value(v));

		if (!json_is_number(v))
			fprintf(out, " n/a |");
		else if (!json_object_get(m, kp)) /* written before pairs were recorded */
			fprintf(out, " %.1f |", json_number_value(v));
		else if (json_is_number(lo) && (lr > 0 || hr < 0))
			fprintf(out, " %+.1f [%+.1f, %+.1f] |", c, l, h);
		else if (json_is_number(lo))
			fprintf(out, " %+.1f [%+.1f, %+.1f], n.s. |", c, l, h);
		else
			fprintf(out, " %+.1f (%lld pairs: no interval), n.s. |", c,
				json_integer_value(json_object_get(m, kp)));
	}
	fprintf(out, "\n");
}

const json_t *summary_mode_of(const json_t *modes, const char *name)
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
void summary_mechanism_words(FILE *out, const json_t *mb, const json_t *ma, const char *b,
			    const char *a)
{
	static const struct {
		const char *key, *fmt;
	} c[] = {
		/* where the sender's own skb is built apart, the DUT's alone */
		{ "skbs_built_at_dut_per_pkt", "builds %.2f skbs at the DUT (%s %.2f; the "
		  "sender's own skb, one per packet, left out)" },
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
		if (!i)
			i++; /* the DUT's own count said: not the sender's with it */
	}
}

/* " [a, b] for the next run (S segments; within this run [c, d]), real": the interval
 * that says what another run shows, its verdict from it, the within-run one beside. */
static void next_run_words(FILE *out, const json_t *d)
{
	double nl = json_num_of(d, "next_run_lo"), nh = json_num_of(d, "next_run_hi");
	double l = json_num_of(d, "ci95_lo"), h = json_num_of(d, "ci95_hi");
	int pr = summary_pct_decimals(nl, nh);
	char a[32], b[32], x[32], y[32];

	fprintf(out, " [%s, %s] for the next run (%lld segments; within this run [%s, %s]), %s",
		summary_fmt_pct(a, sizeof(a), nl, pr), summary_fmt_pct(b, sizeof(b), nh, pr),
		json_integer_value(json_object_get(d, "segments")),
		summary_fmt_pct(x, sizeof(x), l, pr), summary_fmt_pct(y, sizeof(y), h, pr),
		nl > 0 || nh < 0 ? "real" : "not distinguishable from the spread between runs");
}

/* One line of the headline: delta @d of @run, after @n lines (n counts it). */
static void headline_line(const json_t *run, const json_t *d, FILE *out, int *n)
{
	const json_t *modes = json_object_get(json_object_get(run, "summary"), "modes");
	const char *metric = json_str_of(d, "metric", "");
	const char *a = json_str_of(d, "a", "?");
	const char *b = json_str_of(d, "b", "?");
	const json_t *lo = json_object_get(d, "ci95_lo");
	double l = json_number_value(lo), h = json_number_value(json_object_get(d, "ci95_hi"));
	bool time = !strcmp(metric, summary_time_metric(run));
	/* the older name of the icount time metric is also a PMU event's metric: only the
	 * run's time metric is guest instructions */
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

	fprintf(out, "%s%s vs %s: %s %s", (*n)++ ? "\n" : "", b, a,
		summary_fmt_pct(v, sizeof(v), json_number_value(json_object_get(d, "rel_delta")), pr),
		what);
	if (json_is_number(json_object_get(d, "next_run_lo")))
		next_run_words(out, d);
	else if (json_is_number(lo))
		fprintf(out, " [%s, %s], %s", summary_fmt_pct(x, sizeof(x), l, pr),
			summary_fmt_pct(y, sizeof(y), h, pr),
			json_is_true(json_object_get(d, "real")) ? "real" : "not distinguishable from noise");
	else
		fprintf(out, ", %lld pairs: too few to call",
			json_integer_value(json_object_get(d, "pairs")));
	if (time) /* the mechanism, once: beside the time metric */
		summary_mechanism_words(out, summary_mode_of(modes, b), summary_mode_of(modes, a), b, a);
	fprintf(out, ".");
}

int summary_headline(const json_t *run, FILE *out)
{
	size_t i;
	json_t *d;
	int n = 0;

	/* native XDP's deltas first (the question the suite answers), then the others */
	for (int pass = 0; pass < 2; pass++)
		json_array_foreach(json_object_get(json_object_get(run, "summary"), "deltas"), i, d) {
			if (json_is_true(json_object_get(d, "aa")) ||
			    !json_is_number(json_object_get(d, "rel_delta")) ||
			    (strcmp(json_str_of(d, "b", ""), "xdpdrv") == 0) != (pass == 0))
				continue;
			headline_line(run, d, out, &n);
		}
	if (n)
		fprintf(out, "\n");
	return n;
}
