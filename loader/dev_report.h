/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * dev_report.h: what `xdptc doctor --dev IFACE` says of a device the user names, before
 * anything is attached to it: its driver (ETHTOOL_GDRVINFO), whether its driver runs
 * XDP natively (the kernel's own answer: the netdev netlink family's xdp-features,
 * through bpf_xdp_query), its queues and their RPS CPUs, its IRQs and the CPUs they run
 * on (the receive CPUs), whether a PMU counts on those CPUs (perf stat -C), what already
 * sits on its XDP and TC hooks (rx_path.h), and whether it carries the default route or
 * this shell's remote login. It reads; it attaches, detaches and changes nothing.
 */
#ifndef XDPTC_DEV_REPORT_H
#define XDPTC_DEV_REPORT_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* dev_report - the report on device @dev in network namespace @netns (NULL: this one):
 * {"dev", "netns", "ifindex", "driver", "driver_version", "bus_info", "xdp_native" (true,
 * false or null when the kernel cannot say, with "xdp_native_reason"), "xdp_features"
 * (the NETDEV_XDP_ACT_* names), "queues" {"rx", "tx", "rps_cpus" (per rx queue its RPS CPU list, or null for none)}, "irqs" [{"irq",
 * "name", "cpus"}], "receive_cpus" (a CPU list, or null with "receive_cpus_reason"),
 * "pmu" {"ok", "detail"}, "hooks" [rx_occupant_json], "default_route", "remote_login",
 * "attach_warning" (the sentence a run says before it attaches, or null)}. Returns a new
 * reference, or NULL with a sentence in @err (-ENODEV in *@e: no such device; else the
 * namespace or a read failed). */
json_t *dev_report(const char *netns, const char *dev, int *e, char *err, size_t errlen);

/* dev_report_xdp - into @r, of device @dev of this namespace: "driver" (with
 * "driver_version" and "bus_info"; or null and "driver_reason") and "xdp_native",
 * "xdp_features", "xdp_native_reason" or "xdp_native_note", as dev_report has them.
 * Reads only. */
void dev_report_xdp(json_t *r, const char *dev);

/* dev_report_print - @r in words, a line per item. */
void dev_report_print(const json_t *r, FILE *out);

#endif
