/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * trial_conserve.h: whether a window's packets add up (conservation), when this machine
 * sent them and when they came from outside, and what the NIC itself says of them
 * (its ethtool statistics). trial.c's compute step calls these.
 */
#ifndef XDPTC_TRIAL_CONSERVE_H
#define XDPTC_TRIAL_CONSERVE_H

#include "ethtool_stats.h"
#include "trial_result.h"

/* Conservation: a trial (a window) whose unexplained packets (sent, less those counted at
 * the DUT and those lost before it) are more than this share of those sent is invalid */
#define UNEXPLAINED_MAX 0.001
/* ... and, with traffic from outside, this many packets more (conserve_outside) */
#define OUTSIDE_SLACK_PKTS 256

/* conserve_sent - this machine sent @r->sent packets: sent = at the DUT + lost before it,
 * to UNEXPLAINED_MAX, and the program decided every packet the DUT's driver received;
 * sets r->lost_before_dut, r->unexplained, r->valid and r->invalid_reason. */
void conserve_sent(const struct trial_env *env, struct trial_result *r);

/* conserve_outside - the traffic came from outside: the NIC's counters stand for the sent
 * count (r->offered, r->offered_pps over r->wall_ns); sets the same fields. */
void conserve_outside(struct trial_result *r);

/* nic_read - the DUT device's ethtool statistics into @set, in its namespace (left empty
 * when it has none, or the DUT is a guest's). */
void nic_read(const struct trial_env *env, struct ethtool_stats_set *set);

/* nic_deltas - the statistics of @a and @b (a window's two ends) that name drops, misses,
 * discards, errors or XDP and moved, into r->nic (released by trial_result_release). */
void nic_deltas(const struct ethtool_stats_set *a, const struct ethtool_stats_set *b,
		struct trial_result *r);

#endif
