/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_signals.h: a run's stop: SIGINT, SIGTERM and SIGHUP set the stop flag, kill a
 * trial's sender and tell a topology script's `up` to stop.
 */
#ifndef XDPTC_RUN_SIGNALS_H
#define XDPTC_RUN_SIGNALS_H

#include <stdbool.h>
#include <sys/types.h>

/* run_signals_install - SIGINT, SIGTERM, SIGHUP set the stop flag (run_stopped) and kill
 * a trial's sender; SIGPIPE is ignored. */
void run_signals_install(void);

/* run_stopped - has a stop signal come? */
bool run_stopped(void);

/* run_stop_flag - the flag a stop sets, for a trial's env->stop to watch. */
volatile int *run_stop_flag(void);

/* run_signals_group - a stop also sends SIGTERM to process group @pgid (a topology
 * script's `up`, which then removes what it made); 0: to none. */
void run_signals_group(pid_t pgid);

#endif
