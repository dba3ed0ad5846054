/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* claims_expr.c: the claims file and its expressions (claims_expr.h). */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "claims_expr.h"
#include "stats.h"

struct parser {
	struct claims *cl;
	const char *s;
	char *err;
	size_t errlen;
	bool failed;
};

static void fail(struct parser *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void fail(struct parser *p, const char *fmt, ...)
{
	va_list ap;

	if (p->failed)
		return;
	p->failed = true;
	va_start(ap, fmt);
	vsnprintf(p->err, p->errlen, fmt, ap);
	va_end(ap);
}

static void skip_ws(struct parser *p)
{
	while (*p->s == ' ' || *p->s == '\t')
		p->s++;
}

/* Whether @e's keys have the values of "k=v,k2=v2" (@sel, @n chars): strings as they are,
 * numbers as %lld or %g writes them. */
static bool elem_matches(const json_t *e, const char *sel, size_t n)
{
	const char *q = sel, *end = sel + n;
	bool ok = json_is_object(e);

	while (ok && q < end) {
		const char *eq = memchr(q, '=', (size_t)(end - q));
		const char *c = memchr(q, ',', (size_t)(end - q));
		char key[64], val[128], num[64] = "";
		const json_t *v;

		if (!c)
			c = end;
		if (!eq || eq > c)
			return false;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - q), q);
		snprintf(val, sizeof(val), "%.*s", (int)(c - eq - 1), eq + 1);
		v = json_object_get(e, key);
		if (json_is_string(v))
			snprintf(num, sizeof(num), "%s", json_string_value(v));
		else if (json_is_integer(v))
			snprintf(num, sizeof(num), "%lld", (long long)json_integer_value(v));
		else if (json_is_real(v))
			snprintf(num, sizeof(num), "%g", json_real_value(v));
		ok = v && !json_is_object(v) && !json_is_array(v) && !strcmp(num, val);
		q = c + 1;
	}
	return ok;
}

/* The first element of array @a that elem_matches @sel, or NULL. */
static json_t *select_elem(json_t *a, const char *sel, size_t n)
{
	size_t i;
	json_t *e;

	json_array_foreach(a, i, e)
		if (elem_matches(e, sel, n))
			return e;
	return NULL;
}

static json_t *alias_json(struct parser *p, const char *name)
{
	for (int i = 0; i < p->cl->na; i++) {
		struct claims_alias *a = &p->cl->a[i];
		char full[PATH_MAX * 2];
		json_error_t je;

		if (strcmp(a->name, name))
			continue;
		if (!a->json) {
			snprintf(full, sizeof(full), "%s/%s", p->cl->root, a->path);
			a->json = json_load_file(full, 0, &je);
			if (!a->json)
				fail(p, "%s: %s", a->path, je.text);
		}
		return a->json;
	}
	fail(p, "no @%s = PATH line before its use", name);
	return NULL;
}

#define MAX_VALUES 4096

/* The numbers at @path (@n chars) under @j, appended to @v (*@nv of them): keys joined
 * by '.', [N] an element, [k=v,...] the first element whose keys match, [*] every
 * element. Returns 0, or -1 with the failing prefix's length in *@bad. */
static int walk(json_t *j, const char *path, size_t n, size_t at, double *v, int *nv,
		size_t *bad)
{
	while (j && at < n) {
		char key[128];
		size_t k = 0;

		if (path[at] == '.') {
			at++;
			continue;
		}
		if (path[at] == '[') {
			const char *e = memchr(path + at, ']', n - at);
			size_t len;

			if (!e)
				break;
			len = (size_t)(e - path - at - 1);
			if (len && path[at + 1] == '*' && (len == 1 || path[at + 2] == ',')) {
				size_t i;
				json_t *x;

				const char *key;
				void *tmp;

				/* [*] or [*,k=v]: every (matching) element, or every value of an
				 * object; one the rest of the path leads nowhere from is skipped */
				if (json_is_array(j)) {
					json_array_foreach(j, i, x)
						if (len == 1 || elem_matches(x, path + at + 3, len - 2))
							walk(x, path, n, (size_t)(e - path) + 1, v, nv, bad);
				} else if (json_is_object(j) && len == 1) {
					json_object_foreach_safe(j, tmp, key, x)
						walk(x, path, n, (size_t)(e - path) + 1, v, nv, bad);
				} else {
					break;
				}
				return 0;
			}
			if (len && strspn(path + at + 1, "0123456789") == len)
				j = json_array_get(j, strtoul(path + at + 1, NULL, 10));
			else
				j = json_is_array(j) ? select_elem(j, path + at + 1, len) : NULL;
			at = (size_t)(e - path) + 1;
			continue;
		}
		while (at + k < n && path[at + k] != '.' && path[at + k] != '[')
			k++;
		snprintf(key, sizeof(key), "%.*s", (int)k, path + at);
		at += k;
		j = json_object_get(j, key);
	}
	if (at < n || !json_is_number(j)) {
		*bad = at;
		return -1;
	}
	if (*nv < MAX_VALUES)
		v[(*nv)++] = json_number_value(j);
	return 0;
}

/* NAME:PATH, with p->s after the ':': its numbers into @v (how many: returned; 0 when
 * it failed, said why). */
static int json_refs(struct parser *p, const char *name, double *v)
{
	json_t *j = alias_json(p, name);
	const char *start = p->s;
	size_t n = 0, bad = 0;
	int nv = 0, depth = 0;

	while (start[n] && (depth || isalnum((unsigned char)start[n]) ||
			    strchr("_.[]=,*-", start[n]))) {
		if (start[n] == '[')
			depth++;
		else if (start[n] == ']')
			depth--;
		else if (!depth && (start[n] == ',' || start[n] == '*' || start[n] == '-' ||
				    start[n] == ']'))
			break; /* outside brackets: an argument list or an operator */
		n++;
	}
	p->s += n;
	if (!j)
		return 0;
	if (walk(j, start, n, 0, v, &nv, &bad)) {
		fail(p, "%s:%.*s leads to no number (at '%.*s')", name, (int)n, start,
		     (int)(n - bad), start + bad);
		return 0;
	}
	if (!nv)
		fail(p, "%s:%.*s matches nothing", name, (int)n, start);
	return nv;
}

/* NAME:PATH as one number */
static double json_ref(struct parser *p, const char *name)
{
	static double v[MAX_VALUES];
	const char *start = p->s;
	int n = json_refs(p, name, v);

	if (n > 1)
		fail(p, "%s:%.*s has %d values: take minof(), maxof(), sumof(), countof() or "
			"medianof() of it", name, (int)(p->s - start), start, n);
	return n == 1 ? v[0] : NAN;
}

/* NAME:PATH at p->s, its values into @v; returns how many (0: failed, said why) */
static int refs_arg(struct parser *p, const char *fn, double *v)
{
	char name[32];
	size_t k = 0;

	skip_ws(p);
	while (isalnum((unsigned char)p->s[k]) || p->s[k] == '_')
		k++;
	if (p->s[k] != ':' || k >= sizeof(name)) {
		fail(p, "%s() takes NAME:PATH", fn);
		return 0;
	}
	snprintf(name, sizeof(name), "%.*s", (int)k, p->s);
	p->s += k + 1;
	return json_refs(p, name, v);
}

/* minof(NAME:PATH) and the like, with p->s after the '('; minratio(A, B) and
 * maxratio(A, B): the least and greatest of A's values over B's, element by element */
static double aggregate(struct parser *p, const char *fn)
{
	static double v[MAX_VALUES], w[MAX_VALUES];
	double r = NAN;
	int n = refs_arg(p, fn, v);

	if (n && (!strcmp(fn, "minratio") || !strcmp(fn, "maxratio"))) {
		int m;

		skip_ws(p);
		if (*p->s != ',') {
			fail(p, "%s() takes two NAME:PATH", fn);
			return NAN;
		}
		p->s++;
		m = refs_arg(p, fn, w);
		if (m && m != n)
			fail(p, "%s(): %d values over %d", fn, n, m);
		if (!m || m != n)
			return NAN;
		for (int i = 0; i < n; i++)
			v[i] /= w[i];
	}
	skip_ws(p);
	if (*p->s != ')') {
		fail(p, "%s(): ')' expected at '%s'", fn, p->s);
		return NAN;
	}
	p->s++;
	if (!n)
		return NAN;
	qsort(v, (size_t)n, sizeof(v[0]), stats_cmp_double);
	if (!strcmp(fn, "minof") || !strcmp(fn, "minratio"))
		r = v[0];
	else if (!strcmp(fn, "maxof") || !strcmp(fn, "maxratio"))
		r = v[n - 1];
	else if (!strcmp(fn, "countof"))
		r = n;
	else if (!strcmp(fn, "medianof"))
		r = n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
	else
		for (int i = 0; i < n; i++)
			r = i ? r + v[i] : v[i];
	return r;
}

/* def:FILE:NAME, with p->s after "def:" */
static double define_ref(struct parser *p)
{
	char file[PATH_MAX], name[64], full[PATH_MAX * 2], line[512];
	size_t n = strcspn(p->s, ":");
	double v = NAN;
	FILE *f;

	snprintf(file, sizeof(file), "%.*s", (int)n, p->s);
	p->s += n + (p->s[n] == ':');
	n = 0;
	while (isalnum((unsigned char)p->s[n]) || p->s[n] == '_')
		n++;
	snprintf(name, sizeof(name), "%.*s", (int)n, p->s);
	p->s += n;
	snprintf(full, sizeof(full), "%s/%s", p->cl->root, file);
	f = fopen(full, "r");
	if (!f) {
		fail(p, "def:%s: %s", file, strerror(errno));
		return NAN;
	}
	while (isnan(v) && fgets(line, sizeof(line), f)) {
		char d[64];
		double x;

		if (sscanf(line, " #define %63s %lf", d, &x) == 2 && !strcmp(d, name))
			v = x;
	}
	fclose(f);
	if (isnan(v))
		fail(p, "%s has no #define %s with a number", file, name);
	return v;
}

static double expr(struct parser *p);

/* Whether @name is one of the NULL-ended @list. */
static bool named(const char *name, const char *const *list)
{
	while (*list && strcmp(name, *list))
		list++;
	return *list != NULL;
}

static double factor(struct parser *p)
{
	char name[32];
	size_t n = 0;
	double v;

	skip_ws(p);
	if (*p->s == '-') {
		p->s++;
		return -factor(p);
	}
	if (*p->s == '(') {
		p->s++;
		v = expr(p);
		skip_ws(p);
		if (*p->s != ')')
			fail(p, "')' expected at '%s'", p->s);
		else
			p->s++;
		return v;
	}
	if (isdigit((unsigned char)*p->s) || *p->s == '.') {
		char *end;

		v = strtod(p->s, &end);
		p->s = end;
		return v;
	}
	while ((isalnum((unsigned char)p->s[n]) || p->s[n] == '_') && n < sizeof(name) - 1)
		n++;
	if (!n) {
		fail(p, "a number, a name or '(' expected at '%s'", p->s);
		return NAN;
	}
	snprintf(name, sizeof(name), "%.*s", (int)n, p->s);
	p->s += n;
	if (*p->s == ':') {
		p->s++;
		return !strcmp(name, "def") ? define_ref(p) : json_ref(p, name);
	}
	skip_ws(p);
	if (*p->s == '(' && named(name, (const char *const[]){ "minof", "maxof", "sumof",
				 "countof", "medianof", "minratio", "maxratio", NULL })) {
		p->s++;
		return aggregate(p, name);
	}
	if (*p->s == '(' && named(name, (const char *const[]){ "abs", "floor", "min", "max",
							       NULL })) {
		bool one = named(name, (const char *const[]){ "abs", "floor", NULL });
		double a, b = NAN;

		p->s++;
		a = expr(p);
		skip_ws(p);
		if (!one && *p->s == ',') {
			p->s++;
			b = expr(p);
			skip_ws(p);
		}
		if (*p->s != ')' || (!one && isnan(b)))
			fail(p, "%s(): bad arguments", name);
		else
			p->s++;
		return !strcmp(name, "abs") ? fabs(a) : !strcmp(name, "floor") ? floor(a) :
		       !strcmp(name, "min") ? fmin(a, b) : fmax(a, b);
	}
	fail(p, "unknown name '%s'", name);
	return NAN;
}

static double term(struct parser *p)
{
	double v = factor(p);

	for (;;) {
		skip_ws(p);
		if (*p->s == '*') {
			p->s++;
			v *= factor(p);
		} else if (*p->s == '/') {
			p->s++;
			v /= factor(p);
		} else {
			return v;
		}
	}
}

static double expr(struct parser *p)
{
	double v = term(p);

	for (;;) {
		skip_ws(p);
		if (*p->s == '+') {
			p->s++;
			v += term(p);
		} else if (*p->s == '-') {
			p->s++;
			v -= term(p);
		} else {
			return v;
		}
	}
}

int claims_eval(struct claims *cl, const char *e, double *v, char *err, size_t len)
{
	struct parser p = { .cl = cl, .s = e, .err = err, .errlen = len };

	*v = expr(&p);
	skip_ws(&p);
	if (*p.s && *p.s != '#')
		fail(&p, "unexpected '%s'", p.s);
	if (!p.failed && !isfinite(*v))
		fail(&p, "the value is not a finite number");
	return p.failed ? -1 : 0;
}

static char *trim(char *s)
{
	char *e = s + strlen(s);

	while (*s == ' ' || *s == '\t')
		s++;
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/* TEXT of a claim: white space normalised, the braces out, the number located. */
static int claim_text(struct claim *c, const char *t)
{
	size_t n = 0;
	const char *o = strchr(t, '{'), *e = o ? strchr(o, '}') : NULL;

	if (!o || !e || strchr(e + 1, '{'))
		return -1;
	c->text = malloc(strlen(t) + 1);
	for (const char *p = t; *p; p++) {
		char ch = isspace((unsigned char)*p) ? ' ' : *p;

		if (p == o) {
			c->num_off = n;
			continue;
		}
		if (p == e) {
			c->num_len = n - c->num_off;
			continue;
		}
		if (ch == ' ' && n && c->text[n - 1] == ' ')
			continue;
		c->text[n++] = ch;
	}
	c->text[n] = '\0';
	return c->num_len ? 0 : -1;
}

int claims_load(const char *root, const char *file, struct claims *cl, FILE *report)
{
	char full[PATH_MAX * 2], line[2048];
	int ln = 0, bad = 0;
	FILE *f;

	memset(cl, 0, sizeof(*cl));
	cl->root = root;
	snprintf(full, sizeof(full), "%s/%s", root, file);
	f = fopen(full, "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char *s = trim(line), *bar1, *bar2;
		struct claim c = { .line = ++ln };

		if (!*s || *s == '#')
			continue;
		if (*s == '@') {
			char *eq = strchr(s, '=');
			struct claims_alias *a = &cl->a[cl->na];

			if (!eq || cl->na == (int)(sizeof(cl->a) / sizeof(cl->a[0]))) {
				fprintf(report, "%s:%d: an alias is @NAME = PATH\n", file, ln);
				bad++;
				continue;
			}
			*eq = '\0';
			snprintf(a->name, sizeof(a->name), "%s", trim(s + 1));
			snprintf(a->path, sizeof(a->path), "%s", trim(eq + 1));
			cl->na++;
			continue;
		}
		bar1 = strstr(s, " | ");
		bar2 = bar1 ? strstr(bar1 + 3, " | ") : NULL;
		while (bar2 && strstr(bar2 + 3, " | ")) /* TEXT may hold a table's bars */
			bar2 = strstr(bar2 + 3, " | ");
		if (!bar1 || !bar2) {
			fprintf(report, "%s:%d: a claim is DOC | TEXT | EXPR\n", file, ln);
			bad++;
			continue;
		}
		*bar1 = *bar2 = '\0';
		snprintf(c.doc, sizeof(c.doc), "%s", trim(s));
		if (claim_text(&c, trim(bar1 + 3))) {
			fprintf(report, "%s:%d: TEXT needs one number in braces: {+6.3}\n", file, ln);
			free(c.text);
			bad++;
			continue;
		}
		c.expr = strdup(trim(bar2 + 3));
		cl->c = realloc(cl->c, (size_t)(cl->n + 1) * sizeof(*cl->c));
		cl->c[cl->n++] = c;
	}
	fclose(f);
	return bad;
}

void claims_free(struct claims *cl)
{
	for (int i = 0; i < cl->n; i++) {
		free(cl->c[i].text);
		free(cl->c[i].expr);
	}
	free(cl->c);
	for (int i = 0; i < cl->na; i++)
		json_decref(cl->a[i].json);
	memset(cl, 0, sizeof(*cl));
}
