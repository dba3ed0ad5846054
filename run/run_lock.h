/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_lock.h: one measuring run at a time on the machine: the run lock
 * (/run/lock/xdptc-run.lock, XDPTC_RUN_LOCK), an flock held for the whole run, with its
 * holder's pid written in it.
 */
#ifndef XDPTC_RUN_LOCK_H
#define XDPTC_RUN_LOCK_H

#include <stdbool.h>

/* run_lock_take - take the machine's run lock, recording this process as its holder; a
 * holder that is gone is waited for up to 3 s. Returns the lock's fd (close-on-exec), or
 * -1 with the holder's pid (0: unknown) in *@holder. */
int run_lock_take(int *holder);

/* run_lock_take_shared - the run lock shared (flock LOCK_SH) with the other runs that
 * count guest instructions (icount: what the host does beside them does not move their
 * figures), as `xdptc matrix --cell` takes it, so that GNU parallel may run cells side by
 * side while no run that times the host (LOCK_EX) can start. Returns the lock's fd, or -1
 * with the exclusive holder's pid (0: unknown) in *@holder. */
int run_lock_take_shared(int *holder);

/* run_lock_inherited - the run lock on @held, inherited from `xdptc matrix`, which holds
 * it for its runs: it must be the lock file and locked by this open file (flock
 * succeeds again: @exclusive, a run that times the host, takes it exclusive, which only
 * succeeds while no other process shares it; else shared, beside other icount runs).
 * Returns a copy of it (close-on-exec), or -1. */
int run_lock_inherited(int held, bool exclusive);

#endif
