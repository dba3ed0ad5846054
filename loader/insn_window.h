/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * insn_window.h: exact instruction counts of a window in an icount guest, from the
 * instruction-counting qemu plugin (plugins/insn_count.c), and where they went.
 *
 * The guest opens and closes a window by executing two marker instructions (NOPs that
 * the plugin recognizes by their bytes); at the close the plugin writes the window's
 * counts and its translation blocks to a file (the icount engine: XDPTC_INSNS, through
 * the share). Two conventions, both in instructions:
 *   insns    every iteration of a rep string instruction counts (the icount clock)
 *   retired  a rep string instruction counts once per execution (a CPU's counter)
 */
#ifndef XDPTC_INSN_WINDOW_H
#define XDPTC_INSN_WINDOW_H

#include <stddef.h>
#include <stdint.h>

#include "kallsyms.h"

/* The markers: nopl 0x7844ca01(%rax) opens, nopl 0x7844ca00(%rax) closes. */
static inline void insn_mark_open(void)
{
	__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0x01, 0xca, 0x44, 0x78" ::: "memory");
}

static inline void insn_mark_close(void)
{
	__asm__ volatile(".byte 0x0f, 0x1f, 0x80, 0x00, 0xca, 0x44, 0x78" ::: "memory");
}

/* The guest's TSC. Under qemu -icount it reads the icount clock (cpu_get_ticks returns
 * icount_get(): guest ns, at shift=0 one per instruction, plus what idle skipped). */
static inline uint64_t insn_tsc(void)
{
	uint32_t lo, hi;

	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* What names a window's addresses: the BPF programs loaded now (exact extents, from
 * their bpf_prog_info), then the kernel's and modules' symbols (kallsyms). Either may
 * be NULL. */
struct insn_names {
	const struct ksym_table *bpf, *kernel;
};

/* One window as the plugin counted it. */
struct insn_window {
	uint64_t seq;          /* the plugin's window number, from 1 */
	uint64_t insns;        /* every iteration */
	uint64_t retired;      /* rep string instructions once per execution */
	uint64_t iterations;   /* insns - retired */
	uint64_t halts;        /* the vCPU's idle entries in it */
	uint64_t blocks;       /* its B lines (runs of a block's instructions) */
};

/* Where a window's instructions went: per function, both conventions. */
struct insn_func {
	char name[KSYM_NAME_MAX]; /* kallsyms' name; "[user]", "[kernel: unnamed]" */
	char where[32];           /* "kernel", a module's name, "bpf", "user", "unknown" */
	int64_t insns, retired;
};

struct insn_funcs {
	struct insn_func *f;
	size_t n, cap;       /* entries, and room in the hash table (a power of two) */
	double pkts;         /* the packets they were counted over (for per-packet figures) */
	int windows;         /* windows added */
};

/* @after_seq of insn_window_read: the last window this process read */
#define INSN_WINDOW_NEXT UINT64_MAX

/*
 * insn_window_read - read the plugin's file @path, which must hold a window numbered
 * above @after_seq (INSN_WINDOW_NEXT: above the last one this process read). The plugin
 * writes it before the guest runs the instruction after the close marker; @wait_ms (of
 * guest time, which jumps ahead while the guest idles) covers a share that shows it
 * late. Fills @w; when @names and @funcs are given, adds each instruction to its
 * function in @funcs. The blocks must add up to the header's totals.
 * Returns 0, -ENOENT (no such window in time), -EBADMSG (not the plugin's format, or its
 * blocks do not add up) or -errno, with a sentence in @why.
 */
int insn_window_read(const char *path, uint64_t after_seq, int wait_ms,
		     const struct insn_names *names, struct insn_window *w,
		     struct insn_funcs *funcs, char *why, size_t len);

/*
 * insn_window_next - the plugin's next window at @path (above the last one this process
 * read), and when @funcs is not NULL its instructions per function in a new *@funcs (free
 * it with insn_funcs_free and free): the kernel and its modules named by /proc/kallsyms
 * (read once per process; /proc/modules bounds each module), BPF programs by their
 * bpf_prog_info as loaded now (bpf_prog_TAG_NAME, as kallsyms names them). Returns 0 or
 * -errno with @why (as insn_window_read).
 */
int insn_window_next(const char *path, struct insn_window *w, struct insn_funcs **funcs,
		     char *why, size_t len);

/* insn_funcs_merge - add @from's counts into @to (and its packets and windows). */
void insn_funcs_merge(struct insn_funcs *to, const struct insn_funcs *from);

/* insn_funcs_sorted - the entries of @fs sorted by insns, largest first: a new array of
 * @fs->n pointers into @fs (free it), or NULL. */
const struct insn_func **insn_funcs_sorted(const struct insn_funcs *fs);

void insn_funcs_free(struct insn_funcs *fs);

/* The plugin's self-check on known work (insn_selfcheck): user-space code whose
 * instructions are known exactly, between the markers, in the same asm statement. */
struct insn_check {
	const char *what;        /* "loop" or "rep stosb" */
	uint64_t expect_insns, expect_retired; /* what the plugin must count */
	uint64_t insns, retired; /* what it counted in the window, all of the guest */
	uint64_t user_insns, user_retired; /* ... of which in user space (this code) */
	int attempts;            /* windows run: until one held nothing but this code */
	int exact;               /* 1: the first window that held nothing but this code
				  * counted exactly the expected figures; 0 when it did not, or
				  * when every window held something else too */
};

/*
 * insn_selfcheck - run known work between the markers and compare what the plugin at
 * @path counted: a loop of @loop_iters iterations of `dec ecx; jnz` after one `mov`
 * (1 + 2 x loop_iters instructions in both conventions) and a `rep stosb` of @bytes
 * bytes (a CPU retires 1 instruction; under -icount it starts bytes + 1 times, the last
 * seeing rcx at 0). An interrupt inside a window adds the kernel's instructions (and
 * whatever it lets run), so each check runs up to 5 windows, until one holds nothing
 * else. Fills @c[0] (loop) and
 * @c[1] (rep stosb). Returns 0 when both are exact, 1 when one is not, -errno when the
 * plugin wrote no window (@why).
 */
int insn_selfcheck(const char *path, uint64_t loop_iters, uint64_t bytes,
		   struct insn_check c[2], char *why, size_t len);

/*
 * insn_clear_page_bytes - the bytes one string iteration stores in the kernel function
 * named @name when it is one of x86's page-clearing functions (clear_page_erms: rep
 * stosb, 1; clear_page_rep: rep stosq, 8), else 0 (clear_page_orig has no rep string
 * instruction: not counted). With init_on_alloc (Debian's default) each page the buddy
 * allocator hands out is cleared so: per-packet page clearing, the regime that moves
 * the every-iteration count (docs/engines.md).
 */
unsigned int insn_clear_page_bytes(const char *name);

/* insn_funcs_pages_cleared - the pages (4,096 bytes each) the clear_page functions of
 * @fs cleared: their string iterations (insns - retired) times insn_clear_page_bytes,
 * over 4,096. 0 when @fs is NULL or none ran. */
double insn_funcs_pages_cleared(const struct insn_funcs *fs);

/* insn_func_background - is @f the guest's background (idle, timer interrupts and
 * ticks, RCU, the scheduler's tick work) rather than a packet's path? By its name, a
 * documented list (docs/engines.md): 1 yes, 0 no. */
int insn_func_background(const struct insn_func *f);

#endif
