/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * doctor.h: what this machine and its kernel offer the suite, each item proven by a
 * real attempt where one is possible (attach XDP to a veth of its own, load and attach
 * a kprobe, an fentry program, a tracepoint, open PMU counters), with the reason.
 */
#ifndef XDPTC_DOCTOR_H
#define XDPTC_DOCTOR_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/*
 * doctor_report - run every check. @topologies_dir: where veth.sh is (the XDP, clsact
 * and tcx checks use a veth pair of their own, named xdptc-d..., removed afterwards);
 * NULL: those three are left out (a run whose DUT is no veth of this machine's).
 * @boot: also prove KVM with a test boot of the guest kernel (virtio.sh; may download
 * it); otherwise KVM is reported from /dev/kvm and earlier probes.
 * @in_guest: leave out what only matters on a host (qemu, KVM).
 * Items include the mounts a fresh boot lacks (tracefs, debugfs, bpffs: "ok" when
 * mounted, with what needs each) and the global settings the numbers depend on
 * (doctor_sysctls: read, never changed).
 * Returns {"items": [{"name", "ok", "detail"}...], "sysctls": {NAME: value or null},
 * "packages": {...}}: a new reference.
 */
json_t *doctor_report(const char *topologies_dir, bool boot, bool in_guest);

/* doctor_item_ok - the "ok" of item @name in @report (false when missing). */
bool doctor_item_ok(const json_t *report, const char *name);
const char *doctor_item_detail(const json_t *report, const char *name);

/* doctor_sysctls - the global settings the numbers depend on, as they are now:
 * {"kernel.bpf_stats_enabled", "net.core.bpf_jit_enable", "kernel.perf_event_paranoid",
 * "kernel.kptr_restrict", "kernel.nmi_watchdog": integer, or null when unreadable}
 * (/proc/sys). A new reference. */
json_t *doctor_sysctls(void);

/* doctor_print - the report as text, one line per item: "yes|no  NAME  DETAIL". */
void doctor_print(const json_t *report, FILE *out);

/* mounted_type - is a file system mounted at exactly @path (/proc/self/mounts)? Its type
 * into @type ("bpf", "tracefs", ...). */
bool mounted_type(const char *path, char *type, size_t len);

/* doctor_perf_counts - what `perf stat -x, -e cycles,instructions` counts per task
 * (@cpus NULL), on every CPU (@cpus "") or on the CPUs of list @cpus ("1,3": -C): true
 * when both counted; perf's words per event ("cycles counted, instructions <not
 * supported>"), or why perf could not be run, into @d. */
bool doctor_perf_counts(const char *cpus, char *d, size_t dlen);

#endif
