/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_virtio.c: the virtio topology (topologies/virtio.sh): a qemu guest whose
 * virtio-net eth0 is fed from a tap on this machine; its agent (dut_agent.c, over
 * virtio-serial) serves the DUT. virtio-net runs XDP on the frame before it builds an
 * skb (receive_small/receive_mergeable), TC only after.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cpu_time.h"
#include "doctor.h"
#include "dut_remote.h"
#include "run_ctx.h"
#include "run_json.h"
#include "self_exe.h"

/* How long a guest's agent may take to answer a request (ms): under icount the guest's code
 * is retranslated, instrumented, when counters attach (docs/matrix.md) */
#define AGENT_TIMEOUT_MS 30000
#define AGENT_TIMEOUT_ICOUNT_MS 300000

/* The DUT is the guest, reached through its agent's socket. */
static int virtio_dut_open(struct run_ctx *c)
{
	const struct topology *t = &c->topo;

	/* under icount with the plugin, code changes in the guest (kprobes, BPF
	 * trampolines) retranslate its code, instrumented: a request may take minutes
	 * (fentry's counters took over 30 s on 6.16 and 6.18) */
	if (dut_remote_connect(&c->dut, t->ctl_sock,
			       c->icount_dut ? AGENT_TIMEOUT_ICOUNT_MS : AGENT_TIMEOUT_MS, c->why,
			       sizeof(c->why))) {
		fprintf(stderr, "xdptc: %s\n", c->why);
		return -1;
	}
	fprintf(stderr, "xdptc: guest kernel %s under %s%s\n", t->guest_kernel, t->accel,
		strcmp(t->accel, "kvm") ? ": times are emulation times" : "");
	return 0;
}

/* CPU time is the guest's: its vCPU threads' on the host, or under icount its NAPI
 * thread's and ksoftirqd's inside (instructions); the vCPUs kept off the sender's CPU,
 * where they would take turns with it. */
static int virtio_trial_env(struct run_ctx *c, struct trial_env *env)
{
	env->cpu_source = c->icount_dut ? CPU_GUEST_SOFTIRQ : CPU_GUEST_VCPU;
	env->qemu_pid = atoi(c->topo.qemu_pid);
	if (env->qemu_pid <= 0 || vcpu_threads_find(env->qemu_pid, &env->vcpus) <= 0) {
		fprintf(stderr, "xdptc: cannot find the guest's vCPU threads (qemu pid '%s')\n",
			c->topo.qemu_pid);
		return -1;
	}
	for (int i = 0; i < env->vcpus.n; i++)
		cpu_keep_off(env->vcpus.pid[i], c->o.sender_cpu);
	return 0;
}

/* The guest's own doctor report, from inside, as run.json's "guest_doctor" (nothing
 * when the guest cannot say). */
static void virtio_guest_doctor(struct run_ctx *c)
{
	char out[65536], self[PATH_MAX - 32], cmd[PATH_MAX];
	int n = self_exe(self, sizeof(self)) ? 0 : 1;
	int st = 0, e;
	json_t *gd;

	/* the host's root is the guest's: the same path runs there */
	snprintf(cmd, sizeof(cmd), "%s doctor --json --guest", self);
	fprintf(stderr, "xdptc: asking the guest what its kernel offers\n");
	e = n > 0 ? dut_exec(&c->dut, cmd, &st, out, sizeof(out)) : -ENOENT;
	if (e || st || !(gd = json_loads(out, 0, NULL))) {
		fprintf(stderr, "xdptc: note: the guest's doctor gave no report (%s); run.json will "
				"have no guest_doctor\n",
			e ? strerror(-e) : st ? "it failed" : "not JSON");
		return;
	}
	fprintf(stderr, "xdptc: guest doctor: kprobes %s; fentry %s; tracepoints %s; "
			"bpf_stats %s\n",
		doctor_item_ok(gd, "kprobes") ? "yes" : "no",
		doctor_item_ok(gd, "fentry") ? "yes" : "no",
		doctor_item_ok(gd, "tracepoints") ? "yes" : "no",
		doctor_item_ok(gd, "bpf_stats") ? "yes" : "no");
	json_object_set_new(c->run, "guest_doctor", gd);
}

/* run.json's "guest" (what the script said of it) and "guest_doctor". */
static void virtio_json_describe(struct run_ctx *c, json_t *run)
{
	json_object_set_new(run, "guest", guest_json(&c->topo));
	virtio_guest_doctor(c);
}

const struct topology_desc topology_virtio = {
	.name = "virtio",
	.script = "virtio.sh",
	.help = "a qemu guest's virtio-net NIC fed by a host tap",
	/* an emulated guest drops tens of thousands of packets per second, not millions:
	 * fewer packets, paced so the tap's queue never overflows (sized for a TCG guest on
	 * a 2-vCPU host, see README) */
	.host = { .packets = 50000, .reps = 10, .rate_pps = 50000 },
	/* under icount it is the nic topology's (icount_as), with its defaults */
	.allows = TOPOLOGY_GUEST_KERNEL,
	/* fed from a host tap, the count followed the host's timing (docs/engines.md) */
	.icount_as = "nic",
	.no_flame = "not for a guest (the host's perf sees qemu, not the guest's kernel)",
	.remote = true,
	.scope = { .time = "the guest's vCPU thread time", .perf = "the guest's vCPU threads",
		   .perf_json = "the guest's vCPU threads (host side)" },
	.dut_open = virtio_dut_open,
	.trial_env = virtio_trial_env,
	.json_describe = virtio_json_describe,
};
