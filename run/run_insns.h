/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_insns.h: a run's exact instruction profiles (the icount engine's plugin): each
 * arm's valid timing windows summed per function, and run.json's "insn_profiles".
 */
#ifndef XDPTC_RUN_INSNS_H
#define XDPTC_RUN_INSNS_H

#include <jansson.h>

#include "dut.h"
#include "insn_window.h"
#include "trial.h"
#include "run_opts.h"

/* The functions kept by name in run.json, per arm; the rest is one "[other functions]"
 * row, so that the rows still add up to the total. */
#define RUN_INSNS_TOP 150

/* A run's plugin figures: per arm its valid timing windows per function, and the
 * self-check's record (run.json insn_selfcheck). */
struct run_insns {
	struct insn_funcs arm[RUN_MAX_MODES];
	json_t *check;
};

/* run_insns_setup - the plugin's windows for the trials in @env: counted by the guest
 * DUT @dut's agent (virtio under icount), or, when @dut is NULL, by this process inside
 * the icount guest (XDPTC_INSNS); then the self-check on known work. Returns 0, or -1
 * (said why) when there is no plugin or it does not count known work exactly. */
int run_insns_setup(struct run_insns *ri, struct trial_env *env, struct dut *dut);

/* run_insns_write - run.json's "insn_profiles" (one entry per arm of @o) and
 * "insn_selfcheck" into @run, when @env counted with the plugin; frees the arms. */
void run_insns_write(struct run_insns *ri, const struct trial_env *env,
		     const struct run_opts *o, json_t *run);

void run_insns_free(struct run_insns *ri);

/* run_insns_add - add the valid timing trial @r's functions into @acc (and release
 * them from @r). */
void run_insns_add(struct insn_funcs *acc, struct trial_result *r);

/* run_insns_json - one entry of "insn_profiles" for arm @label: its windows, packets,
 * totals and functions per packet in both conventions (largest first), each marked
 * "background" when it is the guest's idle, timer or RCU work (insn_func_background).
 * NULL when @acc holds no window. */
json_t *run_insns_json(const struct insn_funcs *acc, const char *label);

/* run_insns_selfcheck - the plugin's self-check on known work (insn_selfcheck) at
 * @path, or on the guest DUT @dut when @path is NULL, said on stderr: run.json's
 * "insn_selfcheck" into *@out. Returns 0 when exact, -1 when not or when the plugin
 * wrote nothing (said why). */
int run_insns_selfcheck(const char *path, struct dut *dut, json_t **out);

#endif
