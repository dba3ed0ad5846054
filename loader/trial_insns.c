/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "trial_insns.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "insn_window.h"
#include "kallsyms.h"
#include "dut.h"
#include "trial_result.h"

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

/* The window's functions from the plugin's blocks, named as they are now (the trial's
 * program still attached). */
static int read_window(const struct trial_env *env, struct insn_window *w,
		       struct insn_funcs **funcs, char *why, size_t len)
{
	return insn_window_next(env->insns_path, w, env->insn_functions ? funcs : NULL, why,
				len);
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
	r->pages_cleared_per_pkt = r->insn_funcs && r->pkts_at_dut
		? insn_funcs_pages_cleared(r->insn_funcs) / (double)r->pkts_at_dut : NAN;
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

void trial_insns_from_dut(struct dut_insns *di, struct trial_result *r)
{
	const struct insn_window *w = &di->w;

	r->have_insns = true;
	r->insn_window = w->insns;
	r->insn_retired = w->retired;
	r->insn_string_iterations = w->iterations;
	r->insn_clock = di->tsc;
	r->insn_halts = w->halts;
	r->insn_idle_ns = w->halts && di->tsc > w->insns ? di->tsc - w->insns : 0;
	r->insn_clock_gap = w->insns ? ((double)w->insns - (double)di->tsc) / (double)w->insns
				     : NAN;
	r->insn_funcs = di->funcs;
	di->funcs = NULL;
	if (r->insn_funcs)
		r->insn_funcs->pkts = (double)r->pkts_at_dut;
	r->pages_cleared_per_pkt = r->insn_funcs && r->pkts_at_dut
		? insn_funcs_pages_cleared(r->insn_funcs) / (double)r->pkts_at_dut : NAN;
	if (r->pkts_at_dut) {
		r->retired_instructions_per_pkt = (double)w->retired / (double)r->pkts_at_dut;
		r->string_iterations_per_pkt = (double)w->iterations / (double)r->pkts_at_dut;
		r->window_instructions_per_pkt = (double)w->insns / (double)r->pkts_at_dut;
	} else {
		r->retired_instructions_per_pkt = r->string_iterations_per_pkt =
			r->window_instructions_per_pkt = NAN;
	}
	if (r->valid && !w->halts && !(fabs(r->insn_clock_gap) <= INSN_CLOCK_TOLERANCE)) {
		r->valid = false;
		snprintf(r->invalid_reason, sizeof(r->invalid_reason),
			 "the plugin counted %llu instructions in the window, the icount clock "
			 "ran %llu with the vCPU never idle: they differ by %.4f%% (over %.2f%%)",
			 (unsigned long long)w->insns, (unsigned long long)di->tsc,
			 100 * r->insn_clock_gap, 100 * INSN_CLOCK_TOLERANCE);
	}
}
