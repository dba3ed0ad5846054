/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * perf_stat.h: any perf event list counted by `perf stat` (linux-perf) over exactly the
 * measured window, on exactly the threads whose CPU time is cpu_ns_per_pkt.
 *
 * `perf stat -x, -t TIDS -e EVENTS -D -1 --control fifo:CTL,ACK -o FILE` starts with its
 * events disabled; perf_stat_enable turns them on right before the sender's window and
 * off right after it (the "enable"/"disable" commands of --control, each waited for with
 * its "ack"), so neither the warm-up nor the settle wait after the window is counted.
 * perf scales each count by time enabled / time running when counters were shared
 * (multiplexed: the NMI watchdog holds one on x86, other perf users, more events than
 * counters) and prints the percentage running, which is kept with every value.
 * `<not supported>`, `<not counted>` and open errors become no value, with perf's words.
 *
 * The CSV format (perf-stat(1), "CSV FORMAT"): counter value, unit, event name, run
 * time, percentage of the time running, then optional metric value and unit; a value is
 * "<not supported>" or "<not counted>" when there is none. On hybrid machines an event
 * asked for as "cycles" comes back once per core type ("cpu_core/cycles/",
 * "cpu_atom/cycles/"); the lines of one asked-for event are added up.
 */
#ifndef XDPTC_PERF_STAT_H
#define XDPTC_PERF_STAT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <sys/types.h>

#define PERF_STAT_MAX_EVENTS 16
#include "cpu_time.h"

/* the sender and every softirq/NAPI thread cpu_time.h can list: the same threads as
 * cpu_ns_per_pkt, never fewer */
#define PERF_STAT_MAX_TIDS (CPU_TIME_MAX_TASKS + 1)

/* One counted event over a window. */
struct perf_stat_value {
	char event[64];     /* as asked for ("task-clock", "cycles", "r00c0", "cpu_core/cycles/") */
	char metric[96];    /* its per-packet metric in run.json: perf_stat_metric_name() */
	bool counted;       /* a value was read */
	double value;       /* perf's count, scaled for multiplexing; task-clock and cpu-clock
			     * in ns (perf prints msec) */
	char unit[16];      /* the unit of value: "ns" for the clocks, else perf's or "" */
	double pct_running; /* of the enabled time the counter ran, 0-100 */
	int lines;          /* perf's lines summed into it (more than 1 on hybrid PMUs) */
	bool user_only;     /* perf counted it in user space only ("EVENT:u": an unprivileged
			     * caller under kernel.perf_event_paranoid >= 2) */
	char reason[96];    /* when !counted: perf's "<not supported>", "<not counted>", ... */
};

/*
 * perf_stat_metric_name - the metric of event @event: lower case, every character that
 * is not a letter, digit or underscore turned into '_', runs of them into one, "_per_pkt"
 * appended: "task-clock" -> "task_clock_per_pkt", "cpu_core/cycles/" ->
 * "cpu_core_cycles_per_pkt", "r00c0" -> "r00c0_per_pkt". Into @buf.
 */
const char *perf_stat_metric_name(const char *event, char *buf, size_t len);

/*
 * perf_stat_parse_line - one line of `perf stat -x@sep` output into @v (event, value or
 * reason, unit, percentage running). Returns 1 for a counter line, 0 for a line that is
 * none (empty, a comment, a metric-only continuation), -EINVAL for a malformed one.
 */
int perf_stat_parse_line(const char *line, char sep, struct perf_stat_value *v);

/*
 * perf_stat_parse - read perf's output from @in and fill @vals[0..@n-1], whose .event
 * are the events asked for (the rest is filled here): each asked-for event gets its line,
 * or the sum of its per-PMU lines on a hybrid machine (the lowest percentage running
 * kept); an event perf printed nothing for gets the reason "no line from perf".
 * Returns 0, or -EINVAL when a line is malformed.
 */
int perf_stat_parse(FILE *in, char sep, struct perf_stat_value *vals, int n);

/*
 * perf_stat_split_events - split the comma list @list ("task-clock,cycles", with
 * "cpu_core/cycles/" or "cycles:u,r00c0" kept whole: commas inside '/.../' do not split)
 * into @vals[].event. Returns the number of events, or -EINVAL (empty, too many, an
 * event longer than 63 characters or with characters perf does not take).
 */
int perf_stat_split_events(const char *list, struct perf_stat_value *vals, int max);

/* A `perf stat` counting the threads of a trial, or the profile pass's `perf record`:
 * perf under control (--control fifo:CTL,ACK). */
struct perf_stat {
	pid_t pid;
	int ctl_fd, ack_fd;
	char dir[64];       /* its fifos and output, removed by perf_stat_finish/abort */
};

/*
 * perf_stat_start - start perf stat with @events (a checked comma list) on threads
 * @tids[0..n-1], its events disabled. Returns 0, or -errno with a sentence in @err
 * (-ENOENT: perf is not installed).
 */
int perf_stat_start(struct perf_stat *ps, const char *events, const pid_t *tids, int n,
		    char *err, size_t errlen);

/*
 * perf_stat_start_cpus - the same on CPUs @cpus (a list as perf -C takes it, "0,2-3"),
 * everything that runs on them, or on every CPU when @cpus is NULL or "" (perf stat -a).
 * Returns as perf_stat_start.
 */
int perf_stat_start_cpus(struct perf_stat *ps, const char *events, const char *cpus,
			 char *err, size_t errlen);

/*
 * perf_record_start - the profile pass's `perf record -q -a -g -e cpu-clock` into @path,
 * a sample every @period ns of cpu-clock (inside an icount guest: instructions; 0: 997
 * samples a second), through the same control fifos: started disabled, returned once
 * perf acknowledges it is ready (its own start-up, long in an emulated guest, is in no
 * profile); perf_stat_enable turns it on and off around the window. Returns 0, or
 * -errno with perf's words in @err.
 */
int perf_record_start(struct perf_stat *ps, const char *path, unsigned long long period,
		      char *err, size_t errlen);

/* perf_record_stop - stop it (SIGINT) and wait; its data must then be in @path.
 * Returns 0, or -errno with a sentence in @err (-ENOENT: perf is not installed, -EIO: no
 * data). */
int perf_record_stop(struct perf_stat *ps, const char *path, char *err, size_t errlen);

/* perf_stat_enable - turn the counters on (@on) or off, waiting for perf's
 * acknowledgement (at most 5 s). Returns 0 or -errno (-ETIMEDOUT, -EPIPE: perf ended). */
int perf_stat_enable(struct perf_stat *ps, bool on);

/* perf_stat_finish - stop perf (SIGINT), parse what it wrote into @vals (whose .event
 * are the events asked for, in order) and remove its files. Returns 0 or -errno with a
 * sentence in @err (what perf wrote on stderr when it wrote no counts). */
int perf_stat_finish(struct perf_stat *ps, struct perf_stat_value *vals, int n, char *err,
		     size_t errlen);

/* perf_stat_abort - kill perf and remove its files, when the trial failed. */
void perf_stat_abort(struct perf_stat *ps);

#endif
