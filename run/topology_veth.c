/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_veth.c: the veth topology (topologies/veth.sh): a veth pair between two
 * network namespaces on this machine, the sender in one, the DUT's end in the other.
 * The skb exists before either hook runs: the sender's socket built it, and veth's
 * receive path hands it on (veth_xmit -> __netif_rx, or veth's NAPI with GRO on).
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_time.h"
#include "dut_local.h"
#include "run_ctx.h"
#include "sender.h"
#include "topology_local.h"


/* Pin the DUT's threaded-NAPI threads (to --napi-cpu, or off the sender's CPU) at
 * SCHED_FIFO 50, record them for the stall probe, and keep this process on the sender's
 * CPU. */
static void napi_threads_pin(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	const char *dev = c->topo.dut_dev;
	struct softirq_tasks t;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int pinned = 0, fifo = 0;

	napi_threads_find(dev, &t);
	for (int i = 0; i < t.n; i++) {
		cpu_set_t set;
		/* real-time priority: the DUT gets its CPU when packets wait, so a rate search
		 * measures the receive path, not how long unrelated tasks on that CPU keep it
		 * waiting (a 3 ms time slice overflows a 256-frame veth ring at ~85 kpps) */
		struct sched_param sp = { .sched_priority = 50 };

		CPU_ZERO(&set);
		for (long cpu = 0; cpu < ncpu; cpu++)
			if (o->napi_cpu >= 0 ? cpu == o->napi_cpu : cpu != o->sender_cpu)
				CPU_SET((int)cpu, &set);
		pinned += !sched_setaffinity(t.pid[i], sizeof(set), &set);
		if (c->n_napi < NAPI_DELAY_MAX_PIDS)
			c->napi_pids[c->n_napi++] = t.pid[i];
		fifo += !sched_setscheduler(t.pid[i], SCHED_FIFO, &sp);
	}
	if (o->napi_cpu >= 0)
		fprintf(stderr, "xdptc: threaded NAPI on for %s (%d thread(s) pinned to CPU %d%s, "
				"%d at SCHED_FIFO 50)\n",
			dev, pinned, o->napi_cpu, o->napi_cpu == o->sender_cpu ? ", the sender's" : "",
			fifo);
	else
		fprintf(stderr, "xdptc: threaded NAPI on for %s (%d thread(s) kept off CPU %d, %d "
				"at SCHED_FIFO 50)\n",
			dev, pinned, o->sender_cpu, fifo);
	c->napi_sched = fifo ? "SCHED_FIFO 50" : "SCHED_OTHER";
	/* and this process stays on the sender's CPU: its own work between trials must not
	 * keep the DUT's thread waiting */
	if (o->sender_cpu >= 0) {
		cpu_set_t self;

		CPU_ZERO(&self);
		CPU_SET(o->sender_cpu, &self);
		if (sched_setaffinity(0, sizeof(self), &self))
			fprintf(stderr, "xdptc: note: cannot keep xdptc on CPU %d: %s\n",
				o->sender_cpu, strerror(errno));
	}
	/* its CPU time is the packets' cost too */
	softirq_tasks_find_cpu(o->sender_cpu, &c->dut.softirq);
}

/* NAPI on the DUT's veth where the run needs it: GRO on for XDP frames
 * or a threaded NAPI, and the threaded NAPI itself (--threaded-napi), whose loss then
 * shows the receive path's capacity. */
static void veth_rx_prepare(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	const struct topology *t = &c->topo;
	char cmd[256];

	if (o->sender != SENDER_XDP_LIVE && !o->threaded_napi)
		return;
	/* XDP frames, and a threaded NAPI, need NAPI on the receiving veth: GRO on gives it
	 * without a program */
	snprintf(cmd, sizeof(cmd), "ip netns exec '%s' ethtool -K '%s' gro on >/dev/null",
		 t->dut_ns, t->dut_dev);
	if (system(cmd))
		fprintf(stderr, "xdptc: note: turning GRO on for %s failed\n", t->dut_dev);
	else
		fprintf(stderr, "xdptc: GRO on for %s (veth's NAPI mode, for XDP frames or a "
				"threaded NAPI)\n", t->dut_dev);
	if (!o->threaded_napi)
		return;
	snprintf(cmd, sizeof(cmd), "ip netns exec '%s' sh -c 'echo 1 > /sys/class/net/%s/threaded'",
		 t->dut_ns, t->dut_dev);
	if (system(cmd))
		fprintf(stderr, "xdptc: note: threaded NAPI could not be turned on for %s\n",
			t->dut_dev);
	else
		napi_threads_pin(c);
}

const struct topology_desc topology_veth = {
	.name = "veth",
	.script = "veth.sh",
	.help = "a veth pair between two namespaces",
	/* many short repetitions pair better than a few long ones on a shared host (an A/A
	 * run here: 21 x 200k gave a 95% half-width of 0.4%, 5 x 1M 1.7%) */
	.host = { .packets = 200000, .reps = 21 },
	/* instructions per packet repeat to a few parts per million, so small windows do;
	 * about 3 minutes for tc, xdpdrv and an A/A arm here */
	.icount = { .packets = 20000, .reps = 11 },
	.allows = TOPOLOGY_THREADED_NAPI | TOPOLOGY_REBUILD,
	.icount_inside = true,
	.doctor_item = "xdp_native_veth",
	/* the DUT is the veth end in its namespace, on this machine; the receive path the
	 * sender starts runs on the sender's CPU (netif_rx's backlog and veth's NAPI are that
	 * CPU's), in its context or its ksoftirqd, or in a threaded NAPI's thread: the other
	 * CPUs' ksoftirqd run other work (this process's deferred frees after a detach among
	 * it), not the packets' */
	.dut_open = local_dut_open,
	.trial_env = veth_pair_trial_env,
	.rx_prepare = veth_rx_prepare,
};
