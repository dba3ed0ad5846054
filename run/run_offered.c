/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_offered.c: each trial's offered rate against the run's median (run_offered.h). */
#include "run_offered.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats.h"

json_t *run_offered_check(json_t *trials, double tolerance)
{
	size_t n = 0, i, bad = 0;
	double *v, median;
	json_t *t;

	v = calloc(json_array_size(trials) + 1, sizeof(*v));
	if (!v)
		return NULL;
	json_array_foreach(trials, i, t)
		if (json_is_true(json_object_get(t, "valid")) &&
		    json_is_number(json_object_get(t, "offered_pps")))
			v[n++] = json_number_value(json_object_get(t, "offered_pps"));
	if (!n) {
		free(v);
		return NULL;
	}
	qsort(v, n, sizeof(*v), stats_cmp_double);
	median = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	free(v);
	json_array_foreach(trials, i, t) {
		double r;
		char why[256];

		if (!json_is_true(json_object_get(t, "valid")) ||
		    !json_is_number(json_object_get(t, "offered_pps")))
			continue;
		r = json_number_value(json_object_get(t, "offered_pps"));
		if (median > 0 && fabs(r / median - 1) <= tolerance)
			continue;
		snprintf(why, sizeof(why), "the offered rate, %.0f pps, is %+.1f%% from the run's "
			 "median %.0f pps (more than %.1f%%): the generator changed its pace, which "
			 "must not pass as the mode's effect", r,
			 median > 0 ? 100 * (r / median - 1) : 0.0, median, 100 * tolerance);
		json_object_set_new(t, "valid", json_false());
		json_object_set_new(t, "invalid_reason", json_string(why));
		bad++;
	}
	return json_pack("{s:f, s:f, s:I, s:I}", "median_pps", median, "tolerance", tolerance,
			 "trials", (json_int_t)n, "invalid", (json_int_t)bad);
}
