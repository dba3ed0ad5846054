/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_opts.h: the options of one run (struct run_opts): its topology, its arms, its
 * passes' sizes, its engine. Types only; cmd_run.c fills them, the run driver (run.c)
 * reads them.
 */
#ifndef XDPTC_RUN_OPTS_H
#define XDPTC_RUN_OPTS_H

#include <stdbool.h>
#include <stdint.h>

#include "drop_prog.h"
#include "report.h" /* REPORT_MAX_ARMS */

#define RUN_MAX_MODES REPORT_MAX_ARMS

/* --packets (and --warmup's most): packets per window, for `xdptc run` and `xdptc
 * matrix` alike; the help texts and refusals say the range from these */
#define RUN_PACKETS_MIN 1ull
#define RUN_PACKETS_MAX_EXP10 12 /* 10^12 */
#define RUN_PACKETS_MAX 1000000000000ull

/* The other ranges of a run's options, each defined once: the help texts write them with
 * RUN_STR (the number as written here), the parsers (cmd_run.c, cmd_matrix.c, the
 * sweep's values) and the icount engine's inner run (run_opts_json.c) check them */
#define RUN_REPS_MIN 2
#define RUN_REPS_MAX 100
#define RUN_COUNT_REPS_MIN 1
#define RUN_COUNT_REPS_MAX 100
#define RUN_PAYLOAD_MAX 1472 /* UDP payload bytes: a 1514-byte frame */
#define RUN_BATCH_MAX 1024   /* --batch: packets per send call (sendmmsg takes 1024) */
#define RUN_BATCH_DEFAULT 64
#define RUN_VLAN_MAX 4094     /* --vlan: an 802.1Q VLAN ID, 1-4094 */
#define RUN_WINDOW_MS_MIN 0.5
#define RUN_WINDOW_MS_MAX 1000
#define RUN_TIMING_BUDGET_MIN 1
#define RUN_TIMING_BUDGET_MAX 3600
#define RUN_TIMING_BUDGET_DEFAULT 40 /* s: a default veth run, the other passes with it,
				       * within 75 s on a loaded 2-vCPU VM */
#define RUN_TARGET_PCT_MIN 0.01
#define RUN_SEGMENTS_MIN 1
#define RUN_SEGMENTS_MAX 16
#define RUN_SEGMENTS_DEFAULT 6
#define RUN_TARGET_PCT_MAX 50
#define RUN_WINDOW_S_DEFAULT 3  /* dev: --window, seconds */
#define RUN_WINDOW_S_MIN 0.1
#define RUN_WINDOW_WARMUP_DIV 4 /* dev: window / this unmeasured after each attach (the new
				  * program's first runs: an emulated guest translates its JIT-ed
				  * code then) */
#define RUN_WINDOW_S_MAX 600
#define RUN_RATE_TOLERANCE_DEFAULT 5 /* dev: --rate-tolerance, percent */
#define RUN_RATE_TOLERANCE_MIN 0.1
#define RUN_RATE_TOLERANCE_MAX 50
#define RUN_STR_(x) #x
#define RUN_STR(x) RUN_STR_(x)

/* where the experiment runs: on this machine, or inside a qemu icount guest */
enum run_engine { ENGINE_HOST = 0, ENGINE_ICOUNT };

/* the qemu that runs the guests (--qemu; run/qemu_from.c) */
enum run_qemu { QEMU_INSTALLED = 0, QEMU_BACKPORTS };

/* the timing pass's schedule: auto is alternating on the host engine, classic in an
 * icount guest (whose clock has next to no noise) */
enum run_schedule { SCHEDULE_AUTO = 0, SCHEDULE_ALTERNATING, SCHEDULE_CLASSIC };

struct run_opts {
	const char *topology;      /* a topology's name (run/topologies.h) */
	const char *topologies_dir; /* where the topologies' scripts live */
	const char *out_dir;       /* parent of the run directory (default "results") */
	enum drop_mode modes[RUN_MAX_MODES]; /* the arms: each measured in every repetition */
	int nmodes;
	bool modes_given;            /* --modes was given (else the topology's default) */
	int aa_arm;                /* the A/A twin of arm 0 (same mode, "MODE-aa"), or -1 */
	uint64_t packets;          /* per measured window (default: the topology's, per engine:
				    * struct topology_desc) */
	uint64_t warmup;           /* packets before each window (default 10% of packets) */
	int reps;                  /* repetitions of the timing pass (default: the topology's) */
	int count_reps;            /* repetitions of the count and bpfstats passes (default 3;
				    * icount 2) */
	uint16_t port;             /* UDP port dropped (default 9999) */
	uint32_t payload_len;      /* UDP payload bytes (default 18: 64-byte frames) */
	uint32_t batch;            /* packets per send call of the udp and packet senders
				    * (sendmmsg's messages; default RUN_BATCH_DEFAULT) */
	uint16_t vlan;             /* the raw senders' 802.1Q VLAN ID, 1-RUN_VLAN_MAX; 0: the
				    * frames are untagged (default) */
	int sender_cpu;            /* default: the last online CPU */
	bool sender_cpu_set;       /* --cpu given: the icount engine's inner run keeps it;
				    * else it takes its own machine's last CPU */
	uint64_t rate_pps;         /* sender pace, packets/s; 0 = as fast as possible (default:
				    * the topology's) */
	const int *counter_order;  /* counter backends to try (NULL: kprobe, fentry, tracepoint) */
	bool cross_check;          /* count pass: every working backend at once */
	bool flame;                /* profile pass: a flame graph per mode (perf record) */
	uint64_t profile_period;   /* its perf record -c: cpu-clock ns between samples
				    * (icount: guest instructions; default 50,000 there);
				    * 0: -F 997 */
	uint64_t profile_packets;  /* packets in its window (icount: 50,000 or --packets if
				    * more); 0: sized from the timing pass (run_passes.c) */
	int sender;                /* enum sender_kind: udp, packet, xdp-live */
	bool find_max_rate;        /* search each mode's highest lossless drop rate */
	bool threaded_napi;        /* the DUT's NAPI in its own kernel thread (a topology that
				    * allows it: TOPOLOGY_THREADED_NAPI) */
	int napi_cpu;              /* ... pinned to this CPU; -1 (default): any CPU but the
				    * sender's */
#define NAPI_CPU_SENDER (-2)       /* while parsing: --napi-cpu sender */
	char *dir_out;             /* when set: the run directory is written here */
	size_t dir_out_len;
	uint64_t seed;             /* the trial order's shuffle (default: the time; `xdptc
				    * matrix` gives its runs 1) */
	int engine;                /* enum run_engine */
	bool inside_icount;        /* this process runs inside the icount guest (the
				    * engine's inner run): time is instructions */
	struct run_icount_host {   /* inside the icount guest: where it runs, as the host
				    * told it (run_opts_from_json) */
		char qemu[128], icount[64], host_cpu_model[160], host_kernel[64];
	} icount_host;
	const char *guest_kernel;  /* the guest's kernel (virtio, icount): "6.1", "6.12";
				    * NULL: virtio.sh's default */
	const char *nic;           /* the nic topology's DUT: a NIC model of
				    * run/nic_models.c ("vmxnet3"); NULL: virtio-net */
	int qemu;                  /* enum run_qemu: the guests' qemu */
	int quiet;
	int held_lock;             /* > 0: the run lock is held already on this inherited fd
				    * (`xdptc matrix` runs its runs under its own lock) */
	int schedule;              /* enum run_schedule: the timing pass's */
	double window_ms;          /* alternating: the window's length, ms; 0: chosen from
				    * the noise */
	int windows_per_attach;    /* alternating: windows per attach; 0: chosen */
	double timing_budget_s;    /* alternating: the timing pass's time, s (default
				    * RUN_TIMING_BUDGET_DEFAULT) */
	double target_halfwidth;   /* alternating: the A/A half-width the rounds aim at
				    * (default 0.005: 0.5%) */
	int segments;              /* alternating: the timing pass's segments, each on a
				    * topology built anew (default RUN_SEGMENTS_DEFAULT) */
	/* a topology whose traffic comes from outside (dev) */
	const char *dev;           /* --dev: the device the traffic arrives on */
	const char *dev_netns;     /* --netns: its namespace; NULL: this process's */
	double window_s;           /* --window: each trial's window, s (default 3) */
	double rate_tolerance;     /* --rate-tolerance: a trial whose offered rate is further
				    * than this share from the run's median is invalid
				    * (default 0.05) */
	bool allow_default_route_dev; /* --allow-default-route-dev: measure a device that
				       * carries the default route or a remote login */
	const char *pmu_events;    /* perf events counted by perf stat in the timing pass, a
				    * comma list as perf spells them (default
				    * "cycles,instructions"); "" none */
};

#endif
