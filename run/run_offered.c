/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_offered.c: each trial's offered rate against the run's median (run_offered.h). */
#include "run_offered.h"

#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* Is @t a valid trial of pass @pass with an offered rate? */
static bool offered_in(const json_t *t, const char *pass)
{
	return json_is_true(json_object_get(t, "valid")) &&
	       json_is_number(json_object_get(t, "offered_pps")) &&
	       !strcmp(json_string_value(json_object_get(t, "pass")) ?: "", pass);
}

/* The trials of one pass against that pass's median; adds to *@n and *@bad, the median
 * into @medians[@pass]. */
static void pass_check(json_t *trials, const char *pass, double tolerance, size_t *n,
		       size_t *bad, json_t *medians)
{
	size_t i, k = 0;
	double *v, median;
	json_t *t;

	v = calloc(json_array_size(trials) + 1, sizeof(*v));
	if (!v)
		return;
	json_array_foreach(trials, i, t)
		if (offered_in(t, pass))
			v[k++] = json_number_value(json_object_get(t, "offered_pps"));
	if (!k) {
		free(v);
		return;
	}
	qsort(v, k, sizeof(*v), stats_cmp_double);
	median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	free(v);
	*n += k;
	json_object_set_new(medians, pass, json_real(median));
	json_array_foreach(trials, i, t) {
		double r;
		char why[256];

		if (!offered_in(t, pass))
			continue;
		r = json_number_value(json_object_get(t, "offered_pps"));
		if (median > 0 && fabs(r / median - 1) <= tolerance)
			continue;
		snprintf(why, sizeof(why), "the offered rate, %.0f pps, is %+.1f%% from the %s "
			 "pass's median %.0f pps (more than %.1f%%): the generator changed its pace, "
			 "which must not pass as the mode's effect", r,
			 median > 0 ? 100 * (r / median - 1) : 0.0, pass, median, 100 * tolerance);
		json_object_set_new(t, "valid", json_false());
		json_object_set_new(t, "invalid_reason", json_string(why));
		(*bad)++;
	}
}

json_t *run_offered_check(json_t *trials, double tolerance)
{
	static const char *const passes[] = { "timing", "count", "bpfstats", "profile" };
	json_t *medians = json_object();
	size_t n = 0, bad = 0;

	for (size_t p = 0; p < sizeof(passes) / sizeof(passes[0]); p++)
		pass_check(trials, passes[p], tolerance, &n, &bad, medians);
	if (!n) {
		json_decref(medians);
		return NULL;
	}
	return json_pack("{s:o, s:f, s:f, s:I, s:I}", "median_pps_by_pass", medians,
			 "median_pps", json_number_value(json_object_get(medians, "timing")),
			 "tolerance", tolerance, "trials", (json_int_t)n, "invalid", (json_int_t)bad);
}
