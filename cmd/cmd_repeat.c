/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_repeat.c: xdptc repeatability, how often a run's figure lies inside the previous
 * run's intervals (analysis/repeatability.h). */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "repeatability.h"
#include "report.h"

#include "cli.h"
#include "cli_table.h"

enum { OPT_ARM = 256, OPT_OUT };

#define REPEAT_MAX_RUNS 512

/* @rep as @dir/repeatability.json and @dir/summary.md. Returns 0 or 1 (said why). */
static int repeat_write(const json_t *rep, const char *dir)
{
	char path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/repeatability.json", dir);
	if (json_dump_file(rep, path, JSON_INDENT(1) | JSON_SORT_KEYS)) {
		fprintf(stderr, "xdptc: cannot write %s\n", path);
		return 1;
	}
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	f = fopen(path, "w");
	if (!f) {
		perror(path);
		return 1;
	}
	repeatability_md(rep, f);
	return fclose(f) ? 1 : 0;
}

static int cmd_repeat(int argc, char **argv)
{
	const char *arm = "xdpdrv", *out = NULL, *names[REPEAT_MAX_RUNS];
	json_t *runs[REPEAT_MAX_RUNS], *rep;
	char err[PATH_MAX + 128];
	int c, n = 0, status = 0;

	while ((c = cli_next(&cli_cmd_repeat, argc, argv)) > 0) {
		switch (c) {
		case OPT_ARM: arm = optarg; break;
		case OPT_OUT: out = optarg; break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (argc - optind < 2 || argc - optind > REPEAT_MAX_RUNS)
		return need_opt("repeatability", "two or more run directories, in the order they ran");
	for (int i = optind; i < argc; i++, n++) {
		int e = report_load(argv[i], &runs[n], err, sizeof(err));

		names[n] = argv[i];
		if (e) {
			fprintf(stderr, "xdptc: %s\n", err);
			for (int k = 0; k < n; k++)
				json_decref(runs[k]);
			return e == -EBADMSG || e == -EPROTO ? EXIT_USAGE : 1;
		}
	}
	rep = repeatability_compute(runs, names, (size_t)n, arm, err, sizeof(err));
	if (!rep) {
		fprintf(stderr, "xdptc: %s\n", err);
		status = EXIT_USAGE;
	} else {
		repeatability_md(rep, stdout);
		if (out)
			status = repeat_write(rep, out);
	}
	json_decref(rep);
	for (int k = 0; k < n; k++)
		json_decref(runs[k]);
	return status;
}

static const struct cli_opt repeat_opts[] = {
	{ "arm", OPT_ARM, "MODE", "the arm whose delta against the baseline is compared",
	  "xdpdrv" },
	{ "out", OPT_OUT, "DIR", "also write DIR/repeatability.json and DIR/summary.md",
	  "stdout only" },
	{ NULL },
};

const struct cli_command cli_cmd_repeat = {
	.name = "repeatability",
	.fn = cmd_repeat,
	.operands = "RUN_DIR...",
	.brief = "how often a run's figure lies inside the previous run's intervals",
	.about = "Read the run directories given, in the order they ran (runs of one command "
		 "back to back, as `make repeatability` makes them), and for each run after "
		 "the first say whether its delta of the time metric (--arm against the "
		 "baseline) lies inside the previous run's next-run interval, and inside its "
		 "within-run interval for comparison; the figures' spread between runs; the "
		 "machine (CPU model, kernel) they ran on. Each run's summary is computed "
		 "from its trials, as `xdptc report` does. Prints summary.md; with --out also "
		 "writes it and repeatability.json there. Exit status 2 when a run has no "
		 "such delta or cannot be read. Needs no privilege.",
	.opts = repeat_opts,
};
