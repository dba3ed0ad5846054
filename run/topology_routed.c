/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_routed.c: the routed topology (topologies/routed.sh): the sender's namespace,
 * a router's namespace that forwards, and the DUT's namespace behind it, each hop a veth
 * pair: a pod behind a routed host. The sender's UDP socket builds the skb; the router's
 * veth receives it (veth_xmit -> __netif_rx), ip_rcv_core orphans it (no longer its
 * socket's), ip_forward -> ip_forward_finish hands it to the DUT's pair
 * (ip_finish_output2 -> veth_xmit), and the DUT's end receives the forwarded skb. The
 * modes run on the DUT's end, as on veth. After the
 * passes, the router's own counter says how many packets it forwarded (run.json's
 * "router").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "netdev_stats.h"
#include "netns.h"
#include "run_ctx.h"
#include "topology_local.h"

/* routed.sh's keys of its own: the router's namespace and its two veth ends */
static char rtr_ns[32], rtr_snd_dev[16], rtr_dut_dev[16];

static const struct topology_key routed_keys[] = {
	{ "ROUTER_NS", rtr_ns, sizeof(rtr_ns) },
	{ "ROUTER_SND_DEV", rtr_snd_dev, sizeof(rtr_snd_dev) },
	{ "ROUTER_DUT_DEV", rtr_dut_dev, sizeof(rtr_dut_dev) },
	{ NULL, NULL, 0 },
};

/* The packets the router's namespace forwarded (its IP MIB's ForwDatagrams, counted in
 * ip_forward_finish; /proc/net/snmp as that namespace shows it) into @fwd. Call inside
 * that namespace. Returns 0, or -errno (-ENOENT: no such counter). */
static int forwarded_read(uint64_t *fwd)
{
	char names[2048], vals[2048], *n, *v, *sn, *sv;
	FILE *f = fopen("/proc/thread-self/net/snmp", "re");
	int e = -ENOENT;

	if (!f)
		return -errno;
	while (fgets(names, sizeof(names), f) && fgets(vals, sizeof(vals), f)) {
		if (strncmp(names, "Ip:", 3) || strncmp(vals, "Ip:", 3))
			continue;
		n = strtok_r(names + 3, " \n", &sn);
		v = strtok_r(vals + 3, " \n", &sv);
		for (; n && v; n = strtok_r(NULL, " \n", &sn), v = strtok_r(NULL, " \n", &sv))
			if (!strcmp(n, "ForwDatagrams")) {
				*fwd = strtoull(v, NULL, 10);
				e = 0;
			}
		break;
	}
	fclose(f);
	return e;
}

/* run.json's "router": the router's namespace, the packets it forwarded and those the
 * DUT received, over the topology's last build (it is built anew for each segment of
 * the alternating pass), said on stderr too. */
static int routed_after_passes(struct run_ctx *c)
{
	struct netdev_stats ns;
	uint64_t fwd = 0;
	int saved, e;

	if ((e = netns_enter(rtr_ns, &saved)) == 0) {
		e = forwarded_read(&fwd);
		netns_return(saved);
	}
	if (!e && (e = netns_enter(c->topo.dut_ns, &saved)) == 0) {
		e = netdev_stats_read(c->topo.dut_dev, &ns);
		netns_return(saved);
	}
	if (e) {
		fprintf(stderr, "xdptc: note: the router's forwarding counter could not be read: "
				"%s\n", strerror(-e));
		json_object_set_new(c->run, "router", json_null());
		return 0;
	}
	fprintf(stderr, "xdptc: the router %s forwarded %llu packets; %s received %llu\n",
		rtr_ns, (unsigned long long)fwd, c->topo.dut_dev,
		(unsigned long long)ns.rx_packets);
	json_object_set_new(c->run, "router",
			    json_pack("{s:s, s:s, s:s, s:I, s:I}", "netns", rtr_ns, "from_sender",
				      rtr_snd_dev, "to_dut", rtr_dut_dev, "forwarded_packets",
				      (json_int_t)fwd, "dut_rx_packets",
				      (json_int_t)ns.rx_packets));
	return 0;
}

const struct topology_desc topology_routed = {
	.name = "routed",
	.script = "routed.sh",
	.help = "the sender, a router namespace that forwards, and the DUT behind it, each hop "
		"a veth pair (a pod behind a routed host; the UDP socket sender only)",
	/* the veth topology's: one hop more of the same kind */
	.host = { .packets = 200000, .reps = 21 },
	.icount = { .packets = 20000, .reps = 11 },
	.allows = TOPOLOGY_REBUILD,
	.udp_only = "sends from the sender's UDP socket through the router (IP forwarding); "
		    "the raw senders address their frames to the DUT's own MAC, behind it",
	.keys = routed_keys,
	.icount_inside = true,
	.doctor_item = "xdp_native_veth",
	.timed = "CPU time in ns of the sender thread, which runs both veth receives and the "
		 "router's forwarding in its softirq, + its CPU's ksoftirqd/NAPI threads",
	.dut_open = local_dut_open,
	.trial_env = veth_pair_trial_env,
	.after_passes = routed_after_passes,
};
