/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "repeatability.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "stats.h"
#include "summary.h"
#include "summary_facts.h"

/* The time metric's delta of @b in @sum (the A/A half-width into *@aa_hw). */
static const json_t *time_delta(const json_t *run, const json_t *sum, const char *b,
				double *aa_hw)
{
	const char *tm = summary_time_metric(run);
	const json_t *d, *found = NULL;
	size_t i;

	*aa_hw = NAN;
	json_array_foreach(json_object_get(sum, "deltas"), i, d) {
		if (strcmp(json_str_of(d, "metric", ""), tm))
			continue;
		if (json_is_true(json_object_get(d, "aa")) && json_is_number(json_object_get(d, "ci95_lo")))
			*aa_hw = (json_num_of(d, "ci95_hi") - json_num_of(d, "ci95_lo")) / 2;
		else if (!strcmp(json_str_of(d, "b", ""), b))
			found = d;
	}
	return found;
}

static json_t *num_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* One run's row of the report. */
static json_t *run_row(const json_t *run, const json_t *d, const char *name, double aa_hw)
{
	const json_t *st = json_object_get(json_object_get(run, "timing_schedule"), "stop");

	return json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:s}", "dir", name,
			 "created_utc", json_str_of(run, "created_utc", "?"), "a",
			 json_str_of(d, "a", "?"), "rel_delta", num_or_null(json_num_of(d, "rel_delta")),
			 "ci95_lo", num_or_null(json_num_of(d, "ci95_lo")), "ci95_hi",
			 num_or_null(json_num_of(d, "ci95_hi")), "next_run_lo",
			 num_or_null(json_num_of(d, "next_run_lo")), "next_run_hi",
			 num_or_null(json_num_of(d, "next_run_hi")), "aa_halfwidth",
			 num_or_null(aa_hw), "segments",
			 num_or_null(json_num_of(d, "segments")), "stop",
			 json_str_of(st, "reason", "none recorded"));
}

/* The counts over consecutive runs, into @rep. */
static void count_inside(json_t *rep, const json_t *rows)
{
	int checked = 0, next = 0, within = 0, checked_w = 0;
	double fig[512];
	size_t n = 0;

	for (size_t i = 0; i < json_array_size(rows); i++) {
		const json_t *r = json_array_get(rows, i), *p = i ? json_array_get(rows, i - 1) : NULL;
		double x = json_num_of(r, "rel_delta");

		if (n < 512)
			fig[n++] = x;
		if (p && json_is_number(json_object_get(p, "next_run_lo"))) {
			checked++;
			next += json_num_of(p, "next_run_lo") <= x && x <= json_num_of(p, "next_run_hi");
		}
		if (p && json_is_number(json_object_get(p, "ci95_lo"))) {
			checked_w++;
			within += json_num_of(p, "ci95_lo") <= x && x <= json_num_of(p, "ci95_hi");
		}
	}
	json_object_set_new(rep, "checked", json_integer(checked));
	json_object_set_new(rep, "inside_next_run", json_integer(next));
	json_object_set_new(rep, "checked_within_run", json_integer(checked_w));
	json_object_set_new(rep, "inside_within_run", json_integer(within));
	if (n > 1) {
		double m = stats_mean(fig, n), ss = 0;

		for (size_t i = 0; i < n; i++)
			ss += (fig[i] - m) * (fig[i] - m);
		json_object_set_new(rep, "mean", json_real(m));
		json_object_set_new(rep, "spread_sd", json_real(sqrt(ss / (double)(n - 1))));
		json_object_set_new(rep, "min", json_real(stats_min(fig, n)));
		json_object_set_new(rep, "max", json_real(stats_max(fig, n)));
	}
}

json_t *repeatability_compute(json_t *const *runs, const char *const *names, size_t n,
			      const char *b, char *err, size_t errlen)
{
	json_t *rep = json_object(), *rows = json_array();
	const json_t *m0 = json_object_get(runs[0], "machine");
	bool same = true;

	for (size_t i = 0; i < n; i++) {
		const json_t *m = json_object_get(runs[i], "machine");
		json_t *sum = summary_compute(runs[i]);
		double aa_hw;
		const json_t *d = time_delta(runs[i], sum, b, &aa_hw);

		if (!d) {
			snprintf(err, errlen, "%s: no delta of %s against the baseline for its time "
				 "metric", names[i], b);
			json_decref(sum);
			json_decref(rows);
			json_decref(rep);
			return NULL;
		}
		same &= !strcmp(json_str_of(m, "cpu_model", ""), json_str_of(m0, "cpu_model", "?")) &&
			!strcmp(json_str_of(m, "kernel_release", ""), json_str_of(m0, "kernel_release", "?"));
		json_array_append_new(rows, run_row(runs[i], d, names[i], aa_hw));
		json_decref(sum);
	}
	json_object_set_new(rep, "schema", json_string(REPEATABILITY_SCHEMA));
	json_object_set_new(rep, "machine", json_pack("{s:s, s:I, s:s}", "cpu_model",
		json_str_of(m0, "cpu_model", "?"), "cpus",
		(json_int_t)json_integer_value(json_object_get(m0, "cpus")), "kernel_release",
		json_str_of(m0, "kernel_release", "?")));
	json_object_set_new(rep, "same_machine", json_boolean(same));
	json_object_set_new(rep, "topology", json_string(json_str_of(runs[0], "topology", "?")));
	json_object_set_new(rep, "metric", json_string(summary_time_metric(runs[0])));
	json_object_set_new(rep, "b", json_string(b));
	count_inside(rep, rows);
	json_object_set_new(rep, "runs", rows);
	return rep;
}

/* "[+8.1%, +9.2%]" or "none". */
static const char *iv(char *buf, size_t len, const json_t *r, const char *lo, const char *hi)
{
	if (!json_is_number(json_object_get(r, lo)))
		snprintf(buf, len, "none");
	else
		snprintf(buf, len, "[%+.2f%%, %+.2f%%]", 100 * json_num_of(r, lo),
			 100 * json_num_of(r, hi));
	return buf;
}

void repeatability_md(const json_t *rep, FILE *out)
{
	const json_t *m = json_object_get(rep, "machine"), *r;
	size_t i;

	fprintf(out, "# xdptc repeatability: %zu %s runs back to back\n\n",
		json_array_size(json_object_get(rep, "runs")), json_str_of(rep, "topology", "?"));
	fprintf(out, "%s against %s, %s: the run's figure inside the previous run's next-run "
		     "interval %lld times in %lld; inside its within-run interval %lld times in "
		     "%lld. The figures spread %.2f points (sd) between runs, from %+.2f%% to "
		     "%+.2f%%.\n\n",
		json_str_of(rep, "b", "?"), json_str_of(json_array_get(json_object_get(rep, "runs"), 0),
							"a", "?"),
		json_str_of(rep, "metric", "?"),
		json_integer_value(json_object_get(rep, "inside_next_run")),
		json_integer_value(json_object_get(rep, "checked")),
		json_integer_value(json_object_get(rep, "inside_within_run")),
		json_integer_value(json_object_get(rep, "checked_within_run")),
		100 * json_num_or(rep, "spread_sd", NAN), 100 * json_num_or(rep, "min", NAN),
		100 * json_num_or(rep, "max", NAN));
	fprintf(out, "- Machine: %s, %lld CPUs; kernel %s%s\n\n", json_str_of(m, "cpu_model", "?"),
		json_integer_value(json_object_get(m, "cpus")), json_str_of(m, "kernel_release", "?"),
		json_is_true(json_object_get(rep, "same_machine")) ? "" : " (**not every run names "
		"this machine**)");
	fprintf(out, "| run | started | figure | within-run interval | next-run interval | "
		     "segments | A/A half-width | stop | inside previous next-run | inside previous "
		     "within-run |\n|---|---|---|---|---|---|---|---|---|---|\n");
	json_array_foreach(json_object_get(rep, "runs"), i, r) {
		const json_t *p = i ? json_array_get(json_object_get(rep, "runs"), i - 1) : NULL;
		double x = json_num_of(r, "rel_delta");
		char a[64], b[64];

		fprintf(out, "| %s | %s | %+.2f%% | %s | %s | %.0f | ", json_str_of(r, "dir", "?"),
			json_str_of(r, "created_utc", "?"), 100 * x,
			iv(a, sizeof(a), r, "ci95_lo", "ci95_hi"),
			iv(b, sizeof(b), r, "next_run_lo", "next_run_hi"), json_num_or(r, "segments", 1));
		if (json_is_number(json_object_get(r, "aa_halfwidth")))
			fprintf(out, "%.2f%% | ", 100 * json_num_of(r, "aa_halfwidth"));
		else
			fprintf(out, "none | ");
		fprintf(out, "%s | %s | %s |\n", json_str_of(r, "stop", "?"),
			!p || !json_is_number(json_object_get(p, "next_run_lo")) ? "-"
			: json_num_of(p, "next_run_lo") <= x && x <= json_num_of(p, "next_run_hi") ? "yes" : "**no**",
			!p || !json_is_number(json_object_get(p, "ci95_lo")) ? "-"
			: json_num_of(p, "ci95_lo") <= x && x <= json_num_of(p, "ci95_hi") ? "yes" : "**no**");
	}
}
