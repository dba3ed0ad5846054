/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * napi_delay.bpf.c: scheduling delay of the DUT's NAPI thread(s). A wait starts when
 * the thread is woken (sched:sched_waking, on the waker's CPU, before any IPI) or is
 * preempted while still runnable (sched:sched_switch with prev_state 0 or
 * TASK_REPORT_MAX, "R" or "R+"), and ends when sched:sched_switch puts it on a CPU.
 * While it stays on its CPU, the time between its napi:napi_poll events is one poll's
 * work, or more when the hypervisor stopped the vCPU in between (invisible to
 * sched_switch: the guest thinks the thread ran).
 * Tracepoints only: they work where kprobes and fentry are refused. User space sets the
 * thread ids in .bss and zeroes the statistics before each window.
 */
#include "vmlinux.h"
#include <bpf/bpf_helpers.h>
#include "napi_delay.h"

#define TASK_REPORT_MAX 0x100 /* include/linux/sched.h: a preempted task's prev_state */

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

SEC("tp/sched/sched_waking")
int napi_thread_waking(struct trace_event_raw_sched_wakeup_template *ctx)
{
	int i = slot_of((__u32)ctx->pid);

	if (i >= 0 && !wait_since_ns[i])
		wait_since_ns[i] = bpf_ktime_get_ns();
	return 0;
}

SEC("tp/sched/sched_switch")
int napi_thread_switch(struct trace_event_raw_sched_switch *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	int i = slot_of((__u32)ctx->prev_pid);

	if (i >= 0) {
		last_poll_ns[i] = 0;
		/* switched out while still runnable: it waits from now */
		if (ctx->prev_state == 0 || ctx->prev_state == TASK_REPORT_MAX)
			wait_since_ns[i] = now;
	}
	i = slot_of((__u32)ctx->next_pid);
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
				bpf_probe_read_kernel(stats.max_culprit,
						      sizeof(stats.max_culprit), ctx->prev_comm);
			}
		}
	}
	return 0;
}

SEC("tp/napi/napi_poll")
int napi_thread_poll(struct trace_event_raw_napi_poll *ctx)
{
	__u64 now = bpf_ktime_get_ns();
	int i = slot_of((__u32)bpf_get_current_pid_tgid());

	(void)ctx;
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
