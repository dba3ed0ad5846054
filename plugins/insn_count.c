/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * insn_count.c: a qemu TCG plugin that counts a guest's instructions exactly, in two
 * conventions, between two marker instructions the guest executes, and writes where
 * they went.
 *
 * Loaded by the icount engine (topologies/virtio.sh with ICOUNT=1):
 *   qemu ... -icount shift=0,sleep=off -plugin build/insn_count.so,out=PATH
 * Built against include/qemu/qemu-plugin.h of the Debian qemu source that matches the
 * installed qemu (scripts/qemu-plugin-header.sh; API version 1 in qemu 7.2).
 *
 * Conventions (per window, in instructions):
 *   insns       every iteration of a rep-prefixed string instruction counts, as qemu's
 *               -icount clock counts: the sum over executed translation blocks of their
 *               instruction counts (qemu's i386 translator ends a block after each
 *               iteration and jumps back to the same instruction: gen_repz in
 *               target/i386/tcg/translate.c)
 *   retired     a rep string instruction counts once per execution, as a CPU's
 *               retired-instruction counter counts it
 *   string_iterations = insns - retired: the iterations beyond the first
 * A block that starts at a rep string instruction is a further iteration of it when the
 * block executed just before it ended with that same instruction (and nothing else ran
 * between); otherwise it is a fresh execution (a jump straight to the instruction, or a
 * block cut short by the icount budget). An iteration interrupted and resumed after an
 * interrupt handler therefore counts as a fresh execution: once more than a CPU would.
 *
 * Markers: the guest executes `nopl DISP(%rax)` (0f 1f 80 + DISP, little-endian), a NOP
 * on every x86 CPU: DISP 0x7844ca01 opens a window, 0x7844ca00 closes it. The window is
 * the instructions strictly between the two. At the close the plugin writes PATH (via
 * PATH.tmp and a rename, so a reader never sees half a file):
 *   # xdptc insn_count 1
 *   window SEQ insns N retired N string_iterations N blocks N
 *   B VADDR EXECS ITERS OFF[,OFF...]
 * one B line per translation block that ran in the window (and the two marker blocks'
 * partial runs): each instruction at VADDR+OFF ran EXECS times in the window (EXECS may
 * be -1 for a marker block's correction); for a block ending in a rep string
 * instruction, ITERS of its last instruction's runs were further iterations. The sum of
 * EXECS x instructions over the B lines is the window's insns, minus the ITERS its
 * retired.
 *
 * One vCPU (the icount engine's guests have one; icount runs a single TCG thread): the
 * plugin refuses more. Errors go to qemu's log (-d plugin) and stderr.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <qemu-plugin.h>

QEMU_PLUGIN_EXPORT int qemu_plugin_version = QEMU_PLUGIN_VERSION;

#define MARK_OPEN  0x7844ca01u
#define MARK_CLOSE 0x7844ca00u
#define MAX_INSNS  512

/* One translated block: what it is and how often it ran. */
struct block {
	uint64_t vaddr;
	uint64_t execs, iters;        /* runs; of a rep block, further iterations */
	uint64_t execs0, iters0;      /* at the window's opening */
	uint32_t n;                   /* instructions */
	uint16_t *off;                /* each instruction's offset from vaddr */
	int rep;                      /* 1: ends in a rep string instruction */
	int rep_first;                /* 1: and starts with it (a block of one) */
};

/* A marker instruction: its block and its place in it. */
struct marker {
	struct block *b;
	uint32_t idx;
	int open;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct block **blocks;
static size_t nblocks, cap;
static const char *out_path;
static uint64_t total;        /* every iteration, so far */
static uint64_t iterations;   /* further iterations of rep string instructions, so far */
static uint64_t last_rep_vaddr, last_rep_total; /* the last rep block run and the total then */
static uint64_t open_insns, open_iters;        /* at the window's opening */
static struct marker *open_mark;
static uint64_t seq;

/* Is the instruction in @d[0..len) a rep-prefixed string instruction (movs, cmps, stos,
 * lods, scas, ins, outs with an f2 or f3 prefix)? */
static int is_rep_string(const uint8_t *d, size_t len)
{
	size_t i = 0;
	int rep = 0;

	for (; i < len; i++) {
		uint8_t b = d[i];

		if (b == 0xf2 || b == 0xf3)
			rep = 1;
		else if (!(b == 0x66 || b == 0x67 || b == 0xf0 || b == 0x2e || b == 0x36 ||
			   b == 0x3e || b == 0x26 || b == 0x64 || b == 0x65))
			break;
	}
	if (i < len && (d[i] & 0xf0) == 0x40) /* REX */
		i++;
	if (!rep || i >= len)
		return 0;
	return (d[i] >= 0xa4 && d[i] <= 0xa7) || (d[i] >= 0xaa && d[i] <= 0xaf) ||
	       (d[i] >= 0x6c && d[i] <= 0x6f);
}

/* 1: open marker, 0: close marker, -1: neither. */
static int marker_kind(const uint8_t *d, size_t len)
{
	uint32_t disp;

	if (len != 7 || d[0] != 0x0f || d[1] != 0x1f || d[2] != 0x80)
		return -1;
	memcpy(&disp, d + 3, 4);
	return disp == MARK_OPEN ? 1 : disp == MARK_CLOSE ? 0 : -1;
}

/* A rep block ran: count it, and tell a further iteration from a fresh execution. */
static void rep_exec(unsigned int vcpu, void *udata)
{
	struct block *b = udata;
	uint64_t last = b->vaddr + b->off[b->n - 1];

	(void)vcpu;
	total += b->n;
	b->execs++;
	if (b->rep_first && last_rep_vaddr == last && total == last_rep_total + 1) {
		b->iters++;
		iterations++;
	}
	last_rep_vaddr = last;
	last_rep_total = total;
}

/* Instructions of the marker's block counted at its start but not yet run. */
static uint64_t not_yet_run(const struct marker *m)
{
	return m->b->n - m->idx;
}

static void window_open(struct marker *m)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nblocks; i++) {
		blocks[i]->execs0 = blocks[i]->execs;
		blocks[i]->iters0 = blocks[i]->iters;
	}
	pthread_mutex_unlock(&lock);
	/* the open marker itself ran before the window */
	open_insns = total - not_yet_run(m) + 1;
	open_iters = iterations;
	open_mark = m;
}

/* One B line for instructions [from, to) of block @b that ran @execs times. */
static void block_line(FILE *f, const struct block *b, int64_t execs, uint64_t iters,
		       uint32_t from, uint32_t to)
{
	fprintf(f, "B %" PRIx64 " %" PRId64 " %" PRIu64 " ", b->vaddr, execs, iters);
	for (uint32_t i = from; i < to; i++)
		fprintf(f, "%s%u", i > from ? "," : "", b->off[i]);
	fputc('\n', f);
}

static void window_close(struct marker *m)
{
	char tmp[4096];
	uint64_t insns, iters, nb = 0;
	FILE *f;

	if (!open_mark || !out_path)
		return;
	insns = total - not_yet_run(m) - open_insns;
	iters = iterations - open_iters;
	snprintf(tmp, sizeof(tmp), "%s.tmp", out_path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "insn_count: cannot write %s\n", tmp);
		open_mark = NULL;
		return;
	}
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nblocks; i++)
		nb += blocks[i]->execs != blocks[i]->execs0;
	fprintf(f, "# xdptc insn_count 1\nwindow %" PRIu64 " insns %" PRIu64 " retired %" PRIu64
		   " string_iterations %" PRIu64 " blocks %" PRIu64 "\n",
		++seq, insns, insns - iters, iters, nb);
	for (size_t i = 0; i < nblocks; i++) {
		const struct block *b = blocks[i];

		if (b->execs != b->execs0)
			block_line(f, b, (int64_t)(b->execs - b->execs0), b->iters - b->iters0,
				   0, b->n);
	}
	pthread_mutex_unlock(&lock);
	/* the open marker's block ran before the window opened: what followed the marker
	 * in it ran inside; the close marker's block ran inside: from the marker on, not */
	if (open_mark->idx + 1 < open_mark->b->n)
		block_line(f, open_mark->b, 1, 0, open_mark->idx + 1, open_mark->b->n);
	block_line(f, m->b, -1, 0, m->idx, m->b->n);
	if (fclose(f) || rename(tmp, out_path))
		fprintf(stderr, "insn_count: cannot write %s\n", out_path);
	open_mark = NULL;
}

static void marker_exec(unsigned int vcpu, void *udata)
{
	struct marker *m = udata;

	(void)vcpu;
	if (m->open)
		window_open(m);
	else
		window_close(m);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct block *b;

	(void)id;
	if (!n)
		return;
	b = calloc(1, sizeof(*b));
	if (!b || n > MAX_INSNS || !(b->off = calloc(n, sizeof(*b->off)))) {
		fprintf(stderr, "insn_count: out of memory\n");
		abort();
	}
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->n = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		const uint8_t *d = qemu_plugin_insn_data(insn);
		size_t len = qemu_plugin_insn_size(insn);
		int k = marker_kind(d, len);

		b->off[i] = (uint16_t)(qemu_plugin_insn_vaddr(insn) - b->vaddr);
		if (i == n - 1 && is_rep_string(d, len)) {
			b->rep = 1;
			b->rep_first = n == 1;
		}
		if (k >= 0) {
			struct marker *m = calloc(1, sizeof(*m));

			if (!m)
				abort();
			m->b = b;
			m->idx = (uint32_t)i;
			m->open = k;
			qemu_plugin_register_vcpu_insn_exec_cb(insn, marker_exec,
							       QEMU_PLUGIN_CB_NO_REGS, m);
		}
	}
	if (b->rep) {
		qemu_plugin_register_vcpu_tb_exec_cb(tb, rep_exec, QEMU_PLUGIN_CB_NO_REGS, b);
	} else {
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, &total, n);
		qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							 &b->execs, 1);
	}
	pthread_mutex_lock(&lock);
	if (nblocks == cap) {
		size_t c = cap ? cap * 2 : 65536;
		struct block **nb = realloc(blocks, c * sizeof(*nb));

		if (!nb)
			abort();
		blocks = nb;
		cap = c;
	}
	blocks[nblocks++] = b;
	pthread_mutex_unlock(&lock);
}

QEMU_PLUGIN_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info,
					   int argc, char **argv)
{
	for (int i = 0; i < argc; i++) {
		if (!strncmp(argv[i], "out=", 4)) {
			out_path = argv[i] + 4;
		} else {
			fprintf(stderr, "insn_count: unknown argument '%s' (out=PATH)\n", argv[i]);
			return -1;
		}
	}
	if (!out_path) {
		fprintf(stderr, "insn_count: out=PATH is required\n");
		return -1;
	}
	if (!info->system_emulation || info->system.max_vcpus > 1 ||
	    strcmp(info->target_name, "x86_64")) {
		fprintf(stderr, "insn_count: one x86_64 vCPU in system emulation only\n");
		return -1;
	}
	qemu_plugin_register_vcpu_tb_trans_cb(id, tb_trans);
	return 0;
}
