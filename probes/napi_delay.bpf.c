/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * napi_delay.bpf.c: scheduling delay of the DUT's NAPI thread(s). A wait starts when
 * the thread is woken (sched:sched_waking, on the waker's CPU, before any IPI) or is
 * preempted while still runnable (sched:sched_switch with prev_state 0 or
 * TASK_REPORT_MAX, "R" or "R+"), and ends when sched:sched_switch puts it on a CPU.
 * While it stays on its CPU, the time between its napi:napi_poll events is one poll's
 * work, or more when the hypervisor stopped the vCPU in between (invisible to
 * sched_switch: the guest thinks the thread ran).
 * Tracepoints only, as BTF-typed raw tracepoints (tp_btf): they work where kprobes and
 * fentry are refused, and attach without tracefs (a classic tracepoint program, section
 * "tp", needs the tracepoint's id from tracefs, which a freshly booted machine has not
 * mounted). User
 * space sets the thread ids in .bss and zeroes the statistics before each window.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include <bpf/bpf_core_read.h>
#include <bpf/bpf_tracing.h>
#include "napi_delay_shared.h"

__u32 napi_pids[NAPI_DELAY_MAX_PIDS] = {};     /* 0: unused slot */
__u64 wait_since_ns[NAPI_DELAY_MAX_PIDS] = {}; /* 0: not waiting */
__u64 last_poll_ns[NAPI_DELAY_MAX_PIDS] = {};  /* on its CPU since, or last poll; 0: off */
struct napi_wait_stats stats = {};

static __always_inline int slot_of(__u32 pid)
{
	if (!pid)
		return -1;
	for (int i = 0; i < NAPI_DELAY_MAX_PIDS; i++)
		if (napi_pids[i] == pid)
			return i;
	return -1;
}

/* trace_sched_waking(p), kernel/sched/core.c: try_to_wake_up() */
SEC("tp_btf/sched_waking")
int BPF_PROG(napi_thread_waking, struct task_struct *p)
{
	int i = slot_of((__u32)BPF_CORE_READ(p, pid));

	if (i >= 0 && !wait_since_ns[i])
		wait_since_ns[i] = bpf_ktime_get_ns();
	return 0;
}

/* trace_sched_switch(preempt, prev, next, prev_state), kernel/sched/core.c: __schedule().
 * A task switched out by preemption, or with prev_state TASK_RUNNING (0), stays runnable
 * (the same test as the tracepoint's own __trace_sched_switch_state). */
SEC("tp_btf/sched_switch")
int BPF_PROG(napi_thread_switch, bool preempt, struct task_struct *prev,
	     struct task_struct *next, unsigned int prev_state)
{
	__u64 now = bpf_ktime_get_ns();
	int i = slot_of((__u32)BPF_CORE_READ(prev, pid));

	if (i >= 0) {
		last_poll_ns[i] = 0;
		/* switched out while still runnable: it waits from now */
		if (preempt || prev_state == 0)
			wait_since_ns[i] = now;
	}
	i = slot_of((__u32)BPF_CORE_READ(next, pid));
	if (i >= 0) {
		__u64 since = wait_since_ns[i];

		wait_since_ns[i] = 0;
		last_poll_ns[i] = now;
		if (since && now > since) {
			__u64 d = now - since;

			stats.waits++;
			stats.total_wait_ns += d;
			if (d > stats.max_wait_ns) {
				stats.max_wait_ns = d;
				BPF_CORE_READ_STR_INTO(&stats.max_culprit, prev, comm);
			}
		}
	}
	return 0;
}

/* trace_napi_poll(napi, work, budget), net/core/dev.c: __napi_poll() */
SEC("tp_btf/napi_poll")
int BPF_PROG(napi_thread_poll, struct napi_struct *napi, int work, int budget)
{
	__u64 now = bpf_ktime_get_ns();
	int i = slot_of((__u32)bpf_get_current_pid_tgid());

	if (i < 0)
		return 0;
	stats.polls++;
	if (last_poll_ns[i] && now > last_poll_ns[i] &&
	    now - last_poll_ns[i] > stats.max_poll_gap_ns)
		stats.max_poll_gap_ns = now - last_poll_ns[i];
	last_poll_ns[i] = now;
	return 0;
}

char LICENSE[] SEC("license") = "Dual BSD/GPL";
