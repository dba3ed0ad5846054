/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "trial.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "netdev_stats.h"
#include "netns.h"
#include "udp_sender.h"

volatile pid_t trial_child_pid;

const char *trial_pass_name(enum trial_pass p)
{
	static const char *const names[PASS_NR] = { "timing", "count", "bpfstats" };

	return p < PASS_NR ? names[p] : "?";
}

/* What the sender child reports through the pipe. */
struct child_report {
	int err;
	struct udp_send_result warm, win;
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

/* The sender child: enter the sender's namespace, warm up, say ready, wait for go,
 * send the window, report. Never returns. */
static void sender_child(const struct trial_env *env, uint64_t packets, int to_parent,
			 int from_parent)
{
	struct child_report rep;
	struct udp_sender s;
	struct udp_sender_opts o = {
		.dst_addr = env->dst_addr,
		.dst_port = env->send_port,
		.payload_len = env->payload_len,
		.rate_pps = env->rate_pps,
	};
	int saved;
	char go;

	memset(&rep, 0, sizeof(rep));
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	rep.err = netns_enter(env->snd_netns, &saved);
	if (!rep.err && env->sender_cpu >= 0)
		rep.err = pin_to_cpu(env->sender_cpu);
	if (!rep.err)
		rep.err = udp_sender_open(&s, &o);
	if (!rep.err && env->warmup)
		rep.err = udp_sender_send(&s, env->warmup, NULL, &rep.warm);
	if (write(to_parent, "R", 1) != 1 || rep.err)
		goto report;
	if (read_full(from_parent, &go, 1) || go != 'G') {
		rep.err = -ECANCELED;
		goto report;
	}
	rep.err = udp_sender_send(&s, packets, NULL, &rep.win);
report:
	if (write(to_parent, &rep, sizeof(rep)) != (ssize_t)sizeof(rep))
		_exit(1);
	_exit(0);
}

static void sleep_ms(unsigned int ms)
{
	struct timespec ts = { .tv_sec = ms / 1000, .tv_nsec = (long)(ms % 1000) * 1000000L };

	nanosleep(&ts, NULL);
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
	uint64_t verdicts[VERDICT_NR];
	struct netdev_stats dut, snd;
	uint64_t softirq_ns, busy_ns, cycles, instructions, bpf_time, bpf_cnt;
	struct skb_counts counts;
};

static int snapshot_take(const struct trial_env *env, const struct drop_attachment *a,
			 enum trial_pass pass, struct snapshot *s)
{
	int e;

	memset(s, 0, sizeof(*s));
	if (a->verdicts_fd >= 0 && (e = verdicts_read_fd(a->verdicts_fd, s->verdicts)))
		return e;
	if ((e = dev_stats_in(env->dut_netns, env->dut_dev, &s->dut)) ||
	    (e = dev_stats_in(env->snd_netns, env->snd_dev, &s->snd)))
		return e;
	s->softirq_ns = softirq_tasks_cpu_ns(&env->softirq);
	s->busy_ns = cpus_busy_ns();
	if (pass == PASS_TIMING && env->pmu && (e = pmu_read(env->pmu, &s->cycles, &s->instructions)))
		return e;
	if (pass == PASS_COUNT && env->counters && (e = skb_counters_read(env->counters, &s->counts)))
		return e;
	if (pass == PASS_BPFSTATS && a->prog_fd >= 0 &&
	    (e = prog_run_stats(a->prog_fd, &s->bpf_time, &s->bpf_cnt)))
		return e;
	return 0;
}

/* Wait until the DUT's counters stop moving (packets still in rings or backlogs),
 * at most 2 s. */
static void settle(const struct trial_env *env, const struct drop_attachment *a)
{
	uint64_t last = UINT64_MAX;

	for (int i = 0; i < 100; i++) {
		uint64_t v[VERDICT_NR] = { 0 }, now;
		struct netdev_stats st = { 0 };

		if (a->verdicts_fd >= 0)
			verdicts_read_fd(a->verdicts_fd, v);
		dev_stats_in(env->dut_netns, env->dut_dev, &st);
		now = v[VERDICT_DROPPED] + v[VERDICT_PASSED] + st.rx_packets + st.rx_dropped;
		if (now == last)
			return;
		last = now;
		sleep_ms(20);
	}
}

static void compute(const struct trial_env *env, const struct snapshot *b, const struct snapshot *e,
		    const struct child_report *rep, struct trial_result *r)
{
	uint64_t lost;

	r->sent = rep->win.sent;
	r->wall_ns = rep->win.wall_ns;
	r->sender_cpu_ns = rep->win.cpu_ns;
	r->dropped = e->verdicts[VERDICT_DROPPED] - b->verdicts[VERDICT_DROPPED];
	r->passed = e->verdicts[VERDICT_PASSED] - b->verdicts[VERDICT_PASSED];
	r->dut_rx_packets = e->dut.rx_packets - b->dut.rx_packets;
	r->dut_rx_dropped = e->dut.rx_dropped - b->dut.rx_dropped;
	r->snd_tx_dropped = e->snd.tx_dropped - b->snd.tx_dropped;
	r->softirq_cpu_ns = e->softirq_ns - b->softirq_ns;
	r->cpus_busy_ns = e->busy_ns - b->busy_ns;
	r->pkts_at_dut = r->mode == MODE_NONE ? r->dut_rx_packets : r->dropped + r->passed;
	lost = r->dut_rx_dropped + r->snd_tx_dropped;
	r->unexplained = (int64_t)r->sent - (int64_t)r->pkts_at_dut - (int64_t)lost;
	r->valid = r->sent > 0 &&
		   (uint64_t)llabs(r->unexplained) * 1000 <= r->sent; /* <= 0.1% */
	r->cpu_ns_per_pkt = r->pkts_at_dut
				    ? (double)(r->sender_cpu_ns + r->softirq_cpu_ns) / (double)r->pkts_at_dut
				    : 0.0;
	if (r->pass == PASS_TIMING && e->cycles) {
		r->have_pmu = true;
		r->cycles = e->cycles - b->cycles;
		r->instructions = e->instructions - b->instructions;
	}
	if (r->pass == PASS_COUNT && env->counters) {
		r->have_counts = true;
		r->counters_built = env->counters->built_available;
		for (int i = 0; i < CNT_NR; i++)
			r->counts.v[i] = e->counts.v[i] - b->counts.v[i];
	}
	if (r->pass == PASS_BPFSTATS && r->mode != MODE_NONE) {
		r->have_bpf_stats = true;
		r->bpf_run_time_ns = e->bpf_time - b->bpf_time;
		r->bpf_run_cnt = e->bpf_cnt - b->bpf_cnt;
	}
}

static void kernel_mode_of(const struct trial_env *env, struct trial_result *r)
{
	struct drop_status st;
	int saved;

	snprintf(r->kernel_mode, sizeof(r->kernel_mode), "none");
	if (netns_enter(env->dut_netns, &saved))
		return;
	if (!drop_query(env->dut_dev, &st)) {
		if (st.xdp_prog_id == r->prog_id && r->prog_id)
			snprintf(r->kernel_mode, sizeof(r->kernel_mode), "%s",
				 drop_mode_name(st.xdp_mode));
		else if (st.tc_prog_id == r->prog_id && r->prog_id)
			snprintf(r->kernel_mode, sizeof(r->kernel_mode), "tc");
	}
	netns_return(saved);
}

int trial_run(const struct trial_env *env, enum drop_mode mode, enum trial_pass pass,
	      uint64_t packets, struct trial_result *r)
{
	struct drop_attachment a;
	struct snapshot before, after;
	struct child_report rep;
	int up[2] = { -1, -1 }, down[2] = { -1, -1 }, saved, e, status;
	pid_t pid = -1;
	char ready;

	memset(r, 0, sizeof(*r));
	r->mode = mode;
	r->pass = pass;
	e = netns_enter(env->dut_netns, &saved);
	if (e) {
		snprintf(r->error, sizeof(r->error), "cannot enter namespace %s: %s",
			 env->dut_netns, strerror(-e));
		return e;
	}
	e = drop_attach(env->dut_dev, mode, env->port, &a, r->error, sizeof(r->error));
	netns_return(saved);
	if (e)
		return e;
	r->prog_id = a.prog_id;
	kernel_mode_of(env, r);

	if (pipe(up) || pipe(down)) {
		e = -errno;
		snprintf(r->error, sizeof(r->error), "pipe: %s", strerror(-e));
		goto out;
	}
	pid = fork();
	if (pid < 0) {
		e = -errno;
		snprintf(r->error, sizeof(r->error), "fork: %s", strerror(-e));
		goto out;
	}
	if (pid == 0) {
		close(up[0]);
		close(down[1]);
		sender_child(env, packets, up[1], down[0]);
	}
	trial_child_pid = pid;
	close(up[1]);
	close(down[0]);
	up[1] = down[0] = -1;

	if (read_full(up[0], &ready, 1) || ready != 'R') {
		e = env->stop && *env->stop ? -EINTR : -EPIPE;
		snprintf(r->error, sizeof(r->error), "the sender died before the window");
		goto out;
	}
	settle(env, &a); /* the warm-up's last packets */
	e = snapshot_take(env, &a, pass, &before);
	if (!e && write(down[1], "G", 1) != 1)
		e = -EPIPE;
	if (e) {
		snprintf(r->error, sizeof(r->error), "reading counters failed: %s", strerror(-e));
		goto out;
	}
	if (read_full(up[0], &rep, sizeof(rep))) {
		e = env->stop && *env->stop ? -EINTR : -EPIPE;
		snprintf(r->error, sizeof(r->error), "the sender died during the window");
		goto out;
	}
	if (rep.err) {
		e = rep.err;
		snprintf(r->error, sizeof(r->error), "the sender failed: %s", strerror(-e));
		goto out;
	}
	settle(env, &a);
	e = snapshot_take(env, &a, pass, &after);
	if (e) {
		snprintf(r->error, sizeof(r->error), "reading counters failed: %s", strerror(-e));
		goto out;
	}
	compute(env, &before, &after, &rep, r);
out:
	if (pid > 0) {
		if (e)
			kill(pid, SIGKILL);
		while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
			;
		trial_child_pid = 0;
	}
	for (int i = 0; i < 2; i++) {
		if (up[i] >= 0)
			close(up[i]);
		if (down[i] >= 0)
			close(down[i]);
	}
	if (!netns_enter(env->dut_netns, &saved)) {
		drop_detach(&a);
		netns_return(saved);
	} else {
		drop_release(&a);
	}
	if (!e && env->stop && *env->stop)
		e = -EINTR;
	return e;
}
