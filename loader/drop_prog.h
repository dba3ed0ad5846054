/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * drop_prog.h: load the UDP-drop program for a mode and attach it to a device, find
 * and detach it again, and read its verdict counters.
 *
 * Every function works on devices of the calling thread's network namespace (see
 * netns_enter). Attachments made here survive the process (XDP and cls_bpf hold the
 * program), so `xdptc attach` and `xdptc detach` may be separate commands.
 */
#ifndef XDPTC_DROP_PROG_H
#define XDPTC_DROP_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drop_verdicts.h"

enum drop_mode {
	MODE_NONE = 0,   /* no program: what the stack costs by itself */
	MODE_XDPDRV,     /* native XDP in the driver (XDP_FLAGS_DRV_MODE) */
	MODE_XDPGENERIC, /* generic XDP on the skb (XDP_FLAGS_SKB_MODE) */
	MODE_TC,         /* clsact ingress, cls_bpf direct-action */
	MODE_TCX,        /* TC ingress through a BPF link (tcx, kernel >= 6.6, libbpf >= 1.3) */
	MODE_NR,
};

/* Handle and priority of xdptc's cls_bpf filter: how detach recognises its own. */
#define XDPTC_TC_HANDLE 0x7d7c
#define XDPTC_TC_PRIO 0x7d7c
/* Marker files that say xdptc created a clsact qdisc (destroyed only then). */
#define XDPTC_STATE_DIR "/run/xdptc"
/* Where CLI-attached tcx links are pinned: XDPTC_BPFFS/tcx-NETNSINO-IFINDEX */
#define XDPTC_BPFFS "/sys/fs/bpf/xdptc"

const char *drop_mode_name(enum drop_mode mode);
/* Parse "none", "xdpdrv", "xdpgeneric", "tc" or "tcx". Returns 0 or -EINVAL. */
int drop_mode_parse(const char *s, enum drop_mode *out);
/* "none, xdpdrv, xdpgeneric, tc, tcx": for error messages. */
const char *drop_mode_choices(void);

/* One attachment made by this process. */
struct drop_attachment {
	enum drop_mode mode;
	int ifindex;
	uint32_t prog_id;  /* kernel id of the attached program; 0 for MODE_NONE */
	int prog_fd;       /* -1 when not held */
	int verdicts_fd;   /* the program's per-CPU `verdicts` map; -1 when not held */
	bool created_clsact;
	void *link;        /* tcx: struct bpf_link * (pinned by drop_release) */
	void *skel;        /* struct xdp_drop_bpf * or struct tc_drop_bpf * */
};

/*
 * drop_attach - load the drop program for @mode with UDP port @port and attach it to
 * @ifname. MODE_NONE attaches nothing and succeeds.
 * xdpdrv never falls back to generic: when the driver refuses, this fails with the
 * kernel's reason in @err. tc reuses an existing clsact qdisc and creates one only
 * when there is none (remembered under XDPTC_STATE_DIR so detach removes only what
 * it made).
 * Returns 0, or -errno with a sentence in @err (-ENODEV no such device, -EEXIST a
 * program is already attached at that hook, ...).
 */
int drop_attach(const char *ifname, enum drop_mode mode, uint16_t port,
		struct drop_attachment *out, char *err, size_t errlen);

/* drop_detach - detach what @a attached (and the clsact qdisc if it was made for it),
 * then release it. Returns 0 or -errno. */
int drop_detach(struct drop_attachment *a);

/* drop_release - close this process's handles but leave the program attached (a tcx
 * link is pinned under XDPTC_BPFFS, mounting bpffs when needed, so it outlives us). */
void drop_release(struct drop_attachment *a);

/* What is attached to a device now, as the kernel reports it (bpf_xdp_query,
 * bpf_tc_query). */
struct drop_status {
	int ifindex;
	uint32_t xdp_prog_id;    /* 0: no XDP program */
	enum drop_mode xdp_mode; /* MODE_XDPDRV or MODE_XDPGENERIC by XDP_ATTACHED_* */
	char xdp_prog_name[17];
	uint32_t tc_prog_id;     /* 0: no xdptc cls_bpf filter on ingress */
	char tc_prog_name[17];
	uint32_t tcx_prog_id;    /* 0: no xdptc program on the tcx ingress hook */
	bool tcx_pinned;         /* its link is pinned by xdptc (a CLI attach) */
	bool clsact_marker;      /* xdptc created this device's clsact qdisc */
};

/* drop_query - fill @st for @ifname. Returns 0 or -errno (-ENODEV). */
int drop_query(const char *ifname, struct drop_status *st);

/*
 * drop_detach_dev - detach xdptc's programs from @ifname: @mode MODE_NR means
 * whatever xdptc attached there. A program that is not xdptc's (by name) is left
 * alone and reported as -EBUSY with a sentence in @err. Returns 0 when something or
 * nothing was detached, or -errno.
 */
int drop_detach_dev(const char *ifname, enum drop_mode mode, char *err, size_t errlen);

/* clsact_markers_prune - remove the clsact markers and pinned tcx links of network
 * namespaces that no longer exist (left by a killed run or a namespace deleted under an
 * attachment). Returns how many were removed. */
int clsact_markers_prune(void);

/* verdicts_read_fd - sum the per-CPU `verdicts` map at @map_fd into @out
 * (packets, indexed by enum drop_verdict_idx). Returns 0 or -errno. */
int verdicts_read_fd(int map_fd, uint64_t out[VERDICT_NR]);

/* verdicts_read_prog - the same for the `verdicts` map of program @prog_id.
 * Returns 0, -ENOENT when the program has no such map, or -errno. */
int verdicts_read_prog(uint32_t prog_id, uint64_t out[VERDICT_NR]);

/* prog_run_stats - run_time_ns and run_cnt of @prog_fd (bpf_prog_info; non-zero only
 * while BPF statistics are enabled). Returns 0 or -errno. */
int prog_run_stats(int prog_fd, uint64_t *run_time_ns, uint64_t *run_cnt);

#endif
