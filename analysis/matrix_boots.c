/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_boots.c: a matrix's repeated boots (matrix_boots.h). */
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "matrix_boots.h"
#include "json_read.h"
#include "matrix_entry.h"
#include "matrix_experiments.h"

#define MAX_BOOTS 8

static int entry_boot(const json_t *e)
{
	const json_t *b = json_object_get(e, "boot");

	return json_is_integer(b) ? (int)json_integer_value(b) : 1;
}

json_t *matrix_first_boots(const json_t *matrix)
{
	json_t *copy = json_deep_copy(matrix), *es = json_array();
	const json_t *e;
	size_t i;

	if (!copy || !es) {
		json_decref(copy);
		json_decref(es);
		return NULL;
	}
	json_array_foreach(json_object_get(matrix, "entries"), i, e)
		if (entry_boot(e) <= 1)
			json_array_append_new(es, json_deep_copy(e));
	json_object_set_new(copy, "entries", es);
	return copy;
}

/* The entries of @kernel's @exp that measured, by boot, into @v; returns how many. */
static int cell_boots(const json_t *matrix, const char *kernel, const char *exp,
		      const json_t **v)
{
	const json_t *e;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(matrix, "entries"), i, e)
		if (n < MAX_BOOTS && !strcmp(json_str_of(e, "kernel", ""), kernel) &&
		    !strcmp(json_str_of(e, "experiment", ""), exp) &&
		    !strcmp(json_str_of(e, "status", ""), "ok"))
			v[n++] = e;
	return n;
}

/* One row: mode @mode's @metric delta on each of the @n boots @v. */
static void boots_row(FILE *out, const json_t *const *v, int n, const char *mode,
		      const char *metric)
{
	const json_t *d[MAX_BOOTS];
	double lo = INFINITY, hi = -INFINITY;
	int pairs = 0, overlap = 0;

	for (int i = 0; i < n; i++) {
		d[i] = matrix_entry_delta(v[i], mode, metric);
		if (!d[i])
			return;
	}
	fprintf(out, "| %s | %s | %s | %s |", json_str_of(v[0], "kernel", ""),
		json_str_of(v[0], "experiment", ""), mode, metric);
	for (int i = 0; i < n; i++) {
		double x = 100 * json_num_of(d[i], "rel_delta");
		double a0 = 100 * json_num_of(d[i], "ci95_lo"), a1 = 100 * json_num_of(d[i], "ci95_hi");

		/* every boot to the same precision, that of the spread */
		fprintf(out, "%s%+.3f%%", i ? "; " : " ", x);
		if (!isnan(a0) && !isnan(a1))
			fprintf(out, " [%+.3f%%, %+.3f%%]", a0, a1);
		else
			fprintf(out, " (no interval)");
		lo = fmin(lo, x);
		hi = fmax(hi, x);
		for (int j = 0; j < i; j++) {
			double a0 = json_num_of(d[i], "ci95_lo"), a1 = json_num_of(d[i], "ci95_hi");
			double b0 = json_num_of(d[j], "ci95_lo"), b1 = json_num_of(d[j], "ci95_hi");

			if (isnan(a0) || isnan(a1) || isnan(b0) || isnan(b1))
				continue;
			pairs++;
			overlap += a0 <= b1 && b0 <= a1;
		}
	}
	fprintf(out, " | %.3f | ", hi - lo);
	if (pairs)
		fprintf(out, "%d of %d |\n", overlap, pairs);
	else
		fprintf(out, "n/a (no intervals) |\n");
}

void matrix_md_boots(const json_t *matrix, FILE *out)
{
	const json_t *e;
	size_t i;
	bool head = false;

	json_array_foreach(json_object_get(matrix, "entries"), i, e) {
		const json_t *v[MAX_BOOTS], *m;
		size_t j;
		int n;

		if (entry_boot(e) != 1 || matrix_exp_host(json_str_of(e, "experiment", "")))
			continue;
		n = cell_boots(matrix, json_str_of(e, "kernel", ""), json_str_of(e, "experiment", ""), v);
		if (n < 2)
			continue;
		if (!head)
			fprintf(out, "\n## Between boots\n\nThe same kernel and experiment measured "
				     "on separate boots of the guest (`--repeat`, or the same matrix made "
				     "again: `--boots`): each boot's delta "
				     "against tc with its within-run interval; the spread is the largest "
				     "delta minus the smallest, in percentage points; overlap counts the "
				     "pairs of boots whose intervals share a value. A spread wider than "
				     "the intervals means the boots differ by more than one run's "
				     "windows do (docs/matrix.md).\n\n| kernel | experiment | mode | "
				     "metric | each boot | spread (pp) | intervals overlap |\n"
				     "|---|---|---|---|---|---|---|\n");
		head = true;
		json_array_foreach(json_object_get(e, "modes"), j, m) {
			const char *mode = json_str_of(m, "mode", "");

			if (!strcmp(mode, "tc"))
				continue;
			boots_row(out, v, n, mode, json_str_of(e, "time_metric", ""));
			if (matrix_entry_delta(e, mode, "retired_instructions_per_pkt"))
				boots_row(out, v, n, mode, "retired_instructions_per_pkt");
		}
	}
}

json_t *matrix_boots_join(json_t *const *m, int n)
{
	json_t *j = json_object(), *es = json_array();

	if (!j || !es || n < 1) {
		json_decref(j);
		json_decref(es);
		return NULL;
	}
	json_object_set(j, "kernels", json_object_get(m[0], "kernels"));
	for (int i = 0; i < n; i++) {
		const json_t *e;
		size_t k;

		json_array_foreach(json_object_get(m[i], "entries"), k, e) {
			json_t *c = json_deep_copy(e);
			const json_t *f;
			size_t q;
			int boot = 1;

			json_array_foreach(es, q, f) /* the boots of this cell so far */
				boot += !strcmp(json_str_of(f, "kernel", ""), json_str_of(e, "kernel", "")) &&
					!strcmp(json_str_of(f, "experiment", ""), json_str_of(e, "experiment", ""));
			json_object_set_new(c, "boot", json_integer(boot));
			json_array_append_new(es, c);
		}
	}
	json_object_set_new(j, "entries", es);
	return j;
}
