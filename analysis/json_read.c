/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* json_read.c: a key's string or number (json_read.h). */
#include "json_read.h"

#include <math.h>

const char *json_str_of(const json_t *o, const char *k, const char *fallback)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : fallback;
}

double json_num_or(const json_t *o, const char *k, double fallback)
{
	const json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : fallback;
}

double json_num_of(const json_t *o, const char *k)
{
	return json_num_or(o, k, NAN);
}
