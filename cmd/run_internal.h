/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_internal.h: what the run driver (run.c), the rate search (run_rate.c) and the icount
 * engine (engine_icount.c) share (run_common.c): the run lock, signals, topology scripts,
 * the arms, directories; and the entry points each offers the others.
 */
#ifndef XDPTC_RUN_INTERNAL_H
#define XDPTC_RUN_INTERNAL_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "run.h"

struct trial_env;

/* A topology as its script printed it (KEY=VALUE lines of `SCRIPT up PREFIX`). */
struct topology {
	char prefix[16];
	char snd_ns[32], dut_ns[32], snd_dev[16], dut_dev[16], snd_addr[48], dut_addr[48];
	char dut_mac[24];
	char ctl_sock[128], accel[16], accel_reason[128], guest_kernel[64], qemu_version[128];
	char qemu_pid[16];
	char icount[64];     /* virtio.sh with ICOUNT=1: qemu's -icount arguments */
	const char *share;   /* the icount engine: the host directory the guest mounts
			      * read-write (XDPTC_SHARE), or NULL */
	int up;
};

/* run_topology_cmd - `sh TOPOLOGIES/@topology.sh @verb PREFIX` with this process as the
 * topology's owner (XDPTC_OWNER_PID), with the script's settings from @o and @t
 * (ICOUNT=1 under the icount engine, else 0; GUEST_KERNEL; XDPTC_SHARE), in a process
 * group of its own, with stdin from
 * /dev/null and SIGTERM as its parent-death signal; for "up" the KEY=VALUE lines fill @t,
 * and a stop (SIGINT, SIGTERM, SIGHUP) meanwhile sends SIGTERM to its group, upon which
 * it removes what it made. Returns 0, or -EIO when the script failed (it printed why),
 * -errno when it could not run. */
int run_topology_cmd(const struct run_opts *o, const char *topology, const char *verb,
		     struct topology *t);

/* run_begin - what every run does first: take the machine's run lock
 * (/run/lock/xdptc-run.lock: one measuring run at a time on the machine; a refusal is printed), install the
 * signal handlers, remove what killed runs left, and name the topology (@t zeroed, a new
 * xdptc-XXXXXX prefix). Returns the lock's fd (close it at the end), or -1. */
int run_begin(const struct run_opts *o, struct topology *t);

/* run_lock_take - take the machine's run lock (XDPTC_RUN_LOCK), recording this process
 * as its holder; a holder that is gone is waited for up to 3 s. Returns the lock's fd
 * (close-on-exec), or -1 with the holder's pid (0: unknown) in *@holder. */
int run_lock_take(int *holder);

/* run_signals_install - SIGINT, SIGTERM, SIGHUP set the stop flag (run_stopped) and kill
 * a trial's sender; SIGPIPE is ignored. */
void run_signals_install(void);
bool run_stopped(void);

/* run_stop_flag - the flag a stop sets, for a trial's env->stop to watch. */
volatile int *run_stop_flag(void);

/* machine_cpu_model - this machine's CPU model (/proc/cpuinfo "model name") into @buf,
 * "unknown" when there is none. */
void machine_cpu_model(char *buf, size_t len);

/* run_make_parents - mkdir -p @path. Returns 0 or -errno. */
int run_make_parents(const char *path);

/* arm_label - the name arm @arm goes by in run.json: its mode, or "MODE-aa" for the A/A
 * twin (a static buffer per arm). */
const char *arm_label(const struct run_opts *o, int arm);

/* shuffle_arms - the order of the arms in repetition @rep of @pass (any int: the rate
 * search uses PASS_NR + 1): a Fisher-Yates shuffle seeded by the run's seed. */
void shuffle_arms(const struct run_opts *o, int pass, int rep, int *out);

/* run_rate_searches - the run's rate search (run_rate.c): each mode's max_drop_pps,
 * checked, appended to @run as "max_rate". @napi_pids: the DUT's NAPI threads (threaded
 * NAPI), whose scheduling stalls are told apart from the DUT's own loss. Returns 0,
 * -EINTR when stopped, or -errno with a sentence in @why. */
int run_rate_searches(const struct run_opts *o, struct trial_env *env, bool remote,
		      const pid_t *napi_pids, int n_napi, json_t *run, char *why, size_t whylen);

/* icount_engine_run - the host side of --engine icount (engine_icount.c): boot an icount
 * guest, run the veth experiment inside it, relay its progress, keep its results.
 * Returns the process exit status (0, 1, 130). */
int icount_engine_run(const struct run_opts *o);

#endif
