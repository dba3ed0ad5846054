/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_begin.h: the start of every run (run.c's, and the icount engine's on the host). */
#ifndef XDPTC_RUN_BEGIN_H
#define XDPTC_RUN_BEGIN_H

#include "run_opts.h"
#include "topology_script.h"

/* run_begin - take the machine's run lock (run_lock.h; or check the one inherited on
 * --held-lock; a refusal is printed), install the signal handlers, remove what killed
 * runs left (every topology's `cleanup`, stale attachment records, empty run
 * directories under o->out_dir), and name the topology (@t zeroed, a new xdptc-XXXXXX
 * prefix). Returns the lock's fd (close it at the end), or -1. */
int run_begin(const struct run_opts *o, struct topology *t);

#endif
