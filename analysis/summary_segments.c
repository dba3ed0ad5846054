/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "summary_segments.h"

#include <math.h>
#include <string.h>

#include "json_read.h"
#include "summary_words.h"

void summary_stop_md(const json_t *run, FILE *out)
{
	const json_t *st = json_object_get(json_object_get(run, "timing_schedule"), "stop");
	const json_t *h;
	const char *why = json_str_of(st, "reason", "");
	size_t i;

	if (!st)
		return;
	fprintf(out, "- Stopping: the timing pass looked at its intervals after its %lld planned "
		     "segments and after each one more, and stopped after %lld segment%s (%lld "
		     "blocks): %s",
		json_integer_value(json_object_get(json_object_get(run, "timing_schedule"),
						   "segments")),
		json_integer_value(json_object_get(st, "segments")),
		json_integer_value(json_object_get(st, "segments")) == 1 ? "" : "s",
		json_integer_value(json_object_get(st, "blocks")),
		!strcmp(why, "target") ? "every interval at its target"
		: !strcmp(why, "budget") ? "**the budget ended before the target**"
		: !strcmp(why, "wall") ? "**the run's time (68 s with the default budget, its "
					 "other passes estimated) ended before the target**"
					 : "**the most segments a run holds, before the target**");
	json_array_foreach(json_object_get(st, "halfwidths"), i, h) {
		const json_t *hw = json_object_get(h, "halfwidth");

		fprintf(out, "%s %s half-width ", i ? "," : ":", json_str_of(h, "arm", "?"));
		if (json_is_number(hw))
			fprintf(out, "%.2f%%", 100 * json_number_value(hw));
		else
			fprintf(out, "none yet");
		fprintf(out, " (target %.2f%%)", 100 * json_num_of(h, "target"));
	}
	fprintf(out, ".\n");
}

/* One delta's row: within-run interval, segments, next-run interval. */
static void segment_row(const json_t *d, FILE *out)
{
	double l = json_num_of(d, "ci95_lo"), h = json_num_of(d, "ci95_hi");
	double nl = json_num_of(d, "next_run_lo"), nh = json_num_of(d, "next_run_hi");
	const json_t *se = json_object_get(d, "segment_estimates"), *v;
	int pr = summary_pct_decimals(isfinite(nl) ? nl : l, isfinite(nh) ? nh : h);
	char a[32], b[32], c[32], e[32], f[32];
	double mn = INFINITY, mx = -INFINITY;
	size_t i;

	json_array_foreach(se, i, v) {
		mn = fmin(mn, json_number_value(v));
		mx = fmax(mx, json_number_value(v));
	}
	fprintf(out, "| %s | %s | %s | %s | [%s, %s] | %lld: %s .. %s, sd %.2f points | ",
		json_str_of(d, "metric", "?"), json_str_of(d, "a", "?"), json_str_of(d, "b", "?"),
		summary_fmt_pct(a, sizeof(a), json_num_of(d, "rel_delta"), pr),
		summary_fmt_pct(b, sizeof(b), l, pr), summary_fmt_pct(c, sizeof(c), h, pr),
		json_integer_value(json_object_get(d, "segments")),
		summary_fmt_pct(e, sizeof(e), mn, pr), summary_fmt_pct(f, sizeof(f), mx, pr),
		100 * json_num_of(d, "segment_sd"));
	if (isfinite(nl))
		fprintf(out, "[%s, %s] (t %.2f) |\n", summary_fmt_pct(a, sizeof(a), nl, pr),
			summary_fmt_pct(b, sizeof(b), nh, pr), json_num_of(d, "next_run_t"));
	else
		fprintf(out, "none below 3 segments |\n");
}

void summary_segments_md(const json_t *run, FILE *out)
{
	const json_t *s = json_object_get(run, "summary"), *d;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(s, "deltas"), i, d) {
		if (!json_object_get(d, "segments"))
			continue;
		if (!n++)
			fprintf(out, "\nBetween segments and the next run (the timing pass in "
				     "segments spread over it%s; each segment's estimate is the "
				     "Hodges-Lehmann estimate of its blocks'; the next run's interval "
				     "is this run's estimate +- t(0.975, segments - 1) x their sd x "
				     "sqrt(2 / segments): what another run of the same command here "
				     "shows, where the within-run interval says only what this run's "
				     "windows show):\n\n| metric | A | B | delta | within-run interval | "
				     "segments: estimates, sd | next run's interval |\n"
				     "|---|---|---|---|---|---|---|\n",
				json_is_true(json_object_get(json_object_get(run, "timing_schedule"),
							     "rebuilt_per_segment"))
					? ", the topology built anew before each" : "");
		segment_row(d, out);
	}
}
