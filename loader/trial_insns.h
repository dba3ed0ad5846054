/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * trial_insns.h: a trial's exact instruction counts in an icount guest (the plugin's
 * window, insn_window.h) and their cross-check against the icount clock.
 *
 * The sender child opens the plugin's window right after it starts its own window and
 * closes it right before it ends (timing pass only), reading the icount clock (the
 * guest's TSC) just outside the markers.
 * The parent then reads the plugin's window, attributes it per function (kallsyms read
 * while the trial's program is attached) and checks it against the clock.
 */
#ifndef XDPTC_TRIAL_INSNS_H
#define XDPTC_TRIAL_INSNS_H

#include <stdint.h>

struct trial_env;
struct trial_result;

/* The icount clock around the plugin's window, read by the sender child. */
struct insn_clock {
	int marked;         /* the child executed the markers */
	uint64_t tsc;       /* TSC ticks from just before the open marker to just after the
			     * close marker: guest ns = instructions plus skipped idle time */
};

/* The agreement required between the plugin's count and the icount clock when the vCPU
 * never idled in the window: a relative difference of at most 1e-4 (0.01%). When it
 * idled (the plugin counts its halts), the clock's excess is the idle time it skipped:
 * named, not checked. */
#define INSN_CLOCK_TOLERANCE 1e-4

/* In the sender child: open (start) and close the window. */
void trial_insns_open(struct insn_clock *c);
void trial_insns_close(struct insn_clock *c);

/* In the parent, after the window: read the plugin's window into @r (have_insns,
 * insn_*, retired_instructions_per_pkt, ...; per function in r->insn_funcs when
 * env->insn_functions), check it against @c and mark @r invalid, with the reason, when
 * they disagree beyond INSN_CLOCK_TOLERANCE. A window the plugin did not write is an
 * error (-errno, r->error). */
int trial_insns_collect(const struct trial_env *env, const struct insn_clock *c,
			struct trial_result *r);

struct dut_insns;

/* trial_insns_from_dut - @r's plugin figures from a guest DUT's window @di (virtio under
 * icount, whose vCPU idles between packets: its idle time is named, not checked); takes
 * over di->funcs. */
void trial_insns_from_dut(struct dut_insns *di, struct trial_result *r);

#endif
