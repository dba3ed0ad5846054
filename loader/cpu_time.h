/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cpu_time.h: CPU time of the kernel threads that may run the receive path
 * (ksoftirqd/N, threaded NAPI "napi/..."), from /proc/<pid>/schedstat (first field:
 * time on CPU, ns; the scheduler's per-task sum_exec_runtime), and per-CPU busy time
 * from /proc/stat as a cross-check.
 */
#ifndef XDPTC_CPU_TIME_H
#define XDPTC_CPU_TIME_H

#include <stdint.h>
#include <sys/types.h>
#include <time.h>

#define CPU_TIME_MAX_TASKS 256

struct softirq_tasks {
	int n;
	int pid[CPU_TIME_MAX_TASKS];
};

/* clock_ns - clock @clk now (CLOCK_MONOTONIC, CLOCK_THREAD_CPUTIME_ID, ...), ns. */
uint64_t clock_ns(clockid_t clk);

/* softirq_tasks_find - list the ksoftirqd/N and napi/... threads now running. Returns n. */
int softirq_tasks_find(struct softirq_tasks *t);

/* softirq_tasks_find_cpu - the ksoftirqd thread of CPU @cpu and every napi/... thread:
 * the threads that can run a veth receive path the sender on @cpu started (the backlog
 * of netif_rx and veth's NAPI run on the CPU that raised them; a threaded NAPI anywhere).
 * Returns n. */
int softirq_tasks_find_cpu(int cpu, struct softirq_tasks *t);

/* napi_threads_find - the threaded-NAPI kernel threads of device @dev ("napi/DEV-N",
 * compared over the 15 characters a comm holds). Returns n. */
int napi_threads_find(const char *dev, struct softirq_tasks *t);

/* softirq_tasks_cpu_ns - summed on-CPU time of those threads, ns (a thread that has
 * gone counts 0). */
uint64_t softirq_tasks_cpu_ns(const struct softirq_tasks *t);

/* vcpu_threads_find - the threads of qemu process @pid named "CPU N/..." (its vCPUs;
 * qemu names them with -name ...,debug-threads=on). Returns how many. */
int vcpu_threads_find(int pid, struct softirq_tasks *t);

/* threads_cpu_ns - summed on-CPU time of threads @t of process @pid
 * (/proc/PID/task/TID/schedstat), ns. */
uint64_t threads_cpu_ns(int pid, const struct softirq_tasks *t);

/* task_cpu_ns - on-CPU time of task @pid (/proc/<pid>/schedstat), ns; 0 on error. */
uint64_t task_cpu_ns(int pid);

/* cpus_busy_steal_ns - time all CPUs spent not idle (user+nice+system+irq+softirq+steal
 * jiffies from /proc/stat, converted to ns with USER_HZ; 0 on error), and in *@steal_ns
 * the part of it that is steal time (the hypervisor ran something else on this VM's
 * vCPUs), ns. */
uint64_t cpus_busy_steal_ns(uint64_t *steal_ns);

/* cpu_keep_off - let task @pid (0: this thread) run on every online CPU but @cpu (on all
 * when @cpu < 0): sched_setaffinity. Returns 0 or -1 (errno). */
int cpu_keep_off(pid_t pid, int cpu);

#endif
