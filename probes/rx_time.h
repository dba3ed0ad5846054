/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rx_time.h: the receive path's CPU time on every CPU of this machine, wherever the
 * kernel runs it: the NET_RX softirq's time (irq:softirq_entry/softirq_exit, vec
 * NET_RX_SOFTIRQ) and the hard-IRQ handler time of a NIC's IRQs (irq:irq_handler_entry/
 * irq_handler_exit) outside that softirq, from a probe (rx_time.bpf.c) that fires per
 * softirq run and per interrupt, never per packet. The dev topology's time per packet.
 */
#ifndef XDPTC_RX_TIME_H
#define XDPTC_RX_TIME_H

#include <stddef.h>
#include <stdint.h>

#define RX_TIME_MAX_CPUS 1024
#ifndef RX_TIME_MAX_IRQS
#define RX_TIME_MAX_IRQS 64 /* the NIC IRQs timed at most (rx_time_shared.h) */
#endif

struct rx_time {
	void *skel; /* struct rx_time_bpf * */
	int ncpus;  /* possible CPUs (libbpf_num_possible_cpus) */
};

/* What the probe has counted since it was loaded (ns, runs), summed and per CPU. */
struct rx_time_read {
	uint64_t softirq_ns, softirq_runs, hardirq_ns, hardirq_runs;
	int ncpus;
	uint64_t cpu_ns[RX_TIME_MAX_CPUS]; /* softirq + hard-IRQ ns of each CPU */
};

/* rx_time_open - load the probe, counting the hard-IRQ time of IRQs @irqs[0..n-1] (n up
 * to 64; 0: none, the softirq only), and attach it. Returns 0, or -errno with a
 * sentence in @err. */
int rx_time_open(struct rx_time *rt, const int *irqs, int n, char *err, size_t errlen);

/* rx_time_read - the totals now. Returns 0 or -errno. */
int rx_time_read(const struct rx_time *rt, struct rx_time_read *out);

/* rx_time_close - detach and free; safe on a zeroed or closed @rt. */
void rx_time_close(struct rx_time *rt);

#endif
