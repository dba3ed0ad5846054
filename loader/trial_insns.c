/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "trial_insns.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <unistd.h>
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "insn_window.h"
#include "kallsyms.h"
#include "trial.h"

void trial_insns_open(struct insn_clock *c)
{
	c->tsc = insn_tsc();
	insn_mark_open();
}

void trial_insns_close(struct insn_clock *c)
{
	insn_mark_close();
	c->tsc = insn_tsc() - c->tsc;
	c->marked = 1;
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

/* The window's functions from the plugin's blocks, named as they are now (the trial's
 * program still attached). */
static int read_window(const struct trial_env *env, struct insn_window *w,
		       struct insn_funcs **funcs, char *why, size_t len)
{
	struct ksym_table bpf = { 0 };
	struct insn_names names = { &bpf, &kernel_syms };
	int e;

	*funcs = NULL;
	if (env->insn_functions) {
		if (!kernel_syms_read) {
			e = ksym_table_load("/proc/kallsyms", "/proc/modules", &kernel_syms);
			if (e) {
				snprintf(why, len, "cannot read /proc/kallsyms: %s", strerror(-e));
				return e;
			}
			kernel_syms_read = true;
		}
		e = bpf_syms(&bpf);
		*funcs = e ? NULL : calloc(1, sizeof(**funcs));
		if (!*funcs) {
			ksym_table_free(&bpf);
			snprintf(why, len, "out of memory");
			return -ENOMEM;
		}
	}
	e = insn_window_read(env->insns_path, INSN_WINDOW_NEXT, 5000, *funcs ? &names : NULL, w,
			     *funcs, why, len);
	ksym_table_free(&bpf);
	if (e && *funcs) {
		insn_funcs_free(*funcs);
		free(*funcs);
		*funcs = NULL;
	}
	return e;
}

int trial_insns_collect(const struct trial_env *env, const struct insn_clock *c,
			struct trial_result *r)
{
	struct insn_window w;
	int e;

	if (!c->marked)
		return 0;
	e = read_window(env, &w, &r->insn_funcs, r->error, sizeof(r->error));
	if (e)
		return e;
	r->have_insns = true;
	r->insn_window = w.insns;
	r->insn_retired = w.retired;
	r->insn_string_iterations = w.iterations;
	r->insn_clock = c->tsc;
	r->insn_halts = w.halts;
	/* what the clock ran beyond the instructions is idle time it skipped, if the vCPU
	 * halted; else nothing but the rdtsc and markers around the window */
	r->insn_idle_ns = w.halts && c->tsc > w.insns ? c->tsc - w.insns : 0;
	if (r->insn_funcs)
		r->insn_funcs->pkts = (double)r->pkts_at_dut;
	if (r->pkts_at_dut) {
		r->retired_instructions_per_pkt = (double)w.retired / (double)r->pkts_at_dut;
		r->string_iterations_per_pkt = (double)w.iterations / (double)r->pkts_at_dut;
		r->window_instructions_per_pkt = (double)w.insns / (double)r->pkts_at_dut;
	} else {
		r->retired_instructions_per_pkt = r->string_iterations_per_pkt =
			r->window_instructions_per_pkt = NAN;
	}
	r->insn_clock_gap = w.insns ? ((double)w.insns - (double)c->tsc) / (double)w.insns : NAN;
	if (r->valid && !w.halts && !(fabs(r->insn_clock_gap) <= INSN_CLOCK_TOLERANCE)) {
		r->valid = false;
		snprintf(r->invalid_reason, sizeof(r->invalid_reason),
			 "the plugin counted %llu instructions in the window, the icount clock "
			 "ran %llu with the vCPU never idle: they differ by %.4f%% (over %.2f%%)",
			 (unsigned long long)w.insns, (unsigned long long)c->tsc,
			 100 * r->insn_clock_gap, 100 * INSN_CLOCK_TOLERANCE);
	}
	return 0;
}
