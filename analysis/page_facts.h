/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* page_facts.h: a JSON object of a run or matrix (its settings, machine, host) as a
 * Markdown table, for the page index.html shows (page_html.h). */
#ifndef XDPTC_PAGE_FACTS_H
#define XDPTC_PAGE_FACTS_H

#include <jansson.h>
#include <stdio.h>

/* page_facts_md - @obj under the heading "### @heading" as a two-column Markdown table
 * on @out: one row per key, nested objects' keys joined by dots ("guest.kernel"),
 * arrays of strings and numbers joined by commas, other arrays as compact JSON, each
 * value in a code span (so no Markdown or HTML in it takes effect). Writes nothing
 * when @obj is no object. */
void page_facts_md(FILE *out, const char *heading, const json_t *obj);

#endif
