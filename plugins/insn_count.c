/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * insn_count.c: a qemu TCG plugin that counts a guest's instructions exactly, in two
 * conventions, between two marker instructions the guest executes, and writes where
 * they went.
 *
 * Loaded by the icount engine (topologies/virtio.sh with ICOUNT=1):
 *   qemu ... -icount shift=0,sleep=off -plugin build/insn_count.so,out=PATH
 * Built against include/qemu/qemu-plugin.h of the Debian qemu source that matches the
 * qemu that loads it (scripts/qemu-plugin-header.sh): API version 1 in qemu 7.2 (Debian
 * 12), 4 in qemu 10.0.2 (bookworm-backports, QEMU=backports). One source serves both: the
 * inline counters go through the few functions under "Counters", below.
 *
 * Conventions (per window, in instructions):
 *   insns       every instruction started, each iteration of a rep-prefixed string
 *               instruction one, as qemu's -icount clock counts: under -icount the i386
 *               translator runs such an instruction as a block of its own, once per
 *               iteration and once more to see rcx at 0 (gen_repz with repz_opt off,
 *               target/i386/tcg/translate.c)
 *   retired     a rep string instruction counts once per execution, as a CPU's
 *               retired-instruction counter counts it
 *   string_iterations = insns - retired: the iterations beyond the first (for rep
 *               stosb and movsb a byte each, for stosq and movsq 8 bytes)
 * Instructions are counted one by one as they start (inline adds), not per block, so a
 * block cut short by an exception or a helper's exit counts what ran. A rep string
 * instruction's run is a further iteration when it starts the block that started right
 * after the one it ended (the block of itself alone), and a fresh execution otherwise. An iteration interrupted and
 * resumed after an interrupt handler therefore counts as a fresh execution: once more
 * than a CPU would.
 *
 * Markers: the guest executes `nopl DISP(%rax)` (0f 1f 80 + DISP, little-endian), a NOP
 * on every x86 CPU: DISP 0x7844ca01 opens a window, 0x7844ca00 closes it. The window is
 * the instructions strictly between the two. At the close the plugin writes PATH (via
 * PATH.tmp and a rename, so a reader never sees half a file):
 *   # xdptc insn_count 1
 *   window SEQ insns N retired N string_iterations N halts N
 *   B VADDR EXECS ITERS OFF[,OFF...]
 *   end LINES
 * one B line per run of instructions of a translation block that started equally often
 * in the window: each instruction at VADDR+OFF started EXECS times; when the run ends in
 * a rep string instruction, ITERS of its starts were further iterations. The sum of
 * EXECS x instructions over the B lines is the window's insns, less the ITERS its
 * retired. halts counts the hlt and mwait instructions run in the window: the vCPU's
 * idle entries (the icount clock skips the idle time that follows each).
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

/* One translated block: what it is and how often each of its instructions ran. */
struct block {
	uint64_t vaddr;
	uint64_t *execs;              /* per instruction: runs started */
	uint64_t *execs0;             /* ... at the window's opening */
	uint64_t iters, iters0;       /* a rep block's further iterations (of its last) */
	uint32_t n;                   /* instructions */
	uint16_t *off;                /* each instruction's offset from vaddr */
	int rep;                      /* 1: ends in a rep string instruction */
	struct site *sites;           /* its instructions with a callback */
};

/* An instruction that needs a callback (a marker, a rep string instruction): its block
 * and its place in it. */
struct site {
	struct block *b;
	uint32_t idx;
	int kind;                     /* 1 open marker, 0 close marker, 2 rep string */
	struct site *next;            /* the block's next */
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static struct block **blocks;
static size_t nblocks, cap;
static const char *out_path;
static uint64_t *tb_runs;     /* translation blocks started, so far (a counter slot) */
static uint64_t iterations;   /* further iterations of rep string instructions, so far */
static uint64_t last_rep_vaddr, last_rep_tb;   /* the last rep run and tb_runs then */
static uint64_t open_iters;   /* at the window's opening */
static int window_is_open;
static uint64_t seq;
static uint64_t *halts, open_halts; /* hlt and mwait executed, so far (a counter slot) and
				     * at the opening */

/*
 * Counters: the slots the inline adds count into, in the API of the qemu built against.
 * API 1 (qemu 8.x and before) adds to a plain address. API 2 (qemu 9.0) removed that
 * (qemu_plugin_register_vcpu_{insn,tb}_exec_inline) for per-vCPU scoreboards: an add
 * names a scoreboard and an offset in its vCPU's entry. There the slots are carved out
 * of scoreboards of SLAB_SLOTS slots each (one vCPU: entry 0, whose address stays put
 * once the vCPU exists, so the slabs are made at the first translation; qemu 10 gives
 * each scoreboard 16 entries, 8 MiB a slab), and given out again from the start after a
 * flush. Either way a slot reads as a uint64_t in this
 * process, as the instructions' counts always were.
 */
#if QEMU_PLUGIN_VERSION >= 2
#define SLAB_SLOTS (1u << 16)
struct slab {
	struct qemu_plugin_scoreboard *sb;
	uint64_t *base;               /* entry 0: SLAB_SLOTS slots */
};
static struct slab *slabs;
static size_t nslabs, slab_at, slab_used; /* made; in use; slots used of slabs[slab_at] */

/* @n zeroed slots (n <= MAX_INSNS + 2), or NULL out of memory. */
static uint64_t *slots_new(size_t n)
{
	if (nslabs && slab_used + n > SLAB_SLOTS) {
		slab_at++;
		slab_used = 0;
	}
	if (slab_at == nslabs) {
		struct slab *ns = realloc(slabs, (nslabs + 1) * sizeof(*ns));

		if (!ns)
			return NULL;
		slabs = ns;
		slabs[nslabs].sb = qemu_plugin_scoreboard_new(SLAB_SLOTS * sizeof(uint64_t));
		slabs[nslabs].base = qemu_plugin_scoreboard_find(slabs[nslabs].sb, 0);
		nslabs++;
	}
	slab_used += n;
	return slabs[slab_at].base + slab_used - n;
}

/* A flush: every slot given out is free again (zeroed). */
static void slots_reset(void)
{
	for (size_t i = 0; i < nslabs && i <= slab_at; i++)
		memset(slabs[i].base, 0, (i < slab_at ? SLAB_SLOTS : slab_used) * sizeof(uint64_t));
	slab_at = slab_used = 0;
}

static void slots_free(uint64_t *p) { (void)p; }

static struct slab lasting;

/* The two slots that outlive flushes (tb_runs, halts), in a scoreboard of their own. */
static uint64_t *slots_lasting(void)
{
	lasting.sb = qemu_plugin_scoreboard_new(2 * sizeof(uint64_t));
	lasting.base = qemu_plugin_scoreboard_find(lasting.sb, 0);
	return lasting.base;
}

/* The scoreboard entry of slot @p. */
static qemu_plugin_u64 slot_entry(const uint64_t *p)
{
	const struct slab *s = &lasting;

	if (p >= s->base && p < s->base + 2)
		return (qemu_plugin_u64){ s->sb, (size_t)(p - s->base) * sizeof(*p) };
	/* the slab in use first: the slot was just given out */
	for (size_t i = 0; i <= nslabs; i++) {
		s = &slabs[i ? i - 1 : slab_at];
		if (p >= s->base && p < s->base + SLAB_SLOTS)
			return (qemu_plugin_u64){ s->sb, (size_t)(p - s->base) * sizeof(*p) };
	}
	abort(); /* not a slot */
}

/* Each start of @insn adds 1 to slot @p. */
static void count_insn(struct qemu_plugin_insn *insn, uint64_t *p)
{
	qemu_plugin_register_vcpu_insn_exec_inline_per_vcpu(insn, QEMU_PLUGIN_INLINE_ADD_U64,
							    slot_entry(p), 1);
}

/* Each start of @tb adds 1 to slot @p. */
static void count_tb(struct qemu_plugin_tb *tb, uint64_t *p)
{
	qemu_plugin_register_vcpu_tb_exec_inline_per_vcpu(tb, QEMU_PLUGIN_INLINE_ADD_U64,
							  slot_entry(p), 1);
}
#else
static uint64_t *slots_new(size_t n) { return calloc(n, sizeof(uint64_t)); }
static void slots_reset(void) {}
static void slots_free(uint64_t *p) { free(p); }

static uint64_t *slots_lasting(void)
{
	static uint64_t lasting[2];

	return lasting;
}

static void count_insn(struct qemu_plugin_insn *insn, uint64_t *p)
{
	qemu_plugin_register_vcpu_insn_exec_inline(insn, QEMU_PLUGIN_INLINE_ADD_U64, p, 1);
}

static void count_tb(struct qemu_plugin_tb *tb, uint64_t *p)
{
	qemu_plugin_register_vcpu_tb_exec_inline(tb, QEMU_PLUGIN_INLINE_ADD_U64, p, 1);
}
#endif

/* The bytes of @insn into @buf (16 bytes: an x86 instruction has at most 15); returns
 * how many. API 3 (qemu 9.1) copies them out; before, qemu handed a pointer. */
static size_t insn_bytes(const struct qemu_plugin_insn *insn, uint8_t *buf)
{
#if QEMU_PLUGIN_VERSION >= 3
	return qemu_plugin_insn_data(insn, buf, 16);
#else
	size_t len = qemu_plugin_insn_size(insn);

	len = len > 16 ? 16 : len;
	memcpy(buf, qemu_plugin_insn_data(insn), len);
	return len;
#endif
}

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

/* A rep string instruction starts a run: a further iteration when the instruction run
 * just before was this one (under -icount qemu's translator loops through the block of
 * the instruction alone, once more than its count to see rcx at 0: repz_opt is off), a
 * fresh execution otherwise. */
static void rep_exec(struct site *st)
{
	uint64_t v = st->b->vaddr + st->b->off[st->idx];

	/* a further iteration runs the instruction's block of its own right after it:
	 * one block started since (this one), and that was the same instruction */
	if (last_rep_vaddr == v && *tb_runs == last_rep_tb + 1 && st->idx == 0) {
		st->b->iters++;
		iterations++;
	}
	st->b->execs[st->idx]++;
	last_rep_vaddr = v;
	last_rep_tb = *tb_runs;
}

static void window_open(void)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nblocks; i++) {
		memcpy(blocks[i]->execs0, blocks[i]->execs, blocks[i]->n * sizeof(uint64_t));
		blocks[i]->iters0 = blocks[i]->iters;
	}
	pthread_mutex_unlock(&lock);
	open_iters = iterations;
	open_halts = *halts;
	window_is_open = 1;
}

/* The B lines of block @b: a line per run of instructions with equal counts in the
 * window (all of them, unless a run was cut short by an exception). */
static uint64_t block_lines(FILE *f, const struct block *b)
{
	uint64_t lines = 0;

	for (uint32_t i = 0; i < b->n;) {
		uint64_t e = b->execs[i] - b->execs0[i];
		uint32_t j = i + 1;

		while (j < b->n && b->execs[j] - b->execs0[j] == e)
			j++;
		if (e) {
			fprintf(f, "B %" PRIx64 " %" PRIu64 " %" PRIu64 " ", b->vaddr, e,
				j == b->n ? b->iters - b->iters0 : 0);
			for (uint32_t k = i; k < j; k++)
				fprintf(f, "%s%u", k > i ? "," : "", b->off[k]);
			fputc('\n', f);
			lines++;
		}
		i = j;
	}
	return lines;
}

/* Instructions started in the window: every block's counts since the opening. */
static uint64_t window_insns(void)
{
	uint64_t n = 0;

	for (size_t i = 0; i < nblocks; i++)
		for (uint32_t k = 0; k < blocks[i]->n; k++)
			n += blocks[i]->execs[k] - blocks[i]->execs0[k];
	return n;
}

static void window_close(void)
{
	char tmp[4096];
	uint64_t insns, iters, nb = 0;
	FILE *f;

	if (!window_is_open || !out_path)
		return;
	window_is_open = 0;
	iters = iterations - open_iters;
	snprintf(tmp, sizeof(tmp), "%s.tmp", out_path);
	f = fopen(tmp, "w");
	if (!f) {
		fprintf(stderr, "insn_count: cannot write %s\n", tmp);
		return;
	}
	pthread_mutex_lock(&lock);
	insns = window_insns(); /* the close marker not yet counted */
	fprintf(f, "# xdptc insn_count 1\nwindow %" PRIu64 " insns %" PRIu64 " retired %" PRIu64
		   " string_iterations %" PRIu64 " halts %" PRIu64 "\n", ++seq, insns,
		insns - iters, iters, *halts - open_halts);
	for (size_t i = 0; i < nblocks; i++)
		nb += block_lines(f, blocks[i]);
	pthread_mutex_unlock(&lock);
	fprintf(f, "end %" PRIu64 "\n", nb);
	if (fclose(f) || rename(tmp, out_path))
		fprintf(stderr, "insn_count: cannot write %s\n", out_path);
}

static void site_exec(unsigned int vcpu, void *udata)
{
	struct site *st = udata;

	(void)vcpu;
	if (st->kind == 2) {
		rep_exec(st);
		return;
	}
	if (st->kind == 0)
		window_close();
	st->b->execs[st->idx]++; /* the marker itself: before the window, or after it */
	if (st->kind == 1)
		window_open();
}

/* Does the instruction in @d[0..len) halt the vCPU until an interrupt: hlt (f4) or
 * mwait (0f 01 c9)? Under -icount,sleep=off the clock then skips to the next timer,
 * time in which no instruction runs. (qemu's vCPU idle callback does not fire under
 * icount's round-robin loop, so the instructions are counted instead.) */
static int is_halt(const uint8_t *d, size_t len)
{
	return (len == 1 && d[0] == 0xf4) ||
	       (len == 3 && d[0] == 0x0f && d[1] == 0x01 && d[2] == 0xc9);
}

/* qemu flushed all its translated code (its code buffer filled up; blocks whose guest
 * code changed are invalidated one by one, without this callback, and their records
 * stay until the next flush): no block of before will run again. Outside a window their
 * records are dropped; inside one they are kept until it closes (their counts are its). */
static void tb_flush(qemu_plugin_id_t id)
{
	(void)id;
	if (window_is_open)
		return;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < nblocks; i++) {
		struct block *b = blocks[i];

		while (b->sites) {
			struct site *st = b->sites;

			b->sites = st->next;
			free(st);
		}
		slots_free(b->execs);
		free(b->execs0);
		free(b->off);
		free(b);
	}
	nblocks = 0;
	slots_reset();
	pthread_mutex_unlock(&lock);
}

static void tb_trans(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	struct block *b;

	(void)id;
	if (!n)
		return;
	if (n > MAX_INSNS) { /* qemu's own limit is lower (TCG_MAX_INSNS, 512) */
		fprintf(stderr, "insn_count: a block of %zu instructions, over %d\n", n, MAX_INSNS);
		abort();
	}
	if (!tb_runs) { /* the first translation: the vCPU exists (API 2's scoreboards) */
		tb_runs = slots_lasting();
		halts = tb_runs + 1;
	}
	pthread_mutex_lock(&lock);
	b = calloc(1, sizeof(*b));
	if (b)
		b->execs = slots_new(n);
	pthread_mutex_unlock(&lock);
	if (!b || !b->execs || !(b->off = calloc(n, sizeof(*b->off))) ||
	    !(b->execs0 = calloc(n, sizeof(*b->execs0)))) {
		fprintf(stderr, "insn_count: out of memory\n");
		abort();
	}
	b->vaddr = qemu_plugin_tb_vaddr(tb);
	b->n = (uint32_t)n;
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint8_t d[16];
		size_t len = insn_bytes(insn, d);
		int k = marker_kind(d, len);

		b->off[i] = (uint16_t)(qemu_plugin_insn_vaddr(insn) - b->vaddr);
		if (k < 0 && is_rep_string(d, len))
			k = 2;
		if (k == 2)
			b->rep = 1;
		if (k >= 0) { /* counted by its callback, in order with what it decides */
			struct site *st = calloc(1, sizeof(*st));

			if (!st)
				abort();
			st->b = b;
			st->idx = (uint32_t)i;
			st->kind = k;
			st->next = b->sites;
			b->sites = st;
			qemu_plugin_register_vcpu_insn_exec_cb(insn, site_exec,
							       QEMU_PLUGIN_CB_NO_REGS, st);
			continue;
		}
		/* each instruction counted as it starts: a block cut short by an exception
		 * counts only what ran (as the icount clock does), not its whole length */
		count_insn(insn, &b->execs[i]);
		if (is_halt(d, len))
			count_insn(insn, halts);
	}
	count_tb(tb, tb_runs);
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
	qemu_plugin_register_flush_cb(id, tb_flush);
	return 0;
}
