/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * claims_expr.h: docs/claims.txt, the numbers of the docs that no cited summary prints
 * as they stand (a difference of two runs, a ratio, a setting of the code), each with
 * how to compute it from committed files.
 *
 * The file, line by line ('#' starts a comment):
 *
 *   @NAME = PATH
 *       NAME stands for the JSON file PATH (relative to the root) in expressions.
 *   DOC | TEXT | EXPR
 *       DOC (README.md, docs/engines.md, ...) holds TEXT, white space aside, with the
 *       number in braces: "moved by {0.074} percentage points". EXPR computes it; the
 *       doc's number must be EXPR's value rounded to the decimals the doc shows (its
 *       sign, when it shows one, the value's).
 *
 * EXPR: numbers, + - * / and parentheses, abs(x), floor(x), min(x, y), max(x, y), and
 *   NAME:PATH   the number at PATH in NAME's JSON: keys joined by '.', [N] an array's
 *               element, [key=value,...] the first element of an array whose keys have
 *               those values (strings, or numbers as written), e.g.
 *               run:summary.deltas[metric=cpu_ns_per_pkt,b=xdpdrv].rel_delta*100
 *               [*] every element (of an object: every value), [*,key=value,...]
 *               every one whose keys match, those the rest of the path leads nowhere
 *               from left out: then
 *               the path has many values, and one of
 *               minof(), maxof(), sumof(), countof(), medianof() must take it;
 *               minratio(A, B), maxratio(A, B): of two such paths' values, element by
 *               element, the least and the greatest A / B
 *   def:FILE:NAME   the value of `#define NAME value` in FILE (a C source).
 */
#ifndef XDPTC_CLAIMS_EXPR_H
#define XDPTC_CLAIMS_EXPR_H

#include <jansson.h>
#include <limits.h>
#include <stddef.h>

struct claim {
	char doc[256];
	char *text;           /* TEXT without its braces, white space normalised */
	size_t num_off, num_len; /* the braced number within text */
	char *expr;
	int line;             /* in the claims file */
};

struct claims_alias {
	char name[32];
	char path[PATH_MAX];
	json_t *json;         /* loaded on first use */
};

struct claims {
	const char *root;
	struct claim *c;
	int n;
	struct claims_alias a[64];
	int na;
};

/* claims_load - @root/@file into @cl. A line that cannot be read is reported on @report
 * ("FILE:LINE: why") and counted. Returns the lines reported, or -errno when @file
 * cannot be opened. */
int claims_load(const char *root, const char *file, struct claims *cl, FILE *report);

/* claims_eval - @expr's value into @v. Returns 0, or -1 with a sentence in @err (an
 * unknown name, a path that leads to no number, a file that cannot be read, bad
 * syntax). */
int claims_eval(struct claims *cl, const char *expr, double *v, char *err, size_t len);

void claims_free(struct claims *cl);

#endif
