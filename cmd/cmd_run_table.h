/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cmd_run_table.h: the option table of `xdptc run` (cmd_run_table.c) and its long-only
 * options' keys; cmd_run.c parses with it. The rows that name the topologies and their
 * defaults take their words from the table of topologies when the program starts.
 */
#ifndef XDPTC_CMD_RUN_TABLE_H
#define XDPTC_CMD_RUN_TABLE_H

#include "cli_table.h"

/* long-only options' keys */
enum {
	OPT_PACKETS = 256, OPT_CPU, OPT_SEED, OPT_RATE, OPT_GUEST_KERNEL, OPT_COUNTERS,
	OPT_CROSS_CHECK, OPT_NO_FLAME, OPT_AA, OPT_SENDER, OPT_FIND_MAX_RATE, OPT_THREADED_NAPI,
	OPT_NAPI_CPU, OPT_ENGINE, OPT_INSIDE_ICOUNT, OPT_PMU_EVENTS, OPT_HELD_LOCK,
	OPT_PROFILE_PERIOD, OPT_PROFILE_PACKETS, OPT_SCHEDULE, OPT_WINDOW_MS, OPT_TIMING_BUDGET, OPT_SEGMENTS,
	OPT_TARGET, OPT_WINDOWS_PER_ATTACH, OPT_DEV, OPT_NETNS, OPT_WINDOW, OPT_RATE_TOLERANCE,
	OPT_ALLOW_DEFAULT_ROUTE_DEV,
};

/* The options of `xdptc run`, ended by a row whose name is NULL. */
extern struct cli_opt run_opts_table[];

#endif
