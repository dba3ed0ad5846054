/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cmd_run_table.h: the option table of `xdptc run` as getopt, --help and the manual take
 * it (cmd_run_table.c), made from the options' declaration (run/run_opt_table.c) when
 * the program starts; the rows that name the topologies and their defaults take their
 * words from the table of topologies then.
 */
#ifndef XDPTC_CMD_RUN_TABLE_H
#define XDPTC_CMD_RUN_TABLE_H

#include "cli_table.h"
#include "run_opt_table.h" /* the keys (OPT_*) */

/* The options of `xdptc run`, ended by a row whose name is NULL (filled by a
 * constructor). */
extern struct cli_opt run_opts_table[];

#endif
