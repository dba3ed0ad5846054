/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* page_facts.c: a JSON object as a Markdown table of its keys (page_facts.h). */
#include "page_facts.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* @s inside a table cell's code span: a pipe escaped, a line break as a space, a
 * backtick as a quote (a code span cannot hold its own delimiter). */
static void cell(FILE *out, const char *s)
{
	for (; *s; s++) {
		if (*s == '|')
			fputs("\\|", out);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', out);
		else
			fputc(*s == '`' ? '\'' : *s, out);
	}
}

/* Is @a an array of strings and numbers only? */
static bool plain_array(const json_t *a)
{
	const json_t *v;
	size_t i;

	json_array_foreach(a, i, v)
		if (!json_is_string(v) && !json_is_number(v))
			return false;
	return true;
}

/* The value @v as the cell's text. */
static void value(FILE *out, const json_t *v)
{
	const json_t *x;
	char *s;
	size_t i;

	fputs("| `", out);
	if (json_is_string(v)) {
		cell(out, json_string_value(v));
	} else if (json_is_array(v) && plain_array(v) && json_array_size(v)) {
		json_array_foreach(v, i, x) {
			s = json_is_string(x) ? NULL : json_dumps(x, JSON_ENCODE_ANY);
			fputs(i ? ", " : "", out);
			cell(out, s ? s : json_string_value(x));
			free(s);
		}
	} else {
		s = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT | JSON_REAL_PRECISION(10));
		cell(out, s ? s : "?");
		free(s);
	}
	fputs("` |\n", out);
}

/* The rows of @obj, its keys after @prefix. */
static void rows(FILE *out, const char *prefix, const json_t *obj)
{
	const char *k;
	const json_t *v;

	json_object_foreach((json_t *)obj, k, v) {
		char key[256];

		snprintf(key, sizeof(key), "%s%s%s", prefix, *prefix ? "." : "", k);
		if (json_is_object(v) && json_object_size(v)) {
			rows(out, key, v);
			continue;
		}
		fputs("| ", out);
		cell(out, key);
		fputc(' ', out);
		value(out, v);
	}
}

void page_facts_md(FILE *out, const char *heading, const json_t *obj)
{
	if (!json_is_object(obj))
		return;
	fprintf(out, "\n### %s\n\n| key | value |\n|---|---|\n", heading);
	rows(out, "", obj);
}
