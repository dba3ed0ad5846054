/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * summary_words.h: numbers, rows and sentences as summary.md writes them: formats, a
 * table row per metric, the mechanism in words, and the headline; and what every part of
 * summary.md reads (struct render_ctx).
 */
#ifndef XDPTC_SUMMARY_WORDS_H
#define XDPTC_SUMMARY_WORDS_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "metrics.h"

/* What every part of summary.md reads. */
struct render_ctx {
	const json_t *run, *s, *modes, *set, *mach, *caps, *cnt, *pmu, *guest;
	const char *bpf_stats_outside, *timing_words;
	const char *dir; /* the run's directory, whose pictures summary.md shows; or NULL */
	FILE *out;
};

/* summary_fmt_num - @v with @decimals decimals into @buf, or "n/a" when it is no number. */
const char *summary_fmt_num(char *buf, size_t len, const json_t *v, int decimals);

/* summary_fmt_pct - the fraction @frac as a signed percentage with @dec decimals. */
const char *summary_fmt_pct(char *buf, size_t len, double frac, int dec);

/* summary_pct_decimals - how many decimals a relative delta with interval [@lo, @hi]
 * (fractions) needs in percent: enough to show the interval's width, and to show that it
 * excludes 0 when it does (1 to 4). */
int summary_pct_decimals(double lo, double hi);

/* summary_fmt_count - a count (packets, events) with thousands grouped, or "n/a". */
const char *summary_fmt_count(char *buf, size_t len, const json_t *v);

/* summary_row - one table row: @label, then per mode its @key in format @kind, or n/a. */
void summary_row(FILE *out, const json_t *modes, const char *label, const char *key,
		 enum metric_format kind);

/* summary_observer_row - one row of an observer's cost (a percentage per mode). */
void summary_observer_row(FILE *out, const json_t *modes, const char *label, const char *key);

/* summary_mode_of - the mode object named @name in @modes, or NULL. */
const json_t *summary_mode_of(const json_t *modes, const char *name);

/* summary_mechanism_words - mode @a's mechanism counts beside baseline @b's, in words
 * (skbs built and freed, stack entries per packet). */
void summary_mechanism_words(FILE *out, const json_t *mb, const json_t *ma, const char *b,
			     const char *a);

/* summary_headline - the answer of @run in plain words, one line per compared mode
 * (its delta of each metric with interval and verdict, and the mechanism counts beside
 * the baseline's: skbs built and freed, stack entries per packet), built only from the
 * figures of its summary. Writes nothing when there is no delta. Returns the lines
 * written. */
int summary_headline(const json_t *run, FILE *out);

#endif
