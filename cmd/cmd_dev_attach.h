/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cmd_dev_attach.h: what `xdptc attach`, `detach` and `status` do on a device's receive
 * path: an attachment kept beyond the command, what sits on the hooks and which of it
 * is xdptc's (proven by the records of loader/attach_record.h), detaching only that.
 * Functions work on devices of the calling thread's network namespace (netns_enter).
 */
#ifndef XDPTC_CMD_DEV_ATTACH_H
#define XDPTC_CMD_DEV_ATTACH_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "attach_record.h"
#include "drop_prog.h"
#include "rx_path.h"

/*
 * attach_persist - keep @a (just made by drop_attach) attached after this process: its
 * link pinned (bpffs mounted at /sys/fs/bpf when missing, and said on stderr) and its
 * identity recorded; then this process's handles are closed. On failure the attachment
 * is detached again. Returns 0, or -errno with a sentence in @err.
 */
int attach_persist(struct drop_attachment *a, char *err, size_t errlen);

/* What sits on a device's receive path now, and which of it is xdptc's. */
struct attach_status {
	struct rx_path path;
	bool ours[RX_PATH_MAX];  /* occupant i proven xdptc's by a record */
	int own[ATTACH_HOOKS];   /* per enum rx_hook: index of xdptc's occupant, or -1 */
	bool clsact_created;     /* xdptc made the clsact qdisc and its filter is on it */
	int stale;               /* records found stale (their attachment gone) and removed */
};

/* attach_status_read - fill @st for @ifname. Returns 0 or -errno with @err. */
int attach_status_read(const char *ifname, struct attach_status *st, char *err, size_t errlen);

/* attach_status_json - @st as the JSON `xdptc status --json` prints: "xdp", "tc", "tcx"
 * (xdptc's occupant of each hook, with its verdict counters, or null),
 * "clsact_created_by_xdptc", and "receive_path" (every occupant, in path order, each
 * with "xdptc": true or false). A new reference. */
json_t *attach_status_json(const char *ifname, const struct attach_status *st);

/*
 * attach_detach_dev - detach xdptc's attachment(s) from @ifname: the one of @mode, or
 * every one for MODE_NR, each after its identity is proven. Nothing else is touched.
 * @done: what was detached, in words ("" when nothing); @err: what was left alone, why.
 * Returns 0 (also when nothing of xdptc's was there), or -EBUSY when a hook asked for
 * holds only another tool's program or filter (named in @err), or -errno.
 */
int attach_detach_dev(const char *ifname, enum drop_mode mode, char *done, size_t donelen,
		      char *err, size_t errlen);

/* attach_check_path - may a program of @mode go onto @ifname's receive path? No, when
 * something there would see the frames before it or holds its place: -EBUSY with one
 * sentence in @err naming each occupant, whether it is xdptc's (and the command that
 * removes it, @netns being the namespace named on the command line) or another tool's
 * (left alone), and why the counters would be wrong. 0 when free, with the occupants
 * that come after it (which will no longer see what it drops) named in @note ("" when
 * none); or -errno. */
int attach_check_path(const char *ifname, const char *netns, enum drop_mode mode, char *err,
		      size_t errlen, char *note, size_t notelen);

#endif
