/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * nic_list.h: per NIC, its driver and whether it runs XDP natively, for `xdptc doctor`
 * (the machine's NICs) and the nic topology (the guest's DUT NIC, in its run log and
 * run.json). The kernel's xdp-features answer where it has them (Linux 6.3+); otherwise
 * the attach's own answer, asked only of a device the suite made or the user named.
 */
#ifndef XDPTC_NIC_LIST_H
#define XDPTC_NIC_LIST_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

/* nic_list - the NICs of this network namespace: every interface backed by a device of
 * a bus (/sys/class/net/IFACE/device: PCI, virtio, USB, ...; not veth, tap, bridges, lo)
 * and the interface @named (NULL: none), once each, in ifindex order. Each is
 * {"dev", "driver" (or null with "driver_reason"), "xdp_native" (true, false, or null
 * where the kernel cannot say, with "xdp_native_reason"), "xdp_features"} as
 * dev_report_xdp reads them. Reads only: nothing is attached. A new array (empty when
 * /sys/class/net cannot be read). */
json_t *nic_list(const char *named);

/* nic_try_attach - the attach's own answer of device @dev in namespace @netns (NULL:
 * this one) into @nic: the suite's XDP program (UDP port 0, drop_prog.h) attached in
 * xdpdrv for an instant and detached (a BPF link: gone with this process too); sets
 * "xdp_attach" {"ok": attached or not, "reason": the kernel's words, or null}. Call it
 * only for a device the suite made or the user named: on some drivers an attach resets
 * the device. Returns 0 when it attached, else the attach's -errno (-EBUSY: a program
 * sits on the hook already; -ENOENT: no such namespace). */
int nic_try_attach(json_t *nic, const char *netns, const char *dev);

/* nic_line - @nic (nic_list's, dev_report's, or with nic_try_attach's answer) in one line
 * into @buf (@len bytes): "DEV: driver DRV, native XDP yes|no|unknown (how it is known:
 * xdp-features NAMES, the attach's answer, or why it is not known)". */
void nic_line(const json_t *nic, char *buf, size_t len);

/* nic_list_print - @nics (nic_list's) under a "NICs" heading, a nic_line each, or a line
 * saying there is none. */
void nic_list_print(const json_t *nics, FILE *out);

#endif
