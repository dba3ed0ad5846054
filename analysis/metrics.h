/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * metrics.h: every figure of a trial and of a mode's summary, in one table: its name
 * (the key in run.json), unit, pass, source, direction, format and description. From it
 * come the plain fields of each trial in run.json (trial_json), the per-mode medians of
 * the summary (summary_compute), the rows of summary.md,
 * the CSV columns (report --csv), the counters plot, the sweep's columns and
 * docs/metrics.md (`xdptc help --metrics`, checked by tests/unit/test_metrics.c).
 * Adding a metric is one row here, plus the code that measures it.
 *
 * Two rows stand for families whose names a run decides: METRIC_TIME is the run's time
 * metric (cpu_ns_per_pkt, or guest_instructions_per_pkt in an icount guest) and
 * METRIC_PERF the perf events a run counted (E_per_pkt each, and ipc). METRIC_INSNS rows
 * exist only in runs of the icount engine's plugin; its retired_instructions_per_pkt is
 * then the first metric compared (the headline and the noise floor).
 */
#ifndef XDPTC_METRICS_H
#define XDPTC_METRICS_H

#include <stdio.h>

/* how summary.md prints a mode's value */
enum metric_format {
	METRIC_FMT_COUNT,        /* an integer with thousands separators */
	METRIC_FMT_3DP,          /* 3 decimals (per-packet counts) */
	METRIC_FMT_1DP,          /* 1 decimal */
	METRIC_FMT_RANGE,        /* median (min-max), 1 decimal */
	METRIC_FMT_STRING,       /* a string */
	METRIC_FMT_2SIG,         /* 2 significant digits (a coefficient of variation) */
	METRIC_FMT_OBSERVER,     /* a paired cost in % with its interval, or n.s. */
};

/* which way is less work for the kernel */
enum metric_direction {
	METRIC_NEUTRAL = 0,      /* a count or a setting: neither */
	METRIC_LOWER_LESS_WORK,  /* time, events, skbs per packet */
	METRIC_HIGHER_MORE_CAPACITY, /* a rate */
};

/* where a trial's value of a metric comes from, when it is one field of its result */
enum metric_from {
	METRIC_FROM_NONE = 0,    /* computed, or written with others (trial_json) */
	METRIC_FROM_U64,         /* a uint64_t of struct trial_result */
	METRIC_FROM_I64,         /* an int64_t of struct trial_result */
};

/* metric.flags */
#define METRIC_CSV (1u << 0)     /* a column of report --csv (a trial field) */
#define METRIC_MEDIAN (1u << 1)  /* the summary holds its median per mode */
#define METRIC_COUNTER (1u << 2) /* a count of the count pass: unavailable when its backend
				  * is (capabilities.counters.<counter>) */
#define METRIC_SWEEP (1u << 3)   /* a column of a sweep's table and CSV */
#define METRIC_PLOT (1u << 4)    /* a bar of the counters plot */
#define METRIC_RATE (1u << 5)    /* a row only when the run searched rates */
#define METRIC_TIME (1u << 6)    /* the run's time metric (its name from run.json) */
#define METRIC_PERF (1u << 7)    /* the run's perf events (their names from run.json) */
#define METRIC_DELTA (1u << 8)   /* compared between modes, paired, with an interval */
#define METRIC_INSNS (1u << 9)   /* the icount engine's plugin (plugins/insn_count.c):
				  * medians and rows only in runs whose trials have it */

struct metric {
	const char *name;        /* its key in a trial (and in the summary's modes) */
	const char *unit;        /* "ns/pkt", "packets", ... */
	const char *pass;        /* the trials it comes from: timing, count, bpfstats, any,
				  * rate (the rate search), summary (computed there) */
	const char *source;      /* where the kernel or a tool gives it */
	enum metric_direction direction;
	enum metric_format format;
	const char *label;       /* its row in summary.md; NULL: none */
	const char *description;
	unsigned int flags;      /* METRIC_* */
	const char *from;        /* the trial field a median is taken of, when it is not
				  * @name (count_pkts_at_dut: pkts_at_dut of the count pass) */
	const char *counter;     /* METRIC_COUNTER: which count's backend it depends on */
	const char *unavailable; /* why a mode has none, when no valid trial has it */
	enum metric_from from_trial; /* a plain field of struct trial_result that the run
				      * writes into each trial as it is (run/run_json.c) */
	size_t trial_offset;     /* ... at this offset (offsetof) */
};

/* The table, in the order of summary.md's rows and the CSV's columns; ended by a row
 * whose name is NULL. */
extern const struct metric metrics[];

/* md_cell - @s as one Markdown table cell on @f ("|" escaped, a newline a space; NULL
 * nothing). */
void md_cell(FILE *f, const char *s);

/* metrics_doc_md - docs/metrics.md's table (Markdown): every metric with its unit, pass,
 * source, direction and description. */
void metrics_doc_md(FILE *f);

#endif
