/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* claims.c: every number of the docs against its committed source (claims.h). */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "claims.h"
#include "claims_doc.h"
#include "claims_expr.h"

#define CLAIMS_FILE "docs/claims.txt"

/* The numbers a cited path holds, as num_next normalises them. */
struct source {
	char path[PATH_MAX];
	char **nums;
	int n;
};

struct checker {
	const char *root;
	struct source *src;
	int nsrc;
	struct claims cl;
	double *value;       /* per claim: its value (NaN when it failed) */
	int *found;          /* per claim: occurrences in its doc */
	bool list;
	FILE *report;
	struct claims_result *r;
};

/* a run directory's files that say its numbers */
static const char *const run_files[] = { "summary.md", "matrix.md", "compare.md",
					 "wall-time.txt", "progress.log", "matrix-progress.log", "sweep.md", "boots.md", "test-times.txt",
					 "runs/*/summary.md", NULL };

static void source_file(struct source *s, const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	size_t len;
	struct num_tok t;

	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	len = (size_t)ftell(f);
	rewind(f);
	buf = malloc(len + 1);
	len = fread(buf, 1, len, f);
	buf[len] = '\0';
	fclose(f);
	for (size_t at = 0; num_next(buf, len, at, &t); at = t.end) {
		char one[sizeof(t.norm) + 1];

		if (t.end <= at)
			break;
		if (t.version)
			continue; /* "it came in 6.6" says no +6.6% */
		if (!(s->n & 255))
			s->nums = realloc(s->nums, (size_t)(s->n + 256) * sizeof(char *));
		/* a '+' is kept: a signed figure of the docs is a signed one of its source */
		snprintf(one, sizeof(one), "%s%s", t.sign && t.norm[0] != '-' ? "+" : "", t.norm);
		s->nums[s->n++] = strdup(one);
	}
	free(buf);
}

static struct source *source_get(struct checker *c, const char *path)
{
	char full[PATH_MAX * 2];
	struct source *s;
	struct stat st;

	for (int i = 0; i < c->nsrc; i++)
		if (!strcmp(c->src[i].path, path))
			return &c->src[i];
	c->src = realloc(c->src, (size_t)(c->nsrc + 1) * sizeof(*c->src));
	s = &c->src[c->nsrc++];
	memset(s, 0, sizeof(*s));
	snprintf(s->path, sizeof(s->path), "%s", path);
	snprintf(full, sizeof(full), "%s/%s", c->root, path);
	if (stat(full, &st))
		return s;
	if (!S_ISDIR(st.st_mode)) {
		source_file(s, full);
		return s;
	}
	for (int i = 0; run_files[i]; i++) {
		char pat[PATH_MAX * 3];
		glob_t g;

		snprintf(pat, sizeof(pat), "%s/%s", full, run_files[i]);
		if (glob(pat, 0, NULL, &g))
			continue;
		for (size_t j = 0; j < g.gl_pathc; j++)
			source_file(s, g.gl_pathv[j]);
		globfree(&g);
	}
	return s;
}

/* Whether @s holds the number @t: its digits, and when @t shows a '+', with one. */
static bool source_has(const struct source *s, const struct num_tok *t)
{
	bool plus = t->sign && t->norm[0] != '-';

	for (int i = 0; i < s->n; i++) {
		const char *n = s->nums[i];

		if (n[0] == '+' ? !strcmp(n + 1, t->norm) : !plus && !strcmp(n, t->norm))
			return true;
	}
	return false;
}

/* Claim @k at @off of block @b: the doc's number against the claim's value. */
static void claim_verify(struct checker *c, const struct doc *d, const struct doc_block *b,
			 int k, size_t off)
{
	const struct claim *cl = &c->cl.c[k];
	struct num_tok t;
	char want[64];
	size_t at = off + cl->num_off;

	c->found[k]++;
	if (isnan(c->value[k]))
		return; /* said already */
	if (!num_next(b->text, at + cl->num_len, at, &t) || t.start != at) {
		fprintf(c->report, "%s:%d: {%.*s} is not a number (" CLAIMS_FILE ":%d)\n",
			d->path, b->line[at], (int)cl->num_len, b->text + at, cl->line);
		c->r->failed++;
		return;
	}
	snprintf(want, sizeof(want), "%.*f", t.decimals, c->value[k]);
	if (!strcmp(want, "-0") || !strncmp(want, "-0.", 3)) { /* -0.0 is 0.0 */
		bool zero = strspn(want + 1, "0.") == strlen(want + 1);

		if (zero)
			memmove(want, want + 1, strlen(want));
	}
	if (strcmp(want, t.norm)) {
		fprintf(c->report, "%s:%d: %.*s, but " CLAIMS_FILE ":%d computes %s (%s = %.6g)\n",
			d->path, b->line[at], (int)(t.end - t.start), b->text + t.start, cl->line,
			want, cl->expr, c->value[k]);
		c->r->failed++;
	} else if (c->list) {
		fprintf(c->report, "%s:%d: %s claimed (" CLAIMS_FILE ":%d)\n", d->path,
			b->line[at], t.norm, cl->line);
	}
}

/* Whether [@s, @e) of block @b lies in the number of a claim on it. */
static bool claimed(const struct checker *c, const struct doc *d, const struct doc_block *b,
		    size_t s, size_t e)
{
	for (int k = 0; k < c->cl.n; k++) {
		const struct claim *cl = &c->cl.c[k];
		const char *p = b->text;

		if (strcmp(cl->doc, d->path))
			continue;
		while ((p = strstr(p, cl->text))) {
			size_t o = (size_t)(p - b->text) + cl->num_off;

			if (s < o + cl->num_len && e > o)
				return true;
			p++;
		}
	}
	return false;
}

static void check_block(struct checker *c, const struct doc *d, const struct doc_block *b)
{
	struct num_tok t;

	for (int k = 0; k < c->cl.n; k++) {
		const char *p = b->text;

		if (strcmp(c->cl.c[k].doc, d->path))
			continue;
		while ((p = strstr(p, c->cl.c[k].text))) {
			claim_verify(c, d, b, k, (size_t)(p - b->text));
			p++;
		}
	}
	for (size_t at = 0; num_next(b->mask, b->len, at, &t); at = t.end) {
		bool ok = false;

		if (!num_measured(&t))
			continue;
		c->r->numbers++;
		if (claimed(c, d, b, t.start, t.end)) {
			c->r->claimed++;
			continue;
		}
		for (int i = 0; i < b->ncites && !ok; i++)
			ok = source_has(source_get(c, b->cites[i]), &t);
		if (ok) {
			c->r->cited++;
			if (c->list)
				fprintf(c->report, "%s:%d: %s cited\n", d->path, b->line[t.start],
					t.norm);
			continue;
		}
		c->r->failed++;
		fprintf(c->report, "%s:%d: %.*s: %s\n", d->path, b->line[t.start],
			(int)(t.end - t.start), b->text + t.start,
			b->ncites ? "in none of the files this paragraph cites" :
			"no source: this paragraph cites no run, and no claim computes it");
	}
}

/* The docs: README.md, docs/ (every .md), results/examples/README.md. */
static int doc_list(const char *root, char ***out)
{
	char pat[PATH_MAX];
	glob_t g;
	int n = 0;

	*out = calloc(64, sizeof(char *));
	(*out)[n++] = strdup("README.md");
	snprintf(pat, sizeof(pat), "%s/docs/*.md", root);
	if (!glob(pat, 0, NULL, &g)) {
		for (size_t i = 0; i < g.gl_pathc && n < 62; i++)
			(*out)[n++] = strdup(g.gl_pathv[i] + strlen(root) + 1);
		globfree(&g);
	}
	(*out)[n++] = strdup("results/examples/README.md");
	return n;
}

int claims_check(const char *root, const char *claims_file, bool list, FILE *report,
		 struct claims_result *r)
{
	struct checker c = { .root = root, .list = list, .report = report, .r = r };
	const char *file = claims_file ? claims_file : CLAIMS_FILE;
	char **docs, err[512];
	int nd, e;

	memset(r, 0, sizeof(*r));
	e = claims_load(root, file, &c.cl, report);
	if (e < 0) {
		fprintf(report, "%s/%s: %s\n", root, file, strerror(-e));
		return e;
	}
	r->failed += e;
	r->claims = c.cl.n;
	c.value = calloc((size_t)c.cl.n + 1, sizeof(double));
	c.found = calloc((size_t)c.cl.n + 1, sizeof(int));
	for (int k = 0; k < c.cl.n; k++)
		if (claims_eval(&c.cl, c.cl.c[k].expr, &c.value[k], err, sizeof(err))) {
			fprintf(report, "%s:%d: %s\n", file, c.cl.c[k].line, err);
			c.value[k] = NAN;
			r->failed++;
		}
	nd = doc_list(root, &docs);
	for (int i = 0; i < nd; i++) {
		struct doc d;

		e = doc_load(root, docs[i], &d);
		if (e) {
			fprintf(report, "%s: %s\n", docs[i], strerror(-e));
			r->failed++;
			continue;
		}
		for (int j = 0; j < d.nb; j++)
			check_block(&c, &d, &d.b[j]);
		doc_free(&d);
	}
	for (int k = 0; k < c.cl.n; k++)
		if (!c.found[k]) {
			fprintf(report, "%s:%d: its text is not in %s: \"%s\"\n", file,
				c.cl.c[k].line, c.cl.c[k].doc, c.cl.c[k].text);
			r->failed++;
		}
	for (int i = 0; i < nd; i++)
		free(docs[i]);
	free(docs);
	for (int i = 0; i < c.nsrc; i++) {
		for (int j = 0; j < c.src[i].n; j++)
			free(c.src[i].nums[j]);
		free(c.src[i].nums);
	}
	free(c.src);
	free(c.value);
	free(c.found);
	claims_free(&c.cl);
	return r->failed ? 1 : 0;
}
