/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_boots.h: the matrix's repeated boots (`xdptc matrix --repeat N`): each entry of
 * matrix.json has "boot" (1 to N; missing in matrices before --repeat: 1). The tables,
 * plots and profiles of matrix.md use the first boot; this section says how far the later
 * boots' deltas moved from it.
 */
#ifndef XDPTC_MATRIX_BOOTS_H
#define XDPTC_MATRIX_BOOTS_H

#include <jansson.h>
#include <stdio.h>

/* matrix_first_boots - a copy of @matrix whose "entries" hold only each cell's first
 * boot (the caller json_decref()s it), or NULL when out of memory. */
json_t *matrix_first_boots(const json_t *matrix);

/* matrix_md_boots - matrix.md's "Between boots" section: for every kernel and experiment
 * measured on two boots or more, per mode and per delta metric (the run's time metric,
 * and retired instructions where the plugin counted), each boot's delta against tc with
 * its interval, the spread (largest minus smallest delta, in percentage points) and how
 * many pairs of boots have overlapping intervals. Writes nothing when no cell was
 * repeated. */
void matrix_md_boots(const json_t *matrix, FILE *out);

/* matrix_boots_join - one matrix of the @n matrices @m's entries, the boots of each
 * kernel and experiment numbered 1, 2, ... in the order given (a matrix of one boot
 * each, measured again as a whole, or matrices of several), for matrix_md_boots; its
 * "kernels" are the first matrix's. A new reference, or NULL. */
json_t *matrix_boots_join(json_t *const *m, int n);

#endif
