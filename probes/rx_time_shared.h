/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* rx_time_shared.h: what rx_time.bpf.c and rx_time.c share (the per-CPU record). */
#ifndef XDPTC_RX_TIME_SHARED_H
#define XDPTC_RX_TIME_SHARED_H

/* The NIC IRQs whose hard-IRQ handler time counts (irq numbers; 0 ends the list). */
#ifndef RX_TIME_MAX_IRQS
#define RX_TIME_MAX_IRQS 64 /* also in rx_time.h */
#endif

/* One CPU's receive-path time (ns) and runs since the probe was loaded. */
struct rx_time_cpu {
	__u64 softirq_ns;   /* NET_RX softirq handler time (net_rx_action), every device */
	__u64 softirq_runs;
	__u64 hardirq_ns;   /* the listed IRQs' handlers, outside a NET_RX softirq */
	__u64 hardirq_runs;
	__u64 softirq_since; /* in a NET_RX softirq since (ns), 0: not */
	__u64 hardirq_since; /* in a listed IRQ's handler since (ns), 0: not */
};

#endif
