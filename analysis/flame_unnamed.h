/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * flame_unnamed.h: the frames of a profile that perf could not name, counted and
 * explained. In folded stacks (flamegraph.h) such a frame is "[unknown]" (no mapping
 * perf knew), "[DSO]" (a file or module perf found but no symbol in: "[kernel.kallsyms]",
 * "[veth]", "[libc.so.6]") or a bare address. What it is follows from where it sits:
 *   - the kernel's part of a stack starts at the first kernel entry (entry_SYSCALL_*,
 *     asm_* interrupts and exceptions, ret_from_fork*, the boot and idle entries); a
 *     stack without one is user space throughout, one that starts with one is a kernel
 *     thread's;
 *   - "[unknown]" there, called by a function that runs BPF programs (a name with
 *     "bpf" or "xdp", tcf_classify, tcx_run), is a JIT-ed BPF program perf had no
 *     symbol for; elsewhere in the kernel it is other unnamed kernel code;
 *   - "[kernel.kallsyms]" is kernel code whose symbols perf could not read;
 *   - another "[NAME]" there is the kernel module NAME;
 *   - anything unnamed before the kernel's part is user space: a binary or library
 *     without symbols, or a return address the frame-pointer walk found in no file.
 */
#ifndef XDPTC_FLAME_UNNAMED_H
#define XDPTC_FLAME_UNNAMED_H

#include <stdbool.h>
#include <stdio.h>

enum flame_unnamed_kind {
	UNNAMED_BPF,     /* JIT-ed BPF code perf had no symbol for */
	UNNAMED_KERNEL,  /* [kernel.kallsyms]: kernel symbols perf could not read */
	UNNAMED_MODULE,  /* a kernel module's code */
	UNNAMED_KOTHER,  /* other unnamed kernel code ([unknown] or an address) */
	UNNAMED_USER,    /* user space */
	UNNAMED_NR
};

/* The unnamed frames of one profile. "self": the samples whose leaf (the code the
 * sample hit) is unnamed; "path": the samples with an unnamed frame anywhere in their
 * stack. */
struct flame_unnamed {
	double samples;                  /* every sample counted */
	double self, path;
	double kernel_path;              /* path, with the unnamed frame in the kernel's part */
	double kind_self[UNNAMED_NR], kind_path[UNNAMED_NR];
	char frame[UNNAMED_NR][64];      /* each kind's frame with the most samples */
	char comm[UNNAMED_NR][32];       /* and its process */
	char caller[UNNAMED_NR][64];     /* and the frame that called it */
};

/* flame_frame_unnamed - is folded frame @name one that perf could not name? */
bool flame_frame_unnamed(const char *name);

/* flame_unnamed_count - count the unnamed frames of the folded stacks read from @in into
 * @u, the stacks of the processes in @skip_comm (a comma list, NULL: none) left out.
 * Returns 0, or -errno (-ENOMEM). */
int flame_unnamed_count(FILE *in, const char *skip_comm, struct flame_unnamed *u);

/* flame_unnamed_kind_name - "bpf", "kernel", "module", "kernel-other", "user". */
const char *flame_unnamed_kind_name(enum flame_unnamed_kind k);

/* flame_unnamed_reason - in words, why the frames of kind @k of @u are unnamed;
 * @kernel_symbols: doctor's sentence when kernel symbols are hidden (its
 * "kernel_symbols" item failed), else NULL. */
void flame_unnamed_reason(const struct flame_unnamed *u, enum flame_unnamed_kind k,
			  const char *kernel_symbols, char *buf, size_t len);

/* flame_unnamed_fix - what to change so that perf names the frames of kind @k. */
const char *flame_unnamed_fix(enum flame_unnamed_kind k, const char *kernel_symbols);

/* flame_unnamed_main - the kind with the most unnamed leaf samples (or, with none, the
 * most unnamed path samples); -1 when nothing is unnamed. */
int flame_unnamed_main(const struct flame_unnamed *u);

#endif
