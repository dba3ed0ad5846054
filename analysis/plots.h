/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * plots.h: a run's pictures, drawn by gnuplot (Debian's gnuplot-nox) as SVG and PNG:
 *   cpu_ns_per_pkt.{svg,png}  every timing repetition per mode, with the median
 *   delta.{svg,png}           each within-run delta with its 95% interval, and the A/A
 *                             noise floor when the run has one
 *   counters.{svg,png}        stack entries, skbs freed and built per packet, per mode
 * The data and the gnuplot script stay beside them (plot-*.dat, plots.gp).
 */
#ifndef XDPTC_PLOTS_H
#define XDPTC_PLOTS_H

#include <jansson.h>
#include <stddef.h>

/* plots_write - draw @run (which holds its "summary") into directory @dir.
 * Returns the number of pictures made (6), or -errno with a sentence in @err
 * (-ENOENT: gnuplot is not installed). */
int plots_write(const json_t *run, const char *dir, char *err, size_t errlen);

#endif
