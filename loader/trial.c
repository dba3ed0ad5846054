/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "trial.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "ethtool_stats.h"
#include "trial_conserve.h"
#include "trial_perf.h"
#include "insn_window.h"
#include "netns.h"
#include "trial_insns.h"
#include "trial_snapshot.h"
#include "udp_sender.h"


volatile pid_t trial_child_pid;

const char *trial_pass_name(enum trial_pass p)
{
	static const char *const names[PASS_NR] = { "timing", "count", "bpfstats", "profile" };

	return p < PASS_NR ? names[p] : "?";
}

/* What the run tells the sender child, one command at a time. */
struct child_cmd {
	char op;        /* 'W' warm-up (no window), 'S' a measured window, 'Q' quit */
	bool mark;      /* 'S': open and close the plugin's window around it */
	bool path2;     /* 'W', 'S': send on the second path (env->path2_dst_addr) */
	uint64_t count; /* packets */
};

/* What the sender child reports through the pipe: once ready (err only), then after
 * each command. */
struct child_report {
	int err;
	struct udp_send_result res;
	struct insn_clock clock; /* the plugin's window (trial_insns.h) */
};

static int read_full(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t r = read(fd, (char *)buf + got, len - got);

		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -EPIPE;
		got += (size_t)r;
	}
	return 0;
}

static void sleep_us(unsigned int us)
{
	struct timespec ts = { .tv_sec = us / 1000000, .tv_nsec = (long)(us % 1000000) * 1000L };

	while (nanosleep(&ts, &ts) && errno == EINTR) /* the rest of it after a signal */
		;
}

/* The sender child when the traffic comes from outside: nothing to send; each command
 * is a wait of the window's length (a warm-up's: env->warmup_ns). The window's time is
 * the parent's, between its two snapshots (measured_window). */
static void outside_child(const struct trial_env *env, int to_parent, int from_parent)
{
	struct child_report rep;
	struct child_cmd cmd;

	memset(&rep, 0, sizeof(rep));
	if (write(to_parent, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		return;
	while (!read_full(from_parent, &cmd, sizeof(cmd)) && cmd.op != 'Q') {
		memset(&rep, 0, sizeof(rep));
		sleep_us((unsigned int)((cmd.op == 'W' ? env->warmup_ns : env->window_ns) / 1000));
		if (write(to_parent, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
			return;
	}
}

/* The sender child: enter the sender's namespace, open the sender, say ready, then send
 * what each command asks for and report, until 'Q' or the pipe closes. Never returns. */
static void sender_child(const struct trial_env *env, int to_parent, int from_parent)
{
	struct child_report rep;
	struct child_cmd cmd;
	struct sender s, s2;
	struct sender_opts o = {
		.kind = env->sender,
		.dev = env->snd_dev,
		.src_addr = env->src_addr,
		.dst_addr = env->dst_addr,
		.dst_mac = env->dst_mac,
		.dst_port = env->send_port,
		.payload_len = env->payload_len,
		.batch = env->batch,
		.vlan = env->vlan,
		.rate_pps = env->rate_pps,
	};
	int saved;

	memset(&rep, 0, sizeof(rep));
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	/* never outlive the run (it holds the run lock and the topology) */
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(1);
	if (env->window_ns) { /* traffic from outside: the windows are times */
		outside_child(env, to_parent, from_parent);
		_exit(0);
	}
	rep.err = netns_enter(env->snd_netns, &saved);
	if (!rep.err && env->sender_cpu >= 0)
		rep.err = pin_to_cpu(env->sender_cpu);
	if (!rep.err)
		rep.err = sender_open(&s, &o);
	if (!rep.err && env->path2_dst_addr) { /* the second path's own socket */
		o.dev = env->path2_snd_dev;
		o.dst_addr = env->path2_dst_addr;
		rep.err = sender_open(&s2, &o);
	}
	if (write(to_parent, &rep, sizeof(rep)) != (ssize_t)sizeof(rep) || rep.err)
		_exit(1);
	while (!read_full(from_parent, &cmd, sizeof(cmd)) && cmd.op != 'Q') {
		memset(&rep, 0, sizeof(rep));
		if (cmd.op == 'S' && cmd.mark)
			trial_insns_open(&rep.clock);
		rep.err = sender_send(cmd.path2 && env->path2_dst_addr ? &s2 : &s, cmd.count,
				      &rep.res);
		if (cmd.op == 'S' && cmd.mark)
			trial_insns_close(&rep.clock);
		if (write(to_parent, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
			_exit(1);
	}
	sender_close(&s);
	if (env->path2_dst_addr)
		sender_close(&s2);
	_exit(0);
}

/* Wait until the DUT's counters stop moving (packets still in rings, backlogs or a
 * guest's queue): unchanged over one poll of env->settle_us (default 20 ms, a guest
 * 100 ms), at most 2 s (veth) or 10 s (a guest). */
static void settle(const struct trial_env *env)
{
	uint64_t last = UINT64_MAX;
	int us, rounds;

	if (env->window_ns) /* traffic from outside never stops: nothing to wait for */
		return;
	us = env->settle_us ? (int)env->settle_us : dut_is_remote(env->dut) ? 100000 : 20000;
	rounds = (dut_is_remote(env->dut) ? 10000000 : 2000000) / us;
	for (int i = 0; i < rounds; i++) {
		struct dut_snapshot s;
		uint64_t now;

		if (dut_snapshot(env->dut, DUT_PASS_SETTLE, &s))
			return;
		now = s.verdicts[VERDICT_DROPPED] + s.verdicts[VERDICT_PASSED] + s.dev.rx_packets +
		      s.dev.rx_dropped;
		if (now == last)
			return;
		last = now;
		sleep_us((unsigned int)us);
	}
}



/* What one window holds while it runs: perf, a guest's plugin window, the snapshots. */
struct window_state {
	struct perf_stat prof;/* the profile pass's perf record */
	bool prof_started;
	struct perf_stat ps;  /* the timing pass's perf stat */
	bool perf_started;
	uint64_t t_on;        /* when perf's counters went on, ns */
	bool remote_insns;    /* a guest DUT's plugin window (env->insns_remote) */
	struct dut_insns di;  /* ... its figures, until the result takes them */
	struct ethtool_stats_set nic0, nic1; /* outside: the NIC's statistics at each end */
	struct trial_snapshot before, after; /* the counters at the window's two ends */
	uint64_t t_snap0, t_snap1;     /* when each was taken, monotonic ns (0: reused) */
	struct child_report rep;       /* the sender's report of the window */
};

/* Send one command to the session's sender and read its report. Returns 0, -EINTR when
 * stopped, -EPIPE when the sender died (r->error says), or the sender's own error. */
static int session_cmd(struct trial_session *s, char op, uint64_t count,
		       struct child_report *rep, struct trial_result *r)
{
	struct child_cmd cmd = { .op = op, .count = count,
				 .mark = op == 'S' && s->pass == PASS_TIMING && s->env->insns_path,
				 .path2 = s->env->path2_dst_addr &&
					  (s->env->path2_modes & (1u << s->mode)) };

	if (write(s->down, &cmd, sizeof(cmd)) != (ssize_t)sizeof(cmd) ||
	    read_full(s->up, rep, sizeof(*rep))) {
		s->broken = true;
		snprintf(r->error, sizeof(r->error), "the sender died %s",
			 op == 'S' ? "during the window" : "before the window");
		return s->env->stop && *s->env->stop ? -EINTR : -EPIPE;
	}
	if (rep->err) {
		s->broken = true;
		snprintf(r->error, sizeof(r->error), "the sender failed: %s", strerror(-rep->err));
	}
	return rep->err;
}

int trial_session_open(const struct trial_env *env, enum trial_pass pass,
		       struct trial_session *s, char *err, size_t errlen)
{
	struct child_report rep = { 0 };
	int up[2], down[2], e;

	memset(s, 0, sizeof(*s));
	s->env = env;
	s->pass = pass;
	s->up = s->down = -1;
	s->last = malloc(sizeof(struct trial_snapshot)); /* NULL: no reuse */
	if (pipe(up)) {
		e = -errno;
		snprintf(err, errlen, "pipe: %s", strerror(-e));
		return e;
	}
	if (pipe(down)) {
		e = -errno;
		close(up[0]);
		close(up[1]);
		snprintf(err, errlen, "pipe: %s", strerror(-e));
		return e;
	}
	s->pid = fork();
	if (s->pid < 0) {
		e = -errno;
		snprintf(err, errlen, "fork: %s", strerror(-e));
		close(up[0]), close(up[1]), close(down[0]), close(down[1]);
		return e;
	}
	if (s->pid == 0) {
		close(up[0]);
		close(down[1]);
		sender_child(env, up[1], down[0]);
	}
	trial_child_pid = s->pid;
	close(up[1]);
	close(down[0]);
	s->up = up[0];
	s->down = down[1];
	if (read_full(s->up, &rep, sizeof(rep)) || rep.err) {
		e = rep.err ? rep.err : -EPIPE;
		snprintf(err, errlen, "the sender could not start: %s",
			 rep.err ? strerror(-rep.err) : "it died");
		s->broken = true;
		trial_session_close(s);
		return env->stop && *env->stop ? -EINTR : e;
	}
	return 0;
}

void trial_session_close(struct trial_session *s)
{
	int status;

	if (s->pid > 0) {
		struct child_cmd q = { .op = 'Q' };

		if (s->broken || write(s->down, &q, sizeof(q)) != (ssize_t)sizeof(q))
			kill(s->pid, SIGKILL);
		while (waitpid(s->pid, &status, 0) < 0 && errno == EINTR)
			;
		trial_child_pid = 0;
		s->pid = 0;
	}
	if (s->up >= 0)
		close(s->up);
	if (s->down >= 0)
		close(s->down);
	s->up = s->down = -1;
	free(s->last);
	s->last = NULL;
	s->have_last = false;
}

/* Profile pass: perf record started for the window, its sampling off until the window
 * opens. Returns 0, or -errno with r->error. */
static int window_profile_start(const struct trial_env *env, struct window_state *t,
				struct trial_result *r)
{
	char why[200];
	int e = perf_record_start(&t->prof, env->profile_path, env->profile_period, why,
				  sizeof(why));

	if (e) {
		snprintf(r->error, sizeof(r->error), "perf record: %s", why);
		return e;
	}
	t->prof_started = true;
	return 0;
}

/* The window's start, up to its first packet: the warm-up of @warmup packets, the settle
 * wait, perf record (profile pass) and perf stat (timing pass) started, the first
 * snapshot into t->before (taken at t->t_snap0, monotonic ns; right after another window
 * of the same attach, @warmup 0, that window's last), the NIC's statistics (traffic from
 * outside), perf's counters on, a guest DUT's plugin window opened, perf record's
 * sampling on. Returns 0, -EINTR when stopped, or -errno with r->error. */
static int window_open(struct trial_session *s, uint64_t warmup, struct window_state *t,
		       struct trial_result *r)
{
	const struct trial_env *env = s->env;
	enum trial_pass pass = s->pass;
	/* right after another window of the same attach: its last snapshot is this one's
	 * first (nothing moved since its settle wait) */
	bool reuse = !warmup && s->have_last && pass == PASS_TIMING &&
		     !(env->perf_nevents > 0 && !s->perf) && !env->insns_path;
	int e = 0;

	s->have_last = false;
	if (warmup && (e = session_cmd(s, 'W', warmup, &t->rep, r)))
		return e;
	if (!reuse)
		settle(env); /* the warm-up's last packets (or the last window's) */
	if (pass == PASS_PROFILE && (e = window_profile_start(env, t, r)))
		return e;
	if (pass == PASS_TIMING && env->perf_nevents > 0 && !s->perf)
		t->perf_started = perf_window_start(env, s->pid, &t->ps, r) == 0;
	if (reuse) {
		memcpy(&t->before, s->last, sizeof(t->before));
	} else {
		t->t_snap0 = clock_ns(CLOCK_MONOTONIC);
		e = trial_snapshot_take(env, s->mode, pass, &t->before);
	}
	if (!e && env->window_ns) /* the NIC's own words, beside its rtnetlink figures */
		nic_read(env, &t->nic0);
	if (!e && t->perf_started && perf_window_on(&t->ps, r, &t->t_on))
		t->perf_started = false; /* gone: its reason in r->perf_error */
	/* a block's perf stat (trial_session_perf_start): on for this window */
	if (!e && s->perf && !s->perf_error[0] && perf_window_on(s->perf, r, &t->t_on))
		snprintf(s->perf_error, sizeof(s->perf_error), "%s", r->perf_error);
	/* a guest DUT's plugin window: from right after the first snapshot */
	t->remote_insns = !e && pass == PASS_TIMING && env->insns_remote;
	if (t->remote_insns && (e = dut_insns(env->dut, true, NULL, r->error, sizeof(r->error))))
		return e;
	if (!e && t->prof_started && (e = perf_stat_enable(&t->prof, true))) {
		snprintf(r->error, sizeof(r->error), "perf record did not start sampling: %s",
			 strerror(-e));
		return e;
	}
	if (e)
		snprintf(r->error, sizeof(r->error), "reading counters failed: %s", strerror(-e));
	return e;
}

/* The window's packets: the sender sends @packets and reports into t->rep; perf stat's
 * counters off right after it (before the settle wait), perf record's sampling off.
 * Returns 0, -EINTR when stopped, or -errno with r->error. */
static int window_send(struct trial_session *s, uint64_t packets, struct window_state *t,
		       struct trial_result *r)
{
	int e = session_cmd(s, 'S', packets, &t->rep, r);

	if (t->perf_started) /* and off right after it, before the settle wait */
		perf_window_end(&t->ps, r, t->t_on);
	if (s->perf && !s->perf_error[0]) {
		perf_window_end(s->perf, r, t->t_on);
		if (r->perf_error[0])
			snprintf(s->perf_error, sizeof(s->perf_error), "%s", r->perf_error);
	}
	if (t->prof_started) {
		int pe = perf_stat_enable(&t->prof, false);

		if (pe && !e) {
			snprintf(r->error, sizeof(r->error), "perf record did not stop sampling: %s",
				 strerror(-pe));
			e = pe;
		}
	}
	return e;
}

/* The window's end, after its last packet: the settle wait, a guest DUT's plugin window
 * closed, the last snapshot into t->after (taken at t->t_snap1, monotonic ns), the NIC's
 * statistics (traffic from outside), perf record stopped and its data written. Returns
 * 0, or -errno with r->error. */
static int window_close(struct trial_session *s, struct window_state *t,
			struct trial_result *r)
{
	const struct trial_env *env = s->env;
	int e;

	settle(env);
	if (t->remote_insns && (e = dut_insns(env->dut, false, &t->di, r->error,
					      sizeof(r->error))))
		return e; /* ... to right before the last */
	t->t_snap1 = clock_ns(CLOCK_MONOTONIC);
	e = trial_snapshot_take(env, s->mode, s->pass, &t->after);
	if (!e && env->window_ns)
		nic_read(env, &t->nic1);
	if (!e && t->prof_started) {
		char why[200];

		t->prof_started = false;
		e = perf_record_stop(&t->prof, env->profile_path, why, sizeof(why));
		if (e) {
			snprintf(r->error, sizeof(r->error), "perf record wrote no data: %s", why);
			return e;
		}
	}
	if (e)
		snprintf(r->error, sizeof(r->error), "reading counters failed: %s", strerror(-e));
	return e;
}

/* Trial @r from the window's two snapshots and the sender's report (trial_compute), with the
 * NIC's deltas, a guest DUT's or the plugin's instructions and perf stat's figures; the
 * last snapshot kept for the next window of the same attach. Returns 0, or -errno (the
 * plugin's window unread) with r->error. */
static int window_result(struct trial_session *s, struct window_state *t,
			 struct trial_result *r)
{
	const struct trial_env *env = s->env;
	int e;

	/* traffic from outside: what the counters hold came between the two snapshots, not
	 * only during the wait between them */
	if (env->window_ns)
		t->rep.res.wall_ns = t->t_snap1 - t->t_snap0;
	trial_compute(env, &t->before, &t->after, &t->rep.res, r);
	if (env->window_ns)
		nic_deltas(&t->nic0, &t->nic1, r);
	if (s->last) {
		memcpy(s->last, &t->after, sizeof(t->after));
		s->have_last = true;
	}
	if (t->remote_insns)
		trial_insns_from_dut(&t->di, r);
	e = trial_insns_collect(env, &t->rep.clock, r);
	if (e)
		return e;
	if (s->pass == PASS_TIMING && env->perf_nevents > 0 && !s->perf) {
		perf_window_collect(env, &t->ps, t->perf_started, r);
		t->perf_started = false;
	}
	return 0;
}

/* The measured window: (warm-up) settle, perf started (profile pass: perf record;
 * timing pass: perf stat's counters on right before the window), snapshot, the window,
 * perf's counters off, settle, snapshot, trial_compute. Returns 0, -EINTR when stopped, or
 * -errno with r->error. */
static int measured_window(struct trial_session *s, uint64_t packets, uint64_t warmup,
			   struct window_state *t, struct trial_result *r)
{
	int e = window_open(s, warmup, t, r);

	if (!e)
		e = window_send(s, packets, t, r);
	if (!e)
		e = window_close(s, t, r);
	return e ? e : window_result(s, t, r);
}

int trial_session_perf_start(struct trial_session *s, struct perf_stat *ps,
			     struct trial_result *r)
{
	s->perf_error[0] = '\0';
	return perf_window_start(s->env, s->pid, ps, r);
}

void trial_session_perf_finish(struct trial_session *s, struct perf_stat *ps, bool started,
			       struct trial_result *r)
{
	if (started && s->perf_error[0] && !r->perf_error[0])
		snprintf(r->perf_error, sizeof(r->perf_error), "%s", s->perf_error);
	perf_window_collect(s->env, ps, started, r);
}

/* Whatever the window still holds: perf stopped, a guest's window figures freed. */
static void window_state_end(struct window_state *t)
{
	ethtool_stats_free(&t->nic0);
	ethtool_stats_free(&t->nic1);
	if (t->di.funcs) { /* a window the result did not take */
		insn_funcs_free(t->di.funcs);
		free(t->di.funcs);
		t->di.funcs = NULL;
	}
	if (t->perf_started)
		perf_stat_abort(&t->ps);
	if (t->prof_started)
		perf_stat_abort(&t->prof);
}

void trial_result_release(struct trial_result *r)
{
	free(r->nic);
	r->nic = NULL;
	r->nic_n = 0;
	if (r->insn_funcs) {
		insn_funcs_free(r->insn_funcs);
		free(r->insn_funcs);
		r->insn_funcs = NULL;
	}
}

int trial_session_attach(struct trial_session *s, enum drop_mode mode, struct trial_result *r)
{
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
	int e;

	memset(r, 0, sizeof(*r));
	r->mode = mode;
	r->pass = s->pass;
	if (s->broken) {
		snprintf(r->error, sizeof(r->error), "the sender is gone");
		return -EPIPE;
	}
	s->have_last = false;
	e = dut_attach(s->env->dut, mode, s->env->port, &r->prog_id, r->kernel_mode, r->error,
		       sizeof(r->error));
	if (!e) {
		s->mode = mode;
		s->prog_id = r->prog_id;
		snprintf(s->kernel_mode, sizeof(s->kernel_mode), "%s", r->kernel_mode);
	}
	r->attach_ns = clock_ns(CLOCK_MONOTONIC) - t0;
	return e;
}

int trial_session_measure(struct trial_session *s, uint64_t packets, uint64_t warmup,
			  struct trial_result *r)
{
	struct window_state t = { 0 };
	uint64_t attach_ns = r->attach_ns;
	int e;

	memset(r, 0, sizeof(*r));
	r->mode = s->mode;
	r->pass = s->pass;
	r->prog_id = s->prog_id;
	r->attach_ns = attach_ns;
	snprintf(r->kernel_mode, sizeof(r->kernel_mode), "%s", s->kernel_mode);
	if (s->broken) {
		snprintf(r->error, sizeof(r->error), "the sender is gone");
		return -EPIPE;
	}
	e = measured_window(s, packets, warmup, &t, r);
	window_state_end(&t);
	if (!e && s->env->stop && *s->env->stop)
		e = -EINTR;
	return e;
}

uint64_t trial_session_detach(struct trial_session *s)
{
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC);

	s->have_last = false;
	dut_detach(s->env->dut);
	return clock_ns(CLOCK_MONOTONIC) - t0;
}

int trial_session_window(struct trial_session *s, enum drop_mode mode, uint64_t packets,
			 uint64_t warmup, struct trial_result *r)
{
	int e = trial_session_attach(s, mode, r);

	if (e)
		return e;
	e = trial_session_measure(s, packets, warmup, r);
	r->detach_ns = trial_session_detach(s);
	return e;
}

int trial_run(const struct trial_env *env, enum drop_mode mode, enum trial_pass pass,
	      uint64_t packets, struct trial_result *r)
{
	struct trial_session s;
	int e;

	memset(r, 0, sizeof(*r));
	r->mode = mode;
	r->pass = pass;
	e = trial_session_open(env, pass, &s, r->error, sizeof(r->error));
	if (e)
		return e;
	e = trial_session_window(&s, mode, packets, env->warmup, r);
	if (e)
		s.broken = true;
	trial_session_close(&s);
	return e;
}
