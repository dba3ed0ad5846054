/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_entry.h: reading one entry of matrix.json (matrix.h), for matrix.md's sections
 * (matrix.c, matrix_insns.c).
 */
#ifndef XDPTC_MATRIX_ENTRY_H
#define XDPTC_MATRIX_ENTRY_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "json_read.h"

/* The element of the array @a whose "mode" is @mode (an entry's modes, its insn
 * profiles), or NULL. */
const json_t *matrix_by_mode(const json_t *a, const char *mode);

/* matrix_has_experiment - has @matrix (matrix.json) an entry of experiment @exp? */
bool matrix_has_experiment(const json_t *matrix, const char *exp);

/* The delta of mode @b's @metric against tc in @entry, or NULL. */
const json_t *matrix_entry_delta(const json_t *entry, const char *b, const char *metric);

/* The metric @entry's comparisons are judged by: the plugin's
 * retired_instructions_per_pkt when its run has it (it repeats, where the every-iteration
 * count moves with page clearing), else the run's time metric. */
const char *matrix_entry_metric(const json_t *entry);

/* A delta as summary.md prints it into @buf: median and interval, or why none, or
 * "n/a" when @d is NULL. */
void matrix_fmt_delta(char *buf, size_t len, const json_t *d);

/* matrix_fmt_vs_tc - the delta of mode @b against tc in @entry, in the metric its
 * comparisons are judged by (matrix_entry_metric), as matrix_fmt_delta writes it into
 * @buf (@len bytes). */
void matrix_fmt_vs_tc(char *buf, size_t len, const json_t *entry, const char *b);

/* matrix_same_sign - do deltas @a and @b agree in sign? "yes" or "**no**" only when both
 * intervals exclude zero ("real"); else "n.s. (WHICH)", naming the one(s) whose interval
 * includes zero; "n/a" when either is missing. A static string. */
const char *matrix_same_sign(const json_t *a, const json_t *b, const char *a_name,
			     const char *b_name);

#endif
