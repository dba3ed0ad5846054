/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_nic.c: the nic topology (topologies/nic.sh, inside an icount guest): the
 * guest's emulated NIC under test (--nic MODEL, run/nic_models.c; virtio-net by default:
 * virtio.sh's DUT_NIC and DUT_MODULES) and a second NIC of the same guest, the
 * sender's (an e1000), on one qemu hub. The engine boots the guest with FEED=hub
 * (virtio.sh) and runs the whole experiment inside it, as it does veth's.
 *
 * Why: fed from a host tap, when a frame reaches the guest follows the host's timing,
 * so how frames batch into NAPI polls, and how much idle work a window holds, moved
 * the count by tens of percent between hosts and under load (docs/engines.md). The
 * e1000 transmits inside the guest's own register write (qemu's e1000 start_xmit), the
 * hub hands the frame on at once (net_hub_receive -> qemu_send_packet), virtio-net
 * writes it into the receive ring and raises its interrupt there: every frame arrives at
 * a point of the guest's instruction stream, whatever the host does.
 */
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

#include "cpu_time.h"
#include "dev_report.h"
#include "dut_local.h"
#include "mode_refuse.h"
#include "nic_list.h"
#include "run_ctx.h"
#include "topology_local.h"

/* The DUT NIC's report (dev_report.h: its driver, whether it runs XDP natively), read
 * once the topology is up, and the modes refused on it: run.json's "dut_nic" and
 * "modes_refused" */
static json_t *nic_info, *nic_refused;

/* The DUT NIC's line as `xdptc doctor` says it (nic_line), in the run's log and in
 * run.json's "dut_nic" ("doctor_line"). Where the kernel has no xdp-features (before
 * 6.3), the attach mode_refuse_xdpdrv made is the answer ("xdp_attach"): refused, with
 * the kernel's words, or xdpdrv still among the modes; without xdpdrv none was made. */
static void nic_doctor_line(const struct run_ctx *c)
{
	const json_t *r = json_array_get(nic_refused, 0);
	bool xdpdrv = false;
	char line[1024];

	for (int i = 0; i < c->o.nmodes; i++)
		xdpdrv |= c->o.modes[i] == MODE_XDPDRV;
	if (json_is_null(json_object_get(nic_info, "xdp_native")) && (r || xdpdrv))
		json_object_set_new(nic_info, "xdp_attach", json_pack("{s:b, s:s?}", "ok", !r,
				    "reason", json_string_value(json_object_get(r, "reason"))));
	nic_line(nic_info, line, sizeof(line));
	fprintf(stderr, "xdptc: doctor: %s\n", line);
	json_object_set_new(nic_info, "doctor_line", json_string(line));
}

/* The DUT is the NIC in its namespace, in this (guest) machine; xdpdrv is refused, with
 * the kernel's reason, where its driver has no native XDP (the other modes run). */
static int nic_dut_open(struct run_ctx *c)
{
	const char *drv;
	char err[512];
	int e = 0;

	json_decref(nic_info); /* a sweep's earlier run's */
	json_decref(nic_refused);
	nic_refused = json_array();
	nic_info = dev_report(c->topo.dut_ns, c->topo.dut_dev, &e, err, sizeof(err));
	if (!nic_info) {
		fprintf(stderr, "xdptc: %s\n", err);
		return -1;
	}
	drv = json_string_value(json_object_get(nic_info, "driver"));
	fprintf(stderr, "xdptc: the DUT NIC %s: driver %s\n", c->topo.dut_dev,
		drv ? drv : "unknown");
	dut_local_init(&c->dut, c->topo.dut_ns, c->topo.dut_dev);
	e = mode_refuse_xdpdrv(c, c->topo.dut_dev, nic_info, nic_refused);
	nic_doctor_line(c);
	return e;
}

/* run.json's "dut_nic" (the DUT NIC's report: "device" would say the traffic came from
 * outside, as on the dev topology) and "modes_refused" */
static void nic_json_describe(struct run_ctx *c, json_t *run)
{
	(void)c;
	json_object_set_new(run, "dut_nic", nic_info ? json_incref(nic_info) : json_null());
	json_object_set_new(run, "modes_refused", nic_refused ? json_incref(nic_refused)
							     : json_array());
}

const struct topology_desc topology_nic = {
	.name = "nic",
	.script = "nic.sh",
	.help = "a qemu guest's emulated NIC (--nic: virtio-net, vmxnet3, e1000e, ...) fed by "
		"a second NIC of the same guest on a qemu hub (icount engine only)",
	/* the sender shares the guest's one vCPU: only instructions compare */
	.icount_only = true,
	.icount = { .packets = 20000, .reps = 11 },
	.allows = TOPOLOGY_GUEST_KERNEL | TOPOLOGY_NIC_MODEL,
	/* where the driver builds the skb is the question: generic XDP beside native */
	.modes = "tc,xdpgeneric,xdpdrv",
	.icount_inside = true,
	.icount_feed = "hub",
	.sender_skb_apart = true,
	.timed = "guest CPU time in ns of the sender thread + ksoftirqd/NAPI threads (the "
		 "DUT NIC's receive path runs in the interrupts and softirqs that follow the "
		 "sender's e1000 transmits, on the guest's one CPU)",
	.dut_open = nic_dut_open,
	/* the receive path runs where the sender's transmit raised the DUT's interrupt: on the
	 * guest's one CPU, in the sender's context (its softirq on the way out of the
	 * interrupt or of the transmit) or its ksoftirqd */
	.trial_env = local_trial_env,
	.json_describe = nic_json_describe,
};
