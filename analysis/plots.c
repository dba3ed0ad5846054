/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "plots.h"
#include "json_read.h"
#include "summary_facts.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "metrics.h"

/* the bars of the counters plot: the metric table's METRIC_PLOT rows */
#define PLOT_MAX_COUNTS 6

/* The counters plot's bar names ("stack entries" for stack_entries_per_pkt) into @names,
 * in the metric table's order. Returns how many. */
static int plot_counts(char names[PLOT_MAX_COUNTS][64])
{
	int n = 0;

	for (const struct metric *x = metrics; x->name && n < PLOT_MAX_COUNTS; x++) {
		size_t len = strlen(x->name) - (strstr(x->name, "_per_pkt") ? 8 : 0);

		if (!(x->flags & METRIC_PLOT))
			continue;
		snprintf(names[n], 64, "%.*s", (int)len, x->name);
		for (char *c = names[n]; *c; c++)
			if (*c == '_')
				*c = ' ';
		n++;
	}
	return n;
}

static FILE *open_in(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return fopen(path, "w");
}

static void num_or_missing(FILE *f, const json_t *v, double scale)
{
	if (json_is_number(v))
		fprintf(f, " %.6g", json_number_value(v) * scale);
	else
		fputs(" ?", f);
}

static int write_data(const json_t *run, const char *dir, int *nmodes, int *ndeltas,
		      int has_count[PLOT_MAX_COUNTS], int *has_aa)
{
	const json_t *modes = json_object_get(json_object_get(run, "summary"), "modes");
	const json_t *deltas = json_object_get(json_object_get(run, "summary"), "deltas");
	FILE *cpu = open_in(dir, "plot-cpu.dat"), *med = open_in(dir, "plot-cpu-median.dat");
	FILE *dl = open_in(dir, "plot-delta.dat"), *cn = open_in(dir, "plot-counters.dat");
	size_t i, j;
	json_t *m, *t, *d;
	int e = 0;

	if (!cpu || !med || !dl || !cn) {
		e = -errno;
		goto out;
	}
	json_array_foreach(modes, i, m) {
		const char *mode = json_str_of(m, "mode", "?");

		json_array_foreach(json_object_get(run, "trials"), j, t)
			if (!strcmp(json_str_of(t, "pass", "?"), "timing") && !strcmp(json_str_of(t, "mode", "?"), mode) &&
			    json_is_true(json_object_get(t, "valid")))
				fprintf(cpu, "%zu %.6g\n", i,
					json_number_value(json_object_get(t, summary_time_metric(run))));
		fprintf(med, "%zu \"%s\"", i, mode);
		num_or_missing(med, json_object_get(m, summary_time_metric(run)), 1);
		fputc('\n', med);
		fprintf(cn, "\"%s\"", mode);
		for (int c = 0, p = 0; metrics[c].name; c++) {
			const json_t *v = json_object_get(m, metrics[c].name);

			if (!(metrics[c].flags & METRIC_PLOT) || p >= PLOT_MAX_COUNTS)
				continue;
			num_or_missing(cn, v, 1);
			has_count[p++] |= json_is_number(v);
		}
		fputc('\n', cn);
	}
	*nmodes = (int)json_array_size(modes);
	*ndeltas = 0;
	json_array_foreach(deltas, i, d) {
		if (!json_is_number(json_object_get(d, "ci95_lo")))
			continue;
		fprintf(dl, "%d \"%s vs %s\\n%s\"", (*ndeltas)++, json_str_of(d, "b", "?"), json_str_of(d, "a", "?"),
			json_str_of(d, "metric", "?"));
		num_or_missing(dl, json_object_get(d, "rel_delta"), 100);
		num_or_missing(dl, json_object_get(d, "ci95_lo"), 100);
		num_or_missing(dl, json_object_get(d, "ci95_hi"), 100);
		fprintf(dl, " %d\n", json_is_true(json_object_get(d, "aa")) ? 1 : 0);
		*has_aa |= json_is_true(json_object_get(d, "aa"));
	}
out:
	if (cpu)
		fclose(cpu);
	if (med)
		fclose(med);
	if (dl)
		fclose(dl);
	if (cn)
		fclose(cn);
	return e;
}

/* The delta plot's title (a gnuplot string in double quotes): the estimate and interval the plotted deltas used (run.json's
 * "interval" of each delta: "signed-rank over blocks" for an alternating timing pass's
 * time metric; none: the median of the paired ratios with its order-statistics
 * interval). */
static const char *delta_title(const json_t *run)
{
	const json_t *d;
	size_t i;
	int blocks = 0, ratios = 0;

	json_array_foreach(json_object_get(json_object_get(run, "summary"), "deltas"), i, d) {
		if (!json_is_number(json_object_get(d, "ci95_lo")))
			continue;
		if (!strcmp(json_str_of(d, "interval", ""), "signed-rank over blocks"))
			blocks++;
		else
			ratios++;
	}
	if (blocks && ratios)
		return "Within-run deltas: the time metric's Hodges-Lehmann estimate and "
		       "signed-rank interval over blocks,\\nthe others' median paired ratio "
		       "and order-statistics interval";
	if (blocks)
		return "Within-run delta: Hodges-Lehmann estimate over blocks of windows and its "
		       "signed-rank interval over the blocks";
	return "Within-run delta: median of the paired ratios and its interval from order "
	       "statistics";
}

static int write_script(const json_t *run, const char *dir, int nmodes, int ndeltas,
			const int has_count[PLOT_MAX_COUNTS], int has_aa)
{
	FILE *f = open_in(dir, "plots.gp");
	const json_t *g = json_object_get(run, "guest");
	const char *tm = summary_time_metric(run);
	const char *title = summary_time_is_guest(tm)
				    ? "guest instructions per packet (icount guest: 1 ns = 1 instruction)"
			    : json_is_true(json_object_get(g, "emulated_time"))
				    ? "cpu_ns_per_pkt (guest vCPU time, emulated: TCG)"
				    : "cpu_ns_per_pkt";
	const char *terms[2][2] = { { "svg size 800,480 dynamic noenhanced font 'Verdana,11'", "svg" },
				    { "pngcairo size 800,480 noenhanced font 'Verdana,10'", "png" } };

	if (!f)
		return -errno;
	fprintf(f, "# gnuplot script written by xdptc for the %s run of %s\n",
		json_str_of(run, "topology", "?"), json_str_of(run, "created_utc", "?"));
	fputs("set datafile missing '?'\nset grid ytics lc rgb '#dddddd'\nset key off\n"
	      "set border 3\nset tics nomirror\n", f);
	for (int k = 0; k < 2; k++) {
		fprintf(f, "\nset terminal %s\n", terms[k][0]);
		/* per-mode distribution of the timing pass */
		fprintf(f, "set output '%s.%s'\n", tm, terms[k][1]);
		fprintf(f, "set title '%s, each timing repetition (dots) and the median (bar)'\n", title);
		fprintf(f, "set ylabel '%s per packet'\nset xrange [-0.6:%d.6]\nset yrange [0:*]\n",
			summary_time_is_guest(tm) ? "instructions" : "ns", nmodes - 1);
		fputs("set boxwidth 0.5\nset style fill transparent solid 0.3 noborder\n"
		      "plot 'plot-cpu-median.dat' using 1:3:xtic(2) with boxes lc rgb '#4477aa', "
		      "'plot-cpu.dat' using 1:2 with points pt 7 ps 0.8 lc rgb '#cc3311'\n", f);
		/* deltas with their intervals */
		fprintf(f, "set output 'delta.%s'\nset bmargin 4\n", terms[k][1]);
		fprintf(f, "set title \"%s\\ncoverage >= 95%%%s\"\nset ylabel 'percent'\n"
			   "set yrange [*<0:0<*]\n", delta_title(run),
			has_aa ? "; the A/A arm in grey: the noise floor" : "");
		if (ndeltas)
			fprintf(f, "set xrange [-0.6:%d.6]\nset xzeroaxis lt 1 lc rgb '#000000'\n"
				   "plot 'plot-delta.dat' using 1:3:4:5:($6 > 0.5 ? 0x999999 : 0x228833)"
				   ":xtic(2) with yerrorbars pt 7 ps 1.2 lw 2 lc rgb variable\n",
				ndeltas - 1);
		else
			fputs("set xrange [0:1]\nset yrange [-1:1]\n"
			      "set label 1 'one mode: no delta' at 0.5,0 center\n"
			      "plot NaN\nunset label 1\n", f);
		/* the mechanism counters */
		fprintf(f, "set output 'counters.%s'\nset bmargin\n", terms[k][1]);
		fputs("set title 'Mechanism (count pass medians): per packet at the DUT'\n"
		      "set ylabel 'events per packet'\nset key top right\nset xrange [*:*]\n"
		      "set yrange [0:*]\nset style data histograms\n"
		      "set style histogram clustered gap 1\nset style fill solid 0.8 border -1\n"
		      "set boxwidth 0.9\n", f);
		{
			static const char *const colours[PLOT_MAX_COUNTS] = {
				"#4477aa", "#ee6677", "#228833", "#ccbb44", "#66ccee", "#aa3377",
			};
			char names[PLOT_MAX_COUNTS][64];
			int first = 1, n = plot_counts(names);

			for (int c = 0; c < n; c++) /* say so instead of a silent gap */
				if (!has_count[c])
					fprintf(f, "set label %d '%s: n/a (see summary.md)' at graph 0.02, "
						   "graph %.2f\n", 10 + c, names[c], 0.95 - 0.06 * c);
			for (int c = 0; c < n; c++) {
				if (!has_count[c])
					continue;
				fprintf(f, "%s 'plot-counters.dat' using %d%s title '%s' lc rgb '%s'",
					first ? "plot" : ",", c + 2, first ? ":xtic(1)" : "", names[c],
					colours[c]);
				first = 0;
			}
			fputs(first ? "plot NaN notitle\n" : "\n", f);
			for (int c = 0; c < n; c++)
				fprintf(f, "unset label %d\n", 10 + c);
		}
		fputs("set key off\nset style data points\n", f);
	}
	fclose(f);
	return 0;
}

int plots_write(const json_t *run, const char *dir, char *err, size_t errlen)
{
	char cmd[PATH_MAX + 64];
	int nmodes = 0, ndeltas = 0, e, st, has_count[PLOT_MAX_COUNTS] = { 0 }, has_aa = 0;

	e = write_data(run, dir, &nmodes, &ndeltas, has_count, &has_aa);
	if (!e)
		e = write_script(run, dir, nmodes, ndeltas, has_count, has_aa);
	if (e) {
		snprintf(err, errlen, "cannot write the plot data in %s: %s", dir, strerror(-e));
		return e;
	}
	if (system("command -v gnuplot >/dev/null 2>&1")) {
		snprintf(err, errlen, "gnuplot is not installed (Debian package gnuplot-nox): plots "
				      "not drawn; run 'gnuplot plots.gp' in %s later", dir);
		return -ENOENT;
	}
	/* gnuplot's messages are kept only when it fails */
	snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot plots.gp 2>plots.log && rm -f plots.log", dir);
	st = system(cmd);
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		snprintf(err, errlen, "gnuplot failed (see %s/plots.log)", dir);
		return -EIO;
	}
	return 6;
}
