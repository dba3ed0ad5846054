/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "kallsyms.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Does @s (after a '.') start with a known clone suffix followed by ".N"? Returns the
 * length consumed including the leading '.', or 0. */
static size_t clone_suffix(const char *s)
{
	static const char *const kinds[] = { "constprop", "isra", "part", "lto_priv" };

	if (*s != '.')
		return 0;
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++) {
		size_t n = strlen(kinds[k]), i;

		if (strncmp(s + 1, kinds[k], n) || s[1 + n] != '.' || !isdigit((unsigned char)s[2 + n]))
			continue;
		i = 2 + n;
		while (isdigit((unsigned char)s[i]))
			i++;
		return i;
	}
	return 0;
}

int kallsyms_is_clone_of(const char *sym, const char *name)
{
	size_t n = strlen(name);

	if (strncmp(sym, name, n))
		return 0;
	sym += n;
	while (*sym) {
		size_t k = clone_suffix(sym);

		if (!k)
			return 0;
		sym += k;
	}
	return 1;
}

/* The text symbols' names of one kallsyms file, read once (NUL-separated in names[]):
 * /proc/kallsyms is generated anew on each read, which takes seconds in an emulated guest,
 * and a counters plan resolves several functions. */
static struct {
	char path[256];
	char *names;
	size_t len;
} text_syms;

/* Read @path's text symbols into text_syms. Returns 0 or -errno. */
static int text_syms_load(const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");
	size_t cap = 0;

	if (!f)
		return -errno;
	free(text_syms.names);
	text_syms.names = NULL;
	text_syms.len = 0;
	text_syms.path[0] = '\0';
	while (fgets(line, sizeof(line), f)) {
		char *type = strchr(line, ' '), *sym, *end;
		size_t n;

		if (!type || (type[1] != 't' && type[1] != 'T') || type[2] != ' ')
			continue;
		sym = type + 3;
		end = sym + strcspn(sym, " \t\n");
		n = (size_t)(end - sym);
		if (!n || n >= KSYM_NAME_MAX)
			continue;
		if (text_syms.len + n + 1 > cap) {
			size_t c = cap ? cap * 2 : 1 << 20;
			char *nb = realloc(text_syms.names, c);

			if (!nb) {
				fclose(f);
				return -ENOMEM;
			}
			text_syms.names = nb;
			cap = c;
		}
		memcpy(text_syms.names + text_syms.len, sym, n);
		text_syms.names[text_syms.len + n] = '\0';
		text_syms.len += n + 1;
	}
	fclose(f);
	snprintf(text_syms.path, sizeof(text_syms.path), "%s", path);
	return 0;
}

static int text_syms_find(const char *name, char out[][KSYM_NAME_MAX], int max)
{
	int found = 0;

	for (size_t o = 0; o < text_syms.len && found < max;) {
		const char *sym = text_syms.names + o;
		int dup = 0;

		o += strlen(sym) + 1;
		if (!kallsyms_is_clone_of(sym, name))
			continue;
		for (int i = 0; i < found; i++)
			dup |= !strcmp(out[i], sym);
		if (!dup)
			snprintf(out[found++], KSYM_NAME_MAX, "%s", sym);
	}
	return found;
}

int kallsyms_resolve(const char *path, const char *name, char out[][KSYM_NAME_MAX], int max)
{
	int e, found;

	if (strcmp(text_syms.path, path) && (e = text_syms_load(path)))
		return e;
	found = text_syms_find(name, out, max);
	/* none: read again (a module loaded since may have it) */
	if (!found && !(e = text_syms_load(path)))
		found = text_syms_find(name, out, max);
	return found;
}

static int ksym_cmp(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

int ksym_table_add(struct ksym_table *t, unsigned long long addr, unsigned long long end,
		   const char *name, const char *module)
{
	struct ksym *k;

	if (t->n == t->cap) {
		size_t c = t->cap ? t->cap * 2 : 1024;
		struct ksym *ns = realloc(t->sym, c * sizeof(*ns));

		if (!ns)
			return -ENOMEM;
		t->sym = ns;
		t->cap = c;
	}
	k = &t->sym[t->n++];
	k->addr = addr;
	k->end = end;
	snprintf(k->name, sizeof(k->name), "%s", name);
	snprintf(k->module, sizeof(k->module), "%s", module);
	return 0;
}

void ksym_table_sort(struct ksym_table *t)
{
	qsort(t->sym, t->n, sizeof(*t->sym), ksym_cmp);
}

/* Each module's last symbol ends where its module does (/proc/modules @path). */
static void module_ends(struct ksym_table *t, const char *path)
{
	char line[512];
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		char name[64];
		unsigned long long size, base;
		struct ksym *last = NULL;

		if (sscanf(line, "%63s %llu %*s %*s %*s %llx", name, &size, &base) != 3 || !base)
			continue;
		for (size_t i = 0; i < t->n; i++) /* the module's highest symbol */
			if (!strcmp(t->sym[i].module, name) && t->sym[i].addr < base + size &&
			    (!last || t->sym[i].addr > last->addr))
				last = &t->sym[i];
		if (last)
			last->end = base + size;
	}
	fclose(f);
}

int ksym_table_load(const char *path, const char *modules, struct ksym_table *t)
{
	char line[512];
	FILE *f = fopen(path, "r");

	memset(t, 0, sizeof(*t));
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f)) {
		char type, sym[256], mod[64] = "";
		unsigned long long a;
		int n = sscanf(line, "%llx %c %255s [%63[^]]]", &a, &type, sym, mod);

		if (n < 3 || (type != 't' && type != 'T') || !a)
			continue;
		if (ksym_table_add(t, a, 0, sym, mod)) {
			fclose(f);
			ksym_table_free(t);
			return -ENOMEM;
		}
	}
	fclose(f);
	if (modules)
		module_ends(t, modules);
	ksym_table_sort(t);
	return 0;
}

const struct ksym *ksym_lookup(const struct ksym_table *t, unsigned long long addr,
			       unsigned long long max_span)
{
	size_t lo = 0, hi = t->n;

	while (lo < hi) { /* the first symbol above addr */
		size_t mid = lo + (hi - lo) / 2;

		if (t->sym[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || addr - t->sym[lo - 1].addr > max_span ||
	    (t->sym[lo - 1].end && addr >= t->sym[lo - 1].end))
		return NULL;
	return &t->sym[lo - 1];
}

void ksym_table_free(struct ksym_table *t)
{
	free(t->sym);
	memset(t, 0, sizeof(*t));
}
