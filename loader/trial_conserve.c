/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* trial_conserve.c: a window's conservation and the NIC's own counters
 * (trial_conserve.h). */
#include "trial_conserve.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netns.h"

/* Conservation when this machine sent the packets: sent = at the DUT + lost before it,
 * to UNEXPLAINED_MAX; and the program decided every packet the DUT's driver received. */
void conserve_sent(const struct trial_env *env, struct trial_result *r)
{
	uint64_t lost;

	/* Some drivers count their XDP_DROP verdicts as rx_dropped (virtio-net does, veth
	 * does not): in XDP modes only the rx drops beyond the program's are loss. */
	lost = r->dut_rx_dropped;
	if (r->mode == MODE_XDPDRV || r->mode == MODE_XDPGENERIC)
		lost = lost > r->dropped ? lost - r->dropped : 0;
	/* veth counts a packet it could not hand to the peer twice: in the sender's
	 * tx_dropped and in the DUT's rx_dropped (veth_xmit's drop and enqueue_to_backlog's,
	 * or veth_get_stats64 adding the DUT queue's peer_tq_xdp_xmit_err to both), so there
	 * the larger of the two is the loss; elsewhere (tap and guest) they add up */
	if (env->veth_pair)
		r->lost_before_dut = lost > r->snd_tx_dropped ? lost : r->snd_tx_dropped;
	else
		r->lost_before_dut = lost + r->snd_tx_dropped;
	lost = r->lost_before_dut;
	r->unexplained = (int64_t)r->sent - (int64_t)r->pkts_at_dut - (int64_t)lost;
	r->valid = r->sent > 0 &&
		   (double)llabs(r->unexplained) <= UNEXPLAINED_MAX * (double)r->sent;
	if (!r->sent)
		snprintf(r->invalid_reason, sizeof(r->invalid_reason), "the sender sent nothing");
	else if (!r->valid)
		snprintf(r->invalid_reason, sizeof(r->invalid_reason),
			 "%lld of the %llu packets sent are unexplained: neither counted at the "
			 "DUT (%llu) nor lost before it (%llu)", (long long)r->unexplained,
			 (unsigned long long)r->sent, (unsigned long long)r->pkts_at_dut,
			 (unsigned long long)lost);
	/* the program must have decided every packet the DUT's driver received: a program
	 * or filter before it on the receive path would take some (seen by the driver,
	 * never by the program) */
	if (r->mode != MODE_NONE && r->valid &&
	    (double)llabs((int64_t)r->dut_rx_packets - (int64_t)r->pkts_at_dut) >
		    UNEXPLAINED_MAX * (double)r->dut_rx_packets) {
		r->valid = false;
		snprintf(r->invalid_reason, sizeof(r->invalid_reason),
			 "the program decided %llu of the %llu packets the DUT's driver received: "
			 "something else on the receive path took the rest",
			 (unsigned long long)r->pkts_at_dut, (unsigned long long)r->dut_rx_packets);
	}
}

/* Conservation when the traffic comes from outside (env->window_ns): the sent count is
 * unknown, so the NIC's own counters stand for it. What the NIC took in is what its
 * driver counted received (rx_packets) or dropped before the program (rx_dropped beyond
 * the program's own XDP drops, rx_missed_errors: no buffer); the program must have
 * decided what the driver counted, to UNEXPLAINED_MAX plus OUTSIDE_SLACK_PKTS (the two
 * counters are read a moment apart while packets keep coming, and a driver adds a NAPI
 * poll's packets to its counter at the poll's end: up to a budget of 64 per queue). */
void conserve_outside(struct trial_result *r)
{
	uint64_t lost = r->dut_rx_dropped;
	double slack;

	r->outside = true;
	if (r->mode == MODE_XDPDRV || r->mode == MODE_XDPGENERIC)
		lost = lost > r->dropped ? lost - r->dropped : 0;
	r->lost_before_dut = lost + r->dut_rx_missed;
	r->offered = r->dut_rx_packets + r->lost_before_dut;
	r->offered_pps = r->wall_ns ? (double)r->offered * 1e9 / (double)r->wall_ns : 0;
	r->unexplained = (int64_t)r->dut_rx_packets - (int64_t)r->pkts_at_dut;
	slack = UNEXPLAINED_MAX * (double)r->dut_rx_packets + OUTSIDE_SLACK_PKTS;
	r->valid = r->offered > 0 && (double)llabs(r->unexplained) <= slack;
	if (!r->offered)
		snprintf(r->invalid_reason, sizeof(r->invalid_reason),
			 "no packet reached the device in the window: is the generator sending?");
	else if (!r->valid)
		snprintf(r->invalid_reason, sizeof(r->invalid_reason),
			 "the program decided %llu of the %llu packets the device's driver "
			 "counted: %lld unexplained (more than 0.1%% and %d)",
			 (unsigned long long)r->pkts_at_dut, (unsigned long long)r->dut_rx_packets,
			 (long long)r->unexplained, OUTSIDE_SLACK_PKTS);
}

/* The DUT device's ethtool statistics, in its namespace (none when it has none). */
void nic_read(const struct trial_env *env, struct ethtool_stats_set *set)
{
	int saved;

	if (dut_is_remote(env->dut) || netns_enter(env->dut->netns, &saved))
		return;
	if (ethtool_stats_read(env->dut->dev, set))
		memset(set, 0, sizeof(*set));
	netns_return(saved);
}

/* The deltas of the statistics that name drops, misses, discards, errors or XDP, where
 * they moved, into r->nic (the caller's to release: trial_result_release). */
void nic_deltas(const struct ethtool_stats_set *a, const struct ethtool_stats_set *b,
		       struct trial_result *r)
{
	if (!a->n || a->n != b->n)
		return;
	r->nic = calloc((size_t)a->n, sizeof(*r->nic));
	if (!r->nic)
		return;
	for (int i = 0; i < a->n; i++)
		if (!strcmp(a->names[i], b->names[i]) && ethtool_stat_is_loss(a->names[i]) &&
		    b->values[i] != a->values[i]) {
			snprintf(r->nic[r->nic_n].name, sizeof(r->nic[0].name), "%s", a->names[i]);
			r->nic[r->nic_n++].delta = (int64_t)(b->values[i] - a->values[i]);
		}
}

