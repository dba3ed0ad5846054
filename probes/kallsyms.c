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

int kallsyms_resolve(const char *path, const char *name, char out[][KSYM_NAME_MAX], int max)
{
	char line[512];
	FILE *f = fopen(path, "r");
	int found = 0;

	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f) && found < max) {
		char type, sym[256];
		int dup = 0;

		if (sscanf(line, "%*s %c %255s", &type, sym) != 2)
			continue;
		if (type != 't' && type != 'T')
			continue;
		if (!kallsyms_is_clone_of(sym, name) || strlen(sym) >= KSYM_NAME_MAX)
			continue;
		for (int i = 0; i < found; i++)
			dup |= !strcmp(out[i], sym);
		if (!dup)
			snprintf(out[found++], KSYM_NAME_MAX, "%s", sym);
	}
	fclose(f);
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
