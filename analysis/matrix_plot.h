/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_plot.h: the kernel matrix's delta plots (matrix_plot.c), moved out of matrix.c. */
#ifndef XDPTC_MATRIX_PLOT_H
#define XDPTC_MATRIX_PLOT_H

#include <jansson.h>

/* matrix_write_plot - the plots of the deltas against the kernel: matrix-delta (xdpdrv
 * against tc, a line per experiment) and matrix-delta-EXPERIMENT (xdpdrv, xdpgeneric
 * and tcx against tc), each .svg and .png, from a data file per experiment and mode
 * (matrix-delta-EXPERIMENT-MODE.dat: index, kernel, delta, low, high in percent) and one
 * gnuplot script (matrix-delta.gp), all in @dir. Returns the number of points of the
 * first plot, or -errno. */
int matrix_write_plot(const json_t *matrix, const char *dir);

#endif
