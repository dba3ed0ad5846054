/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * attach_cli.h: attachments that outlive `xdptc attach`, and how xdptc knows them again.
 *
 * Ownership is proven by identity recorded when xdptc attached, never by a name, a
 * priority or a handle (which other tools use too) nor by a namespace's inode number
 * (which the kernel reuses at once):
 *   - XDP and tcx are BPF links pinned at XDPTC_BPFFS/link-COOKIE-IFINDEX-HOOK; the link
 *     is xdptc's when it is the link recorded (link id, program id) and still attached
 *     to that device;
 *   - a tc (cls_bpf) filter is xdptc's while the program at its place (handle, priority)
 *     is the program id recorded; the clsact qdisc is removed only when xdptc made it,
 *     its filter is still on it, and nothing else sits on it;
 * where COOKIE is the network namespace's cookie (unique for the boot) and the record is
 * XDPTC_STATE_DIR/attach/COOKIE-IFINDEX-HOOK.json. A record whose attachment is gone
 * (detached by someone else, the device or namespace deleted) proves nothing: it is
 * removed when met, and by `xdptc cleanup`.
 *
 * Functions work on devices of the calling thread's network namespace (netns_enter).
 */
#ifndef XDPTC_ATTACH_CLI_H
#define XDPTC_ATTACH_CLI_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

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
	int own[3];              /* per enum rx_hook: index of xdptc's occupant, or -1 */
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

/* attach_record_held / attach_record_release - a tc filter that a run holds on a device
 * it does not own (the dev topology: the user's NIC) recorded, with the run as its owner
 * (pid and process start time), for the time it is attached: a filter outlives a killed
 * process (XDP and tcx links do not: nothing is recorded for them), so the next run or
 * `xdptc cleanup` detaches it by that identity (attach_records_prune). held returns 0 or
 * -errno with a sentence in @err. */
int attach_record_held(const struct drop_attachment *a, char *err, size_t errlen);
void attach_record_release(const struct drop_attachment *a);

/* attach_records_prune - remove the records and pins whose attachment is gone (any
 * namespace), the filters held by runs now gone (attach_record_held: detached where
 * still theirs), and the clsact markers of xdptc versions before records. Returns how
 * many were removed. */
int attach_records_prune(void);

#endif
