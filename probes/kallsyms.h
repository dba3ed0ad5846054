/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * kallsyms.h: find every text symbol that is a function or a compiler clone of it.
 *
 * Compilers emit clones of a function under suffixed names: foo.constprop.0,
 * foo.isra.0, foo.part.0 (and combinations such as foo.isra.0.constprop.0). A probe on
 * "foo" must attach to each clone, or it misses the calls that go through them. Cold
 * sections (foo.cold) are not entry points and are never returned.
 */
#ifndef XDPTC_KALLSYMS_H
#define XDPTC_KALLSYMS_H

#include <stddef.h>

#define KSYM_NAME_MAX 128

/*
 * kallsyms_resolve - names in @path (a /proc/kallsyms-format file: "ADDR TYPE NAME
 * [MODULE]") of text symbols (type t/T) that are @name itself or @name followed by
 * compiler-clone suffixes (".constprop.N", ".isra.N", ".part.N", ".lto_priv.N" in any
 * combination). Duplicates are returned once. The file's text symbols are read once per
 * process and kept (read again when @name is not among them: a module loaded since).
 * @out: room for @max names. Returns how many were found (0: none), at most @max, or
 * -errno when @path cannot be read.
 */
int kallsyms_resolve(const char *path, const char *name, char out[][KSYM_NAME_MAX], int max);

/* kallsyms_is_clone_of - is @sym @name or a compiler clone of it? (1 yes, 0 no) */
int kallsyms_is_clone_of(const char *sym, const char *name);

/* An address-to-function table from a /proc/kallsyms-format file: every text symbol
 * (t/T, and those of modules and BPF programs), sorted by address. */
struct ksym {
	unsigned long long addr;
	unsigned long long end;   /* one past its code when known (BPF programs, a module's
				   * last symbol: its module's end), else 0: it reaches to
				   * the next symbol */
	char name[KSYM_NAME_MAX];
	char module[32];          /* "" for the kernel proper; "bpf" for BPF programs,
				   * trampolines and dispatchers (kallsyms says [bpf]) */
};

struct ksym_table {
	struct ksym *sym;
	size_t n, cap;
};

/* ksym_table_load - read @path into @t (empty before); with @modules (a /proc/modules
 * file: "NAME SIZE REFS DEPS STATE ADDR"), each module's symbols end where the module
 * does. Returns 0 or -errno. */
int ksym_table_load(const char *path, const char *modules, struct ksym_table *t);

/* ksym_table_add - add a symbol of known extent [@addr, @end) to @t (then call
 * ksym_table_sort before looking up). Returns 0 or -ENOMEM. */
int ksym_table_add(struct ksym_table *t, unsigned long long addr, unsigned long long end,
		   const char *name, const char *module);
void ksym_table_sort(struct ksym_table *t);

/* ksym_lookup - the symbol whose code holds @addr: the last one starting at or before it,
 * when @addr is before its end (when known) and at most @max_span bytes past its start
 * (a function is never that long; past it the address is in code kallsyms does not
 * name). NULL when none. */
const struct ksym *ksym_lookup(const struct ksym_table *t, unsigned long long addr,
			       unsigned long long max_span);

void ksym_table_free(struct ksym_table *t);

#endif
