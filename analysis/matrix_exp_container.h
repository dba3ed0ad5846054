/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_exp_container.h: the container experiment's own section of matrix.md
 * (matrix_exp_container.c), the renderer its row in matrix_experiments.c names.
 */
#ifndef XDPTC_MATRIX_EXP_CONTAINER_H
#define XDPTC_MATRIX_EXP_CONTAINER_H

#include <jansson.h>
#include <stdio.h>

/* matrix_md_container - the container experiment's section of matrix.md to @out (@exp:
 * its name): where to drop a container's packets, a row per entry of @exp in @matrix
 * (each cell's first boot): tc's and netkit's instructions per packet, xdpdrv, tcx and
 * netkit against tc with their intervals, and per packet the stack entries, skbs built
 * and skbs freed of tc, xdpdrv and netkit; a failed entry's row gives its reason. A
 * matrix_md_fn (matrix_experiments.h). */
void matrix_md_container(FILE *out, const json_t *matrix, const char *exp);

#endif
