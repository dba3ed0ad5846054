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
#include "skb_counters.h"
#include "trial_result.h"

/* trial_pass_name - "timing", "count", "bpfstats", "profile". */
const char *trial_pass_name(enum trial_pass p);

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
