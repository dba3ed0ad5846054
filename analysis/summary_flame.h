/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_flame.h: summary.md's part on the flame graphs (summary_flame.c). */
#ifndef XDPTC_SUMMARY_FLAME_H
#define XDPTC_SUMMARY_FLAME_H

#include "summary_words.h"

/* summary_flame_render - from run.json's "flamegraphs": per graph its samples, the
 * sampling error of a frame's share at 1% and 10%, the share below which a frame cannot
 * be told from 0, its unnamed frames and their reason; one sentence of what to change
 * where the unnamed share is above FLAME_UNNAMED_MAX (flame_render.h), one where a
 * graph holds fewer samples than the pass aims at, and each lost graph's reason.
 * Writes nothing for a run without flame graphs. */
void summary_flame_render(const struct render_ctx *rc);

#endif
