/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * trial_result.h: what a trial is given (struct trial_env: where and how packets flow)
 * and what it gives back (struct trial_result: every figure of one window), the passes
 * and whose CPU time counts. Types only: trial.c runs trials, trial_insns.c fills the
 * icount engine's part of a result.
 */
#ifndef XDPTC_TRIAL_RESULT_H
#define XDPTC_TRIAL_RESULT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "cpu_time.h"
#include "drop_prog.h"
#include "dut.h"
#include "perf_stat.h"
#include "sender.h"
#include "skb_counters.h"

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
	CPU_RX_PATH,            /* dev: the NET_RX softirq and the NIC's hard IRQs on every
				 * CPU (rx_time.h), and the device's threaded-NAPI threads */
};

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
	uint32_t batch;                  /* udp, packet senders: packets per send call (0: 64) */
	uint16_t vlan;                   /* packet, xdp-live, tap senders: 802.1Q VLAN ID (0: none) */
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
	bool rx_is_sent;                 /* what the DUT's driver received is what the sender
					  * handed it (a tap: every write the kernel took is a
					  * frame tun_get_user received), not its rx_packets,
					  * which leave out the frames an XDP program dropped
					  * (tun_build_skb returns before tun counts them; generic
					  * XDP's, on some kernels) */
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
	/* traffic from outside (dev): nothing is sent from here; a window lasts window_ns
	 * of wall time (warm-up: warmup_ns), the DUT's counters are never waited on to
	 * settle, and the NIC's own counters stand for the sent count */
	uint64_t window_ns, warmup_ns;
	const char *perf_cpus;           /* perf stat counts these CPUs (perf -C LIST), not
					  * threads; NULL: the measured threads */
	/* a second way to the DUT beside snd_dev -> dst_addr (the container topology's
	 * netkit pair beside its veth pair): the modes whose bit (1u << mode) is in
	 * path2_modes send from path2_snd_dev (in snd_netns) to path2_dst_addr; the UDP
	 * sender only (routing picks the device); NULL: none */
	const char *path2_snd_dev, *path2_dst_addr;
	unsigned int path2_modes;
};

/* trial_env_snd_dev - the sending device of @mode's path (env->snd_dev, or
 * env->path2_snd_dev for the modes of the second path). */
static inline const char *trial_env_snd_dev(const struct trial_env *env, enum drop_mode mode)
{
	return env->path2_snd_dev && (env->path2_modes & (1u << mode)) ? env->path2_snd_dev
								      : env->snd_dev;
}

struct trial_result {
	enum drop_mode mode;
	enum trial_pass pass;
	char kernel_mode[16];     /* the mode the kernel reported after attach */
	uint32_t prog_id;
	uint64_t sent;            /* packets the sender put on the wire in the window (0 with
				   * traffic from outside: unknown) */
	bool outside;             /* traffic from outside: offered is the NIC's count */
	uint64_t offered;         /* outside: packets the NIC took in the window, counted
				   * (rx_packets) or dropped (rx_dropped beyond the program's,
				   * rx_missed_errors) */
	double offered_pps;       /* outside: offered over the window's wall time */
	uint64_t dut_rx_missed;   /* the NIC's rx_missed_errors over the window */
	struct trial_nic_delta {  /* outside: the NIC's ethtool -S statistics that name drops,
				   * misses, discards, errors or XDP and moved in the window
				   * (the caller's to release: trial_result_release) */
		char name[32];
		int64_t delta;
	} *nic;
	int nic_n;
	uint64_t rx_path_ns;      /* CPU_RX_PATH: NET_RX softirq + the NIC's hard-IRQ time, ns */
	uint64_t rx_hardirq_ns;   /* ... its hard-IRQ part, ns */
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
	double pages_cleared_per_pkt; /* the window's clear_page work over pkts_at_dut
				       * (insn_funcs_pages_cleared), NaN without insn_funcs */
	struct insn_funcs *insn_funcs; /* per function (env->insn_functions), the caller's
					* to release: trial_result_release */
	char invalid_reason[256]; /* !valid: why, in words */
	char error[256];
};

#endif
