/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * sweep.c: a series of runs over frame sizes or sender regimes (sweep.h): one run per
 * value, in turn, then their within-run deltas and mechanism counters side by side
 * (sweep.csv, sweep.md, sweep.dat and its plot).
 */
#include "sweep.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "json_read.h"
#include "metrics.h"
#include "report.h"
#include "run.h"
#include "sender.h"
#include "summary_facts.h"
#include "summary_words.h"

/* A CSV field: the number, or nothing when it is not one (unavailable). */
static void csv_num(FILE *f, double v)
{
	if (v == v)
		fprintf(f, ",%.4f", v);
	else
		fputc(',', f);
}

/* One run per value, in turn; stops at the first that fails. Returns 0, or 130 when
 * interrupted. */
static int sweep_runs(struct sweep *sw, struct run_opts *o)
{
	for (int i = 0; i < sw->n; i++) {
		int st;

		if (!strcmp(sw->over, "size"))
			o->payload_len = (uint32_t)atoi(sw->vals[i]);
		else
			sender_parse(sw->vals[i], (enum sender_kind *)&o->sender);
		o->dir_out = sw->dirs[i];
		o->dir_out_len = sizeof(sw->dirs[i]);
		sw->dirs[i][0] = '\0';
		fprintf(stderr, "xdptc sweep: %s %s (%d of %d)\n", sw->over, sw->vals[i], i + 1, sw->n);
		st = run_main(o);
		if (st == 130)
			return 130;
		if (st || !sw->dirs[i][0]) {
			fprintf(stderr, "xdptc sweep: the run for %s %s failed; stopping\n", sw->over,
				sw->vals[i]);
			break;
		}
		sw->done++;
	}
	return 0;
}

/* The delta of @mode's time metric against the baseline in @run's summary, or NULL. */
static const json_t *time_delta(const json_t *run, const char *mode)
{
	const json_t *d, *found = NULL;
	size_t k;

	json_array_foreach(json_object_get(json_object_get(run, "summary"), "deltas"), k, d)
		if (!strcmp(json_string_value(json_object_get(d, "b")), mode) &&
		    !strcmp(json_string_value(json_object_get(d, "metric")), summary_time_metric(run)))
			found = d;
	return found;
}

/* One mode of one run: a CSV line, a table row, a point of the plot. */
static void sweep_row(FILE *csv, FILE *md, FILE *gp, int i, const char *val, const char *dir,
		      const json_t *run, const json_t *m)
{
	const char *mode = json_string_value(json_object_get(m, "mode"));
	const json_t *set = json_object_get(run, "settings"), *delta = time_delta(run, mode);

	fprintf(csv, "%s,%lld,%s,%s", val, json_integer_value(json_object_get(set, "frame_len")),
		json_string_value(json_object_get(set, "sender")), mode);
	fprintf(md, "| %s | %s |", val, mode);
	for (const struct metric *x = metrics; x->name; x++) {
		if (!(x->flags & METRIC_SWEEP))
			continue;
		/* empty (CSV) or n/a (table) when unavailable */
		csv_num(csv, json_num_of(m, summary_metric_key(x, run)));
		if (!(x->flags & METRIC_TIME) && json_is_number(json_object_get(m, x->name)))
			fprintf(md, " %.3f |", json_num_of(m, x->name));
		else if (!(x->flags & METRIC_TIME))
			fprintf(md, " n/a |");
	}
	fprintf(csv, ",%s", delta ? json_string_value(json_object_get(delta, "a")) : "");
	csv_num(csv, delta ? json_num_of(delta, "rel_delta") : 0.0 / 0.0);
	csv_num(csv, delta ? json_num_of(delta, "ci95_lo") : 0.0 / 0.0);
	csv_num(csv, delta ? json_num_of(delta, "ci95_hi") : 0.0 / 0.0);
	fprintf(csv, ",%s,%s\n",
		delta && json_is_true(json_object_get(delta, "real")) ? "true" : "false", dir);
	if (delta && json_is_number(json_object_get(delta, "ci95_lo"))) {
		/* as summary.md prints it: more decimals for a narrow interval (icount) */
		int pr = summary_pct_decimals(json_num_of(delta, "ci95_lo"), json_num_of(delta, "ci95_hi"));

		fprintf(md, " %+.*f%% [%+.*f%%, %+.*f%%] (%.1f%%) | %lld |",
			pr, 100 * json_num_of(delta, "rel_delta"), pr, 100 * json_num_of(delta, "ci95_lo"),
			pr, 100 * json_num_of(delta, "ci95_hi"), 100 * json_num_of(delta, "ci_coverage"),
			json_integer_value(json_object_get(delta, "pairs")));
		fprintf(gp, "%d \"%s\" %.3f %.3f %.3f\n", i, val, 100 * json_num_of(delta, "rel_delta"),
			100 * json_num_of(delta, "ci95_lo"), 100 * json_num_of(delta, "ci95_hi"));
	} else if (delta) {
		fprintf(md, " %+.1f%%, no interval | %lld |", 100 * json_num_of(delta, "rel_delta"),
			json_integer_value(json_object_get(delta, "pairs")));
		/* a point with no bar: too few pairs for an interval */
		fprintf(gp, "%d \"%s\" %.3f %.3f %.3f\n", i, val, 100 * json_num_of(delta, "rel_delta"),
			100 * json_num_of(delta, "rel_delta"), 100 * json_num_of(delta, "rel_delta"));
	} else {
		fprintf(md, " baseline | |");
	}
	fprintf(md, " %s |\n", dir);
}

/* The head of sweep.md and sweep.csv, from the first run @first (the runs share the
 * machine, and the metric keys): the machine, the settings, the table's columns. */
static void sweep_head(FILE *csv, FILE *md, const struct sweep *sw, const json_t *first)
{
	const json_t *m = json_object_get(first, "machine");
	const json_t *set = json_object_get(first, "settings");
	int cols = 0;

	fprintf(md, "# xdptc sweep over %s\n\n- Machine: %s, %lld CPUs; kernel %s %s\n- Every "
		    "run: %lld packets per trial, %lld repetitions of the timing pass\n\n"
		    "Within-run deltas only: each row comes from its own run, whose absolute "
		    "times are not comparable with the other rows'.\n\n"
		    "The interval of each delta is the order-statistics interval of the median "
		    "paired ratio, with its exact coverage (at least 95%%); fewer than 6 pairs "
		    "give none.\n\n| %s | mode |", sw->over,
		json_string_value(json_object_get(m, "cpu_model")) ?: "?",
		json_integer_value(json_object_get(m, "cpus")),
		json_string_value(json_object_get(m, "kernel_release")) ?: "?",
		json_string_value(json_object_get(m, "arch")) ?: "",
		json_integer_value(json_object_get(set, "packets")),
		json_integer_value(json_object_get(set, "reps")), sw->over);
	fprintf(csv, "point,frame_len,sender,mode");
	for (const struct metric *x = metrics; x->name; x++) {
		if (!(x->flags & METRIC_SWEEP))
			continue;
		fprintf(csv, ",%s", summary_metric_key(x, first));
		if (!(x->flags & METRIC_TIME)) {
			fprintf(md, " %s |", x->name);
			cols++;
		}
	}
	fprintf(csv, ",delta_vs,rel_delta,ci95_lo,ci95_hi,real,run\n");
	fprintf(md, " delta vs baseline [interval] (coverage) | pairs | run |\n|---|---|");
	for (int c = 0; c < cols + 3; c++)
		fprintf(md, "---|");
	fprintf(md, "\n");
}

/* sweep.csv, sweep.md and the plot's data in sw->dir: every mode of every run, from the
 * summary each run stored (run_main wrote it moments ago). Returns 0 or -1 (said why). */
static int sweep_write(const struct sweep *sw)
{
	char path[PATH_MAX + 96];
	FILE *csv, *md, *gp;
	bool headed = false;

	snprintf(path, sizeof(path), "%s/sweep.csv", sw->dir);
	csv = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/sweep.md", sw->dir);
	md = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/sweep.dat", sw->dir);
	gp = fopen(path, "w");
	if (!csv || !md || !gp) {
		fprintf(stderr, "xdptc sweep: cannot write in %s\n", sw->dir);
		return -1;
	}
	for (int i = 0; i < sw->done; i++) {
		char err[512];
		json_t *run, *m;
		size_t j;

		if (report_load(sw->dirs[i], &run, err, sizeof(err))) {
			fprintf(stderr, "xdptc sweep: %s\n", err);
			continue;
		}
		if (!headed) /* from the first run that loads */
			sweep_head(csv, md, sw, run);
		headed = true;
		json_array_foreach(json_object_get(json_object_get(run, "summary"), "modes"), j, m)
			sweep_row(csv, md, gp, i, sw->vals[i], sw->dirs[i], run, m);
		json_decref(run);
	}
	fclose(csv);
	fclose(md);
	fclose(gp);
	return 0;
}

/* The plot (gnuplot, sweep.svg and sweep.png), then sweep.md on stdout. */
static void sweep_show(const struct sweep *sw)
{
	char cmd[PATH_MAX + 1024], line[1024];
	FILE *md;

	snprintf(cmd, sizeof(cmd),
		 "cd '%s' && gnuplot -e \"set terminal svg size 800,480 noenhanced; "
		 "set output 'sweep.svg'; set title 'xdptc sweep over %s: delta of the time metric "
		 "against the baseline, interval of at least 95%% coverage'; set ylabel 'percent'; "
		 "set xzeroaxis; set key off; set xrange [-0.5:%d.5]; set yrange [*<0:0<*]; plot "
		 "'sweep.dat' using 1:3:4:5:xtic(2) with yerrorbars pt 7 lw 2; set terminal "
		 "pngcairo size 800,480 noenhanced; set output 'sweep.png'; replot\" 2>/dev/null",
		 sw->dir, sw->over, sw->done - 1);
	if (system(cmd))
		fprintf(stderr, "xdptc sweep: the plot was not drawn (gnuplot missing or failed)\n");
	snprintf(cmd, sizeof(cmd), "%s/sweep.md", sw->dir);
	md = fopen(cmd, "r");
	if (md) {
		while (fgets(line, sizeof(line), md))
			fputs(line, stdout);
		fclose(md);
	}
	fprintf(stderr, "xdptc sweep: %s/ (sweep.csv, sweep.md, sweep.svg, sweep.png)\n", sw->dir);
}

int sweep_run(struct sweep *sw, struct run_opts *o)
{
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];

	if (sweep_runs(sw, o) == 130)
		return 130;
	if (!sw->done)
		return 1;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(sw->dir, sizeof(sw->dir), "%s/%s-sweep-%s", o->out_dir, stamp, sw->over);
	if (mkdir(sw->dir, 0755)) {
		fprintf(stderr, "xdptc sweep: cannot create %s: %s\n", sw->dir, strerror(errno));
		return 1;
	}
	if (sweep_write(sw))
		return 1;
	sweep_show(sw);
	return sw->done == sw->n ? 0 : 1;
}
