/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * dut.h: the device under test's side of a trial, wherever it is.
 *
 * A local DUT is a device in a network namespace of this machine (veth topology): the
 * program is attached and every figure read by this process. A remote DUT is a NIC in
 * a guest (virtio topology): the same local operations run inside the guest, in
 * `xdptc agent`, and reach this process as one-line JSON messages over the guest's
 * virtio-serial control port (a unix socket on the host).
 *
 * The operations (struct dut_ops) dispatch (dut.c) to the local implementation
 * (dut_local.c, dut_local.h) or the remote one (dut_remote.c, dut_remote.h); the agent
 * (dut_agent.c) serves the protocol in the guest with the local one; the line protocol's
 * reading and writing is dut_wire.c.
 *
 * Protocol (one line each way; replies are compact JSON objects with "ok" and "re", the
 * name of the request they answer, by which the host skips the late answer to a request
 * it gave up on):
 *   attach MODE PORT | detach | snapshot PASS | counters open [BACKENDS [cross]] |
 *   counters close | rxpath |
 *   bpfstats on | bpfstats off | exec SHELL-COMMAND | insns open | insns close |
 *   insns selfcheck | sync TOKEN | quit
 */
#ifndef XDPTC_DUT_H
#define XDPTC_DUT_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cpu_time.h"
#include "insn_window.h"
#include "drop_prog.h"
#include "netdev_stats.h"
#include "rx_time.h"
#include "skb_counters.h"

/* What a snapshot reads: a pass's figures (the values match enum trial_pass's), or for
 * the settle wait between windows only the packet counters (verdicts, rx), so that its
 * polls add as little as possible to the CPU time being measured (on a guest, each poll
 * is work on the vCPU). */
enum dut_pass { DUT_PASS_TIMING = 0, DUT_PASS_COUNT, DUT_PASS_BPFSTATS, DUT_PASS_SETTLE,
		DUT_PASS_NR };

/* dut_pass_name / dut_pass_parse - "timing", "count", "bpfstats", "settle" (the
 * protocol's words); parse returns -1 for anything else. */
const char *dut_pass_name(enum dut_pass p);
int dut_pass_parse(const char *s);

/* Everything read on the DUT's machine at one instant. */
struct dut_snapshot {
	uint64_t verdicts[VERDICT_NR];   /* the attached program's counters, packets */
	struct netdev_stats dev;         /* the DUT's driver counters, packets */
	uint64_t softirq_ns;             /* ksoftirqd/napi threads' CPU time there, ns */
	uint64_t rx_path_ns;             /* with an rx_time probe (rx_time.h): NET_RX softirq
					  * time on every CPU plus the NIC's hard-IRQ time,
					  * ns (its hard-IRQ part also in rx_hardirq_ns) */
	uint64_t rx_hardirq_ns;
	uint64_t busy_ns;                /* all CPUs' non-idle time there, ns (/proc/stat) */
	uint64_t steal_ns;               /* the part of it that is steal time, ns */
	bool have_counts;
	struct skb_counts counts;        /* count pass: probe events */
	uint64_t bpf_run_time_ns, bpf_run_cnt; /* bpfstats pass */
};

/* What the count pass's probes attached to on the DUT's kernel: per count, the backend
 * chosen, its probe points and why better backends were passed over. */
struct dut_counters_info {
	struct skb_counters_plan plan;
};

struct dut_ops;
struct dut_insns;

struct dut {
	const struct dut_ops *ops;  /* local (dut_local.c) or remote (dut_remote.c) */
	bool remote;                /* a guest's agent (dut_remote_connect) */
	bool attached;
	bool counters_open;
	/* local */
	const char *netns, *dev;
	/* a second device in the same namespace, for the modes whose bit (1u << mode) is in
	 * dev2_modes (the container topology's netkit primary beside its veth); NULL: none */
	const char *dev2;
	unsigned int dev2_modes;
	const char *cur_dev;        /* the device of the mode attached last (dev before any) */
	struct drop_attachment att;
	struct drop_keep *keep;     /* programs kept loaded between attaches (dut_keep_programs) */
	struct skb_counters counters;
	int stats_fd;
	struct softirq_tasks softirq;
	struct rx_time rx_time;     /* loaded (dev): every snapshot reads rx_path_ns from it */
	bool record_attach;         /* the device is not the run's own (dev): each tc filter
				     * is recorded while attached (attach_record_held), for a
				     * killed run's to be detached by identity */
	/* remote */
	int fd;
	char buf[262144];  /* replies up to a line of that (insns close: a window's functions) */
	size_t buflen;
	int timeout_ms;
};

/* The operations a DUT implements; dut.c's public functions call them. */
struct dut_ops {
	int (*attach)(struct dut *d, enum drop_mode mode, uint16_t port, uint32_t *prog_id,
		      char kernel_mode[16], char *err, size_t errlen);
	int (*detach)(struct dut *d);
	int (*snapshot)(struct dut *d, enum dut_pass pass, struct dut_snapshot *s);
	int (*counters_open)(struct dut *d, const int *order, bool cross_check,
			     struct dut_counters_info *info, char *err, size_t errlen);
	void (*counters_close)(struct dut *d);
	int (*bpf_stats)(struct dut *d, bool on);
	int (*exec)(struct dut *d, const char *cmd, int *status, char *out, size_t outlen);
	json_t *(*rx_path)(struct dut *d, char *err, size_t errlen);
	int (*insns)(struct dut *d, bool open, struct dut_insns *out, char *err, size_t errlen);
	int (*insns_selfcheck)(struct dut *d, struct insn_check c[2], char *err, size_t errlen);
	int (*keep)(struct dut *d, bool on);
	void (*close)(struct dut *d);
};

/* dut_attach - attach the drop program in @mode (port @port). Fills @prog_id and
 * @kernel_mode (the mode the DUT's kernel reports). Returns 0 or -errno with @err. */
int dut_attach(struct dut *d, enum drop_mode mode, uint16_t port, uint32_t *prog_id,
	       char kernel_mode[16], char *err, size_t errlen);

/* dut_detach - detach what dut_attach attached. Returns 0 or -errno. */
int dut_detach(struct dut *d);

/* dut_keep_programs - @on: from now on each mode's program stays loaded between
 * attaches (struct drop_keep, drop_prog.h); off: they are unloaded and a clsact qdisc
 * kept for them removed; a guest's agent does the same on its side ("keep on|off").
 * Returns 0 or -errno. */
int dut_keep_programs(struct dut *d, bool on);

/* dut_snapshot - read every figure of @pass. Returns 0 or -errno. */
int dut_snapshot(struct dut *d, enum dut_pass pass, struct dut_snapshot *s);

/* dut_counters_open / dut_counters_close - the count pass's probes on the DUT's
 * kernel; @order: counter backends to try (NULL: kprobe, fentry, tracepoint);
 * @cross_check: count with every working backend at once (see skb_counters_open).
 * Returns 0 or -errno with @err. */
int dut_counters_open(struct dut *d, const int *order, bool cross_check,
		      struct dut_counters_info *info, char *err, size_t errlen);
void dut_counters_close(struct dut *d);

/* dut_bpf_stats - turn the DUT kernel's BPF run-time statistics on or off
 * (bpf_enable_stats, held while on). Returns 0 or -errno. */
int dut_bpf_stats(struct dut *d, bool on);

/* dut_exec - run a shell command on a remote DUT's machine; its exit status in
 * *@status and output (at most @outlen - 1 bytes) in @out. Returns 0 or -errno. */
int dut_exec(struct dut *d, const char *cmd, int *status, char *out, size_t outlen);

/* dut_rx_path - every program and filter on the DUT's receive path now, in path order
 * (rx_path.h), as a JSON array of rx_occupant_json objects; NULL with a sentence in @err
 * when it cannot be read. */
json_t *dut_rx_path(struct dut *d, char *err, size_t errlen);

/* The icount engine's plugin on the DUT's machine over one window (insns open to insns
 * close): its counts, the icount clock over the same window (the guest's TSC around the
 * markers) and, on close, the instructions per function (a new struct, the caller's:
 * insn_funcs_free and free). */
struct dut_insns {
	struct insn_window w;
	uint64_t tsc;
	struct insn_funcs *funcs;
};

/* dut_insns - open (@open) or close the plugin's window on the DUT's machine (the guest's
 * agent executes the markers; the plugin's file is XDPTC_INSNS there). On close fills
 * @out. Returns 0 or -errno with @err (-ENOENT: no plugin there). */
int dut_insns(struct dut *d, bool open, struct dut_insns *out, char *err, size_t errlen);

/* dut_insns_selfcheck - the plugin's self-check on known work on the DUT's machine
 * (insn_selfcheck): 0 exact, 1 not, -errno with @err. */
int dut_insns_selfcheck(struct dut *d, struct insn_check c[2], char *err, size_t errlen);

/* dut_is_remote - is @d a guest's DUT, reached through its agent? */
bool dut_is_remote(const struct dut *d);

/* dut_close - detach, close probes and the connection (asks a remote agent to stay). */
void dut_close(struct dut *d);

/* The agent's side: serve the protocol on @fd (a virtio-serial port) for device @dev
 * until "quit" or end of input. Returns 0 or -errno. */
int dut_agent_serve(int fd, const char *dev);

/* A counters plan <-> JSON: {"stack_entries": {"backend", "points", "passed_over"}, ...}
 * (the agent's encoding, also what run.json records). */
json_t *counters_plan_to_json(const struct skb_counters_plan *p);
int counters_plan_from_json(const json_t *j, struct skb_counters_plan *p);

/* Snapshot <-> JSON (the agent's encoding). */
json_t *dut_snapshot_to_json(const struct dut_snapshot *s);
int dut_snapshot_from_json(const json_t *j, struct dut_snapshot *s);

#endif
