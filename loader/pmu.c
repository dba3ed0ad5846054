/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "pmu.h"

#include <errno.h>
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static int perf_open(uint64_t config, int cpu)
{
	struct perf_event_attr attr;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_HARDWARE;
	attr.config = config;
	return (int)syscall(SYS_perf_event_open, &attr, -1, cpu, -1, PERF_FLAG_FD_CLOEXEC);
}

int pmu_open(struct pmu_counters *p, char *why, size_t whylen)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	memset(p, 0, sizeof(*p));
	p->ncpu = n > PMU_MAX_CPUS ? PMU_MAX_CPUS : (int)n;
	for (int c = 0; c < p->ncpu; c++)
		p->cycles_fd[c] = p->instr_fd[c] = -1;
	for (int c = 0; c < p->ncpu; c++) {
		p->cycles_fd[c] = perf_open(PERF_COUNT_HW_CPU_CYCLES, c);
		if (p->cycles_fd[c] < 0) {
			int e = -errno;

			snprintf(why, whylen, "no PMU: perf_event_open(cycles) failed: %s",
				 strerror(-e));
			pmu_close(p);
			return e;
		}
		p->instr_fd[c] = perf_open(PERF_COUNT_HW_INSTRUCTIONS, c);
		if (p->instr_fd[c] < 0) {
			int e = -errno;

			snprintf(why, whylen, "no PMU: perf_event_open(instructions) failed: %s",
				 strerror(-e));
			pmu_close(p);
			return e;
		}
	}
	return 0;
}

int pmu_read(const struct pmu_counters *p, uint64_t *cycles, uint64_t *instructions)
{
	*cycles = *instructions = 0;
	for (int c = 0; c < p->ncpu; c++) {
		uint64_t v;

		if (read(p->cycles_fd[c], &v, sizeof(v)) != sizeof(v))
			return -EIO;
		*cycles += v;
		if (read(p->instr_fd[c], &v, sizeof(v)) != sizeof(v))
			return -EIO;
		*instructions += v;
	}
	return 0;
}

void pmu_close(struct pmu_counters *p)
{
	for (int c = 0; c < p->ncpu; c++) {
		if (p->cycles_fd[c] >= 0)
			close(p->cycles_fd[c]);
		if (p->instr_fd[c] >= 0)
			close(p->instr_fd[c]);
		p->cycles_fd[c] = p->instr_fd[c] = -1;
	}
	p->ncpu = 0;
}
