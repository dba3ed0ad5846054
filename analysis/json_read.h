/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * json_read.h: reading run.json and matrix.json, one way for everyone (the summary, the
 * matrix, the sweep, the alternating pass's report): a key's string or number, with what
 * stands for it when the key is missing or of another type.
 */
#ifndef XDPTC_JSON_READ_H
#define XDPTC_JSON_READ_H

#include <jansson.h>

/* json_str_of - the string @k of object @o, or @fallback when it has none (no key, not a
 * string, @o NULL). */
const char *json_str_of(const json_t *o, const char *k, const char *fallback);

/* json_num_or - the number (integer or real) @k of @o, or @fallback when it has none. */
double json_num_or(const json_t *o, const char *k, double fallback);

/* json_num_of - the number @k of @o, or NaN (unknown, never 0) when it has none. */
double json_num_of(const json_t *o, const char *k);

#endif
