/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_passes.h: the measuring part of a run. */
#ifndef XDPTC_RUN_PASSES_H
#define XDPTC_RUN_PASSES_H

#include "run_ctx.h"

/* run_passes - the passes (timing, count, bpfstats, profile) of run @c, each repeated
 * with its arms interleaved, every trial appended to run.json's "trials" (c->trials)
 * and the profile pass's flame graphs to "flamegraphs"; a line of progress per trial on
 * stderr. Returns 0, -EINTR when stopped, or -EIO (c->why says which trial and why). */
int run_passes(struct run_ctx *c);

#endif
