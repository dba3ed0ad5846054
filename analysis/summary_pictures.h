/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_pictures.h: summary.md's own pictures, embedded (plots) and linked (flame
 * graphs), so that a Markdown viewer shows a run as one page. */
#ifndef XDPTC_SUMMARY_PICTURES_H
#define XDPTC_SUMMARY_PICTURES_H

#include "summary_words.h"

/* summary_pictures_render - the "Plots" section of summary.md: each plot plots.h draws
 * (the time metric per mode, the deltas, the counters) as a Markdown image and each
 * flame graph of run.json's "flamegraphs" as a link, relative to the run's directory
 * @rc->dir, and only those whose SVG is there (a run without gnuplot has no plot: no
 * image). Writes nothing when @rc->dir is NULL or no picture is there. */
void summary_pictures_render(const struct render_ctx *rc);

#endif
