/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_plot.c: the kernel matrix's delta plots (matrix_plot.h). */
#include "matrix_plot.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_read.h"
#include "matrix_boots.h"
#include "matrix_entry.h"
#include "matrix_experiments.h"
#include "matrix_insns.h"

/* The place of @spec in @matrix's kernels (the plots' x), or -1. */
static int kernel_index(const json_t *matrix, const char *spec)
{
	const json_t *k;
	size_t i;

	json_array_foreach(json_object_get(matrix, "kernels"), i, k)
		if (!strcmp(json_str_of(k, "spec", ""), spec))
			return (int)i;
	return -1;
}

/* The data file of @exp's @mode-vs-tc delta, matrix-delta-EXP-MODE.dat. Returns the
 * points written, or -errno. */
static int plot_data(const json_t *matrix, const char *dir, const char *exp, const char *mode,
		     const char *metric, const char *tag)
{
	char path[PATH_MAX];
	const json_t *e;
	size_t i;
	int n = 0, prev = -2;
	FILE *f;

	snprintf(path, sizeof(path), "%s/matrix-delta%s-%s-%s.dat", dir, tag, exp, mode);
	f = fopen(path, "w");
	if (!f)
		return -errno;
	fprintf(f, "# index kernel delta_pct low_pct high_pct (%s vs tc, %s)\n", mode, exp);
	json_array_foreach(json_object_get(matrix, "entries"), i, e) {
		const json_t *d;
		double lo, hi, v;

		if (strcmp(json_str_of(e, "experiment", ""), exp))
			continue;
		d = metric ? matrix_entry_delta(e, mode, metric) : matrix_entry_delta(e, mode, matrix_entry_metric(e));
		if (!d)
			continue;
		v = 100 * json_num_of(d, "rel_delta");
		lo = isnan(json_num_of(d, "ci95_lo")) ? v : 100 * json_num_of(d, "ci95_lo");
		hi = isnan(json_num_of(d, "ci95_hi")) ? v : 100 * json_num_of(d, "ci95_hi");
		if (kernel_index(matrix, json_str_of(e, "kernel", "")) != prev + 1 && prev >= 0)
			fputc('\n', f); /* a kernel with no point between: the line breaks */
		prev = kernel_index(matrix, json_str_of(e, "kernel", ""));
		fprintf(f, "%d \"%s\" %.4f %.4f %.4f\n", prev, json_str_of(e, "kernel", ""), v, lo, hi);
		n++;
	}
	fclose(f);
	if (!n)
		unlink(path);
	return n;
}

/* One plot of @gp: the series (@exps x @modes, @ne x @nm) that have points, each a line
 * with its intervals, against the @nk kernels. Returns the points, or -errno. */
static int plot_one(FILE *gp, const json_t *matrix, const char *dir, const char *out,
		    const char *title, const char *const *exps, int ne, const char *const *modes,
		    int nm, const char *metric)
{
	const char *tag = metric ? "-retired" : "";
	int total = 0, nk = (int)json_array_size(json_object_get(matrix, "kernels"));
	const json_t *k;
	FILE *series;
	char *buf = NULL;
	size_t i, len = 0;

	fprintf(gp, "set terminal svg size 900,500 noenhanced\nset output '%s.svg'\n"
		    "set title '%s (%sguest instructions per packet; intervals: at least 95%%)'\n"
		    "set ylabel 'delta against tc, percent'\nset xlabel 'guest kernel' offset 0,-1\nset bmargin 5\n"
		    "set xzeroaxis\nset xrange [-0.5:%d.5]\nset yrange [*<0:0<*]\nset key outside\n"
		    "set offsets 0, 0, graph 0.06, graph 0.06\nset xtics (", out, title,
		metric || matrix_has_insns(matrix) ? "retired " : "", nk - 1);
	json_array_foreach(json_object_get(matrix, "kernels"), i, k) /* a failed one says so */
		fprintf(gp, "%s\"%s%s\" %zu", i ? ", " : "", json_str_of(k, "spec", ""),
			strcmp(json_str_of(k, "status", ""), "ok") ? "\\n(failed)" : "", i);
	fprintf(gp, ")\n");
	series = open_memstream(&buf, &len);
	if (!series)
		return -errno;
	for (int i = 0; i < ne; i++) /* (a kernel's index is its place in "kernels") */
		for (int j = 0; j < nm; j++) {
			int n = plot_data(matrix, dir, exps[i], modes[j], metric, tag);
			int s = i * nm + j;

			if (n < 0) {
				fclose(series);
				free(buf);
				return n;
			}
			if (!n)
				continue;
			fprintf(series, "%s 'matrix-delta%s-%s-%s.dat' using ($1+%.2f):3:4:5 with "
				    "yerrorlines pt 7 lw 2 title '%s%s%s'", total ? "," : "", tag, exps[i],
				modes[j], (double)s * 0.05 - 0.1, ne > 1 ? exps[i] : modes[j],
				ne > 1 && nm > 1 ? " " : "", ne > 1 && nm > 1 ? modes[j] : "");
			total += n;
		}
	fclose(series);
	if (total) /* gnuplot refuses a plot whose points all lack a y, so an empty one says so */
		fprintf(gp, "plot%s\n", buf);
	else
		fprintf(gp, "set yrange [-1:1]\nset label 1 'no point: no kernel measured this' at "
			    "graph 0.5, graph 0.5 center\nplot NaN notitle\n");
	free(buf);
	fprintf(gp, "set terminal pngcairo size 900,500 noenhanced\nset output '%s.png'\nreplot\n%s", out,
		total ? "" : "unset label 1\n");
	return total;
}

static int write_plot(const json_t *matrix, const char *dir);

int matrix_write_plot(const json_t *matrix, const char *dir)
{
	json_t *first = matrix_first_boots(matrix);
	int n = first ? write_plot(first, dir) : -ENOMEM;

	json_decref(first);
	return n;
}

static int write_plot(const json_t *matrix, const char *dir)
{
	static const char *const modes[] = { "xdpdrv", "xdpgeneric", "tcx", "netkit" };
	const char *exps[MATRIX_MAX_EXPS];
	char path[PATH_MAX], out[64], title[96];
	int total, nexp = 0;
	FILE *gp;

	for (int x = 0; x < matrix_nexps; x++) /* the icount experiments' */
		if (matrix_exps[x].engine == MATRIX_ICOUNT)
			exps[nexp++] = matrix_exps[x].name;

	snprintf(path, sizeof(path), "%s/matrix-delta.gp", dir);
	gp = fopen(path, "w");
	if (!gp)
		return -errno;
	fprintf(gp, "# xdptc matrix: each mode's delta against tc per guest kernel\n");
	total = plot_one(gp, matrix, dir, "matrix-delta", "xdpdrv against tc", exps, nexp, modes, 1,
			 NULL);
	if (total >= 0 && matrix_has_insns(matrix)) { /* as a CPU counts: the plugin's */
		int n = plot_one(gp, matrix, dir, "matrix-delta-retired", "xdpdrv against tc", exps,
				 nexp, modes, 1, "retired_instructions_per_pkt");

		total = n < 0 ? n : total;
	}
	for (int i = 0; i < nexp && total >= 0; i++) {
		int n;

		if (!matrix_has_experiment(matrix, exps[i]))
			continue; /* (a matrix made before the experiment existed) */
		snprintf(out, sizeof(out), "matrix-delta-%s", exps[i]);
		snprintf(title, sizeof(title), "%s: each mode against tc", exps[i]);
		n = plot_one(gp, matrix, dir, out, title, exps + i, 1, modes, 4, NULL);
		total = n < 0 ? n : total;
	}
	fclose(gp);
	return total;
}
