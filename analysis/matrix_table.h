/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_table.h: docs/results.md's table across kernels, from committed matrices
 * (`xdptc matrix --table DIR,DIR...`; tests/unit/test_claims.c checks README.md's copy).
 */
#ifndef XDPTC_MATRIX_TABLE_H
#define XDPTC_MATRIX_TABLE_H

#include <jansson.h>
#include <stdio.h>

/* matrix_write_table - a Markdown table, a row per guest kernel of the @n matrices @m
 * (matrix.json; a kernel in several: the last one's entries, each cell's first boot):
 * xdpdrv against tc in each experiment as a percentage, rounded to 0.1, in retired
 * instructions (the plugin's whole window) and in guest_instructions_per_pkt (the
 * icount clock over the measured tasks), then tcx against tc (veth, UDP sender,
 * retired) or why there is none. Returns 0 or -EIO. */
int matrix_write_table(json_t *const *m, int n, FILE *out);

#endif
