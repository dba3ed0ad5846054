/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* engine_icount.h: the host side of `xdptc run --engine icount` for a topology whose
 * whole experiment runs inside the guest (topology_desc.icount_inside). */
#ifndef XDPTC_ENGINE_ICOUNT_H
#define XDPTC_ENGINE_ICOUNT_H

#include "run_opts.h"

/* icount_engine_run - boot an icount guest (the virtio topology's script with ICOUNT=1),
 * run @o's experiment inside it, relay its progress, keep its results. Returns the
 * process exit status (0, 1, 130). */
int icount_engine_run(const struct run_opts *o);

#endif
