/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_tasks.h: what cmd_matrix.c (the command: options, plan, matrix.json) and
 * matrix_tasks.c (its children: fetches and runs, at most --jobs at a time) share.
 */
#ifndef XDPTC_MATRIX_TASKS_H
#define XDPTC_MATRIX_TASKS_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <sys/types.h>

#include "matrix_experiments.h"

#define MATRIX_MAX_KERNELS 24
/* The profile pass's window in the matrix's runs: the plugin's exact counts give the
 * per-function figures, so the sampled profiles need only show the call paths (20k
 * packets: about 2,800 to 5,000 samples at 7,000 to 12,600 instructions per packet, a
 * sample every 50,000), not a single icount run's 50k */
#define MATRIX_PROFILE_PACKETS "20000"
#define MATRIX_MAX_REPEAT 5 /* --repeat: separate boots of each experiment */

enum task_state { TASK_WAITING, TASK_RUNNING, TASK_DONE, TASK_FAILED };

/* One child: a kernel's fetch (exp -1) or one boot of one of its experiments (boot 1 to
 * --repeat). */
struct matrix_task {
	int k, exp, boot;
	enum task_state state;
	pid_t pid;
	double start, secs;
	char log[PATH_MAX], out[PATH_MAX]; /* stderr; the fetch's stdout or the run's OUT */
	char reason[256];
};

struct matrix_kernel {
	char spec[65];                     /* as the user gave it */
	char package[96], version[64], suite[32], release[64];
	enum task_state fetch;
	char reason[256];
	char modes[64];                    /* what is measured on it */
	char tcx_reason[96];               /* why tcx is not, or "" */
	char exp_reason[160];              /* the experiments left out of it, and why, or "" */
};

struct matrix {
	struct matrix_kernel k[MATRIX_MAX_KERNELS];
	int nk;
	struct matrix_task *t;             /* the plan's tasks (matrix_run.c allocates
					    * them: per kernel its fetch and every boot of
					    * every row, and the host rows once) */
	int nt;
	int jobs, running, lock_fd, repeat;
	const char *modes, *topodir, *out_dir, *kernels, *report, *seed, *table, *boots;
	uint64_t packets;
	const char *profile_packets;       /* --profile-packets (default MATRIX_PROFILE_PACKETS) */
	int reps, count_reps;
	char dir[PATH_MAX];                /* OUT/<stamp>-matrix */
	char self[PATH_MAX];               /* this binary */
	double t0;
	FILE *log;                         /* DIR/progress.log: what it said on stderr */
	/* cells (matrix_cell.h): */
	bool cell_mode;                    /* --cell: this process is one cell, its run the
					    * experiment's `xdptc run`; else each experiment's
					    * task is a cell, `xdptc matrix --cell` */
	const char *cell;                  /* --cell KERNEL:EXPERIMENT */
	int boot;                          /* --boot N (the cell's boot, 1 to 5) */
	int held_lock;                     /* --held-lock FD: the run lock, handed down */
	const char *experiments;           /* --experiments LIST, or NULL: every one
					    * not opt_in */
	const char *nics;                  /* --nics LIST: the NIC models whose rows
					    * (opt_in) are measured too ("all": every one),
					    * or NULL */
	bool list, list_json;              /* --list [--json] */
	bool out_dir_set;                  /* --out given */
	char **merge;                      /* --merge DIR...: the cell directories */
	int nmerge;
};

/* say - a line of progress, on stderr and in the matrix's progress.log */
void say(const struct matrix *m, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

/* now_s - CLOCK_MONOTONIC in seconds */
double now_s(void);

/* matrix_exp_left_out - is experiment @x (matrix_exps) left out of kernel @k, whose
 * version prefix predates what it measures (its row's since: netkit before Linux 6.7)?
 * When it is, the reason is added to k->exp_reason. */
bool matrix_exp_left_out(struct matrix_kernel *k, int x);

/* matrix_schedule - run every waiting task of @m, at most m->jobs at a time, each a child
 * with its own log; a kernel's experiments start once its fetch is done. Returns 0, 130
 * when stopped (every child stopped and waited for), or 1. */
int matrix_schedule(struct matrix *m);

#endif
