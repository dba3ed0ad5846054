/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* rx_time.c: loading and reading the receive-path time probe (rx_time.h). */
#include "rx_time.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/types.h>

#include "rx_time_shared.h"
#include "rx_time.skel.h"

int rx_time_open(struct rx_time *rt, const int *irqs, int n, char *err, size_t errlen)
{
	struct rx_time_bpf *skel;
	int e;

	memset(rt, 0, sizeof(*rt));
	if (n < 0 || n > RX_TIME_MAX_IRQS) {
		snprintf(err, errlen, "rx_time: %d IRQs to time (0 to %d)", n, RX_TIME_MAX_IRQS);
		return -EINVAL;
	}
	rt->ncpus = libbpf_num_possible_cpus();
	if (rt->ncpus <= 0 || rt->ncpus > RX_TIME_MAX_CPUS) {
		snprintf(err, errlen, "rx_time: cannot use the number of possible CPUs (%d)",
			 rt->ncpus);
		return -EINVAL;
	}
	skel = rx_time_bpf__open();
	if (!skel) {
		e = -errno;
		snprintf(err, errlen, "rx_time: opening the probe failed: %s", strerror(-e));
		return e;
	}
	for (int i = 0; i < n; i++)
		skel->bss->rx_irqs[i] = irqs[i];
	e = rx_time_bpf__load(skel);
	if (!e)
		e = rx_time_bpf__attach(skel);
	if (e) {
		snprintf(err, errlen, "rx_time: loading or attaching the raw tracepoints (tp_btf) "
				      "softirq_entry, softirq_exit, irq_handler_entry and "
				      "irq_handler_exit failed: %s", strerror(-e));
		rx_time_bpf__destroy(skel);
		return e;
	}
	rt->skel = skel;
	return 0;
}

int rx_time_read(const struct rx_time *rt, struct rx_time_read *out)
{
	const struct rx_time_bpf *skel = rt->skel;
	struct rx_time_cpu *v;
	__u32 k = 0;
	int e = 0;

	memset(out, 0, sizeof(*out));
	if (!skel)
		return -EINVAL;
	v = calloc((size_t)rt->ncpus, sizeof(*v));
	if (!v)
		return -ENOMEM;
	if (bpf_map_lookup_elem(bpf_map__fd(skel->maps.rx_time), &k, v)) {
		e = -errno;
		free(v);
		return e;
	}
	out->ncpus = rt->ncpus;
	for (int i = 0; i < rt->ncpus; i++) {
		out->softirq_ns += v[i].softirq_ns;
		out->softirq_runs += v[i].softirq_runs;
		out->hardirq_ns += v[i].hardirq_ns;
		out->hardirq_runs += v[i].hardirq_runs;
		out->cpu_ns[i] = v[i].softirq_ns + v[i].hardirq_ns;
	}
	free(v);
	return 0;
}

void rx_time_close(struct rx_time *rt)
{
	if (rt->skel)
		rx_time_bpf__destroy(rt->skel);
	rt->skel = NULL;
}
