/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * report.h: what can be done with a run after it ran: rebuild its summary from
 * run.json, export its trials as CSV, and put two runs side by side by their
 * within-run deltas (never by absolute figures: those are not comparable across runs).
 */
#ifndef XDPTC_REPORT_H
#define XDPTC_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define RUN_SCHEMA "xdptc.run/1"
/* the most arms a run measures (run/run_opts.h's RUN_MAX_MODES is this) */
#define REPORT_MAX_ARMS 8

/*
 * report_load - read @path (a run directory, or a run.json file) into *@run.
 * Returns 0, or -errno with a sentence in @err: -ENOENT/-EACCES (cannot read),
 * -EBADMSG (not JSON: the parser's line and reason), -EPROTO (JSON, but not an xdptc
 * run: wrong or missing schema, settings or trials).
 */
int report_load(const char *path, json_t **run, char *err, size_t errlen);

/* report_parse - the same as report_load for a run.json held in memory (@len bytes at
 * @buf, not NUL-terminated; @name stands for the file in @err). Returns 0, -EBADMSG
 * or -EPROTO. */
int report_parse(const char *buf, size_t len, const char *name, json_t **run, char *err,
		 size_t errlen);

/* report_csv - every trial of @run as CSV (a header line, one row per trial; fixed
 * columns, empty where a figure does not apply). Returns 0 or -EIO. */
int report_csv(const json_t *run, FILE *out);

/* report_print - @run's summary.md on @out, then its headline again (the answer last)
 * when it has deltas. Returns 0 or -EINVAL (summary_render_md). */
int report_print(const json_t *run, FILE *out);

/* report_write - @run (with its summary) into @json_path, through a temporary file
 * beside it and a rename (NULL: leave run.json as it is), its summary.md into @dir (with
 * the plots and flame graphs already in @dir embedded and linked: draw them first) and
 * the page index.html from it (page_html.h: settings, machine and kernel after it);
 * unless @quiet, report_print on stdout. Returns 0, or -errno with a sentence in @err. */
int report_write(const json_t *run, const char *dir, const char *json_path, int quiet,
		 char *err, size_t errlen);

/* report_compare - the within-run deltas of runs @a and @b side by side (same metric
 * and pair of modes; each with its interval, coverage, pairs and verdict), after a table
 * of their settings that marks each one that differs (topology, engine, time metric,
 * sender, guest kernel, machine, modes, packets, repetitions, frame length, rate,
 * threaded NAPI, invalid trials), with the statement that absolute figures across runs
 * are not comparable. Runs that differ in topology, engine or time metric measure
 * different things: refused (-EINVAL, the sentence in @why) unless @mixed.
 * Returns 0, -EINVAL, or -EPROTO when the runs share no delta (the reason in @why). */
int report_compare(const json_t *a, const char *name_a, const json_t *b, const char *name_b,
		   bool mixed, FILE *out, char *why, size_t whylen);

#endif
