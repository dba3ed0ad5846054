/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "trial.h"

#include <errno.h>
#include <math.h>
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
#include "netdev_stats.h"
#include "insn_window.h"
#include "netns.h"
#include "trial_insns.h"
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

static int dev_stats_in(const char *netns, const char *dev, struct netdev_stats *st)
{
	int saved, e = netns_enter(netns, &saved);

	if (e)
		return e;
	e = netdev_stats_read(dev, st);
	netns_return(saved);
	return e;
}

/* Everything read at the start and at the end of a window. */
struct snapshot {
	struct dut_snapshot dut;
	struct netdev_stats snd;
	uint64_t vcpu_ns;
	uint64_t self_ns; /* this process's CPU time (snapshots, the settle wait's polls) */
};

static int snapshot_take(const struct trial_env *env, enum drop_mode mode, enum trial_pass pass,
			 struct snapshot *s)
{
	int e;

	memset(s, 0, sizeof(*s));
	if (pass == PASS_PROFILE)
		pass = PASS_TIMING; /* the DUT reads its timing figures */
	if ((e = dut_snapshot(env->dut, (enum dut_pass)pass, &s->dut)) ||
	    (!env->window_ns &&
	     (e = dev_stats_in(env->snd_netns, trial_env_snd_dev(env, mode), &s->snd))))
		return e;
	if (env->cpu_source == CPU_GUEST_VCPU)
		s->vcpu_ns = threads_cpu_ns(env->qemu_pid, &env->vcpus);
	s->self_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	return 0;
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

static void compute(const struct trial_env *env, const struct snapshot *b,
		    const struct snapshot *e, const struct child_report *rep,
		    struct trial_result *r)
{
	uint64_t cpu;

	r->sent = rep->res.sent;
	r->wall_ns = rep->res.wall_ns;
	r->sender_cpu_ns = rep->res.cpu_ns;
	r->dropped = e->dut.verdicts[VERDICT_DROPPED] - b->dut.verdicts[VERDICT_DROPPED];
	r->passed = e->dut.verdicts[VERDICT_PASSED] - b->dut.verdicts[VERDICT_PASSED];
	r->dut_rx_packets = e->dut.dev.rx_packets - b->dut.dev.rx_packets;
	r->dut_rx_dropped = e->dut.dev.rx_dropped - b->dut.dev.rx_dropped;
	r->dut_rx_missed = e->dut.dev.rx_missed - b->dut.dev.rx_missed;
	r->rx_path_ns = e->dut.rx_path_ns - b->dut.rx_path_ns;
	r->rx_hardirq_ns = e->dut.rx_hardirq_ns - b->dut.rx_hardirq_ns;
	r->snd_tx_dropped = e->snd.tx_dropped - b->snd.tx_dropped;
	r->softirq_cpu_ns = e->dut.softirq_ns - b->dut.softirq_ns;
	r->cpus_busy_ns = e->dut.busy_ns - b->dut.busy_ns;
	r->pkts_at_dut = r->mode == MODE_NONE ? r->dut_rx_packets : r->dropped + r->passed;
	if (r->mode == MODE_NETKIT) {
		/* netkit_xmit counts its program's drops in the sending peer's tx_dropped and
		 * what it handed on in the peer's tx_packets (the primary's rx_packets: the
		 * passes alone), so what the program was handed is their sum, and only tx
		 * drops beyond the program's are loss (a full backlog's, which the primary's
		 * rx_dropped counts too, as veth's pair does) */
		uint64_t txd = e->snd.tx_dropped - b->snd.tx_dropped;

		r->dut_rx_packets = (e->snd.tx_packets - b->snd.tx_packets) + txd;
		r->snd_tx_dropped = txd > r->dropped ? txd - r->dropped : 0;
	}
	if (env->window_ns)
		conserve_outside(r);
	else
		conserve_sent(env, r);
	r->vcpu_ns = e->vcpu_ns - b->vcpu_ns;
	cpu = env->cpu_source == CPU_GUEST_VCPU	   ? r->vcpu_ns
	      : env->cpu_source == CPU_GUEST_SOFTIRQ ? r->softirq_cpu_ns
	      : env->cpu_source == CPU_RX_PATH	   ? r->rx_path_ns + r->softirq_cpu_ns
						     : r->sender_cpu_ns + r->softirq_cpu_ns;
	/* no packet at the DUT: the time per packet is unknown (NaN, null in run.json), never
	 * 0, and the trial is invalid */
	r->cpu_ns_per_pkt = r->pkts_at_dut ? (double)cpu / (double)r->pkts_at_dut : NAN;
	if (!r->pkts_at_dut && r->valid) {
		r->valid = false;
		snprintf(r->invalid_reason, sizeof(r->invalid_reason),
			 "no packet reached the DUT: nothing to divide by");
	}
	r->steal_ns = e->dut.steal_ns - b->dut.steal_ns;
	r->self_ns = e->self_ns - b->self_ns;
	if (env->cpu_source == CPU_SENDER_AND_SOFTIRQ) {
		/* (busy time comes in clock ticks, 10 ms: a check, not a measurement); this
		 * process's own reading of the counters is not other load */
		uint64_t measured = r->sender_cpu_ns + r->softirq_cpu_ns + r->steal_ns + r->self_ns;

		r->other_busy_ns = r->cpus_busy_ns > measured ? r->cpus_busy_ns - measured : 0;
		r->other_load = r->wall_ns && r->other_busy_ns * 4 >= r->wall_ns;
		r->host_steal = r->wall_ns && r->steal_ns * 4 >= r->wall_ns;
	}
	if (r->pass == PASS_TIMING && r->mode != MODE_NONE &&
	    e->dut.bpf_run_cnt > b->dut.bpf_run_cnt)
		r->bpf_stats_on = true;
	if (r->pass == PASS_COUNT && e->dut.have_counts && b->dut.have_counts) {
		r->have_counts = true;
		for (int i = 0; i < CNT_NR; i++)
			r->counts.v[i] = e->dut.counts.v[i] - b->dut.counts.v[i];
	}
	if (r->pass == PASS_BPFSTATS && r->mode != MODE_NONE) {
		r->have_bpf_stats = true;
		r->bpf_run_time_ns = e->dut.bpf_run_time_ns - b->dut.bpf_run_time_ns;
		r->bpf_run_cnt = e->dut.bpf_run_cnt - b->dut.bpf_run_cnt;
	}
}


/* What one window holds while it runs: perf, a guest's plugin window. */
struct window_state {
	struct perf_stat prof;/* the profile pass's perf record */
	bool prof_started;
	struct perf_stat ps;  /* the timing pass's perf stat */
	bool perf_started;
	uint64_t t_on;        /* when perf's counters went on, ns */
	bool remote_insns;    /* a guest DUT's plugin window (env->insns_remote) */
	struct dut_insns di;  /* ... its figures, until the result takes them */
	struct ethtool_stats_set nic0, nic1; /* outside: the NIC's statistics at each end */
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
	s->last = malloc(sizeof(struct snapshot)); /* NULL: no reuse */
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

/* The measured window: (warm-up) settle, perf started (profile pass: perf record;
 * timing pass: perf stat's counters on right before the window), snapshot, the window,
 * perf's counters off, settle, snapshot, compute. Returns 0, -EINTR when stopped, or
 * -errno with r->error. */
static int measured_window(struct trial_session *s, uint64_t packets, uint64_t warmup,
			   struct window_state *t, struct trial_result *r)
{
	const struct trial_env *env = s->env;
	enum trial_pass pass = s->pass;
	struct snapshot before, after;
	struct child_report rep;
	uint64_t t_snap0 = 0, t_snap1 = 0;
	int e;

	/* right after another window of the same attach: its last snapshot is this one's
	 * first (nothing moved since its settle wait) */
	bool reuse = !warmup && s->have_last && pass == PASS_TIMING &&
		     !(env->perf_nevents > 0 && !s->perf) && !env->insns_path;

	s->have_last = false;
	if (warmup && (e = session_cmd(s, 'W', warmup, &rep, r)))
		return e;
	if (!reuse)
		settle(env); /* the warm-up's last packets (or the last window's) */
	if (pass == PASS_PROFILE) {
		char why[200];

		e = perf_record_start(&t->prof, env->profile_path, env->profile_period, why,
				      sizeof(why));
		if (e) {
			snprintf(r->error, sizeof(r->error), "perf record: %s", why);
			return e;
		}
		t->prof_started = true;
	}
	if (pass == PASS_TIMING && env->perf_nevents > 0 && !s->perf)
		t->perf_started = perf_window_start(env, s->pid, &t->ps, r) == 0;
	if (reuse) {
		memcpy(&before, s->last, sizeof(before));
	} else {
		t_snap0 = clock_ns(CLOCK_MONOTONIC);
		e = snapshot_take(env, s->mode, pass, &before);
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
	if (e) {
		snprintf(r->error, sizeof(r->error), "reading counters failed: %s", strerror(-e));
		return e;
	}
	e = session_cmd(s, 'S', packets, &rep, r);
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
	if (e)
		return e;
	settle(env);
	if (t->remote_insns && (e = dut_insns(env->dut, false, &t->di, r->error,
					      sizeof(r->error))))
		return e; /* ... to right before the last */
	t_snap1 = clock_ns(CLOCK_MONOTONIC);
	e = snapshot_take(env, s->mode, pass, &after);
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
	if (e) {
		snprintf(r->error, sizeof(r->error), "reading counters failed: %s", strerror(-e));
		return e;
	}
	/* traffic from outside: what the counters hold came between the two snapshots, not
	 * only during the wait between them */
	if (env->window_ns)
		rep.res.wall_ns = t_snap1 - t_snap0;
	compute(env, &before, &after, &rep, r);
	if (env->window_ns)
		nic_deltas(&t->nic0, &t->nic1, r);
	if (s->last) {
		memcpy(s->last, &after, sizeof(after));
		s->have_last = true;
	}
	if (t->remote_insns)
		trial_insns_from_dut(&t->di, r);
	e = trial_insns_collect(env, &rep.clock, r);
	if (e)
		return e;
	if (pass == PASS_TIMING && env->perf_nevents > 0 && !s->perf) {
		perf_window_collect(env, &t->ps, t->perf_started, r);
		t->perf_started = false;
	}
	return 0;
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
