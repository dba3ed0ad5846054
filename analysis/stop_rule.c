/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "stop_rule.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "window_delta.h"

int stop_rule_check(const json_t *run, const char *metric, double target,
		    struct stop_check *out)
{
	const json_t *modes = json_object_get(json_object_get(run, "settings"), "modes"), *m;
	const char *base = NULL;
	size_t i;

	memset(out, 0, sizeof(*out));
	json_array_foreach(modes, i, m)
		if (json_string_value(m) && !strcmp(json_string_value(m), "tc"))
			base = "tc";
	if (!base)
		base = json_string_value(json_array_get(modes, 0));
	if (!base)
		return -EINVAL;
	out->met = true;
	json_array_foreach(modes, i, m) {
		const char *b = json_string_value(m);
		size_t bl = b ? strlen(b) : 0;
		bool aa = bl > 3 && !strcmp(b + bl - 3, "-aa");
		char a[64];
		json_t *d;
		const json_t *lo, *hi;
		int k = out->narms;

		if (!b || (!aa && !strcmp(b, base)) || k == REPORT_MAX_ARMS)
			continue;
		snprintf(a, sizeof(a), "%.*s", aa ? (int)(bl - 3) : (int)bl, aa ? b : base);
		d = window_delta_json(run, metric, a, b);
		lo = json_object_get(d, "ci95_lo");
		hi = json_object_get(d, "ci95_hi");
		snprintf(out->arm[k], sizeof(out->arm[k]), "%s", b);
		out->aa[k] = aa;
		out->target[k] = aa ? target : STOP_ARM_FACTOR * target;
		out->halfwidth[k] = json_is_number(lo) && json_is_number(hi)
					    ? (json_number_value(hi) - json_number_value(lo)) / 2
					    : NAN;
		out->met &= out->halfwidth[k] <= out->target[k];
		out->narms++;
		json_decref(d);
	}
	return 0;
}

json_t *stop_check_json(const struct stop_check *c)
{
	json_t *a = json_array();

	for (int k = 0; k < c->narms; k++)
		json_array_append_new(a, json_pack("{s:s, s:b, s:o, s:f}", "arm", c->arm[k],
						   "aa", c->aa[k], "halfwidth",
						   isfinite(c->halfwidth[k])
							   ? json_real(c->halfwidth[k])
							   : json_null(),
						   "target", c->target[k]));
	return a;
}
