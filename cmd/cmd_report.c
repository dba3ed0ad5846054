/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_report.c: xdptc report and xdptc compare. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "flame_render.h"
#include "plots.h"
#include "summary.h"
#include "run.h"

#include "cli.h"
#include "report.h"
#include "cli_table.h"

enum { OPT_MIXED = 256, OPT_ABSOLUTE };

/* The file report_load read from @arg (DIR/run.json, or the file given) into @file, its
 * directory into @dir (PATH_MAX each). */
static void run_paths(const char *arg, char *dir, char *file)
{
	struct stat st;

	snprintf(dir, PATH_MAX, "%s", arg);
	if (!stat(dir, &st) && S_ISDIR(st.st_mode)) {
		snprintf(file, PATH_MAX, "%s/run.json", dir);
	} else {
		char *slash = strrchr(dir, '/');

		snprintf(file, PATH_MAX, "%s", arg);
		if (slash)
			*slash = '\0';
		else
			snprintf(dir, PATH_MAX, ".");
	}
}

/* The flame graphs drawn again from their folded stacks (what their entries say of them:
 * the summary reads those), then the stored summary made what this version computes
 * (the trials stay); *@same: run.json is unchanged by both. Returns the flame graphs
 * drawn, or -1 (said). */
static int recompute(json_t *run, const char *dir, bool *same)
{
	char err[PATH_MAX + 128];
	json_t *before = json_deep_copy(json_object_get(run, "flamegraphs")), *now;
	int flames = flame_render_run(run, dir, err, sizeof(err));

	if (flames < 0) {
		fprintf(stderr, "xdptc: %s\n", err);
		json_decref(before);
		return -1;
	}
	*same = json_equal(before, json_object_get(run, "flamegraphs")) ||
		(!before && !json_object_get(run, "flamegraphs"));
	json_decref(before);
	now = summary_compute(run);
	*same = *same && json_equal(now, json_object_get(run, "summary"));
	json_object_set_new(run, "summary", now);
	return flames;
}

/* --csv @csv: every trial of @run as CSV (to stdout for "-", which quiets the summary).
 * Returns 0 or 1 (said). */
static int write_csv(const json_t *run, const char *csv, int *quiet)
{
	FILE *f = strcmp(csv, "-") ? fopen(csv, "w") : stdout;

	if (!f || report_csv(run, f)) {
		fprintf(stderr, "xdptc: cannot write the CSV to %s: %s\n", csv, strerror(errno));
		return 1;
	}
	if (f != stdout)
		fclose(f);
	else
		*quiet = 1;
	return 0;
}

int cmd_report(int argc, char **argv)
{
	const char *csv = NULL;
	char err[PATH_MAX + 128], dir[PATH_MAX], file[PATH_MAX], perr[PATH_MAX + 128];
	json_t *run;
	bool same;
	int c, quiet = 0, e, n, flames;

	while ((c = cli_next(&cli_cmd_report, argc, argv)) > 0) {
		switch (c) {
		case 'c': csv = optarg; break;
		case 'q': quiet = 1; break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (optind != argc - 1)
		return need_opt("report", "one run directory (or its run.json)");
	e = report_load(argv[optind], &run, err, sizeof(err));
	if (e) {
		fprintf(stderr, "xdptc: %s\n", err);
		return e == -EBADMSG || e == -EPROTO ? EXIT_USAGE : 1;
	}
	run_paths(argv[optind], dir, file);
	flames = recompute(run, dir, &same);
	e = flames < 0 || (csv && write_csv(run, csv, &quiet));
	/* the plots before summary.md and index.html, which show those that were drawn */
	n = e ? 0 : plots_write(run, dir, perr, sizeof(perr));
	if (!e && report_write(run, dir, same ? NULL : file, quiet, err, sizeof(err))) {
		fprintf(stderr, "xdptc: %s\n", err);
		e = 1;
	}
	json_decref(run);
	if (e)
		return 1;
	fprintf(stderr, "xdptc: %s %s, rewrote %s/summary.md and index.html, %d flame graph%s "
		"and ", file, same ? "unchanged (its summary and flame graphs' entries are current)"
		: "rewritten (its summary and flame graphs' entries)", dir, flames,
		flames == 1 ? "" : "s");
	if (n < 0)
		fprintf(stderr, "no plots: %s", perr);
	else
		fprintf(stderr, "%d plots (the .svg and .png pictures, their plot-*.dat data and "
				"plots.gp)", n);
	fprintf(stderr, "%s\n", csv && strcmp(csv, "-") ? "; and wrote the CSV" : "");
	return 0;
}

int cmd_compare(int argc, char **argv)
{
	char err[600], why[512];
	json_t *a, *b;
	int c, e, mixed = 0;

	while ((c = cli_next(&cli_cmd_compare, argc, argv)) > 0) {
		switch (c) {
		case OPT_ABSOLUTE:
			fprintf(stderr, "xdptc: compare refuses absolute figures: nanoseconds and cycles "
					"from different runs, machines or topologies are not comparable; "
					"it compares within-run deltas only\n");
			return EXIT_USAGE;
		case OPT_MIXED: mixed = 1; break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (optind != argc - 2)
		return need_opt("compare", "two run directories");
	for (int i = 0; i < 2; i++) {
		e = report_load(argv[optind + i], i ? &b : &a, err, sizeof(err));
		if (e) {
			fprintf(stderr, "xdptc: %s\n", err);
			if (i)
				json_decref(a);
			return e == -EBADMSG || e == -EPROTO ? EXIT_USAGE : 1;
		}
	}
	json_object_set_new(a, "summary", summary_compute(a));
	json_object_set_new(b, "summary", summary_compute(b));
	e = report_compare(a, argv[optind], b, argv[optind + 1], mixed, stdout, why, sizeof(why));
	if (e)
		fprintf(stderr, "xdptc: %s\n", why);
	json_decref(a);
	json_decref(b);
	return e == -EINVAL ? EXIT_USAGE : e ? 1 : 0;
}

static const struct cli_opt report_opts[] = {
	{ "csv", 'c', "FILE", "also write every trial as CSV to FILE (- for stdout, then no "
	  "summary)" },
	{ "quiet", 'q', NULL, "do not print the summary" },
	{ NULL },
};

const struct cli_command cli_cmd_report = {
	.name = "report",
	.fn = cmd_report,
	.operands = "DIR",
	.brief = "recompute a run's summary from its run.json; CSV export",
	.about = "Compute the summary again from the trials in DIR/run.json (the same trials "
		 "give the same result), store it there, draw the flame graphs again from their "
		 "folded stacks (DIR/flame-MODE.folded: their samples, sampling error and unnamed "
		 "frames into run.json), rebuild the plots (gnuplot), DIR/summary.md (which "
		 "embeds the plots and links the flame graphs) and DIR/index.html (the same "
		 "page, self-contained: the plots inline, with the settings, machine and "
		 "kernel), print the summary and say which files were rewritten. Needs no "
		 "privilege.",
	.opts = report_opts,
};

static const struct cli_opt compare_opts[] = {
	{ "mixed", OPT_MIXED, NULL, "put runs of different topologies, engines or time metrics "
	  "side by side too (refused otherwise: their deltas measure different things)" },
	{ "absolute", OPT_ABSOLUTE, NULL, "refused", .flags = CLI_HIDDEN },
	{ NULL },
};

const struct cli_command cli_cmd_compare = {
	.name = "compare",
	.fn = cmd_compare,
	.operands = "DIR_A DIR_B",
	.brief = "two runs' within-run deltas side by side, with their settings",
	.about = "Put two runs side by side by their within-run deltas (B against A of each "
		 "run, with its own interval, coverage, pairs and verdict), after a table of "
		 "the settings of both that marks each one that differs (sender, guest kernel, "
		 "machine, packets, ...). Absolute figures from different runs are not "
		 "comparable, so compare never shows them (--absolute is refused). Needs no "
		 "privilege.",
	.opts = compare_opts,
};
