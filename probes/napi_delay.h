/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * napi_delay.h: how long the DUT's NAPI kernel thread waits for a CPU once it has
 * packets to poll (threaded NAPI only). Source: the tracepoints sched_waking (the
 * wait starts when the thread is woken, on the waker's CPU, before any IPI) and
 * sched:sched_switch (a preempted, still runnable thread waits too; the wait ends when
 * the thread is switched in) and napi_poll, attached as BTF raw tracepoints (tp_btf),
 * which need no tracefs.
 *
 * Why it matters: a veth receive queue holds 256 frames (VETH_RING_SIZE,
 * drivers/net/veth.c). While the thread waits, frames keep arriving; a wait longer than
 * 256 frames / rate overflows the ring even when the DUT's program could drop every
 * frame faster than they come. Such loss is the scheduler's, not the attach mode's.
 */
#ifndef XDPTC_NAPI_DELAY_H
#define XDPTC_NAPI_DELAY_H

#include <stdint.h>
#include <sys/types.h>
#include <linux/types.h>

#include "napi_delay_shared.h"

/* Frames a veth receive queue holds (VETH_RING_SIZE in drivers/net/veth.c). */
#define VETH_RING_FRAMES 256

struct napi_delay {
	void *skel; /* struct napi_delay_bpf * */
	int npids;
};

/*
 * napi_delay_open - load the probe and watch threads @pids[0..n-1] (n at most
 * NAPI_DELAY_MAX_PIDS). Returns 0, or -errno with a sentence in @err.
 */
int napi_delay_open(struct napi_delay *nd, const pid_t *pids, int n, char *err, size_t errlen);

/* napi_delay_reset - zero the statistics: a new window starts now. */
void napi_delay_reset(struct napi_delay *nd);

/* napi_delay_read - the statistics since the last reset (times in ns). */
void napi_delay_read(const struct napi_delay *nd, struct napi_wait_stats *out);

/* napi_delay_close - detach and free; safe on a zeroed or closed @nd. */
void napi_delay_close(struct napi_delay *nd);

/*
 * ring_overflow_wait_ns - the wait (ns) after which a veth ring that was empty overflows
 * at @rate_pps: VETH_RING_FRAMES / rate. 0 for a rate of 0.
 */
uint64_t ring_overflow_wait_ns(double rate_pps);

#endif
