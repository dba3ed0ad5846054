/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "insn_window.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <stdbool.h>
#include <unistd.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The last window this process read (INSN_WINDOW_NEXT). */
static uint64_t last_read_seq;

/* The highest user-space address on x86-64 (canonical lower half). */
#define USER_TOP 0x0000800000000000ull
/* No kernel function is longer: an address further past its symbol is unnamed code. */
#define MAX_FUNC_SPAN (256 * 1024ull)

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ull;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/* The entry for @name in @fs, made when missing. NULL when out of memory. */
static struct insn_func *funcs_get(struct insn_funcs *fs, const char *name, const char *where)
{
	size_t i;

	if ((fs->n + 1) * 2 > fs->cap) { /* grow: at most half full */
		size_t c = fs->cap ? fs->cap * 2 : 1024;
		struct insn_func *nf = calloc(c, sizeof(*nf));

		if (!nf)
			return NULL;
		for (size_t k = 0; k < fs->cap; k++) {
			if (!fs->f[k].name[0])
				continue;
			for (i = name_hash(fs->f[k].name) & (c - 1); nf[i].name[0]; i = (i + 1) & (c - 1))
				;
			nf[i] = fs->f[k];
		}
		free(fs->f);
		fs->f = nf;
		fs->cap = c;
	}
	for (i = name_hash(name) & (fs->cap - 1); fs->f[i].name[0]; i = (i + 1) & (fs->cap - 1))
		if (!strcmp(fs->f[i].name, name))
			return &fs->f[i];
	snprintf(fs->f[i].name, sizeof(fs->f[i].name), "%s", name);
	snprintf(fs->f[i].where, sizeof(fs->f[i].where), "%s", where);
	fs->n++;
	return &fs->f[i];
}

/* The function holding @addr, as a name and where it lives. */
static void name_of(const struct insn_names *ns, uint64_t addr, const char **name,
		    const char **where)
{
	const struct ksym *k = NULL;

	if (addr < USER_TOP) {
		*name = "[user]";
		*where = "user";
		return;
	}
	if (ns->bpf)
		k = ksym_lookup(ns->bpf, addr, MAX_FUNC_SPAN);
	if (!k && ns->kernel)
		k = ksym_lookup(ns->kernel, addr, MAX_FUNC_SPAN);
	if (!k) {
		*name = "[kernel: unnamed]";
		*where = "unknown";
		return;
	}
	*name = k->name;
	*where = k->module[0] ? k->module : "kernel";
}

/* One B line: "B VADDR EXECS ITERS OFF,OFF,...": add it to the sums and to @funcs. */
static int block_add(char *line, const struct insn_names *ks, struct insn_funcs *funcs,
		     int64_t *insns, int64_t *iters)
{
	uint64_t vaddr, it;
	int64_t execs;
	char *offs, *save = NULL, *tok;
	int used, n = 0;

	if (sscanf(line, "B %" SCNx64 " %" SCNd64 " %" SCNu64 " %n", &vaddr, &execs, &it,
		   &used) != 3)
		return -EBADMSG;
	offs = line + used;
	offs[strcspn(offs, "\n")] = '\0';
	for (tok = strtok_r(offs, ",", &save); tok; tok = strtok_r(NULL, ",", &save))
		n++;
	*insns += execs * n;
	*iters += (int64_t)it;
	if (!funcs || !ks)
		return 0;
	/* strtok_r put NULs between the offsets: walk them again */
	tok = offs;
	for (int i = 0; i < n; i++, tok += strlen(tok) + 1) {
		const char *name, *where;
		struct insn_func *f;

		name_of(ks, vaddr + strtoull(tok, NULL, 10), &name, &where);
		f = funcs_get(funcs, name, where);
		if (!f)
			return -ENOMEM;
		f->insns += execs;
		/* a rep block's further iterations are of its last instruction */
		f->retired += execs - (i == n - 1 ? (int64_t)it : 0);
	}
	return 0;
}

/* Read @path once: -EAGAIN when it does not hold a window above @after_seq yet. */
static int read_once(const char *path, uint64_t after_seq, const struct insn_names *ks,
		     struct insn_window *w, struct insn_funcs *funcs, char *why, size_t len)
{
	struct insn_funcs part = { 0 };
	int64_t insns = 0, iters = 0;
	uint64_t lines = 0;
	char *line = NULL;
	size_t cap = 0;
	int e = 0;
	FILE *f = fopen(path, "r");

	if (!f)
		return errno == ENOENT ? -EAGAIN : -errno;
	if (getline(&line, &cap, f) < 0 || strncmp(line, "# xdptc insn_count 1", 20) ||
	    getline(&line, &cap, f) < 0 ||
	    sscanf(line, "window %" SCNu64 " insns %" SCNu64 " retired %" SCNu64
			 " string_iterations %" SCNu64 " halts %" SCNu64,
		   &w->seq, &w->insns, &w->retired, &w->iterations, &w->halts) != 5) {
		snprintf(why, len, "%s is not the instruction-counting plugin's output", path);
		e = -EBADMSG;
		goto out;
	}
	if (w->seq <= after_seq) {
		e = -EAGAIN;
		goto out;
	}
	w->blocks = UINT64_MAX;
	while (!e && getline(&line, &cap, f) > 0) {
		if (!strncmp(line, "end ", 4)) {
			w->blocks = strtoull(line + 4, NULL, 10);
			break;
		}
		e = block_add(line, ks, funcs ? &part : NULL, &insns, &iters);
		lines++;
	}
	if (e == -EBADMSG)
		snprintf(why, len, "a malformed line in %s: %.60s", path, line);
	else if (e)
		snprintf(why, len, "out of memory");
	else if (w->blocks == UINT64_MAX || w->blocks != lines) {
		snprintf(why, len, "%s ends before its end line, or holds other than the %llu "
			 "block lines it says", path, (unsigned long long)w->blocks);
		e = -EBADMSG;
	} else if (w->retired != w->insns - w->iterations) {
		snprintf(why, len, "%s: retired is not insns less string_iterations", path);
		e = -EBADMSG;
	} else if (insns != (int64_t)w->insns || iters != (int64_t)w->iterations) {
		snprintf(why, len, "the plugin's blocks add up to %" PRId64 " instructions (%" PRId64
			 " further iterations), its window says %" PRIu64 " (%" PRIu64 ")",
			 insns, iters, w->insns, w->iterations);
		e = -EBADMSG;
	}
	if (!e && funcs) {
		part.windows = 1;
		insn_funcs_merge(funcs, &part);
	}
out:
	insn_funcs_free(&part);
	free(line);
	fclose(f);
	return e;
}

int insn_window_read(const char *path, uint64_t after_seq, int wait_ms,
		     const struct insn_names *ks, struct insn_window *w,
		     struct insn_funcs *funcs, char *why, size_t len)
{
	if (after_seq == INSN_WINDOW_NEXT)
		after_seq = last_read_seq;
	for (int waited = 0;; waited += 10) {
		int e = read_once(path, after_seq, ks, w, funcs, why, len);

		if (!e)
			last_read_seq = w->seq;
		if (e != -EAGAIN)
			return e;
		if (waited >= wait_ms) {
			snprintf(why, len, "the instruction-counting plugin wrote no window after "
				 "number %" PRIu64 " to %s", after_seq, path);
			return -ENOENT;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 10000000 }, NULL);
	}
}

void insn_funcs_merge(struct insn_funcs *to, const struct insn_funcs *from)
{
	for (size_t i = 0; i < from->cap; i++) {
		const struct insn_func *s = &from->f[i];
		struct insn_func *d;

		if (!s->name[0] || !(d = funcs_get(to, s->name, s->where)))
			continue;
		d->insns += s->insns;
		d->retired += s->retired;
	}
	to->pkts += from->pkts;
	to->windows += from->windows;
}

static int by_insns(const void *a, const void *b)
{
	const struct insn_func *x = *(const struct insn_func *const *)a;
	const struct insn_func *y = *(const struct insn_func *const *)b;

	if (x->insns != y->insns)
		return x->insns > y->insns ? -1 : 1;
	return strcmp(x->name, y->name);
}

const struct insn_func **insn_funcs_sorted(const struct insn_funcs *fs)
{
	const struct insn_func **v = calloc(fs->n ? fs->n : 1, sizeof(*v));
	size_t k = 0;

	if (!v)
		return NULL;
	for (size_t i = 0; i < fs->cap; i++)
		if (fs->f[i].name[0])
			v[k++] = &fs->f[i];
	qsort(v, k, sizeof(*v), by_insns);
	return v;
}

void insn_funcs_free(struct insn_funcs *fs)
{
	free(fs->f);
	memset(fs, 0, sizeof(*fs));
}

unsigned int insn_clear_page_bytes(const char *name)
{
	if (!strcmp(name, "clear_page_erms"))
		return 1;
	if (!strcmp(name, "clear_page_rep"))
		return 8;
	return 0;
}

double insn_funcs_pages_cleared(const struct insn_funcs *fs)
{
	double pages = 0;

	for (size_t i = 0; fs && i < fs->cap; i++) {
		const struct insn_func *f = &fs->f[i];
		unsigned int b = f->name[0] ? insn_clear_page_bytes(f->name) : 0;

		if (b && f->insns > f->retired)
			pages += (double)(f->insns - f->retired) * b / 4096.0;
	}
	return pages;
}

int insn_func_background(const struct insn_func *f)
{
	/* idle, the timer interrupt and tick, RCU's and the scheduler's periodic work:
	 * what runs whether or not packets flow (prefixes of kernel function names) */
	static const char *const pre[] = {
		"default_idle", "arch_cpu_idle", "cpu_idle", "do_idle", "native_safe_halt",
		"cpuidle_", "sysvec_apic_timer_interrupt", "asm_sysvec_apic_timer_interrupt",
		"hrtimer_", "__hrtimer_", "tick_", "__tick_", "update_process_times",
		"scheduler_tick", "sched_tick", "rcu_", "__rcu_", "run_timer_softirq",
		"__run_timers", "timekeeping_", "update_wall_time", "ktime_get_update_offsets",
		"lapic_next_", "native_apic_", "x2apic_", "clockevents_", "account_process_tick",
		"irqtime_", "irq_enter", "irq_exit", "__sysvec_apic_timer_interrupt",
		"calc_global_load", "task_tick_", "trigger_load_balance", "run_rebalance_domains",
	};

	if (strcmp(f->where, "kernel"))
		return 0;
	for (size_t i = 0; i < sizeof(pre) / sizeof(pre[0]); i++)
		if (!strncmp(f->name, pre[i], strlen(pre[i])))
			return 1;
	return 0;
}

/* The kernel's and modules' symbols, read once (/proc/kallsyms is long to read inside
 * an emulated guest: about 0.6 billion instructions); the BPF programs, which every
 * trial loads anew, from their bpf_prog_info. */
static struct ksym_table kernel_syms;
static bool kernel_syms_read;

/* Every BPF program loaded now, with the extent of each of its JIT-ed functions, named
 * as kallsyms names them (bpf_prog_TAG_NAME). Returns 0 or -errno. */
static int bpf_syms(struct ksym_table *t)
{
	__u32 id = 0;

	memset(t, 0, sizeof(*t));
	while (!bpf_prog_get_next_id(id, &id)) {
		__u64 addrs[64];
		__u32 lens[64];
		struct bpf_prog_info info;
		__u32 n = sizeof(info);
		char name[KSYM_NAME_MAX], tag[17];
		int fd = bpf_prog_get_fd_by_id(id);

		if (fd < 0)
			continue;
		memset(&info, 0, sizeof(info));
		info.nr_jited_ksyms = 64;
		info.nr_jited_func_lens = 64;
		info.jited_ksyms = (__u64)(unsigned long)addrs;
		info.jited_func_lens = (__u64)(unsigned long)lens;
		if (!bpf_prog_get_info_by_fd(fd, &info, &n)) {
			for (int i = 0; i < 8; i++)
				snprintf(tag + 2 * i, 3, "%02x", info.tag[i]);
			for (__u32 k = 0; k < info.nr_jited_ksyms && k < 64 &&
					  k < info.nr_jited_func_lens; k++) {
				snprintf(name, sizeof(name), "bpf_prog_%s_%s%s", tag, info.name,
					 k ? "[sub]" : "");
				if (addrs[k] && ksym_table_add(t, addrs[k], addrs[k] + lens[k], name,
							       "bpf")) {
					close(fd);
					return -ENOMEM;
				}
			}
		}
		close(fd);
	}
	ksym_table_sort(t);
	return 0;
}

int insn_window_next(const char *path, struct insn_window *w, struct insn_funcs **funcs,
		     char *why, size_t len)
{
	struct ksym_table bpf = { 0 };
	struct insn_names names = { &bpf, &kernel_syms };
	int e;

	struct insn_funcs **out = funcs, *none = NULL;

	if (!out)
		out = &none;
	*out = NULL;
	if (funcs) {
		if (!kernel_syms_read) {
			e = ksym_table_load("/proc/kallsyms", "/proc/modules", &kernel_syms);
			if (e) {
				snprintf(why, len, "cannot read /proc/kallsyms: %s", strerror(-e));
				return e;
			}
			kernel_syms_read = true;
		}
		e = bpf_syms(&bpf);
		*out = e ? NULL : calloc(1, sizeof(**out));
		if (!*out) {
			ksym_table_free(&bpf);
			snprintf(why, len, "out of memory");
			return -ENOMEM;
		}
	}
	e = insn_window_read(path, INSN_WINDOW_NEXT, 5000, *out ? &names : NULL, w, *out, why,
			     len);
	ksym_table_free(&bpf);
	if (e && *out) {
		insn_funcs_free(*out);
		free(*out);
		*out = NULL;
	}
	return e;
}

/* The user-space share of the last window: "[user]" of @fs. */
static void user_part(const struct insn_funcs *fs, uint64_t *insns, uint64_t *retired)
{
	*insns = *retired = 0;
	for (size_t i = 0; i < fs->cap; i++)
		if (!strcmp(fs->f[i].name, "[user]")) {
			*insns = (uint64_t)fs->f[i].insns;
			*retired = (uint64_t)fs->f[i].retired;
		}
}

/* One window of check @k (0 loop, 1 rep stosb). */
static void known_work(int k, uint64_t n, unsigned char *buf)
{
	if (k == 0) {
		uint64_t c;

		__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0x01, 0xca, 0x44, 0x78\n\t"
				 "mov %1, %%rcx\n"
				 "1:\tdec %%rcx\n\t"
				 "jnz 1b\n\t"
				 ".byte 0x0f, 0x1f, 0x80, 0x00, 0xca, 0x44, 0x78"
				 : "=&c"(c) : "r"(n) : "memory", "cc");
		(void)c;
	} else {
		unsigned char *d = buf;
		uint64_t c = n;

		__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0x01, 0xca, 0x44, 0x78\n\t"
				 "rep stosb\n\t"
				 ".byte 0x0f, 0x1f, 0x80, 0x00, 0xca, 0x44, 0x78"
				 : "+D"(d), "+c"(c) : "a"(0) : "memory");
	}
}

int insn_selfcheck(const char *path, uint64_t loop_iters, uint64_t bytes,
		   struct insn_check c[2], char *why, size_t len)
{
	static const struct insn_names none = { NULL, NULL };
	unsigned char *buf = malloc(bytes ? bytes : 1);
	int e = 0;

	if (!buf) {
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	memset(buf, 1, bytes); /* its pages present: no fault inside the window */
	for (int k = 0; k < 2 && !e; k++) {
		struct insn_check *x = &c[k];

		memset(x, 0, sizeof(*x));
		x->what = k ? "rep stosb" : "loop";
		x->expect_insns = k ? bytes + 1 : 1 + 2 * loop_iters;
		x->expect_retired = k ? 1 : 1 + 2 * loop_iters;
		x->exact = 0;
		for (int a = 0; a < 5; a++) {
			struct insn_funcs fs = { 0 };
			struct insn_window w;

			known_work(k, k ? bytes : loop_iters, buf);
			e = insn_window_read(path, INSN_WINDOW_NEXT, 5000, &none, &w, &fs, why, len);
			if (e) {
				insn_funcs_free(&fs);
				break;
			}
			x->attempts = a + 1;
			x->insns = w.insns;
			x->retired = w.retired;
			user_part(&fs, &x->user_insns, &x->user_retired);
			insn_funcs_free(&fs);
			/* an interrupt (and whatever it let run) was in the window: again */
			if (w.insns != x->user_insns)
				continue;
			/* nothing but this code ran: it must count exactly */
			x->exact = w.insns == x->expect_insns && w.retired == x->expect_retired;
			break;
		}
	}
	free(buf);
	if (e)
		return e;
	return c[0].exact && c[1].exact ? 0 : 1;
}
