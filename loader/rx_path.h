/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * rx_path.h: every program and filter on a device's receive path, in the order a frame
 * meets them, as the kernel reports them now:
 *   1. XDP (native, generic or offloaded; bpf_xdp_query), before any skb in native mode;
 *   2. tcx ingress programs (bpf_prog_query_opts, BPF_TCX_INGRESS), in their order;
 *   3. the filters of the clsact or legacy ingress qdisc's ingress hook (cls_bpf, u32, any
 *      kind; `tc -j filter show dev DEV ingress`, iproute2), by priority (pref).
 * On a netkit primary, before all of these: the peer's netkit programs
 * (bpf_prog_query_opts, BPF_NETKIT_PEER), which run in netkit_xmit on what the peer
 * transmits, before the skb reaches the primary's receive path.
 * (In __netif_receive_skb_core generic XDP runs first, then tcx, then the ingress qdisc's
 * filters; a native XDP program runs in the driver before all of it.)
 *
 * Works in the calling thread's network namespace (netns_enter).
 */
#ifndef XDPTC_RX_PATH_H
#define XDPTC_RX_PATH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RX_PATH_MAX 32

/* the hooks; a frame meets RX_HOOK_NETKIT first, then the others in their order */
enum rx_hook { RX_HOOK_XDP = 0, RX_HOOK_TCX, RX_HOOK_TC, RX_HOOK_NETKIT };

struct rx_occupant {
	enum rx_hook hook;
	char mode[16];       /* xdpdrv, xdpgeneric, xdpoffload, tcx, tc, netkit */
	uint32_t prog_id;    /* 0: a filter that is no BPF program (u32, ...) */
	char prog_name[17];
	char prog_tag[17];   /* hex, "" when unknown */
	uint32_t link_id;    /* tcx, netkit: the BPF link holding it, 0 when attached without
			      * one */
	uint32_t tc_pref;    /* tc: the filter's priority, its handle, its kind (bpf, u32) */
	uint32_t tc_handle;
	char tc_kind[16];
	char qdisc[16];      /* tc: "clsact" or "ingress" */
};

struct rx_path {
	int ifindex;
	int n;
	struct rx_occupant occ[RX_PATH_MAX];
	char qdisc[16];      /* the ingress qdisc on the device: "clsact", "ingress", "" */
};

/*
 * rx_path_read - fill @p for device @ifname. Returns 0, or -errno with a sentence in
 * @err (-ENODEV: no such device; -EIO: `tc` could not be run or said something this
 * cannot read).
 */
int rx_path_read(const char *ifname, struct rx_path *p, char *err, size_t errlen);

/* rx_tc_json - what `tc -j @what show dev @ifname [@dir]` prints (@what "qdisc" or
 * "filter", @dir "ingress", "egress" or NULL), parsed: a JSON array (empty when tc
 * printed nothing), or NULL with a sentence in @err. A new reference. */
json_t *rx_tc_json(const char *what, const char *ifname, const char *dir, char *err,
		   size_t errlen);

/* rx_occupant_describe - one phrase naming @o: "the generic XDP program id 12 'xdp_drop'",
 * "the tcx program id 7 'tc_drop' (link 3)", "the clsact ingress filter pref 1 handle 0x1
 * (bpf, program id 9 'x')", "the ingress qdisc's u32 filter pref 5". Into @buf. */
const char *rx_occupant_describe(const struct rx_occupant *o, char *buf, size_t len);

/* rx_occupant_json - @o as JSON, with "xdptc": @ours. A new reference. */
json_t *rx_occupant_json(const struct rx_occupant *o, bool ours);

/* rx_hook_of_mode - where a drop mode's program sits (MODE_* of drop_prog.h as int). */
enum rx_hook rx_hook_of_mode(int mode);

/* rx_runs_before - does occupant @o see a frame before (or instead of) a program of
 * @mode at its place (tc: priority @tc_pref)? XDP of any mode is before tcx and tc; a
 * tcx program before cls_bpf; a filter of a lower pref before ours on the same qdisc. An
 * XDP program at the XDP hook occupies it (one program only): counted as before. */
bool rx_runs_before(const struct rx_occupant *o, int mode, uint32_t tc_pref);

/* rx_prog_ident_fd - program @fd's id, name and tag (16 hex digits). Returns 0 or
 * -errno (bpf_prog_get_info_by_fd). */
int rx_prog_ident_fd(int fd, uint32_t *id, char name[17], char tag[17]);

/* rx_path_refusal - why a program of @mode (named @mode_name) on @ifname would not see
 * every frame: each occupant of @p that runs before it (rx_runs_before, cls_bpf priority
 * @tc_pref) named with its role, and what that means for the measurement, as one
 * sentence into @err. @ours (NULL: unknown) marks occupants that are xdptc's own: named
 * with the `xdptc detach` that removes them (@netns: the namespace to name in it, or
 * NULL); the others as left alone. Returns how many occupants; 0 leaves @err empty. */
int rx_path_refusal(const struct rx_path *p, const char *ifname, int mode,
		    const char *mode_name, uint32_t tc_pref, const bool *ours, const char *netns,
		    char *err, size_t errlen);

#endif
