/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_cell.h: the kernel matrix's unit of work, the cell: one guest kernel x one
 * experiment (x one boot), run by itself anywhere and merged anywhere (docs/matrix.md,
 * "Across machines").
 *
 * A cell directory holds cell.json (what it is, what it ran on, its settings, its
 * outcome), the run's own directory (run.json and the rest: one subdirectory, the only
 * one) and its logs as files (fetch.log, fetch.out, run.log). `xdptc matrix` makes each
 * experiment's boot a cell in OUT/<stamp>-matrix/runs/KERNEL-EXPERIMENT[-bootN]/ and
 * builds matrix.json from those cells, as `--merge` does from cells made elsewhere.
 */
#ifndef XDPTC_MATRIX_CELL_H
#define XDPTC_MATRIX_CELL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "matrix_tasks.h"

#define MATRIX_CELL_SCHEMA "xdptc.cell/1"

/* matrix_cell_parse - "KERNEL:EXPERIMENT" into @kernel and the experiment's index in
 * matrix_exps (icount experiments and the host engine's). Returns 0, or -1 (said
 * why on stderr). */
int matrix_cell_parse(const char *s, char *kernel, size_t klen, int *exp);

/* matrix_cell_main - run the cell m->cell (boot m->boot) into the new directory
 * m->out_dir: fetch its kernel into the cache, run its experiment, write cell.json.
 * Under the run lock handed down (--held-lock) or shared with other cells. Returns 0
 * (measured), 1 (failed: cell.json says why), 2 (bad usage) or 130 (stopped). */
int matrix_cell_main(struct matrix *m);

/* matrix_kernel_json - matrix.json's (and cell.json's) object of kernel @k. */
json_t *matrix_kernel_json(const struct matrix_kernel *k);

/* matrix_exp_wanted - is experiment @x among m->experiments (--experiments; NULL: every
 * one)? */
bool matrix_exp_wanted(const struct matrix *m, int x);

/* matrix_cell_write - @t's cell.json in t->out (its kernel @k as the fetch found it,
 * its outcome). Returns 0 or -errno. */
int matrix_cell_write(const struct matrix *m, const struct matrix_task *t);

/* matrix_list - the cells of the matrix of m->k (each kernel's experiments of
 * m->experiments that it does not leave out), one "KERNEL:EXPERIMENT" per line, or
 * (m->list_json) {"cell": [...]} for a CI job engine's matrix. Returns 0. */
int matrix_list(struct matrix *m);

/* matrix_json_from_cells - matrix.json of the matrix in m->dir from the cell
 * directories under m->dir/runs/ (each with its cell.json), in the order of @cells (@n
 * paths relative to m->dir); @kernels: the kernels' objects (NULL: from the cells).
 * A new reference. */
json_t *matrix_json_from_cells(const struct matrix *m, char **cells, int n, json_t *kernels);

/* matrix_merge - a matrix (OUT/<stamp>-matrix/) from the cell directories m->merge:
 * refused (exit 2, one sentence naming the difference) when they do not belong together
 * (another xdptc, another qemu, other settings, the same cell twice with other results);
 * the hosts recorded per entry and said where they differ. Returns 0, 1 (a cell failed
 * or is missing: its row says why) or 2. */
int matrix_merge(struct matrix *m);

#endif
