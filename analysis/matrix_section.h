/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_section.h: the generic section of matrix.md (matrix_section.c), the renderer of
 * every experiment whose row in matrix_experiments.c needs nothing of its own.
 */
#ifndef XDPTC_MATRIX_SECTION_H
#define XDPTC_MATRIX_SECTION_H

#include <jansson.h>
#include <stdio.h>

/* matrix_md_section - experiment @exp's section of matrix.md to @out: the heading "##
 * EXP", then a table with a row per entry of @exp in @matrix (matrix.json; each cell's
 * first boot): tc's and xdpdrv's instructions per packet, xdpdrv, xdpgeneric and tcx
 * against tc (retired where counted) with their intervals, and per packet the skbs
 * built, stack entries and skbs freed (tc / xdpdrv) and the BPF statistics' ns per run;
 * a failed entry's row gives its reason. A matrix_md_fn (matrix_experiments.h). */
void matrix_md_section(FILE *out, const json_t *matrix, const char *exp);

#endif
