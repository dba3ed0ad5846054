/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * drop_prog.h: load the UDP-drop program for a mode, attach it to a device after
 * making sure nothing else on the receive path would take its frames, detach it again
 * by the identity recorded at attach, and read its verdict counters.
 *
 * Every function works on devices of the calling thread's network namespace (see
 * netns_enter). What is attached here belongs to this process: XDP and tcx through BPF
 * links that go with it. `xdptc attach` keeps it beyond the process (attach_record.h,
 * cmd/cmd_dev_attach.h).
 */
#ifndef XDPTC_DROP_PROG_H
#define XDPTC_DROP_PROG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drop_mode.h"
#include "drop_verdicts.h"

/* One attachment made by this process, and the identity that proves it is xdptc's. */
struct drop_attachment {
	enum drop_mode mode;
	int ifindex;
	char dev[16];
	uint64_t netns_cookie; /* the namespace of the device (netns_current_cookie) */
	uint32_t prog_id;      /* kernel id of the attached program; 0 for MODE_NONE */
	char prog_tag[17];     /* its tag, hex */
	int prog_fd;           /* -1 when not held */
	int verdicts_fd;       /* the program's per-CPU `verdicts` map; -1 when not held */
	int link_fd;           /* xdpdrv, xdpgeneric, tcx: the BPF link (it detaches when the
				* last reference goes: this fd, or a pin); -1 otherwise */
	uint32_t link_id;
	uint32_t tc_handle, tc_prio; /* tc: the filter's place */
	bool created_clsact;   /* tc: xdptc made the clsact qdisc for it */
	void *skel;            /* struct xdp_drop_bpf * or struct tc_drop_bpf *; NULL when
				* the program belongs to a struct drop_keep */
};

/*
 * Programs kept loaded across many attaches (the timing pass's alternation of short
 * windows: loading and verifying a program, and reading the receive path with `tc`,
 * take longer than a window). The first attach of each mode is drop_attach's, with the
 * full check of the receive path; later ones attach the same program again after a
 * check through netlink and the bpf syscall only: no XDP program on the device, no tcx
 * program on its ingress, our filter's place free. A clsact qdisc the first tc attach
 * made stays between windows (empty outside tc windows; a packet of another mode that
 * reaches it pays one lookup of an empty filter list) and goes in drop_keep_release,
 * when it holds no filter.
 */
struct drop_keep {
	void *skel[MODE_NR];
	int prog_fd[MODE_NR], verdicts_fd[MODE_NR];
	uint32_t prog_id[MODE_NR];
	char prog_tag[MODE_NR][17];
	char kernel_mode[MODE_NR][16]; /* as the kernel reported it after the first attach */
	int clsact_ifindex;            /* > 0: the clsact qdisc made here, kept */
	char dev[16];
};

/* drop_attach_kept - drop_attach with the program of @mode kept in @k (loaded on its
 * first use). Returns as drop_attach. */
int drop_attach_kept(struct drop_keep *k, const char *ifname, enum drop_mode mode,
		     uint16_t port, struct drop_attachment *out, char *err, size_t errlen);

/* drop_detach_kept - detach what drop_attach_kept attached; the program stays loaded, a
 * kept clsact qdisc stays. Returns 0 or -errno. */
int drop_detach_kept(struct drop_attachment *a);

/* drop_keep_release - unload @k's programs, remove the clsact qdisc it kept when no
 * filter sits on it (in the device's namespace: the caller's). */
void drop_keep_release(struct drop_keep *k);

/*
 * drop_attach - load the drop program for @mode with UDP port @port and attach it to
 * @ifname. MODE_NONE attaches nothing and succeeds (after the check below).
 * Before anything is attached, the device's receive path is read (rx_path.h): any
 * program or filter that would see the frames before this program (an XDP program, a
 * tcx program before cls_bpf, a clsact filter of a lower priority) or that occupies
 * its place makes this refuse with -EBUSY and a sentence naming each occupant and why
 * its presence would make the counters wrong; nothing of it is touched.
 * XDP and tcx are attached through BPF links, which the kernel removes when this
 * process ends (even by SIGKILL) unless drop_persist pinned them. xdpdrv never falls
 * back to generic: when the driver refuses, this fails with the kernel's reason in
 * @err. tc reuses an existing clsact qdisc and creates one only when there is none.
 * Returns 0, or -errno with a sentence in @err (-ENODEV no such device, -EBUSY the hook
 * or the path before it is occupied, ...).
 */
int drop_attach(const char *ifname, enum drop_mode mode, uint16_t port,
		struct drop_attachment *out, char *err, size_t errlen);

/* drop_detach - detach what @a attached and release it: the link is destroyed; a tc
 * filter is removed only while the program at its place is still @a's, and the clsact
 * qdisc only when @a made it and no other filter sits on it. Returns 0 or -errno. */
int drop_detach(struct drop_attachment *a);

/* drop_close - close this process's handles. A link that is not pinned detaches; a tc
 * filter stays (cls_bpf holds its program). */
void drop_close(struct drop_attachment *a);

/* drop_clsact_filters - how many filters the clsact qdisc of @ifname holds on its
 * ingress and egress hooks together (tc -j filter show), or -errno. */
int drop_clsact_filters(const char *ifname);

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
