/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* claims_doc.c: Markdown blocks, their citations and their numbers (claims_doc.h). */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "claims_doc.h"

#define EXAMPLES "results/examples"

static bool is_word(char c)
{
	return isalnum((unsigned char)c) || c == '_';
}

/* the unit after a number at @s (white space allowed before it), if any */
static bool unit_after(const char *s, const char *end)
{
	static const char *const units[] = { "%", "pp", "percentage point", "min", "ms", "ns",
					     "us", "s", "Mpps", "kpps", "pps", NULL };

	if (s < end && *s == ' ')
		s++;
	for (int i = 0; units[i]; i++) {
		size_t n = strlen(units[i]);

		if ((size_t)(end - s) >= n && !strncmp(s, units[i], n) &&
		    (units[i][0] == '%' || s + n == end || !is_word(s[n])))
			return true;
	}
	return false;
}

bool num_next(const char *s, size_t len, size_t from, struct num_tok *t)
{
	for (size_t i = from; i < len; i++) {
		size_t j = i, st = i, o = 0;
		bool minus = false;

		if (!isdigit((unsigned char)s[i]))
			continue;
		if (i > 0 && (is_word(s[i - 1]) ||
			      (s[i - 1] == '.' && i > 1 && isdigit((unsigned char)s[i - 2])))) {
			while (i + 1 < len && (is_word(s[i + 1]) || s[i + 1] == '.'))
				i++; /* inside a word or a version: skip it */
			continue;
		}
		memset(t, 0, sizeof(*t));
		if (i > 0 && (s[i - 1] == '+' || s[i - 1] == '-') && (i < 2 || !is_word(s[i - 2]))) {
			st = i - 1;
			t->sign = true;
			minus = s[i - 1] == '-';
		} else if (i >= 3 && !memcmp(s + i - 3, "\xe2\x88\x92", 3)) {
			st = i - 3;
			t->sign = minus = true;
		}
		if (minus)
			t->norm[o++] = '-';
		while (j < len && isdigit((unsigned char)s[j]) && o < sizeof(t->norm) - 1)
			t->norm[o++] = s[j++];
		while (j + 3 < len + 0 && s[j] == ',' && isdigit((unsigned char)s[j + 1]) &&
		       isdigit((unsigned char)s[j + 2]) && isdigit((unsigned char)s[j + 3]) &&
		       (j + 4 >= len || !isdigit((unsigned char)s[j + 4]))) {
			t->grouped = true;
			for (int k = 1; k <= 3 && o < sizeof(t->norm) - 1; k++)
				t->norm[o++] = s[j + k];
			j += 4;
		}
		if (j + 1 < len && s[j] == '.' && isdigit((unsigned char)s[j + 1])) {
			t->norm[o++] = s[j++];
			while (j < len && isdigit((unsigned char)s[j]) && o < sizeof(t->norm) - 1) {
				t->norm[o++] = s[j++];
				t->decimals++;
			}
		}
		t->norm[o] = '\0';
		if (j + 1 < len && s[j] == '.' && isdigit((unsigned char)s[j + 1])) {
			t->version = true; /* 6.18.44, 198.18.0.0 */
			while (j < len && (isdigit((unsigned char)s[j]) || s[j] == '.'))
				j++;
			if (s[j - 1] == '.')
				j--;
		} else if (j < len && (isalpha((unsigned char)s[j]) || s[j] == '_')) {
			i = j; /* 10k, 2x, 64KB: a word */
			continue;
		}
		t->start = st;
		t->end = j;
		t->unit = unit_after(s + j, s + len);
		if (!t->version && !t->sign && !t->unit && !t->grouped && t->decimals &&
		    t->decimals <= 2 && j - i == (size_t)t->decimals + 2) {
			int minor = atoi(s + i + 2), top[] = { 20, 19, 19, 9 }; /* 4.x to 7.x */

			/* 6.1, 6.18, 7.2: a kernel (or qemu) series, not a figure */
			t->version = s[i] >= '4' && s[i] <= '7' && minor <= top[s[i] - '4'];
		}
		return true;
	}
	return false;
}

bool num_measured(const struct num_tok *t)
{
	return !t->version && (t->sign || t->decimals || t->grouped || t->unit);
}

int doc_resolve_run(const char *root, const char *name, char *out, size_t len)
{
	char dir[PATH_MAX];
	struct dirent *de;
	DIR *d;
	int found = 0;
	bool suffix = !strncmp(name, "...", 3);

	snprintf(dir, sizeof(dir), "%s/" EXAMPLES, root);
	d = opendir(dir);
	if (!d)
		return -ENOENT;
	while ((de = readdir(d))) {
		size_t n = strlen(de->d_name), m = strlen(name) - (suffix ? 3 : 0);

		if (de->d_name[0] == '.' || n < m)
			continue;
		if (suffix ? !strcmp(de->d_name + n - m, name + 3) : !strcmp(de->d_name, name)) {
			snprintf(out, len, EXAMPLES "/%s", de->d_name);
			found++;
		}
	}
	closedir(d);
	return found == 1 ? 0 : -ENOENT;
}

/* @path into @b's cites when it exists under @root and is not there yet; the array grows,
 * so no cite is dropped (were memory to run out, the cite would be missing and a number
 * only it covers would fail: never a silent pass). */
static void add_cite(const char *root, struct doc_block *b, const char *path)
{
	char full[PATH_MAX], *p;
	struct stat st;

	for (int i = 0; i < b->ncites; i++)
		if (!strcmp(b->cites[i], path))
			return;
	snprintf(full, sizeof(full), "%s/%s", root, path);
	if (stat(full, &st))
		return;
	if (b->ncites == b->cap_cites) {
		int cap = b->cap_cites ? 2 * b->cap_cites : 8;
		char **c = realloc(b->cites, (size_t)cap * sizeof(*c));

		if (!c)
			return;
		b->cites = c;
		b->cap_cites = cap;
	}
	if ((p = strdup(path)))
		b->cites[b->ncites++] = p;
}

/* Free @b's cites. */
static void cites_free(struct doc_block *b)
{
	for (int i = 0; i < b->ncites; i++)
		free(b->cites[i]);
	free(b->cites);
	b->cites = NULL;
	b->ncites = b->cap_cites = 0;
}

/* a run's stamp at @s: 8 digits, T, 6 digits, Z- */
static bool stamp_at(const char *s)
{
	for (int i = 0; i < 15; i++)
		if (i == 8 ? s[i] != 'T' : !isdigit((unsigned char)s[i]))
			return false;
	return s[15] == 'Z' && s[16] == '-';
}

/* The runs @text cites, into @b. */
static void find_cites(const char *root, struct doc_block *b, const char *text)
{
	char name[PATH_MAX], path[PATH_MAX];

	for (const char *p = text; *p; p++) {
		size_t n = 0;
		const char *q = p;

		if (!strncmp(p, EXAMPLES "/", sizeof(EXAMPLES))) {
			while (q[n] && (is_word(q[n]) || strchr("/.-", q[n])))
				n++;
			while (n && strchr("./", q[n - 1]))
				n--;
			snprintf(path, sizeof(path), "%.*s", (int)n, q);
			add_cite(root, b, path);
			p += n ? n - 1 : 0;
			continue;
		}
		if (!strncmp(p, "...", 3) && isdigit((unsigned char)p[3]))
			q = p + 3;
		else if (p == text || !(is_word(p[-1]) || p[-1] == '/'))
			q = p;
		else
			continue;
		if (q == p && !stamp_at(p))
			continue;
		while (isdigit((unsigned char)q[n]) || (q == p && n == 8 && q[n] == 'T'))
			n++;
		if (q[n] != 'Z' || q[n + 1] != '-')
			continue;
		n += 2;
		while (q[n] && (isalnum((unsigned char)q[n]) || (q[n] == '-' && isalnum((unsigned char)q[n + 1]))))
			n++;
		snprintf(name, sizeof(name), "%s%.*s", q == p ? "" : "...", (int)n, q);
		if (!doc_resolve_run(root, name, path, sizeof(path)))
			add_cite(root, b, path);
		p = q + n - 1;
	}
}

/* The paths of every "<!-- source: ... -->" or "sources:" comment in @text into @b;
 * returns whether @text is nothing but a sources: comment. */
static bool comment_cites(const char *root, struct doc_block *b, const char *text)
{
	const char *p = text;

	while ((p = strstr(p, "<!--"))) {
		const char *e = strstr(p, "-->"), *q = p + 4;
		char path[PATH_MAX];

		if (!e)
			break;
		while (*q == ' ')
			q++;
		if (!strncmp(q, "source:", 7) || !strncmp(q, "sources:", 8)) {
			q = strchr(q, ':') + 1;
			while (q < e) {
				size_t n;

				while (q < e && *q == ' ')
					q++;
				n = strcspn(q, " ");
				if (q + n > e)
					n = (size_t)(e - q);
				if (n) {
					snprintf(path, sizeof(path), "%.*s", (int)n, q);
					add_cite(root, b, path);
				}
				q += n;
			}
		}
		p = e + 3;
	}
	p = strstr(text, "-->");
	return !strncmp(text, "<!-- sources:", 13) && p && !p[3 + strspn(p + 3, " ")];
}

/* Blank what numbers are not looked for in: `code`, comments, link targets. */
static void mask_block(struct doc_block *b)
{
	char *m = b->mask;

	for (size_t i = 0; i < b->len; i++) {
		size_t j = i;

		if (m[i] == '`') {
			j = i + 1;
			while (j < b->len && m[j] != '`')
				j++;
		} else if (!strncmp(m + i, "<!--", 4)) {
			char *e = strstr(m + i, "-->");

			j = e ? (size_t)(e - m) + 2 : b->len - 1;
		} else if (!strncmp(m + i, "](", 2)) {
			j = i + 1;
			while (j < b->len && m[j] != ')')
				j++;
		} else {
			continue;
		}
		if (j >= b->len)
			j = b->len - 1;
		memset(m + i, ' ', j - i + 1);
		i = j;
	}
}

/* Append line @l (number @ln) to the block being built in @b. */
static void block_add(struct doc_block *b, size_t *cap, const char *l, int ln)
{
	size_t n = strlen(l);

	if (b->len + n + 2 > *cap) {
		*cap = 2 * (*cap + n) + 64;
		b->text = realloc(b->text, *cap);
		b->line = realloc(b->line, *cap * sizeof(int));
	}
	for (size_t i = 0; i < n; i++) {
		char c = isspace((unsigned char)l[i]) ? ' ' : l[i];

		if (c == ' ' && (!b->len || b->text[b->len - 1] == ' '))
			continue;
		b->line[b->len] = ln;
		b->text[b->len++] = c;
	}
	if (b->len && b->text[b->len - 1] != ' ') {
		b->line[b->len] = ln;
		b->text[b->len++] = ' ';
	}
	b->text[b->len] = '\0';
}

static bool item_start(const char *l)
{
	const char *p = l;

	while (*p == ' ')
		p++;
	if ((*p == '-' || *p == '*') && p[1] == ' ')
		return true;
	while (isdigit((unsigned char)*p))
		p++;
	return p > l && isdigit((unsigned char)p[-1]) && *p == '.' && p[1] == ' ';
}

/* A heading ends its section's sources. */
static void heading_reset(const struct doc_block *b, struct doc_block *sec)
{
	if (b->text[0] != '#')
		return;
	cites_free(sec);
}

int doc_load(const char *root, const char *path, struct doc *d)
{
	char full[PATH_MAX], line[4096];
	struct doc_block cur = { 0 }, sec = { 0 };
	size_t cap = 0;
	bool fence = false, generated = false;
	int ln = 0;
	FILE *f;

	memset(d, 0, sizeof(*d));
	snprintf(d->path, sizeof(d->path), "%s", path);
	snprintf(full, sizeof(full), "%s/%s", root, path);
	f = fopen(full, "r");
	if (!f)
		return -errno;
	for (bool eof = false; !eof;) {
		bool blank, starts;

		eof = !fgets(line, sizeof(line), f);
		ln++;
		line[strcspn(line, "\n")] = '\0';
		if (!eof && !strncmp(line, "```", 3)) {
			fence = !fence;
			continue;
		}
		if (fence && !eof)
			continue;
		blank = eof || !line[strspn(line, " \t")];
		starts = !blank && (line[0] == '|' || line[0] == '#' || item_start(line) ||
				    !strncmp(line, "<!-- generated", 14));
		if ((blank || starts || (cur.len && cur.text[0] == '#')) && cur.len) {
			cur.mask = strdup(cur.text);
			heading_reset(&cur, &sec);
			if (comment_cites(root, &cur, cur.text))
				for (int i = 0; i < cur.ncites; i++) /* the section's sources */
					add_cite(root, &sec, cur.cites[i]);
			find_cites(root, &cur, cur.text);
			for (int i = 0; i < sec.ncites; i++)
				add_cite(root, &cur, sec.cites[i]);
			mask_block(&cur);
			d->b = realloc(d->b, (size_t)(d->nb + 1) * sizeof(*d->b));
			d->b[d->nb++] = cur;
			memset(&cur, 0, sizeof(cur));
			cap = 0;
		}
		if (blank) {
			generated = false;
			continue;
		}
		if (!strncmp(line, "<!-- generated", 14))
			generated = true;
		if (!generated)
			block_add(&cur, &cap, line, ln);
	}
	cites_free(&sec);
	fclose(f);
	return 0;
}

void doc_free(struct doc *d)
{
	for (int i = 0; i < d->nb; i++) {
		free(d->b[i].text);
		free(d->b[i].mask);
		free(d->b[i].line);
		cites_free(&d->b[i]);
	}
	free(d->b);
	memset(d, 0, sizeof(*d));
}
