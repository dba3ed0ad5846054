/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * claims_doc.h: a Markdown document as claims.c reads it: blocks (a paragraph, a list
 * item, a table row, a heading), each as one line of text with its runs of white space
 * made one space, the runs it cites, and the numbers in it.
 */
#ifndef XDPTC_CLAIMS_DOC_H
#define XDPTC_CLAIMS_DOC_H

#include <stdbool.h>
#include <stddef.h>

struct doc_block {
	char *text;        /* the block, white space normalised */
	char *mask;        /* the same, with `code`, <!-- comments --> and link targets
			    * blanked: where numbers are looked for (same length as text) */
	int *line;         /* the source line of each character of text */
	size_t len;
	char **cites;      /* paths (relative to the root) it draws on, as many as it
			    * names (the array grows) */
	int ncites, cap_cites;
};

struct doc {
	char path[256];    /* relative to the root */
	struct doc_block *b;
	int nb;
};

/* A number in a text. */
struct num_tok {
	size_t start, end; /* [start, end) in the text, the sign included */
	char norm[48];     /* its digits as compared: no '+', no commas, '-' for a minus */
	int decimals;      /* digits after the point */
	bool sign, grouped, unit, version;
};

/* num_next - the next number in @s[@from..@len) into @t. Returns true when one was found.
 * A number starts at a digit that follows no letter, digit, '_' or '.' (after a digit);
 * a '+', '-' or U+2212 right before it, after no letter or digit, is its sign. "6.18.44"
 * and "6.1" (a one-digit major, no sign, no unit) are versions; "10k" and "2x" are words,
 * skipped. */
bool num_next(const char *s, size_t len, size_t from, struct num_tok *t);

/* num_measured - whether @t looks measured: not a version, and signed, with decimals,
 * grouped, or followed by a unit. */
bool num_measured(const struct num_tok *t);

/* doc_load - @root/@path into @d: its blocks, with what each cites (results/examples/...
 * paths, bare run names and ...SUFFIX of them, resolved under @root; source: comments;
 * a sources: comment's paths for every block up to the next heading). Fenced code and
 * generated tables are left out. Returns 0 or -errno. */
int doc_load(const char *root, const char *path, struct doc *d);
void doc_free(struct doc *d);

/* doc_resolve_run - a run's name as the docs write it (a full name, or ...SUFFIX) into
 * @out as results/examples/NAME when that directory exists under @root. Returns 0 or
 * -ENOENT. */
int doc_resolve_run(const char *root, const char *name, char *out, size_t len);

#endif
