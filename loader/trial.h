/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * trial.h: one trial = one mode, one measured window of N packets:
 * attach, warm up, read every counter, send, let the path settle, read every counter
 * again, detach. Which counters are live depends on the pass (docs/method.md: timing,
 * counts and BPF statistics are measured in passes of their own):
 *   timing:   nothing traced, BPF statistics off; CPU time, and perf stat's events
 *   count:    skb tracepoints/kprobes attached (struct skb_counters)
 *   bpfstats: kernel BPF run-time statistics on; bpf_ns_per_run
 */
#ifndef XDPTC_TRIAL_H
#define XDPTC_TRIAL_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "drop_prog.h"
#include "dut.h"
#include "perf_stat.h"
#include "sender.h"
#include "skb_counters_user.h"

enum trial_pass { PASS_TIMING = DUT_PASS_TIMING, PASS_COUNT = DUT_PASS_COUNT,
		  PASS_BPFSTATS = DUT_PASS_BPFSTATS,
		  PASS_PROFILE, /* perf record -g (cpu-clock) over the window: a flame graph */
		  PASS_NR };

/* Whose CPU time is the packets' cost. */
enum cpu_source {
	CPU_SENDER_AND_SOFTIRQ, /* veth: the sender thread runs the receive softirq itself */
	CPU_GUEST_VCPU,         /* virtio: the host CPU time of the guest's vCPU threads */
	CPU_GUEST_SOFTIRQ,      /* virtio in an icount guest: the guest's own NAPI thread
				 * and ksoftirqd time (guest ns = guest instructions) */
};

const char *trial_pass_name(enum trial_pass p);

/* Where and how packets flow; filled by the run driver from the topology. */
struct trial_env {
	struct dut *dut;                 /* the DUT: local or in a guest */
	enum cpu_source cpu_source;
	const char *snd_netns, *snd_dev; /* the sending side and its namespace */
	const char *dst_addr;            /* the DUT's address */
	const char *src_addr;            /* the sending side's address */
	const char *dst_mac;             /* the DUT's MAC (raw senders) */
	enum sender_kind sender;         /* how frames are made */
	uint16_t port;                   /* UDP port the programs drop */
	uint16_t send_port;              /* UDP destination port the sender uses */
	uint32_t payload_len;            /* UDP payload bytes */
	int sender_cpu;                  /* CPU the sender is pinned to, -1 none */
	uint64_t warmup;                 /* packets sent before the window */
	uint64_t rate_pps;               /* 0: as fast as possible */
	unsigned int settle_us;          /* the settle wait's poll, us: counters unchanged
					  * over one poll end it; 0: 20 ms (a guest 100 ms) */
	volatile int *stop;              /* set by a signal handler: abandon the trial */
	/* timing pass: perf events counted by `perf stat` over the window, on the threads
	 * whose CPU time is cpu_ns_per_pkt (perf_stat.h); perf_nevents 0: none */
	const struct perf_stat_value *perf_events;
	int perf_nevents;
	const char *perf_event_list;     /* the same as a comma list, for perf */
	const char *profile_path;        /* profile pass: perf data is written to PATH.data */
	uint64_t profile_period;         /* profile pass: a sample every N ns of cpu-clock
					  * (perf record -c N; inside an icount guest N
					  * instructions); 0: 997 samples per second (-F 997) */
	int qemu_pid;                    /* CPU_GUEST_VCPU: the guest's qemu process */
	bool veth_pair;                  /* veth: one drop on the way shows on both ends */
	const char *insns_path;          /* the icount engine's instruction-counting plugin
					  * writes its windows here (XDPTC_INSNS): the
					  * timing pass's sender opens and closes one around
					  * its window (trial_insns.h); NULL: no plugin */
	bool insn_functions;             /* ... and each window is attributed per function
					  * (r->insn_funcs) */
	bool insns_remote;               /* the plugin counts a guest DUT (virtio under
					  * icount): its agent opens the window after the
					  * timing pass's first snapshot and closes it before
					  * the last (dut_insns) */
	struct softirq_tasks vcpus;      /* ... and its vCPU threads */
};

struct trial_result {
	enum drop_mode mode;
	enum trial_pass pass;
	char kernel_mode[16];     /* the mode the kernel reported after attach */
	uint32_t prog_id;
	uint64_t sent;            /* packets the sender put on the wire in the window */
	uint64_t dropped, passed; /* the program's verdict counters over the window */
	uint64_t dut_rx_packets;  /* DUT driver statistics over the window */
	uint64_t dut_rx_dropped, snd_tx_dropped; /* loss before the DUT's program: the DUT's
						  * rx drops, the sending device's tx drops
						  * (veth peer, or the tap towards the guest) */
	uint64_t lost_before_dut; /* tx drops towards the DUT + rx drops not by the program */
	uint64_t pkts_at_dut;     /* the denominator: verdicts (or rx_packets for none) */
	int64_t unexplained;      /* sent - pkts_at_dut - lost before the DUT */
	bool valid;               /* |unexplained| <= 0.1% of sent */
	uint64_t wall_ns;         /* the sender's window, ns */
	uint64_t attach_ns, detach_ns; /* the attach before and the detach after the window
					* (outside it), ns of wall time */
	uint64_t sender_cpu_ns;   /* the sender thread's CPU time, ns */
	uint64_t softirq_cpu_ns;  /* ksoftirqd/napi threads' CPU time on the DUT's machine, ns */
	uint64_t cpus_busy_ns;    /* all CPUs' busy time on the DUT's machine, ns (/proc/stat,
				   * USER_HZ resolution: a cross-check only) */
	uint64_t vcpu_ns;         /* virtio: host CPU time of the guest's vCPU threads, ns */
	double cpu_ns_per_pkt;    /* veth: (sender + softirq threads) / pkts_at_dut;
				   * virtio: vCPU threads' time / pkts_at_dut */
	bool have_perf;           /* perf stat counted over the window */
	struct perf_stat_value perf[PERF_STAT_MAX_EVENTS]; /* per event, as perf gave it */
	int perf_n;
	uint64_t perf_enabled_ns; /* from perf's enable to its disable (the sender's window
				   * and the messages around it, not the settle wait), ns */
	char perf_error[160];     /* perf stat failed for this trial: why (its values null) */
	bool have_counts;
	struct skb_counts counts; /* count pass: event deltas */
	bool have_bpf_stats;
	uint64_t bpf_run_time_ns, bpf_run_cnt;
	bool bpf_stats_on;        /* timing pass: the program's run_cnt moved in the window:
				   * BPF statistics were on by someone else's doing (the
				   * sysctl, or a BPF_ENABLE_STATS fd of another process) */
	uint64_t steal_ns;        /* steal time of the DUT's machine's CPUs in the window, ns:
				   * the hypervisor ran other guests' work on them */
	uint64_t self_ns;         /* this process's CPU time between the snapshots (its own
				   * reading of the counters, the settle wait), ns */
	uint64_t other_busy_ns;   /* local DUT: CPU time spent in the window by anything but
				   * the measured tasks and this process (cpus_busy_ns - steal
				   * - sender - softirq threads - self_ns), ns; other load on
				   * the machine */
	bool other_load;          /* other_busy_ns is at least a quarter of the window */
	bool host_steal;          /* steal_ns is at least a quarter of the window */
	/* the icount engine's plugin over the sender's window (timing pass; trial_insns.h) */
	bool have_insns;
	uint64_t insn_window;     /* instructions, every rep iteration counted */
	uint64_t insn_retired;    /* instructions, a rep string instruction once */
	uint64_t insn_string_iterations; /* insn_window - insn_retired */
	uint64_t insn_clock;      /* the icount clock (guest TSC) over the same window */
	uint64_t insn_halts;      /* the vCPU's idle entries in the window (the plugin) */
	uint64_t insn_idle_ns;    /* idle time the clock skipped: insn_clock - insn_window
				   * when it halted, else 0 */
	double insn_clock_gap;    /* (insn_window - insn_clock) / insn_window */
	double retired_instructions_per_pkt, string_iterations_per_pkt,
	       window_instructions_per_pkt; /* over pkts_at_dut */
	struct insn_funcs *insn_funcs; /* per function (env->insn_functions), the caller's
					* to release: trial_result_release */
	char invalid_reason[256]; /* !valid: why, in words */
	char error[256];
};

/* The sender child of the trial under way (0: none), for a signal handler to kill. */
extern volatile pid_t trial_child_pid;

/* A trial session: one sender child kept alive across many windows (the timing pass's
 * alternation: no fork, no sender set-up, per window). */
struct trial_session {
	const struct trial_env *env;
	enum trial_pass pass;
	int up, down;  /* pipes: sender -> here (reports), here -> sender (commands) */
	pid_t pid;     /* the sender child */
	bool broken;   /* the sender failed or died: only close is left */
	struct perf_stat *perf; /* when set: a perf stat started for many windows
				 * (trial_session_perf_start), switched on for each window
				 * instead of one perf stat per window */
	char perf_error[160];   /* ... and why it stopped counting */
	void *last;             /* the last window's closing snapshot (trial.c's own) */
	bool have_last;         /* ... still true: nothing attached, detached or sent since */
	enum drop_mode mode;  /* what the last attach attached */
	uint32_t prog_id;
	char kernel_mode[16];
};

/* trial_session_open - fork the sender child into env->snd_netns, pinned to
 * env->sender_cpu, with its sender open. Returns 0, -EINTR when stopped, or -errno
 * with a sentence in @err. */
int trial_session_open(const struct trial_env *env, enum trial_pass pass,
		       struct trial_session *s, char *err, size_t errlen);

/* trial_session_window - one window of @mode: attach, @warmup packets (0: none), settle,
 * snapshot, @packets packets, settle, snapshot, detach; attach and detach are outside the
 * window (their wall time in r->attach_ns, r->detach_ns). Returns as trial_run; after an
 * error other than an invalid result the session is broken. */
int trial_session_window(struct trial_session *s, enum drop_mode mode, uint64_t packets,
			 uint64_t warmup, struct trial_result *r);

/* trial_session_attach - attach @mode to the DUT (r->attach_ns, r->prog_id,
 * r->kernel_mode set; the rest of @r zeroed). Returns 0 or -errno with r->error. */
int trial_session_attach(struct trial_session *s, enum drop_mode mode, struct trial_result *r);

/* trial_session_measure - one window with what is attached now (several may follow one
 * attach: the noise calibration's back-to-back windows); r->attach_ns is kept. Returns
 * as trial_session_window. */
int trial_session_measure(struct trial_session *s, uint64_t packets, uint64_t warmup,
			  struct trial_result *r);

/* trial_session_detach - detach what trial_session_attach attached. Returns its wall
 * time, ns. */
uint64_t trial_session_detach(struct trial_session *s);

/* trial_session_perf_start - a perf stat of env->perf_event_list on the measured threads
 * (the session's sender and the DUT's softirq/NAPI threads, or a guest's vCPU threads),
 * its counters off: set s->perf to it and each window switches them on for its own
 * span. Returns 0, or -errno with perf's words in r->perf_error. */
int trial_session_perf_start(struct trial_session *s, struct perf_stat *ps,
			     struct trial_result *r);

/* trial_session_perf_finish - stop @ps and put its counts (the sums over the windows it
 * counted), or why there are none, into @r (r->perf, r->have_perf, r->perf_error). */
void trial_session_perf_finish(struct trial_session *s, struct perf_stat *ps, bool started,
			       struct trial_result *r);

/* trial_session_close - the sender told to quit (killed when broken) and reaped. */
void trial_session_close(struct trial_session *s);

/* trial_run - run one trial of @mode in @pass with @packets packets in the window.
 * Returns 0 (the result may still be !valid), -EINTR when *env->stop was set, or
 * -errno with a sentence in r->error. Nothing stays attached after it returns. */
int trial_run(const struct trial_env *env, enum drop_mode mode, enum trial_pass pass,
	      uint64_t packets, struct trial_result *r);

/* trial_result_release - free what @r holds (its per-function counts). */
void trial_result_release(struct trial_result *r);

#endif
