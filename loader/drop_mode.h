/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * drop_mode.h: where the drop program runs (enum drop_mode) and what it is called, and
 * the names and places xdptc gives what it makes (its cls_bpf filter, its state
 * directory, the run lock, its bpffs pins).
 */
#ifndef XDPTC_DROP_MODE_H
#define XDPTC_DROP_MODE_H

enum drop_mode {
	MODE_NONE = 0,   /* no program: what the stack costs by itself */
	MODE_XDPDRV,     /* native XDP in the driver (XDP_FLAGS_DRV_MODE) */
	MODE_XDPGENERIC, /* generic XDP on the skb (XDP_FLAGS_SKB_MODE) */
	MODE_TC,         /* clsact ingress, cls_bpf direct-action */
	MODE_TCX,        /* TC ingress through a BPF link (tcx, kernel >= 6.6, libbpf >= 1.3) */
	MODE_NETKIT,     /* a netkit program (BPF_NETKIT_PEER, a BPF link on the primary's
			  * ifindex, kernel >= 6.7): it runs in netkit_xmit on what the peer
			  * transmits, before the skb reaches the primary's receive path */
	MODE_NR,
};

/* Handle and priority xdptc gives its cls_bpf filter. They name a place, not an owner:
 * what is xdptc's is proven by the program id recorded at attach (see attach_record.h). */
#define XDPTC_TC_HANDLE 0x7d7c
#define XDPTC_TC_PRIO 0x7d7c
/* The state directory: topologies' owner files, attachment records. */
#define XDPTC_STATE_DIR "/run/xdptc"
/* The machine's run lock (one measuring run at a time): in /run/lock, which every mount
 * namespace of the machine shares (the tests' fresh-machine namespaces hide /run/xdptc,
 * not /run/lock), so a run in one never measures beside a run in another */
#define XDPTC_RUN_LOCK_DIR "/run/lock"
#define XDPTC_RUN_LOCK XDPTC_RUN_LOCK_DIR "/xdptc-run.lock"
/* Where CLI-attached XDP and tcx links are pinned (bpffs) */
#define XDPTC_BPFFS "/sys/fs/bpf/xdptc"

const char *drop_mode_name(enum drop_mode mode);
/* Parse "none", "xdpdrv", "xdpgeneric", "tc", "tcx" or "netkit". Returns 0 or -EINVAL. */
int drop_mode_parse(const char *s, enum drop_mode *out);
/* "none, xdpdrv, xdpgeneric, tc, tcx, netkit": for error messages. */
const char *drop_mode_choices(void);

#endif
