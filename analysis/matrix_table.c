/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_table.c: docs/results.md's table across kernels (matrix_table.h). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "matrix_boots.h"
#include "json_read.h"
#include "matrix_entry.h"
#include "matrix_experiments.h"
#include "matrix_table.h"
#include "page_regime.h"

#define RETIRED "retired_instructions_per_pkt"
#define TASKS "guest_instructions_per_pkt"

/* The first boot's ok entry of @kernel's @exp in the last of @m that has one, of the
 * build @release (its guest_kernel; NULL: any): a kernel is its full version, and one
 * row never joins two builds of a series. */
static const json_t *cell(json_t *const *m, int n, const char *kernel, const char *exp,
			  const char *release)
{
	for (int i = n - 1; i >= 0; i--) {
		const json_t *e;
		size_t j;

		json_array_foreach(json_object_get(m[i], "entries"), j, e) {
			const json_t *b = json_object_get(e, "boot");

			if ((!b || json_integer_value(b) == 1) &&
			    !strcmp(json_str_of(e, "kernel", ""), kernel) &&
			    !strcmp(json_str_of(e, "experiment", ""), exp) &&
			    !strcmp(json_str_of(e, "status", ""), "ok") &&
			    (!release || !strcmp(json_str_of(e, "guest_kernel", ""), release)))
				return e;
		}
	}
	return NULL;
}

static void put_delta(FILE *out, const json_t *e, const char *mode, const char *metric,
		      const char *none)
{
	const json_t *d = e ? matrix_entry_delta(e, mode, metric) : NULL;
	double v = d ? json_num_of(d, "rel_delta") : NAN;

	if (isnan(v))
		fprintf(out, " %s |", e ? none : "failed");
	else /* an every-iteration figure over another page-clearing regime: said */
		fprintf(out, " %+.1f%%%s |", 100 * v, strcmp(metric, RETIRED) &&
			!strcmp(mode, "xdpdrv") && page_regime_entry(e, NULL, 0) ? " (regimes differ)" : "");
}

int matrix_write_table(json_t *const *m, int n, FILE *out)
{
	const char *ref = matrix_exps[0].name; /* its entries: the rows, the tcx column */
	char seen[32][64];
	int nseen = 0;

	fprintf(out, "| guest kernel |");
	for (int x = 0; x < matrix_nexps; x++) /* the others: tables of their own */
		if (matrix_exps[x].readme)
			fprintf(out, " %s: retired | measured tasks |", matrix_exps[x].title);
	fprintf(out, " tcx vs tc (%s), retired |\n|---|", matrix_exps[0].title);
	for (int x = 0; x < matrix_nexps; x++)
		if (matrix_exps[x].readme)
			fprintf(out, "---|---|");
	fprintf(out, "---|\n");
	for (int i = 0; i < n; i++) {
		const json_t *k;
		size_t j;

		json_array_foreach(json_object_get(m[i], "kernels"), j, k) {
			const char *spec = json_str_of(k, "spec", "");
			const json_t *r0;
			char rel[64];
			int s;

			for (s = 0; s < nseen && strcmp(seen[s], spec); s++)
				;
			if (s < nseen || nseen == 32 || !(r0 = cell(m, n, spec, ref, NULL)))
				continue;
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", spec);
			snprintf(rel, sizeof(rel), "%s", json_str_of(r0, "guest_kernel", ""));
			rel[strcspn(rel, "+")] = '\0'; /* 6.12.118+deb13-amd64: 6.12.118 */
			if (strlen(rel) > 6 && !strcmp(rel + strlen(rel) - 6, "-amd64"))
				rel[strlen(rel) - 6] = '\0';
			fprintf(out, "| %s |", rel);
			for (int x = 0; x < matrix_nexps; x++) {
				const json_t *e = cell(m, n, spec, matrix_exps[x].name,
						      json_str_of(r0, "guest_kernel", ""));

				if (!matrix_exps[x].readme)
					continue;
				put_delta(out, e, "xdpdrv", RETIRED, "n/a");
				put_delta(out, e, "xdpdrv", TASKS, "n/a");
			}
			put_delta(out, r0, "tcx", RETIRED, "(no tcx before 6.6)");
			fputc('\n', out);
		}
	}
	return ferror(out) ? -EIO : 0;
}
