/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run.h: one run = one topology, several modes, interleaved repetitions of each pass
 * (timing, count, bpfstats, profile), written to results/<UTC timestamp>-<topology>/.
 */
#ifndef XDPTC_RUN_H
#define XDPTC_RUN_H

#include "run_opts.h"

/* run_main - do the run. Returns the process exit status: 0 done, 1 failed,
 * 130 interrupted (everything made is removed in every case). */
int run_main(const struct run_opts *o);

#endif
