/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_facts.c: what a run's run.json says of itself (summary_facts.h). */
#include "summary_facts.h"

#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "metrics.h"

const char *summary_time_metric(const json_t *run)
{
	const char *tm = json_string_value(json_object_get(run, "time_metric"));

	return tm && summary_time_is_guest(tm) ? tm : "cpu_ns_per_pkt";
}

const char *summary_metric_key(const struct metric *x, const json_t *run)
{
	return x->flags & METRIC_TIME ? summary_time_metric(run) : x->name;
}

int summary_perf_metrics(const json_t *run, const char **out, int max)
{
	const json_t *pev = json_object_get(json_object_get(run, "settings"), "perf_events");
	size_t k;
	json_t *e;
	int n = 0;

	if (!json_is_array(pev)) { /* before perf stat: perf_event_open's two */
		if (n < max)
			out[n++] = "cycles_per_pkt";
		if (n < max && strcmp(summary_time_metric(run), "instructions_per_pkt"))
			out[n++] = "instructions_per_pkt";
		return n;
	}
	json_array_foreach(pev, k, e)
		if (n < max && json_is_string(json_object_get(e, "metric")))
			out[n++] = json_string_value(json_object_get(e, "metric"));
	return n;
}

const char *summary_engine(const json_t *run)
{
	const char *e = json_string_value(json_object_get(json_object_get(run, "engine"), "name"));

	return e ? e : "host";
}

bool summary_time_is_guest(const char *tm)
{
	/* runs before the rename called it instructions_per_pkt */
	return !strcmp(tm, "guest_instructions_per_pkt") || !strcmp(tm, "instructions_per_pkt");
}

/* @buf = the time metric's name + @suffix ("_min", "_cv", ...) */
const char *summary_time_key(char *buf, size_t len, const char *tm, const char *suffix)
{
	snprintf(buf, len, "%s%s", tm, suffix);
	return buf;
}

const char *summary_bpf_stats_outside(const json_t *run)
{
	const json_t *a = json_object_get(json_object_get(json_object_get(run, "doctor"), "sysctls"),
					  "kernel.bpf_stats_enabled");
	const json_t *b = json_object_get(json_object_get(run, "sysctls_at_end"),
					  "kernel.bpf_stats_enabled");
	size_t i;
	json_t *t;

	if (json_integer_value(a) > 0 && json_integer_value(b) > 0)
		return "kernel.bpf_stats_enabled=1 throughout the run, set outside xdptc";
	if (json_integer_value(a) > 0)
		return "kernel.bpf_stats_enabled=1 at the start of the run, set outside xdptc";
	if (json_integer_value(b) > 0)
		return "kernel.bpf_stats_enabled=1 at the end of the run, set outside xdptc";
	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (json_is_true(json_object_get(t, "bpf_stats_on")))
			return "the drop program's run count moved during a timing trial: another "
			       "process held BPF statistics on (BPF_ENABLE_STATS)";
	return NULL;
}

const json_t *summary_perf_events(const json_t *run)
{
	return json_object_get(json_object_get(run, "settings"), "perf_events");
}

/* Did the icount engine's plugin count @run's timing trials (METRIC_INSNS)? */
bool summary_has_insns(const json_t *run)
{
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (json_is_number(json_object_get(t, "retired_instructions_per_pkt")))
			return true;
	return false;
}
