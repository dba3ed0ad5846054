/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * pmu.h: CPU cycles and instructions over a window, on every CPU (perf_event_open,
 * PERF_COUNT_HW_CPU_CYCLES / PERF_COUNT_HW_INSTRUCTIONS, system-wide per CPU).
 * Where the machine has no PMU (most cloud VMs) pmu_open says so and why.
 */
#ifndef XDPTC_PMU_H
#define XDPTC_PMU_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PMU_MAX_CPUS 256

struct pmu_counters {
	int ncpu;
	int cycles_fd[PMU_MAX_CPUS];
	int instr_fd[PMU_MAX_CPUS];
};

/* pmu_open - open the counters on every online CPU. Returns 0, or -errno with the
 * reason in @why (e.g. "no PMU: perf_event_open(cycles) failed: No such file or
 * directory"). */
int pmu_open(struct pmu_counters *p, char *why, size_t whylen);

/* pmu_read - totals over all CPUs since open: cycles and instructions. */
int pmu_read(const struct pmu_counters *p, uint64_t *cycles, uint64_t *instructions);

void pmu_close(struct pmu_counters *p);

#endif
