/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* trial_perf.c: perf stat over a trial's window (trial_perf.h). */
#include "trial_perf.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "cpu_time.h"

/* Start perf stat, its counters off, on the threads whose CPU time is this trial's
 * cpu_ns_per_pkt (the sender @sender and the DUT's softirq/NAPI threads; a guest's vCPU
 * threads). A failure is recorded in r->perf_error, never fails the trial. */
int perf_window_start(const struct trial_env *env, pid_t sender, struct perf_stat *ps,
			     struct trial_result *r)
{
	pid_t tids[PERF_STAT_MAX_TIDS];
	const struct softirq_tasks *t = env->cpu_source == CPU_SENDER_AND_SOFTIRQ
		? &env->dut->softirq : &env->vcpus;
	int n = 0, e;

	if (env->cpu_source == CPU_SENDER_AND_SOFTIRQ)
		tids[n++] = sender;
	for (int i = 0; i < t->n && n < PERF_STAT_MAX_TIDS; i++)
		tids[n++] = t->pid[i];
	/* the receive path of a NIC runs in no task of its own: its CPUs are counted */
	e = env->cpu_source == CPU_RX_PATH
		? perf_stat_start_cpus(ps, env->perf_event_list, env->perf_cpus, r->perf_error,
				       sizeof(r->perf_error))
		: perf_stat_start(ps, env->perf_event_list, tids, n, r->perf_error,
				  sizeof(r->perf_error));
	/* perf's own start-up (exec, parsing and opening the events: a few hundred ms of
	 * CPU) must be over before the snapshot before the window, or the machine's busy
	 * time counts it as other load: it acknowledges a command once it is ready */
	if (!e && (e = perf_stat_enable(ps, false)) &&
	    perf_stat_finish(ps, r->perf, 0, r->perf_error, sizeof(r->perf_error)) == 0)
		snprintf(r->perf_error, sizeof(r->perf_error), "perf stat did not get ready: %s",
			 strerror(-e));
	return e;
}

/* perf's counters on, right before the window (after the snapshot before it, whose
 * work on a guest's vCPU is no packet's): the moment into *@t_on. Returns 0 or -errno;
 * perf's own words for a failure (it could not open an event) in r->perf_error. */
int perf_window_on(struct perf_stat *ps, struct trial_result *r, uint64_t *t_on)
{
	int e = perf_stat_enable(ps, true);

	*t_on = clock_ns(CLOCK_MONOTONIC);
	if (e && perf_stat_finish(ps, r->perf, 0, r->perf_error, sizeof(r->perf_error)) == 0)
		snprintf(r->perf_error, sizeof(r->perf_error), "perf stat did not start counting: %s",
			 strerror(-e));
	return e;
}

void perf_window_end(struct perf_stat *ps, struct trial_result *r, uint64_t t_on)
{
	int e = perf_stat_enable(ps, false);

	r->perf_enabled_ns = clock_ns(CLOCK_MONOTONIC) - t_on;
	if (e)
		snprintf(r->perf_error, sizeof(r->perf_error), "perf stat did not stop counting: %s",
			 strerror(-e));
}

/* The trial's perf figures: every event asked for, counted or null with the reason
 * (r->perf_error when perf failed at any step). */
void perf_window_collect(const struct trial_env *env, struct perf_stat *ps, bool started,
				struct trial_result *r)
{
	r->perf_n = env->perf_nevents;
	memcpy(r->perf, env->perf_events, sizeof(r->perf[0]) * (size_t)r->perf_n);
	if (started && !r->perf_error[0] &&
	    !perf_stat_finish(ps, r->perf, r->perf_n, r->perf_error, sizeof(r->perf_error))) {
		r->have_perf = true;
		return;
	}
	if (!r->perf_error[0])
		snprintf(r->perf_error, sizeof(r->perf_error), "perf stat did not count");
	if (started)
		perf_stat_abort(ps);
}

