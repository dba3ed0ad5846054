/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_experiments.h: the kernel matrix's experiments, one table (matrix_experiments.c)
 * that every other file of the matrix asks instead of naming an experiment: its plan,
 * cells and children (run/matrix_run.c, matrix_cell.c, matrix_tasks.c), its command
 * (cmd/cmd_matrix.c: --experiments, --help), matrix.md (matrix.c), its plots
 * (matrix_plot.c), the Between-boots table (matrix_boots.c) and docs/results.md's table
 * (matrix_table.c). An experiment is a topology, a sender and an engine; adding one is a
 * row, and, when its matrix.md section needs more than the generic table, its renderer
 * in a file of its own, matrix_exp_NAME.c (ARCHITECTURE.md, "Adding a matrix
 * experiment"). No other file names an experiment (tests/unit/test_matrix_names.c).
 */
#ifndef XDPTC_MATRIX_EXPERIMENTS_H
#define XDPTC_MATRIX_EXPERIMENTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* The most rows the table may have (matrix_experiments.c asserts it when it compiles):
 * the size of the merge's arrays of cells, never a count of the rows. */
#define MATRIX_MAX_EXPS 32

/* The most arguments of its own an experiment adds to its `xdptc run`. */
#define MATRIX_EXP_ARGS 4

/* Where an experiment runs. */
enum matrix_engine {
	MATRIX_ICOUNT, /* `xdptc run --engine icount --guest-kernel VERSION`, on every
			* kernel of the matrix (from since.major.minor on) */
	MATRIX_HOST,   /* the host engine's cross-check: `xdptc run` on this machine at its
			* own defaults, one at a time after every guest is down, only when a
			* kernel of the matrix is of the host's own series */
};

/* matrix_md_fn - experiment @exp's section of matrix.md, from its heading on, to @out: a
 * row per entry of @exp in @matrix (matrix.json; each cell's first boot). */
typedef void matrix_md_fn(FILE *out, const json_t *matrix, const char *exp);

struct matrix_exp {
	const char *name;     /* the cell (KERNEL:NAME), its run's directory (KERNEL-NAME),
			       * matrix.json's "experiment", --experiments, --cell */
	const char *title;    /* in tables and --help: "veth, UDP" */
	const char *topology; /* xdptc run --topology */
	const char *sender;   /* xdptc run --sender */
	enum matrix_engine engine;
	const char *beside;   /* MATRIX_HOST: the icount experiment whose deltas its own
			       * stand beside in matrix.md's cross-check; else NULL */
	struct {
		int major, minor; /* the first kernel that has what it measures (netkit:
				   * 6.7); 0: every kernel */
		const char *needs; /* what the older kernels lack, for the reason they are
				    * left out ("netkit") */
	} since;
	const char *modes_more; /* modes it measures beside the matrix's --modes
				 * (",netkit"), or NULL; no experiment refuses one of them
				 * (tcx before 6.6 is the kernel's: matrix_tasks.c) */
	const char *args[MATRIX_EXP_ARGS]; /* more arguments of its `xdptc run`, after
					    * the rest (a NIC model's option, issue 39),
					    * NULL-ended or all given */
	const char *nic;      /* the DUT's qemu NIC model of a row of the driver matrix
			       * (issue 39: "Ask your driver" in matrix.md), or NULL */
	bool opt_in;          /* measured only when --nics names its NIC (or "all") or
			       * --experiments names it; else by default */
	bool readme;          /* columns of its own in docs/results.md's table across kernels
			       * (matrix_table.c; the first row's entries make that table's
			       * rows and its tcx column) */
	matrix_md_fn *md;     /* its section of matrix.md: matrix_md_section (section.h),
			       * or its own; NULL: none (a host run's deltas are in the
			       * cross-check) */
};

/* matrix_md_nic - a NIC model's row's section (matrix_exp_nic.c): the generic section,
 * and before the first row with a NIC (matrix_exp.nic) that has entries, the "Ask your
 * driver" heading, its words and table (matrix_write_drivers, matrix_drivers.h).
 * A matrix_md_fn. */
matrix_md_fn matrix_md_nic;

/* The experiments, in the order the matrix plans, lists and shows them. */
extern const struct matrix_exp matrix_exps[];
extern const int matrix_nexps; /* its rows (ARRAY_SIZE) */

/* matrix_exp_find - the row named @name, or NULL (an experiment this version does not
 * know, as an old matrix.json may hold). */
const struct matrix_exp *matrix_exp_find(const char *name);

/* matrix_exp_host - is @name a row of the host engine (MATRIX_HOST)? */
bool matrix_exp_host(const char *name);

/* matrix_exp_words - the icount experiments into @buf (@len bytes): with @titles
 * "NAME (TITLE[; kernels with NEEDS, MAJOR.MINOR or newer][; also measuring MODES])"
 * each, joined by ", " and " and " before the last; else the names joined by ", ".
 * Returns @buf. */
char *matrix_exp_words(char *buf, size_t len, bool titles);

#endif
