/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_merge_rules.h: what `xdptc matrix --merge` (matrix_cell.c) judges its cells by:
 * the figures that make two copies of one cell the same result, and a kernel's identity.
 */
#ifndef XDPTC_MATRIX_MERGE_RULES_H
#define XDPTC_MATRIX_MERGE_RULES_H

#include <jansson.h>

/*
 * matrix_judged_figures - the figures a cell's results are judged by, from its loaded
 * run.json @run: {"metric", "modes": [{mode, METRIC}], "deltas": [that metric's]}. The
 * metric is the plugin's retired_instructions_per_pkt (a rep string instruction once,
 * as a CPU counts it: it repeats, where the every-iteration count moves with the
 * per-packet page clearing) when the run has it, else the run's time metric. Returns a
 * new reference (never NULL but on allocation failure).
 */
json_t *matrix_judged_figures(const json_t *run);

/*
 * matrix_split_builds - a kernel is its full version. In the @n cell.json objects @c
 * (modified in place), cells of one kernel spec (6.18) whose kernels differ in Debian's
 * package version (6.18.15-1~bpo13+1 against 6.18.20-1~bpo13+1), else release, else
 * package, are each named by that field instead: their kernel_spec, kernel.spec and
 * cell name change (kernel.asked keeps the spec), so that the merge makes one row per
 * build and never takes two builds for one cell. Each renaming is said on stderr.
 * Returns 0, or 2 when such a cell has no usable name (said in one sentence).
 */
int matrix_split_builds(json_t **c, int n);

#endif
