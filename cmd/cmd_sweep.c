/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_sweep.c: xdptc sweep's options; the series of runs is run/sweep.c's. */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cli.h"
#include "cli_parse.h"
#include "cli_table.h"
#include "run.h"
#include "sender.h"
#include "sweep.h"

/* A sweep over senders leaves out xdp-live where the kernel that would run it refuses XDP
 * on live frames (sender_xdp_live_probe), saying so, before any run. Returns -1 to go on,
 * or 1 when no value is left. */
static int sweep_senders_here(struct sweep *sw, const struct run_opts *o)
{
	char why[256] = "";
	bool live = false;
	int n = 0;

	if (strcmp(sw->over, "sender") || (o->engine == ENGINE_ICOUNT && !o->inside_icount))
		return -1;
	for (int i = 0; i < sw->n; i++)
		live |= !strcmp(sw->vals[i], "xdp-live");
	if (!live || sender_xdp_live_probe(why, sizeof(why)) == 1)
		return -1;
	fprintf(stderr, "xdptc sweep: xdp-live left out: %s\n", why);
	for (int i = 0; i < sw->n; i++)
		if (strcmp(sw->vals[i], "xdp-live"))
			memmove(sw->vals[n++], sw->vals[i], sizeof(sw->vals[i]));
	sw->n = n;
	if (n)
		return -1;
	fprintf(stderr, "xdptc sweep: no value is left to run\n");
	return 1;
}

/* Parse the command line: --over and --values here, the rest for run_opts_parse into
 * @o. Returns -1 to go on, or the exit status. */
static int sweep_parse(struct sweep *sw, int argc, char **argv, struct run_opts *o)
{
	static char topodir[PATH_MAX];
	const char *values = NULL;
	char *rest[128];
	int nrest = 0, e;

	rest[nrest++] = argv[0];
	for (int i = 1; i < argc && nrest < 127; i++) {
		if (!strcmp(argv[i], "--help") || !strcmp(argv[i], "-h")) {
			cli_help(&cli_cmd_sweep, stdout);
			return 0;
		}
		if (!strcmp(argv[i], "--over") && i + 1 < argc)
			sw->over = argv[++i];
		else if (!strcmp(argv[i], "--values") && i + 1 < argc)
			values = argv[++i];
		else
			rest[nrest++] = argv[i];
	}
	rest[nrest] = NULL;
	if (!sw->over)
		return need_opt("sweep", "--over size|sender");
	if (strcmp(sw->over, "size") && strcmp(sw->over, "sender"))
		return bad_value("--over", sw->over, "size or sender");
	if (!values)
		values = !strcmp(sw->over, "size") ? "18,86,214,470,982,1458" : "udp,packet,xdp-live";
	sw->n = parse_sweep_values(sw->over, values, sw->vals, SWEEP_MAX);
	if (sw->n < 0)
		return bad_value("--values", values,
				 sw->n == -E2BIG ? "at most 16 values" /* SWEEP_MAX */
				 : !strcmp(sw->over, "size") ? "payload sizes 0-" RUN_STR(RUN_PAYLOAD_MAX)
				 : "udp, packet, xdp-live");
	e = run_opts_parse(nrest, rest, o, topodir, sizeof(topodir));
	if (e >= 0)
		return e;
	o->quiet = 1;
	return sweep_senders_here(sw, o);
}

int cmd_sweep(int argc, char **argv)
{
	static struct sweep sw;
	struct run_opts o;
	int e;

	memset(&sw, 0, sizeof(sw));
	e = sweep_parse(&sw, argc, argv, &o);
	return e >= 0 ? e : sweep_run(&sw, &o);
}

static const struct cli_opt sweep_opts[] = {
	{ "over", 256, "size|sender", "size: UDP payload sizes (default 18,86,214,470,982,1458: "
	  "frames of 60, 128, 256, 512, 1024 and 1500 bytes without the FCS); sender: sender "
	  "regimes (default udp,packet,xdp-live)", .flags = CLI_REQUIRED },
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
