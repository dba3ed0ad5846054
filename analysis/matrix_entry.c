/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_entry.c: reading one entry of matrix.json (matrix_entry.h). */
#include "matrix_entry.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "json_read.h"
#include "summary_words.h"

bool matrix_has_experiment(const json_t *matrix, const char *exp)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(matrix, "entries"), i, e)
		if (!strcmp(json_str_of(e, "experiment", ""), exp))
			return true;
	return false;
}

const json_t *matrix_by_mode(const json_t *a, const char *mode)
{
	const json_t *m;
	size_t i;

	json_array_foreach(a, i, m)
		if (!strcmp(json_str_of(m, "mode", ""), mode))
			return m;
	return NULL;
}

const json_t *matrix_entry_delta(const json_t *entry, const char *b, const char *metric)
{
	const json_t *d;
	size_t i;

	json_array_foreach(json_object_get(entry, "deltas"), i, d)
		if (!strcmp(json_str_of(d, "a", ""), "tc") && !strcmp(json_str_of(d, "b", ""), b) &&
		    !strcmp(json_str_of(d, "metric", ""), metric))
			return d;
	return NULL;
}

const char *matrix_entry_metric(const json_t *entry)
{
	const json_t *d;
	size_t i;

	json_array_foreach(json_object_get(entry, "deltas"), i, d)
		if (!strcmp(json_str_of(d, "metric", ""), "retired_instructions_per_pkt"))
			return "retired_instructions_per_pkt";
	return json_str_of(entry, "time_metric", "");
}

void matrix_fmt_delta(char *buf, size_t len, const json_t *d)
{
	double lo = json_num_of(d, "ci95_lo"), hi = json_num_of(d, "ci95_hi");

	if (!d) {
		snprintf(buf, len, "n/a");
	} else if (isnan(lo)) {
		snprintf(buf, len, "%+.2f%% (%lld pairs: no interval)",
			 100 * json_num_of(d, "rel_delta"),
			 json_integer_value(json_object_get(d, "pairs")));
	} else {
		int pr = summary_pct_decimals(lo, hi);

		snprintf(buf, len, "%+.*f%% [%+.*f%%, %+.*f%%]", pr, 100 * json_num_of(d, "rel_delta"),
			 pr, 100 * lo, pr, 100 * hi);
	}
}

void matrix_fmt_vs_tc(char *buf, size_t len, const json_t *entry, const char *b)
{
	matrix_fmt_delta(buf, len, matrix_entry_delta(entry, b, matrix_entry_metric(entry)));
}

const char *matrix_same_sign(const json_t *a, const json_t *b, const char *a_name,
			     const char *b_name)
{
	static char buf[96];
	bool ra, rb;

	if (!a || !b)
		return "n/a";
	ra = json_is_true(json_object_get(a, "real"));
	rb = json_is_true(json_object_get(b, "real"));
	if (ra && rb)
		return (json_num_of(a, "rel_delta") > 0) == (json_num_of(b, "rel_delta") > 0)
			       ? "yes"
			       : "**no**";
	snprintf(buf, sizeof(buf), "n.s. (%s%s%s: its interval includes 0)", ra ? "" : a_name,
		 !ra && !rb ? " and " : "", rb ? "" : b_name);
	return buf;
}
