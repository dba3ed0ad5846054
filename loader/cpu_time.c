/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "cpu_time.h"

#include <ctype.h>
#include <sched.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint64_t clock_ns(clockid_t clk)
{
	struct timespec ts;

	clock_gettime(clk, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* The threads under @dir (/proc, or /proc/PID/task) whose comm starts with one of
 * @prefixes (NULL-terminated; a prefix is compared over at most the 15 characters a
 * comm holds) into @t. Returns how many. */
static int threads_by_comm(const char *dir, const char *const *prefixes, struct softirq_tasks *t)
{
	DIR *d = opendir(dir);
	struct dirent *de;

	t->n = 0;
	while (d && (de = readdir(d)) && t->n < CPU_TIME_MAX_TASKS) {
		char path[300], comm[64] = "";
		FILE *f;

		if (!isdigit((unsigned char)de->d_name[0]))
			continue;
		snprintf(path, sizeof(path), "%s/%.20s/comm", dir, de->d_name);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(comm, sizeof(comm), f))
			for (int i = 0; prefixes[i]; i++) {
				size_t n = strlen(prefixes[i]);

				if (!strncmp(comm, prefixes[i], n < 15 ? n : 15)) {
					t->pid[t->n++] = atoi(de->d_name);
					break;
				}
			}
		fclose(f);
	}
	if (d)
		closedir(d);
	return t->n;
}

int softirq_tasks_find(struct softirq_tasks *t)
{
	static const char *const p[] = { "ksoftirqd/", "napi/", NULL };

	return threads_by_comm("/proc", p, t);
}

int softirq_tasks_find_cpu(int cpu, struct softirq_tasks *t)
{
	char want[32];
	const char *const p[] = { want, "napi/", NULL };

	snprintf(want, sizeof(want), "ksoftirqd/%d", cpu);
	threads_by_comm("/proc", p, t);
	/* "ksoftirqd/1" is a prefix of "ksoftirqd/10": keep the exact one */
	for (int i = 0; i < t->n; i++) {
		char path[64], comm[32] = "";
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/comm", t->pid[i]);
		if ((f = fopen(path, "r"))) {
			if (!fgets(comm, sizeof(comm), f))
				comm[0] = '\0';
			fclose(f);
		}
		comm[strcspn(comm, "\n")] = '\0';
		if (!strncmp(comm, "ksoftirqd/", 10) && strcmp(comm, want))
			t->pid[i--] = t->pid[--t->n];
	}
	return t->n;
}

int napi_threads_find(const char *dev, struct softirq_tasks *t)
{
	char want[64];
	const char *const p[] = { want, NULL };

	snprintf(want, sizeof(want), "napi/%s", dev);
	return threads_by_comm("/proc", p, t);
}

uint64_t task_cpu_ns(int pid)
{
	char path[64];
	unsigned long long ns = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/schedstat", pid);
	f = fopen(path, "r");
	if (!f)
		return 0;
	if (fscanf(f, "%llu", &ns) != 1)
		ns = 0;
	fclose(f);
	return ns;
}

uint64_t softirq_tasks_cpu_ns(const struct softirq_tasks *t)
{
	uint64_t sum = 0;

	for (int i = 0; i < t->n; i++)
		sum += task_cpu_ns(t->pid[i]);
	return sum;
}

uint64_t cpus_busy_steal_ns(uint64_t *steal_ns)
{
	unsigned long long user, nice, sys, idle, iowait, irq, softirq, steal;
	long hz = sysconf(_SC_CLK_TCK);
	FILE *f = fopen("/proc/stat", "r");
	uint64_t busy = 0;

	*steal_ns = 0;
	if (!f)
		return 0;
	if (fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &user, &nice, &sys, &idle,
		   &iowait, &irq, &softirq, &steal) == 8 && hz > 0) {
		busy = (uint64_t)(user + nice + sys + irq + softirq + steal) * 1000000000ull /
		       (uint64_t)hz;
		*steal_ns = (uint64_t)steal * 1000000000ull / (uint64_t)hz;
	}
	fclose(f);
	return busy;
}

int vcpu_threads_find(int pid, struct softirq_tasks *t)
{
	static const char *const p[] = { "CPU ", "ALL CPUs/", NULL };
	char dir[64];

	snprintf(dir, sizeof(dir), "/proc/%d/task", pid);
	return threads_by_comm(dir, p, t);
}

uint64_t threads_cpu_ns(int pid, const struct softirq_tasks *t)
{
	uint64_t sum = 0;

	for (int i = 0; i < t->n; i++) {
		char path[96];
		unsigned long long ns = 0;
		FILE *f;

		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, t->pid[i]);
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fscanf(f, "%llu", &ns) == 1)
			sum += ns;
		fclose(f);
	}
	return sum;
}

int cpu_keep_off(pid_t pid, int cpu)
{
	cpu_set_t set;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(&set);
	for (long i = 0; i < ncpu; i++)
		if (i != cpu)
			CPU_SET((int)i, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}
