/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_ctx.h: what one run carries from phase to phase (struct run_ctx): its options, its
 * topology and DUT, the trials' environment, the metrics it can have, run.json as it
 * grows. run.c's phases, run_passes.c and the topologies' callbacks (topology.h) read
 * and fill it. Types only.
 */
#ifndef XDPTC_RUN_CTX_H
#define XDPTC_RUN_CTX_H

#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>
#include <time.h>

#include "dut.h"
#include "napi_delay.h"
#include "perf_stat.h"
#include "run_insns.h"
#include "run_opts.h"
#include "run_timing.h"
#include "topology.h"
#include "topology_script.h"
#include "trial.h"

/* The progress lines' count and clock. */
struct progress {
	int done, total;
	struct timespec start;
	bool no_eta; /* inside the icount guest: its clock is no guide to host time (the
		      * host relaying the lines adds its own ETA) */
	bool instructions; /* the time metric counts guest instructions */
};

/* What one run carries from phase to phase. */
struct run_ctx {
	struct run_opts o;          /* the options; the run may turn the flame graphs off */
	const struct topology_desc *td; /* its topology */
	bool remote;                /* virtio: the DUT is a guest, driven through its agent */
	bool icount_dut;            /* virtio under icount: the guest's clock counts
				     * instructions */
	bool icount_clock;          /* the time measured counts guest instructions: inside
				     * the icount engine's guest, or its virtio DUT */
	const char *time_key;       /* the trials' time metric: "cpu_ns_per_pkt", or
				     * "guest_instructions_per_pkt" (never a PMU's
				     * instructions_per_pkt) */
	int lock_fd;
	struct tm tm;               /* when the run started (UTC) */
	char dir[PATH_MAX];         /* the run directory */
	bool keep_dir;              /* written: keep it */
	struct topology topo;
	struct dut dut;
	bool have_dut;
	bool topology_tried;        /* its script's `up` ran: `down` runs at the end */
	struct trial_env env;
	struct run_insns insns;     /* the plugin's per-arm profiles and self-check */
	struct timing_plan plan;    /* the timing pass's schedule */
	char share[PATH_MAX];       /* virtio under icount: the run directory, shared */
	struct dut_counters_info ci;
	bool counters_open;
	struct perf_stat_value perf_events[PERF_STAT_MAX_EVENTS];
	int perf_n;
	bool have_pmu;
	char pmu_why[256];
	const char *napi_sched;     /* threaded NAPI: the DUT thread's scheduling */
	pid_t napi_pids[NAPI_DELAY_MAX_PIDS]; /* threaded NAPI: the DUT's NAPI threads */
	int n_napi;
	json_t *doctor, *run, *trials, *flames;
	struct progress prog;
	int seq;                    /* trials so far */
	char why[512];              /* why the run failed */
};

#endif
