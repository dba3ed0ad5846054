/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_sweep.c: xdptc sweep, a series of runs over frame sizes or sender regimes. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "report.h"
#include "cli_table.h"
#include "cli_parse.h"
#include "run.h"
#include "sender.h"
#include "summary.h"

#define SWEEP_MAX 16


static double num(const json_t *o, const char *k)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : 0.0 / 0.0;
}

/* A CSV field: the number, or nothing when it is not one (unavailable). */
static void csv_num(FILE *f, double v)
{
	if (v == v)
		fprintf(f, ",%.4f", v);
	else
		fputc(',', f);
}

int cmd_sweep(int argc, char **argv)
{
	static char topodir[PATH_MAX];
	char vals[SWEEP_MAX][SWEEP_VALUE_LEN], dirs[SWEEP_MAX][PATH_MAX], sweepdir[PATH_MAX + 64], path[PATH_MAX + 96];
	const char *over = NULL, *values = NULL;
	char *rest[128];
	int nrest = 0, n, e, done = 0;
	struct run_opts o;
	FILE *csv, *md, *gp;
	time_t now = time(NULL);
	struct tm tm;
	char stamp[32];

	rest[nrest++] = argv[0];
	for (int i = 1; i < argc && nrest < 127; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_help(&cli_cmd_sweep, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--over") && i + 1 < argc)
			over = argv[++i];
		else if (!strcmp(argv[i], "--values") && i + 1 < argc)
			values = argv[++i];
		else
			rest[nrest++] = argv[i];
	}
	rest[nrest] = NULL;
	if (!over || (strcmp(over, "size") && strcmp(over, "sender")))
		return bad_value("--over", over ? over : "", "size or sender");
	if (!values)
		values = !strcmp(over, "size") ? "18,86,214,470,982,1458" : "udp,packet,xdp-live";
	n = parse_sweep_values(over, values, vals, SWEEP_MAX);
	if (n < 0)
		return bad_value("--values", values,
				 n == -E2BIG ? "at most 16 values" /* SWEEP_MAX */
				 : !strcmp(over, "size") ? "payload sizes 0-1472"
				 : "udp, packet, xdp-live");
	e = run_opts_parse(nrest, rest, &o, topodir, sizeof(topodir));
	if (e >= 0)
		return e;
	o.quiet = 1;
	for (int i = 0; i < n; i++) {
		int st;

		if (!strcmp(over, "size"))
			o.payload_len = (uint32_t)atoi(vals[i]);
		else
			sender_parse(vals[i], (enum sender_kind *)&o.sender);
		o.dir_out = dirs[i];
		o.dir_out_len = sizeof(dirs[i]);
		dirs[i][0] = '\0';
		fprintf(stderr, "xdptc sweep: %s %s (%d of %d)\n", over, vals[i], i + 1, n);
		st = run_main(&o);
		if (st == 130)
			return 130;
		if (st || !dirs[i][0]) {
			fprintf(stderr, "xdptc sweep: the run for %s %s failed; stopping\n", over, vals[i]);
			break;
		}
		done++;
	}
	if (!done)
		return 1;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(sweepdir, sizeof(sweepdir), "%s/%s-sweep-%s", o.out_dir, stamp, over);
	if (mkdir(sweepdir, 0755)) {
		fprintf(stderr, "xdptc sweep: cannot create %s: %s\n", sweepdir, strerror(errno));
		return 1;
	}
	snprintf(path, sizeof(path), "%s/sweep.csv", sweepdir);
	csv = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/sweep.md", sweepdir);
	md = fopen(path, "w");
	snprintf(path, sizeof(path), "%s/sweep.dat", sweepdir);
	gp = fopen(path, "w");
	if (!csv || !md || !gp) {
		fprintf(stderr, "xdptc sweep: cannot write in %s\n", sweepdir);
		return 1;
	}
	fprintf(csv, "point,frame_len,sender,mode,cpu_ns_per_pkt,stack_entries_per_pkt,"
		     "skbs_freed_per_pkt,skbs_built_per_pkt,delta_vs,rel_delta,ci95_lo,ci95_hi,real,run\n");
	fprintf(md, "# xdptc sweep over %s\n\nWithin-run deltas only: each row comes from its own "
		    "run, whose absolute times are not comparable with the other rows'.\n\n"
		    "The interval of each delta is the order-statistics interval of the median "
		    "paired ratio, with its exact coverage (at least 95%%); fewer than 6 pairs "
		    "give none.\n\n"
		    "| %s | mode | stack entries/pkt | skbs freed/pkt | delta vs baseline [interval] "
		    "(coverage) | pairs | run |\n"
		    "|---|---|---|---|---|---|---|\n", over, over);
	for (int i = 0; i < done; i++) {
		char err[512];
		json_t *run, *m, *d;
		size_t j, k;

		if (report_load(dirs[i], &run, err, sizeof(err))) {
			fprintf(stderr, "xdptc sweep: %s\n", err);
			continue;
		}
		json_object_set_new(run, "summary", summary_compute(run));
		json_array_foreach(json_object_get(json_object_get(run, "summary"), "modes"), j, m) {
			const char *mode = json_string_value(json_object_get(m, "mode"));
			const json_t *delta = NULL;

			json_array_foreach(json_object_get(json_object_get(run, "summary"), "deltas"), k, d)
				if (!strcmp(json_string_value(json_object_get(d, "b")), mode) &&
				    !strcmp(json_string_value(json_object_get(d, "metric")), "cpu_ns_per_pkt"))
					delta = d;
			fprintf(csv, "%s,%lld,%s,%s", vals[i],
				json_integer_value(json_object_get(json_object_get(run, "settings"), "frame_len")),
				json_string_value(json_object_get(json_object_get(run, "settings"), "sender")),
				mode);
			csv_num(csv, num(m, "cpu_ns_per_pkt"));
			csv_num(csv, num(m, "stack_entries_per_pkt"));
			csv_num(csv, num(m, "skbs_freed_per_pkt"));
			csv_num(csv, num(m, "skbs_built_per_pkt")); /* empty when unavailable */
			fprintf(csv, ",%s", delta ? json_string_value(json_object_get(delta, "a")) : "");
			csv_num(csv, delta ? num(delta, "rel_delta") : 0.0 / 0.0);
			csv_num(csv, delta ? num(delta, "ci95_lo") : 0.0 / 0.0);
			csv_num(csv, delta ? num(delta, "ci95_hi") : 0.0 / 0.0);
			fprintf(csv, ",%s,%s\n",
				delta && json_is_true(json_object_get(delta, "real")) ? "true" : "false",
				dirs[i]);
			fprintf(md, "| %s | %s | %.3f | %.3f | ", vals[i], mode,
				num(m, "stack_entries_per_pkt"), num(m, "skbs_freed_per_pkt"));
			if (delta && json_is_number(json_object_get(delta, "ci95_lo"))) {
				fprintf(md, "%+.1f%% [%+.1f%%, %+.1f%%] (%.1f%%) | %lld |",
					100 * num(delta, "rel_delta"), 100 * num(delta, "ci95_lo"),
					100 * num(delta, "ci95_hi"), 100 * num(delta, "ci_coverage"),
					json_integer_value(json_object_get(delta, "pairs")));
				fprintf(gp, "%d \"%s\" %.3f %.3f %.3f\n", i, vals[i],
					100 * num(delta, "rel_delta"), 100 * num(delta, "ci95_lo"),
					100 * num(delta, "ci95_hi"));
			} else if (delta) {
				fprintf(md, "%+.1f%%, no interval | %lld |", 100 * num(delta, "rel_delta"),
					json_integer_value(json_object_get(delta, "pairs")));
				/* a point with no bar: too few pairs for an interval */
				fprintf(gp, "%d \"%s\" %.3f %.3f %.3f\n", i, vals[i],
					100 * num(delta, "rel_delta"), 100 * num(delta, "rel_delta"),
					100 * num(delta, "rel_delta"));
			} else {
				fprintf(md, "baseline | |");
			}
			fprintf(md, " %s |\n", dirs[i]);
		}
		json_decref(run);
	}
	fclose(csv);
	fclose(md);
	fclose(gp);
	snprintf(path, sizeof(path),
		 "cd '%s' && gnuplot -e \"set terminal svg size 800,480 noenhanced; "
		 "set output 'sweep.svg'; set title 'xdptc sweep over %s: delta of cpu_ns_per_pkt "
		 "against the baseline, interval of at least 95%% coverage'; set ylabel 'percent'; set xzeroaxis; "
		 "set key off; set xrange [-0.5:%d.5]; set yrange [*<0:0<*]; plot 'sweep.dat' using "
		 "1:3:4:5:xtic(2) with yerrorbars pt 7 lw 2; set terminal pngcairo size 800,480 "
		 "noenhanced; set output 'sweep.png'; replot\" 2>/dev/null",
		 sweepdir, over, done - 1);
	if (system(path))
		fprintf(stderr, "xdptc sweep: the plot was not drawn (gnuplot missing or failed)\n");
	snprintf(path, sizeof(path), "%s/sweep.md", sweepdir);
	md = fopen(path, "r");
	if (md) {
		char line[1024];

		while (fgets(line, sizeof(line), md))
			fputs(line, stdout);
		fclose(md);
	}
	fprintf(stderr, "xdptc sweep: %s/ (sweep.csv, sweep.md, sweep.svg, sweep.png)\n", sweepdir);
	return done == n ? 0 : 1;
}

static const struct cli_opt sweep_opts[] = {
	{ "over", 256, "size|sender", "size: UDP payload sizes (default 18,86,214,470,982,1458: "
	  "frames of 60, 128, 256, 512, 1024 and 1500 bytes without the FCS); sender: sender "
	  "regimes (default udp,packet,xdp-live)" },
	{ "values", 257, "LIST", "the values instead of the defaults (at most 16)" },
	{ NULL },
};

const struct cli_command cli_cmd_sweep = {
	.name = "sweep",
	.fn = cmd_sweep,
	.brief = "runs over frame sizes or senders, side by side",
	.about = "Run `xdptc run` once per value and put the runs side by side: the "
		 "within-run delta of every mode against the baseline and the mechanism "
		 "counters per packet. Writes OUT/<UTC timestamp>-sweep-<over>/sweep.csv, "
		 "sweep.md and a plot (sweep.svg, sweep.png); each run keeps its own directory "
		 "beside it. --over is required.",
	.opts = sweep_opts,
	.also = "run",
};
