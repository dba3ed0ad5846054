/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_container.c: the container topology (topologies/container.sh): a container's
 * namespace joined to a host-side namespace by a veth pair and, where the kernel has
 * netkit (Linux 6.7, CONFIG_NETKIT), by a netkit pair beside it. The sender is the
 * container's UDP socket; the veth modes (tc, tcx, xdpdrv, xdpgeneric, none) run on the
 * host side's veth, the netkit mode as the netkit primary's BPF_NETKIT_PEER program, on
 * what the container transmits. Every arm is interleaved in one run, so every delta is
 * within it. The skb exists before any of these hooks runs: the container's socket built
 * it. A netkit drop frees it in netkit_xmit (drivers/net/netkit.c), before __netif_rx
 * and __netif_receive_skb_core; a veth one after veth_xmit handed it on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_time.h"
#include "dut_local.h"
#include "mode_refuse.h"
#include "netkit.h"
#include "run_ctx.h"

/* Why netkit is left out of this run (NULL: it is not), for run.json. */
static char netkit_refused[192];

/* container.sh's keys of its own: the netkit pair beside the veth pair (its peer in the
 * container's namespace, its primary in the host side's), or why there is none */
static char nk_snd_dev[16], nk_dut_dev[16], nk_snd_addr[48], nk_dut_addr[48];
static char nk_reason[160];

static const struct topology_key container_keys[] = {
	{ "NETKIT_SND_DEV", nk_snd_dev, sizeof(nk_snd_dev) },
	{ "NETKIT_DUT_DEV", nk_dut_dev, sizeof(nk_dut_dev) },
	{ "NETKIT_SND_ADDR", nk_snd_addr, sizeof(nk_snd_addr) },
	{ "NETKIT_DUT_ADDR", nk_dut_addr, sizeof(nk_dut_addr) },
	{ "NETKIT_REASON", nk_reason, sizeof(nk_reason) },
	{ NULL, NULL, 0 },
};

static bool has_mode(const struct run_opts *o, enum drop_mode m)
{
	for (int i = 0; i < o->nmodes; i++)
		if (o->modes[i] == m)
			return true;
	return false;
}

/* "6.1", "6.12.95-1~bpo12+1": does that kernel predate netkit (6.7)? */
static bool kernel_before_netkit(const char *spec, char *ver, size_t len)
{
	unsigned int major = 0, minor = 0;

	if (!spec || sscanf(spec, "%u.%u", &major, &minor) != 2)
		return false;
	snprintf(ver, len, "%u.%u", major, minor);
	return major < 6 || (major == 6 && minor < 7);
}

/* The options against the machine: the container's sender is its UDP socket; netkit,
 * named in --modes, must exist where it will run (this kernel, or the guest kernel under
 * the icount engine, by its version). Returns -1 to go on, or EXIT_USAGE. */
static int container_preflight(const struct run_opts *o)
{
	char why[256], ver[32];

	if (!has_mode(o, MODE_NETKIT) || !o->modes_given)
		return -1; /* the default modes: netkit is left out where there is none, said */
	if (o->engine == ENGINE_ICOUNT) {
		const char *k = o->guest_kernel ? o->guest_kernel : "6.1";

		if (kernel_before_netkit(k, ver, sizeof(ver))) {
			fprintf(stderr, "xdptc: --modes netkit: the guest kernel %s has no netkit "
					"(Linux 6.7 or newer: --guest-kernel 6.12); --modes without "
					"netkit measures the veth arms\n", ver);
			return 2;
		}
		return -1;
	}
	if (netkit_probe(why, sizeof(why)) == 0) {
		fprintf(stderr, "xdptc: --modes netkit: %s; --modes without netkit measures the "
				"veth arms (or --engine icount --guest-kernel 6.12)\n", why);
		return 2;
	}
	return -1;
}

/* netkit taken out of the run, with @why, the other modes kept. Returns 0, or -1 when
 * no mode is left (said why). */
static int netkit_leave_out(struct run_ctx *c, const char *why)
{
	snprintf(netkit_refused, sizeof(netkit_refused), "%s", why);
	fprintf(stderr, "xdptc: netkit left out: %s; the veth arms run\n", why);
	return mode_leave_out(c, MODE_NETKIT, why);
}

/* The DUT is the host side's namespace: its veth end, and the netkit primary for the
 * netkit mode. */
static int container_dut_open(struct run_ctx *c)
{
	const struct topology *t = &c->topo;

	netkit_refused[0] = '\0';
	dut_local_init(&c->dut, t->dut_ns, t->dut_dev);
	if (nk_dut_dev[0]) {
		c->dut.dev2 = nk_dut_dev;
		c->dut.dev2_modes = 1u << MODE_NETKIT;
		fprintf(stderr, "xdptc: the container %s sends through the veth %s -> %s and the "
				"netkit %s -> %s (netkit peer programs on %s)\n", t->snd_ns,
			t->snd_dev, t->dut_dev, nk_snd_dev, nk_dut_dev, nk_dut_dev);
		return 0;
	}
	fprintf(stderr, "xdptc: the container %s sends through the veth %s -> %s; no netkit "
			"pair: %s\n", t->snd_ns, t->snd_dev, t->dut_dev,
		nk_reason[0] ? nk_reason : "its script made none");
	if (has_mode(&c->o, MODE_NETKIT))
		return netkit_leave_out(c, nk_reason[0] ? nk_reason
							 : "the topology has no netkit pair");
	return 0;
}

/* As veth's: the receive path the sender starts runs on the sender's CPU (netif_rx's
 * backlog, veth's NAPI; a netkit drop in the sender's own system call). The netkit
 * mode's packets take the second path. */
static int container_trial_env(struct run_ctx *c, struct trial_env *env)
{
	env->cpu_source = CPU_SENDER_AND_SOFTIRQ;
	env->veth_pair = true; /* netkit too counts a full backlog's drop on both ends */
	if (nk_dut_dev[0]) {
		env->path2_snd_dev = nk_snd_dev;
		env->path2_dst_addr = nk_dut_addr;
		env->path2_modes = 1u << MODE_NETKIT;
	}
	if (c->o.sender_cpu >= 0)
		softirq_tasks_find_cpu(c->o.sender_cpu, &c->dut.softirq);
	return 0;
}

/* run.json's "container": the two pairs; "modes_refused": netkit, when left out. */
static void container_json_describe(struct run_ctx *c, json_t *run)
{
	const struct topology *t = &c->topo;
	json_t *refused = json_array();

	json_object_set_new(run, "container",
			    json_pack("{s:s, s:s, s:s, s:s, s:s?, s:s?, s:s?, s:s?}",
				      "netns", t->snd_ns, "host_netns", t->dut_ns,
				      "veth", t->snd_dev, "veth_host", t->dut_dev,
				      "netkit_peer", nk_snd_dev[0] ? nk_snd_dev : NULL,
				      "netkit_primary", nk_dut_dev[0] ? nk_dut_dev : NULL,
				      "netkit_mode", nk_dut_dev[0] ? "l3" : NULL,
				      "netkit_missing", nk_reason[0] ? nk_reason : NULL));
	if (netkit_refused[0])
		json_array_append_new(refused, json_pack("{s:s, s:s}", "mode", "netkit", "reason",
							 netkit_refused));
	json_object_set_new(run, "modes_refused", refused);
}

const struct topology_desc topology_container = {
	.name = "container",
	.script = "container.sh",
	.help = "a container's namespace joined to the host by a veth pair and a netkit pair",
	/* the veth topology's: the same kind of path, one arm more */
	.host = { .packets = 200000, .reps = 21 },
	.icount = { .packets = 20000, .reps = 11 },
	.modes = "tc,tcx,xdpdrv,netkit",
	.own_modes = 1u << MODE_NETKIT,
	.own_modes_why = "a netkit pair beside a veth pair",
	.udp_only = "sends from the container's UDP socket (the skb a container's packet is)",
	.keys = container_keys,
	.icount_inside = true,
	.doctor_item = "xdp_native_veth",
	.preflight = container_preflight,
	.dut_open = container_dut_open,
	.trial_env = container_trial_env,
	.json_describe = container_json_describe,
};
