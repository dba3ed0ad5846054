/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_merge_rules.c: what the merge judges cells by (matrix_merge_rules.h). */
#include "matrix_merge_rules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "summary_facts.h"

json_t *matrix_judged_figures(const json_t *run)
{
	const json_t *s = json_object_get(run, "summary"), *x;
	const char *k = "retired_instructions_per_pkt";
	json_t *r = json_pack("{s:[], s:[]}", "modes", "deltas");
	size_t i;

	if (!json_is_number(json_object_get(json_array_get(json_object_get(s, "modes"), 0), k)))
		k = summary_time_metric(run);
	json_object_set_new(r, "metric", json_string(k));
	json_array_foreach(json_object_get(s, "modes"), i, x)
		json_array_append_new(json_object_get(r, "modes"),
				      json_pack("{s:s, s:O*}", "mode", json_str_of(x, "mode", ""), k,
						json_object_get(x, k)));
	json_array_foreach(json_object_get(s, "deltas"), i, x)
		if (!strcmp(json_str_of(x, "metric", ""), k))
			json_array_append(json_object_get(r, "deltas"), (json_t *)x);
	return r;
}

/* What tells two builds of one kernel series apart, most telling first: Debian's
 * package version (6.18.15-1~bpo13+1), the release (uname -r), the package. */
static const char *const kernel_ids[] = { "version", "release", "package" };

/* The first of kernel_ids in which cells @a's and @b's kernels differ, or NULL. */
static const char *kernel_differs(const json_t *a, const json_t *b)
{
	const json_t *ka = json_object_get(a, "kernel"), *kb = json_object_get(b, "kernel");

	for (size_t i = 0; i < sizeof(kernel_ids) / sizeof(kernel_ids[0]); i++)
		if (strcmp(json_str_of(ka, kernel_ids[i], ""), json_str_of(kb, kernel_ids[i], "")))
			return kernel_ids[i];
	return NULL;
}

int matrix_split_builds(json_t **c, int n)
{
	const char **split = calloc((size_t)n + 1, sizeof(*split)); /* all found first */

	if (!split)
		return 2;

	for (int i = 0; i < n; i++) {
		split[i] = NULL;
		for (int j = 0; j < n && !split[i]; j++)
			if (j != i && !strcmp(json_str_of(c[j], "kernel_spec", ""),
					      json_str_of(c[i], "kernel_spec", "")))
				split[i] = kernel_differs(c[i], c[j]);
	}
	for (int i = 0; i < n; i++) {
		const char *spec = json_str_of(c[i], "kernel_spec", ""), *by = split[i];
		char name[200], old[64];

		if (!by)
			continue;
		snprintf(old, sizeof(old), "%s", spec);
		snprintf(name, sizeof(name), "%s", json_str_of(json_object_get(c[i], "kernel"), by, ""));
		if (!name[0] || strchr(name, '/')) {
			fprintf(stderr, "xdptc matrix: --merge: the cells of kernel %s were measured "
					"on different builds, and %s names none by its %s\n", old,
				json_str_of(c[i], "cell", ""), by);
			free(split);
			return 2;
		}
		fprintf(stderr, "xdptc matrix: --merge: kernel %s was measured on different "
				"builds (%s differs): %s is named %s, a row of its own\n", old, by,
			json_str_of(c[i], "cell", ""), name);
		json_object_set_new(c[i], "kernel_spec", json_string(name));
		json_object_set_new(json_object_get(c[i], "kernel"), "spec", json_string(name));
		json_object_set_new(json_object_get(c[i], "kernel"), "asked", json_string(old));
		snprintf(name + strlen(name), sizeof(name) - strlen(name), ":%s",
			 json_str_of(c[i], "experiment", ""));
		json_object_set_new(c[i], "cell", json_string(name));
	}
	free(split);
	return 0;
}

