/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_veth_napi.c: the veth-napi topology: the veth topology's pair (its script,
 * topologies/veth.sh), with veth receiving in NAPI mode for every mode. veth_xmit
 * (drivers/net/veth.c) hands an skb to the peer's NAPI (veth_forward_skb ->
 * veth_xdp_rx, then veth_poll -> veth_xdp_rcv) only when the receiving queue has NAPI
 * (GRO on, or an XDP program attached: veth_enable_xdp) and the skb is eligible for GRO
 * (veth_skb_is_eligible_for_gro: no TSO on the sending veth, or a socket's skb meeting
 * rx-gro-list or rx-udp-gro-forwarding on the receiver); every other skb goes to the
 * sending CPU's backlog (__netif_rx). Attaching XDP turns the sending veth's TSO off
 * (veth_xdp_set -> veth_fix_features), so on the veth topology a UDP socket's packets
 * take veth's NAPI for xdpdrv and the backlog for tc. Here GRO is on at the DUT's end and
 * TSO off at the sender's, so tc, tcx and generic XDP take veth_poll too, and then
 * napi_gro_receive (GRO for tc and tcx, where UDP without a GRO socket is not merged; not
 * for generic XDP: netif_elide_gro) and the list receive, which xdpdrv's drop in
 * veth_xdp_rcv_skb comes before. After the passes, the DUT's own
 * counters say how many of its packets veth's NAPI took (run.json's "dut_napi").
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ethtool_stats.h"
#include "netdev_stats.h"
#include "netns.h"
#include "run_ctx.h"
#include "topology_local.h"

/* GRO on at the DUT's end, TSO off at the sender's: every skb eligible for veth's NAPI. */
static void veth_napi_rx_prepare(struct run_ctx *c)
{
	const struct topology *t = &c->topo;
	char cmd[320];

	snprintf(cmd, sizeof(cmd), "ip netns exec '%s' ethtool -K '%s' gro on >/dev/null && "
		 "ip netns exec '%s' ethtool -K '%s' tso off >/dev/null", t->dut_ns, t->dut_dev,
		 t->snd_ns, t->snd_dev);
	if (system(cmd))
		fprintf(stderr, "xdptc: note: GRO on for %s or TSO off for %s failed: veth's "
				"NAPI may not take every mode's packets (run.json's dut_napi says)\n",
			t->dut_dev, t->snd_dev);
	else
		fprintf(stderr, "xdptc: veth's NAPI for every mode: GRO on for %s, TSO off for %s\n",
			t->dut_dev, t->snd_dev);
}

/* The packets veth's NAPI took on the DUT (the sum of its queues' rx_queue_N_xdp_packets,
 * counted in veth_xdp_rcv) against every packet it received (rx_packets: those and the
 * backlog's), over the DUT's life so far. Returns 0, or -errno. */
static int napi_packets(const struct topology *t, uint64_t *napi, uint64_t *rx)
{
	struct ethtool_stats_set s = { 0 };
	struct netdev_stats ns;
	int saved, e, q;
	char tail[16];

	if ((e = netns_enter(t->dut_ns, &saved)))
		return e;
	e = ethtool_stats_read(t->dut_dev, &s);
	if (!e)
		e = netdev_stats_read(t->dut_dev, &ns);
	netns_return(saved);
	*napi = 0;
	for (int i = 0; !e && i < s.n; i++)
		if (sscanf(s.names[i], "rx_queue_%d_%15s", &q, tail) == 2 &&
		    !strcmp(tail, "xdp_packets"))
			*napi += s.values[i];
	*rx = e ? 0 : ns.rx_packets;
	ethtool_stats_free(&s);
	return e;
}

/* run.json's "dut_napi": how many of the DUT's packets veth's NAPI took, said on stderr
 * too. The topology is built anew for each segment of the alternating pass: the counts
 * are its last build's (that segment and the passes after it). */
static int veth_napi_after_passes(struct run_ctx *c)
{
	uint64_t napi, rx;

	if (napi_packets(&c->topo, &napi, &rx)) {
		fprintf(stderr, "xdptc: note: the DUT's NAPI counters could not be read\n");
		json_object_set_new(c->run, "dut_napi", json_null());
		return 0;
	}
	fprintf(stderr, "xdptc: veth's NAPI took %llu of the %llu packets %s received\n",
		(unsigned long long)napi, (unsigned long long)rx, c->topo.dut_dev);
	json_object_set_new(c->run, "dut_napi", json_pack("{s:I, s:I}", "napi_packets",
				(json_int_t)napi, "rx_packets", (json_int_t)rx));
	return 0;
}

const struct topology_desc topology_veth_napi = {
	.name = "veth-napi",
	.script = "veth.sh",
	.help = "the veth pair with GRO on at the DUT and TSO off at the sender: every mode's "
		"packets take veth's NAPI (tc's and tcx's then GRO)",
	/* the veth topology's */
	.host = { .packets = 200000, .reps = 21 },
	.icount = { .packets = 20000, .reps = 11 },
	.allows = TOPOLOGY_REBUILD,
	.icount_inside = true,
	.doctor_item = "xdp_native_veth",
	.dut_open = local_dut_open,
	.trial_env = veth_pair_trial_env,
	.rx_prepare = veth_napi_rx_prepare,
	.after_passes = veth_napi_after_passes,
};
