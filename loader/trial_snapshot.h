/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * trial_snapshot.h: the two ends of a trial's window: every counter the window is
 * measured by, read at once (the DUT's verdicts, driver, CPU and probe counters; the
 * sending device's; the guest's vCPU time; this process's own CPU time), and a trial's
 * figures from two such readings and the sender's report. trial.c takes them.
 */
#ifndef XDPTC_TRIAL_SNAPSHOT_H
#define XDPTC_TRIAL_SNAPSHOT_H

#include <stdint.h>

#include "dut.h"
#include "netdev_stats.h"
#include "trial_result.h"
#include "udp_sender.h"

/* Everything read at the start and at the end of a window. */
struct trial_snapshot {
	struct dut_snapshot dut;
	struct netdev_stats snd;
	uint64_t vcpu_ns;
	uint64_t self_ns; /* this process's CPU time (snapshots, the settle wait's polls) */
};

/* trial_snapshot_take - read every counter of @env's window for @mode's path in pass
 * @pass (the profile pass reads the timing pass's) into @s: the DUT's snapshot, the
 * sending device's statistics in its namespace (not when the traffic comes from
 * outside), the guest's vCPU time (ns, CPU_GUEST_VCPU) and this process's CPU time (ns).
 * Returns 0, or -errno from the DUT or the device. */
int trial_snapshot_take(const struct trial_env *env, enum drop_mode mode,
			enum trial_pass pass, struct trial_snapshot *s);

/* trial_compute - trial @r (its mode and pass already set) from its window's snapshots
 * @b and @e and the sender's report @res: the packets (sent, dropped, passed, at the DUT,
 * lost before it: conservation and validity, trial_conserve.h), the CPU times (ns) and
 * the time per packet (NaN when no packet reached the DUT, which makes it invalid), the
 * other load and steal, and the pass's counts or BPF statistics. */
void trial_compute(const struct trial_env *env, const struct trial_snapshot *b,
		   const struct trial_snapshot *e, const struct udp_send_result *res,
		   struct trial_result *r);

#endif
