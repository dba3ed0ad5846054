/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* sweep.h: `xdptc sweep`'s series of runs (sweep.c). */
#ifndef XDPTC_SWEEP_H
#define XDPTC_SWEEP_H

#include <limits.h>

#include "run_opts.h"

#define SWEEP_MAX 16       /* values of one sweep */
#define SWEEP_VALUE_LEN 32 /* one value as written ("470", "xdp-live") */

/* A sweep: the values over which it runs, their run directories, where it writes. */
struct sweep {
	const char *over;                       /* "size" or "sender" */
	char vals[SWEEP_MAX][SWEEP_VALUE_LEN];
	char dirs[SWEEP_MAX][PATH_MAX];
	int n, done;                            /* values; runs that succeeded */
	char dir[PATH_MAX + 64];                /* OUT/<stamp>-sweep-<over> */
};

/* sweep_run - one run of @o per value of @sw, in turn (stopping at the first that
 * fails), then OUT/<stamp>-sweep-<over>/ with sweep.csv, sweep.md (also on stdout) and
 * the plot. Returns the exit status: 0 every run done, 1 a run failed, 130 interrupted. */
int sweep_run(struct sweep *sw, struct run_opts *o);

#endif
