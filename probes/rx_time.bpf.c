/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rx_time.bpf.c: the receive path's CPU time on every CPU, wherever it runs. A NIC's
 * NAPI poll runs in the NET_RX softirq: on the way out of its interrupt, in whatever
 * task the interrupt stopped (the idle task, often), or in ksoftirqd when softirqs pile
 * up. No task's CPU time holds it all, so it is timed where it starts and ends:
 * irq:softirq_entry and irq:softirq_exit with vec NET_RX_SOFTIRQ (trace_softirq_entry in
 * handle_softirqs, kernel/softirq.c), and irq:irq_handler_entry/exit for the NIC's own
 * IRQs (__handle_irq_event_percpu, kernel/irq/handle.c), counted only outside a NET_RX
 * softirq so that no nanosecond counts twice. A threaded NAPI's thread polls outside
 * the softirq: its time is the thread's own (schedstat, cpu_time.h).
 * BTF raw tracepoints (tp_btf), which need no tracefs. Each fires per softirq run and
 * per interrupt, not per packet, the same in every mode.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_tracing.h>
#include "rx_time_shared.h"

#define NET_RX_VEC 3 /* NET_RX_SOFTIRQ, include/linux/interrupt.h */

int rx_irqs[RX_TIME_MAX_IRQS] = {}; /* set before load; 0 ends the list */

struct {
	__uint(type, BPF_MAP_TYPE_PERCPU_ARRAY);
	__uint(max_entries, 1);
	__type(key, __u32);
	__type(value, struct rx_time_cpu);
} rx_time SEC(".maps");

static __always_inline struct rx_time_cpu *cpu_rec(void)
{
	__u32 k = 0;

	return bpf_map_lookup_elem(&rx_time, &k);
}

static __always_inline bool listed(int irq)
{
	for (int i = 0; i < RX_TIME_MAX_IRQS; i++) {
		if (!rx_irqs[i])
			return false;
		if (rx_irqs[i] == irq)
			return true;
	}
	return false;
}

SEC("tp_btf/softirq_entry")
int BPF_PROG(rx_softirq_entry, unsigned int vec_nr)
{
	struct rx_time_cpu *c = cpu_rec();

	if (c && vec_nr == NET_RX_VEC)
		c->softirq_since = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/softirq_exit")
int BPF_PROG(rx_softirq_exit, unsigned int vec_nr)
{
	struct rx_time_cpu *c = cpu_rec();

	if (!c || vec_nr != NET_RX_VEC || !c->softirq_since)
		return 0;
	c->softirq_ns += bpf_ktime_get_ns() - c->softirq_since;
	c->softirq_runs++;
	c->softirq_since = 0;
	return 0;
}

SEC("tp_btf/irq_handler_entry")
int BPF_PROG(rx_irq_entry, int irq, struct irqaction *action)
{
	struct rx_time_cpu *c = cpu_rec();

	if (c && !c->softirq_since && listed(irq))
		c->hardirq_since = bpf_ktime_get_ns();
	return 0;
}

SEC("tp_btf/irq_handler_exit")
int BPF_PROG(rx_irq_exit, int irq, struct irqaction *action, int ret)
{
	struct rx_time_cpu *c = cpu_rec();

	if (!c || !c->hardirq_since)
		return 0;
	c->hardirq_ns += bpf_ktime_get_ns() - c->hardirq_since;
	c->hardirq_runs++;
	c->hardirq_since = 0;
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
