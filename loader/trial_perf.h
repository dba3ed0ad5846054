/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * trial_perf.h: perf stat over a trial's window (trial.c): started with its counters off
 * on the threads (or CPUs) whose time the trial measures, on right before the window and
 * off right after it, and its counts into the result.
 */
#ifndef XDPTC_TRIAL_PERF_H
#define XDPTC_TRIAL_PERF_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "perf_stat.h"
#include "trial_result.h"

/* perf_window_start - perf stat of env->perf_event_list, its counters off, on the sender
 * @sender and the DUT's softirq/NAPI threads, a guest's vCPU threads, or (CPU_RX_PATH) the
 * receive CPUs. Returns 0 or -errno, perf's words in r->perf_error. */
int perf_window_start(const struct trial_env *env, pid_t sender, struct perf_stat *ps,
		      struct trial_result *r);

/* perf_window_on / perf_window_end - its counters on right before the window (the moment
 * into *@t_on) and off right after it (r->perf_enabled_ns). on returns 0 or -errno. */
int perf_window_on(struct perf_stat *ps, struct trial_result *r, uint64_t *t_on);
void perf_window_end(struct perf_stat *ps, struct trial_result *r, uint64_t t_on);

/* perf_window_collect - every event asked for into @r, counted or null with the reason. */
void perf_window_collect(const struct trial_env *env, struct perf_stat *ps, bool started,
			 struct trial_result *r);

#endif
