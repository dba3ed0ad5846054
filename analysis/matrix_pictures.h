/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_pictures.h: matrix.md's own plots, embedded, so that a Markdown viewer shows a
 * matrix as one page (its differential flame graphs are linked where matrix.md names
 * them). */
#ifndef XDPTC_MATRIX_PICTURES_H
#define XDPTC_MATRIX_PICTURES_H

#include <stdio.h>

/* matrix_md_pictures - the "Plots" section of matrix.md on @out: each delta plot of
 * matrix_plot.h that is in the matrix's directory @dir (matrix-delta.svg, its retired
 * twin, one per icount experiment of the table) as a Markdown image, relative to @dir.
 * Writes nothing when none is there (no gnuplot: no image). */
void matrix_md_pictures(const char *dir, FILE *out);

#endif
