/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * summary_facts.h: what a run's run.json says of itself, for the summary and every report
 * of it: its time metric, its engine, its perf events, whether the plugin counted
 * instructions, whether BPF statistics were on behind its back.
 */
#ifndef XDPTC_SUMMARY_FACTS_H
#define XDPTC_SUMMARY_FACTS_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

/* summary_time_metric - the run's time metric (its "time_metric"): "cpu_ns_per_pkt"
 * (CPU time, ns per packet; the default) or "guest_instructions_per_pkt" (the icount
 * engine: guest ns at -icount shift=0, one per guest instruction; older runs:
 * "instructions_per_pkt"). */
const char *summary_time_metric(const json_t *run);

struct metric;

/* summary_metric_key - the key under which @run holds metric row @x: the run's time
 * metric for the METRIC_TIME row, the row's name otherwise. */
const char *summary_metric_key(const struct metric *x, const json_t *run);

/* summary_perf_metrics - the per-packet metrics of @run's perf events, in the order
 * asked for, into @out (at most @max): E_per_pkt for each event E; for a run from before
 * perf stat, cycles_per_pkt and (unless its time metric had that name)
 * instructions_per_pkt. Returns how many. */
int summary_perf_metrics(const json_t *run, const char **out, int max);

/* summary_engine - where @run measured: "host", or "icount" (run.json's engine.name;
 * runs written before the engine was recorded were host runs). */
const char *summary_engine(const json_t *run);

/* summary_time_is_guest - is time metric @tm guest instructions (the icount engine's
 * "guest_instructions_per_pkt", or "instructions_per_pkt" in runs written before it got
 * its own name, apart from a PMU's instructions_per_pkt)? */
bool summary_time_is_guest(const char *tm);

/* summary_bpf_stats_outside - why BPF run-time statistics were on during the run's
 * timing pass without xdptc turning them on (kernel.bpf_stats_enabled set at the start
 * or end of the run, or a timing trial whose program run count moved: another process
 * held BPF_ENABLE_STATS), in words; NULL when they were off. */
const char *summary_bpf_stats_outside(const json_t *run);

/* summary_time_key - @buf = the time metric @tm's name + @suffix ("_min", "_cv", ...). */
const char *summary_time_key(char *buf, size_t len, const char *tm, const char *suffix);

/* summary_perf_events - @run's settings.perf_events (the events perf stat counted, with
 * their metrics), or NULL in a run from before perf stat. */
const json_t *summary_perf_events(const json_t *run);

/* summary_has_insns - did the instruction-counting plugin count @run's windows (its
 * trials hold retired_instructions_per_pkt)? */
bool summary_has_insns(const json_t *run);

#endif
