/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_run.h: one kernel matrix, measured on this machine (matrix_run.c). */
#ifndef XDPTC_MATRIX_RUN_H
#define XDPTC_MATRIX_RUN_H

#include "matrix_tasks.h"

/* matrix_run - measure the matrix @m (its kernels, options, topologies directory and this
 * binary filled in): take the run lock (a refusal is said), make OUT/<stamp>-matrix/
 * with logs/, profiles/ and runs/, run every kernel's fetch and experiments, at most
 * m->jobs at a time, then the host engine's cross-check where a kernel is of the host's
 * series, and write matrix.json, matrix.md (also on stdout) and the plots. Returns the
 * exit status: 0 every task done, 1 one failed (its reason recorded) or nothing could be
 * written, 130 interrupted. */
int matrix_run(struct matrix *m);

#endif
