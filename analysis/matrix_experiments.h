/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_experiments.h: the kernel matrix's experiments, one table (matrix_experiments.c)
 * that the matrix's runs (run/matrix_tasks.c), its command (cmd/cmd_matrix.c), its
 * report, plots (matrix.c) and README's table (matrix_table.c) all read. An experiment is
 * a topology, a sender and an engine; adding one is a row.
 */
#ifndef XDPTC_MATRIX_EXPERIMENTS_H
#define XDPTC_MATRIX_EXPERIMENTS_H

#include <stdbool.h>
#include <stddef.h>

struct matrix_exp {
	const char *name;     /* the run's directory (KERNEL-NAME), matrix.json's
			       * "experiment" */
	const char *topology; /* xdptc run --topology */
	const char *sender;   /* xdptc run --sender */
	const char *title;    /* in tables: "veth, UDP" */
	bool host;            /* the host engine's cross-check on the host's own kernel
			       * series, after the icount experiments; else under icount on
			       * every kernel */
	const char *modes_more; /* modes measured beside the matrix's (",netkit"), or NULL */
	int since_major, since_minor; /* the first kernel that has what it measures (netkit:
				       * 6.7); 0: every kernel */
	const char *needs;    /* what the older kernels lack, for the reason ("netkit") */
};

/* The experiments: the icount ones first (MATRIX_NEXP), then the host engine's
 * (MATRIX_NHOST). */
#define MATRIX_NEXP 4
#define MATRIX_NHOST 2
extern const struct matrix_exp matrix_exps[MATRIX_NEXP + MATRIX_NHOST];

/* matrix_exp_more_modes - does the experiment named @name measure modes beside the
 * matrix's (modes_more: the container experiment's netkit)? */
bool matrix_exp_more_modes(const char *name);

/* matrix_exp_words - the icount experiments (the first MATRIX_NEXP) into @buf (@len
 * bytes): with @titles "NAME (TITLE[, NEEDS from MAJOR.MINOR, also measuring MODES])"
 * each, joined by ", " and " and " before the last; else the names joined by ", ".
 * Returns @buf. */
char *matrix_exp_words(char *buf, size_t len, bool titles);

#endif
