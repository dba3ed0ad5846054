/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * flamegraph.h: flame graphs from `perf record -g` samples without any outside tool:
 * fold the text of `perf script` into one line per distinct stack ("comm;outer;...;inner
 * COUNT", the format of Brendan Gregg's stackcollapse-perf.pl), and draw folded stacks
 * as an SVG flame graph (root at the bottom, widths proportional to samples).
 */
#ifndef XDPTC_FLAMEGRAPH_H
#define XDPTC_FLAMEGRAPH_H

#include <stdio.h>

/* flame_fold - read `perf script` output from @in, write folded stacks to @out, sorted.
 * Offsets (+0x..) are dropped from symbols; unknown frames keep their DSO name.
 * Samples of the idle task (comm "swapper") are left out and counted in *@idle
 * (may be NULL): an idle CPU would otherwise squeeze the work into a sliver.
 * Returns the number of samples folded, or -errno. */
long flame_fold(FILE *in, FILE *out, long *idle);

/* flame_svg - draw the folded stacks read from @in as an SVG flame graph on @out, with
 * @title and @subtitle. Returns the total number of samples drawn, or -errno
 * (-ENODATA when there is no sample). */
long flame_svg(FILE *in, FILE *out, const char *title, const char *subtitle);

#endif
