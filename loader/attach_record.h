/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * attach_record.h: attachments that outlive the xdptc process that made them (`xdptc
 * attach`, a dev run's filter), and how xdptc knows them again.
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
#ifndef XDPTC_ATTACH_RECORD_H
#define XDPTC_ATTACH_RECORD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drop_prog.h"
#include "rx_path.h"

/* The hooks an attachment of xdptc's sits on: enum rx_hook's XDP, TCX and TC. */
#define ATTACH_HOOKS 3

/* attach_hook_name - @hook's name in records, pins and `xdptc status --json`: "xdp",
 * "tcx" or "tc" ("?" for another). */
const char *attach_hook_name(int hook);

/* attach_pin_path - where the link of @a on @hook is pinned, into @buf (@len bytes). */
void attach_pin_path(const struct drop_attachment *a, int hook, char *buf, size_t len);

/* attach_record_save - record @a on @hook as xdptc's (@pin: where its link is pinned;
 * NULL for a tc filter). Returns 0, or -errno with a sentence in @err. */
int attach_record_save(const struct drop_attachment *a, int hook, const char *pin, char *err,
		       size_t errlen);

/* attach_record_get - the record of this namespace's device @ifindex on @hook, when the
 * attachment it records is still there (a new reference, for json_decref). NULL when
 * there is none, and when its attachment is gone: then the record (and its pin) is
 * removed and counted in *@stale (@stale may be NULL). */
json_t *attach_record_get(int ifindex, int hook, int *stale);

/* attach_record_forget - remove @r, the record of this namespace's @ifindex on @hook, and
 * the pin it names. */
void attach_record_forget(int ifindex, int hook, const json_t *r);

/* attach_record_prog_id - the id of the program @r records. */
uint32_t attach_record_prog_id(const json_t *r);

/* attach_record_tc - the tc filter @r records, on device @dev, into @a as drop_detach
 * takes it (no descriptors open). */
void attach_record_tc(const json_t *r, const char *dev, struct drop_attachment *a);

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
