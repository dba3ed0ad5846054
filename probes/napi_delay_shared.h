/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * napi_delay_shared.h: shared by napi_delay.bpf.c and napi_delay.c. How long the DUT's NAPI
 * kernel thread (threaded NAPI) waits for its CPU once it has work.
 */
#ifndef XDPTC_NAPI_DELAY_SHARED_H
#define XDPTC_NAPI_DELAY_SHARED_H

#define NAPI_DELAY_MAX_PIDS 8

/* One window's waits; every time in ns (bpf_ktime_get_ns, CLOCK_MONOTONIC). */
struct napi_wait_stats {
	__u64 waits;          /* times a watched thread went from runnable to running */
	__u64 total_wait_ns;  /* summed time runnable but not running */
	__u64 max_wait_ns;    /* the longest such wait */
	char max_culprit[16]; /* comm of the task the CPU ran until then (sched_switch prev) */
	__u64 polls;          /* napi:napi_poll events of the watched threads */
	__u64 max_poll_gap_ns; /* the longest time between two polls of a thread that stayed
				* on its CPU: one poll's work, plus any time its vCPU was
				* not running, which the guest's scheduler cannot see */
};

#endif
