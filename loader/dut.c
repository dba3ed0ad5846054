/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "dut.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "netns.h"
#include "rx_path.h"

/* ---------------------------------------------------------------- local ---- */

void dut_local_init(struct dut *d, const char *netns, const char *dev)
{
	memset(d, 0, sizeof(*d));
	d->netns = netns;
	d->dev = dev;
	d->fd = -1;
	d->stats_fd = -1;
	softirq_tasks_find(&d->softirq);
}

static int local_attach(struct dut *d, enum drop_mode mode, uint16_t port, uint32_t *prog_id,
			char kernel_mode[16], char *err, size_t errlen)
{
	struct rx_path p;
	int saved, e = netns_enter(d->netns, &saved);

	if (e) {
		snprintf(err, errlen, "cannot enter namespace %s: %s", d->netns, strerror(-e));
		return e;
	}
	e = drop_attach(d->dev, mode, port, &d->att, err, errlen);
	if (!e) {
		char qerr[256];

		d->attached = true;
		*prog_id = d->att.prog_id;
		snprintf(kernel_mode, 16, "%s", mode == MODE_NONE ? "none" : "?");
		/* the mode as the kernel reports the program now on the device */
		if (mode != MODE_NONE && !rx_path_read(d->dev, &p, qerr, sizeof(qerr)))
			for (int i = 0; i < p.n; i++)
				if (p.occ[i].prog_id == d->att.prog_id)
					snprintf(kernel_mode, 16, "%s", p.occ[i].mode);
	}
	netns_return(saved);
	return e;
}

static int local_detach(struct dut *d)
{
	int saved, e;

	if (!d->attached)
		return 0;
	e = netns_enter(d->netns, &saved);
	if (e) {
		drop_close(&d->att);
		d->attached = false;
		return e;
	}
	e = drop_detach(&d->att);
	netns_return(saved);
	d->attached = false;
	return e;
}

static int local_snapshot(struct dut *d, enum dut_pass pass, struct dut_snapshot *s)
{
	int saved, e;

	memset(s, 0, sizeof(*s));
	if (d->attached && d->att.verdicts_fd >= 0 &&
	    (e = verdicts_read_fd(d->att.verdicts_fd, s->verdicts)))
		return e;
	e = netns_enter(d->netns, &saved);
	if (e)
		return e;
	e = netdev_stats_read(d->dev, &s->dev);
	netns_return(saved);
	if (e)
		return e;
	s->softirq_ns = softirq_tasks_cpu_ns(&d->softirq);
	s->busy_ns = cpus_busy_steal_ns(&s->steal_ns);
	if (pass == DUT_PASS_COUNT && d->counters_open) {
		if ((e = skb_counters_read(&d->counters, &s->counts)))
			return e;
		s->have_counts = true;
	}
	/* in every pass: a run count that moves in the timing pass says that BPF statistics
	 * were on by someone else's doing (one bpf_prog_get_info_by_fd, outside the window) */
	if (d->attached && d->att.prog_fd >= 0 &&
	    (e = prog_run_stats(d->att.prog_fd, &s->bpf_run_time_ns, &s->bpf_run_cnt)))
		return e;
	return 0;
}

static int local_counters_open(struct dut *d, const int *order, bool cross_check,
			       struct dut_counters_info *info, char *err, size_t errlen)
{
	uint32_t ino, ifx;
	int saved, e = netns_enter(d->netns, &saved);

	if (e) {
		snprintf(err, errlen, "cannot enter namespace %s: %s", d->netns, strerror(-e));
		return e;
	}
	ino = netns_current_ino();
	ifx = if_nametoindex(d->dev);
	netns_return(saved);
	e = skb_counters_open(&d->counters, ifx, ino, order, cross_check, err, errlen);
	if (e)
		return e;
	d->counters_open = true;
	info->plan = d->counters.plan;
	return 0;
}

static void local_counters_close(struct dut *d)
{
	if (d->counters_open)
		skb_counters_close(&d->counters);
	d->counters_open = false;
}

static int local_bpf_stats(struct dut *d, bool on)
{
	if (on && d->stats_fd < 0) {
		d->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (d->stats_fd < 0)
			return -errno;
	} else if (!on && d->stats_fd >= 0) {
		close(d->stats_fd);
		d->stats_fd = -1;
	}
	return 0;
}

/* ------------------------------------------------------------ encoding ---- */

json_t *dut_snapshot_to_json(const struct dut_snapshot *s)
{
	json_t *j = json_object(), *c = json_array();

	json_object_set_new(j, "ok", json_true());
	json_object_set_new(j, "dropped", json_integer((json_int_t)s->verdicts[VERDICT_DROPPED]));
	json_object_set_new(j, "passed", json_integer((json_int_t)s->verdicts[VERDICT_PASSED]));
	json_object_set_new(j, "rx_packets", json_integer((json_int_t)s->dev.rx_packets));
	json_object_set_new(j, "rx_dropped", json_integer((json_int_t)s->dev.rx_dropped));
	json_object_set_new(j, "tx_packets", json_integer((json_int_t)s->dev.tx_packets));
	json_object_set_new(j, "tx_dropped", json_integer((json_int_t)s->dev.tx_dropped));
	json_object_set_new(j, "softirq_ns", json_integer((json_int_t)s->softirq_ns));
	json_object_set_new(j, "busy_ns", json_integer((json_int_t)s->busy_ns));
	json_object_set_new(j, "steal_ns", json_integer((json_int_t)s->steal_ns));
	json_object_set_new(j, "bpf_run_time_ns", json_integer((json_int_t)s->bpf_run_time_ns));
	json_object_set_new(j, "bpf_run_cnt", json_integer((json_int_t)s->bpf_run_cnt));
	if (s->have_counts) {
		for (int i = 0; i < CNT_NR; i++)
			json_array_append_new(c, json_integer((json_int_t)s->counts.v[i]));
		json_object_set_new(j, "counts", c);
	} else {
		json_decref(c);
	}
	return j;
}

static uint64_t u64_of(const json_t *j, const char *k)
{
	return (uint64_t)json_integer_value(json_object_get(j, k));
}

int dut_snapshot_from_json(const json_t *j, struct dut_snapshot *s)
{
	const json_t *c = json_object_get(j, "counts");

	memset(s, 0, sizeof(*s));
	if (!json_is_true(json_object_get(j, "ok")))
		return -EPROTO;
	s->verdicts[VERDICT_DROPPED] = u64_of(j, "dropped");
	s->verdicts[VERDICT_PASSED] = u64_of(j, "passed");
	s->dev.rx_packets = u64_of(j, "rx_packets");
	s->dev.rx_dropped = u64_of(j, "rx_dropped");
	s->dev.tx_packets = u64_of(j, "tx_packets");
	s->dev.tx_dropped = u64_of(j, "tx_dropped");
	s->softirq_ns = u64_of(j, "softirq_ns");
	s->busy_ns = u64_of(j, "busy_ns");
	s->steal_ns = u64_of(j, "steal_ns");
	s->bpf_run_time_ns = u64_of(j, "bpf_run_time_ns");
	s->bpf_run_cnt = u64_of(j, "bpf_run_cnt");
	if (json_is_array(c)) {
		if (json_array_size(c) != CNT_NR)
			return -EPROTO;
		for (int i = 0; i < CNT_NR; i++)
			s->counts.v[i] = (uint64_t)json_integer_value(json_array_get(c, (size_t)i));
		s->have_counts = true;
	}
	return 0;
}

json_t *counters_plan_to_json(const struct skb_counters_plan *p)
{
	json_t *j = json_object();

	json_object_set_new(j, "ok", json_true());
	for (int k = 0; k < SKB_COUNT_NR; k++) {
		json_t *c = json_object();

		json_object_set_new(c, "backend",
				    json_string(counter_backend_name(p->backend[k])));
		json_object_set_new(c, "points", json_string(p->points[k]));
		json_object_set_new(c, "passed_over", json_string(p->reason[k]));
		if (p->also[k]) {
			json_t *also = json_array();

			for (int b = 0; b < BACKEND_NR; b++)
				if (p->also[k] & (1u << b))
					json_array_append_new(also, json_string(counter_backend_name(b)));
			json_object_set_new(c, "cross_checked_by", also);
		}
		json_object_set_new(j, skb_count_name((enum skb_count)k), c);
	}
	return j;
}

int counters_plan_from_json(const json_t *j, struct skb_counters_plan *p)
{
	memset(p, 0, sizeof(*p));
	for (int k = 0; k < SKB_COUNT_NR; k++) {
		const json_t *c = json_object_get(j, skb_count_name((enum skb_count)k));
		const char *b = json_string_value(json_object_get(c, "backend"));

		if (!c || !b)
			return -EPROTO;
		p->backend[k] = BACKEND_NONE;
		for (int i = 0; i < BACKEND_NR; i++)
			if (!strcmp(b, counter_backend_name(i)))
				p->backend[k] = i;
		snprintf(p->points[k], sizeof(p->points[k]), "%s",
			 json_string_value(json_object_get(c, "points")) ?: "");
		snprintf(p->reason[k], sizeof(p->reason[k]), "%s",
			 json_string_value(json_object_get(c, "passed_over")) ?: "");
		{
			size_t i;
			json_t *b;

			json_array_foreach(json_object_get(c, "cross_checked_by"), i, b)
				for (int x = 0; x < BACKEND_NR; x++)
					if (!strcmp(json_string_value(b) ?: "", counter_backend_name(x)))
						p->also[k] |= 1u << x;
		}
	}
	return 0;
}

/* --------------------------------------------------------------- remote ---- */

static int write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -errno;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

/* Read one line (without its newline) into @line. Returns its length, -ETIMEDOUT, or
 * -EPIPE at end of input. */
static int read_line(int fd, char *buf, size_t *buflen, size_t cap, char *line, size_t linecap,
		     int timeout_ms)
{
	for (;;) {
		char *nl = memchr(buf, '\n', *buflen);
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;
		int pr;

		if (nl) {
			size_t n = (size_t)(nl - buf);

			if (n >= linecap)
				n = linecap - 1;
			memcpy(line, buf, n);
			line[n] = '\0';
			*buflen -= (size_t)(nl - buf) + 1;
			memmove(buf, nl + 1, *buflen);
			return (int)n;
		}
		if (*buflen == cap) /* a line longer than the buffer: drop it */
			*buflen = 0;
		pr = poll(&p, 1, timeout_ms);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr == 0)
			return -ETIMEDOUT;
		r = read(fd, buf + *buflen, cap - *buflen);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -EPIPE;
		*buflen += (size_t)r;
	}
}

/* Send @cmd and return the reply as JSON (a new reference), or NULL with *@e set. */
static json_t *rpc(struct dut *d, const char *cmd, int *e)
{
	static char line[65536];
	char out[1024];
	json_error_t jerr;
	json_t *j;
	int n;

	snprintf(out, sizeof(out), "%s\n", cmd);
	*e = write_all(d->fd, out, strlen(out));
	if (*e)
		return NULL;
	for (;;) {
		n = read_line(d->fd, d->buf, &d->buflen, sizeof(d->buf), line, sizeof(line),
			      d->timeout_ms);
		if (n < 0) {
			*e = n;
			return NULL;
		}
		j = json_loads(line, 0, &jerr);
		if (j && json_is_object(j) && json_object_get(j, "ok"))
			return j;
		json_decref(j); /* guest console noise or a stale sync: skip */
	}
}

int dut_remote_connect(struct dut *d, const char *sock_path, int timeout_ms, char *err,
		       size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char token[32], cmd[64], line[4096];
	struct timespec t0, t;
	int e;

	memset(d, 0, sizeof(*d));
	d->remote = true;
	d->stats_fd = -1;
	d->timeout_ms = timeout_ms;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	d->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (d->fd < 0 || connect(d->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		e = -errno;
		snprintf(err, errlen, "cannot connect to the guest's control socket %s: %s",
			 sock_path, strerror(-e));
		if (d->fd >= 0)
			close(d->fd);
		d->fd = -1;
		return e;
	}
	/* lines sent before the agent listened are lost: ask until it answers */
	snprintf(token, sizeof(token), "%ld", (long)getpid() ^ (long)time(NULL));
	snprintf(cmd, sizeof(cmd), "sync %s\n", token);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int n;

		if ((e = write_all(d->fd, cmd, strlen(cmd))))
			break;
		n = read_line(d->fd, d->buf, &d->buflen, sizeof(d->buf), line, sizeof(line), 1000);
		if (n >= 0 && strstr(line, "\"sync\"") && strstr(line, token)) {
			/* drop replies to earlier syncs still in flight */
			while (read_line(d->fd, d->buf, &d->buflen, sizeof(d->buf), line,
					 sizeof(line), 200) >= 0)
				;
			return 0;
		}
		if (n == -EPIPE) {
			e = -EPIPE;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 > timeout_ms) {
			e = -ETIMEDOUT;
			break;
		}
	}
	snprintf(err, errlen, "the guest's agent does not answer on %s: %s", sock_path, strerror(-e));
	close(d->fd);
	d->fd = -1;
	return e;
}

static int reply_error(json_t *j, char *err, size_t errlen)
{
	int e = (int)json_integer_value(json_object_get(j, "errno"));
	const char *msg = json_string_value(json_object_get(j, "error"));

	if (err)
		snprintf(err, errlen, "%s", msg ? msg : "the agent refused");
	return e < 0 ? e : -EIO;
}

static int remote_simple(struct dut *d, const char *cmd, char *err, size_t errlen, json_t **keep)
{
	int e;
	json_t *j = rpc(d, cmd, &e);

	if (!j) {
		if (err)
			snprintf(err, errlen, "the guest's agent did not answer '%s': %s", cmd,
				 strerror(-e));
		return e;
	}
	if (!json_is_true(json_object_get(j, "ok"))) {
		e = reply_error(j, err, errlen);
		json_decref(j);
		return e;
	}
	if (keep)
		*keep = j;
	else
		json_decref(j);
	return 0;
}

/* --------------------------------------------------------------- public ---- */

int dut_attach(struct dut *d, enum drop_mode mode, uint16_t port, uint32_t *prog_id,
	       char kernel_mode[16], char *err, size_t errlen)
{
	char cmd[64];
	json_t *j;
	int e;

	if (!d->remote)
		return local_attach(d, mode, port, prog_id, kernel_mode, err, errlen);
	snprintf(cmd, sizeof(cmd), "attach %s %u", drop_mode_name(mode), port);
	e = remote_simple(d, cmd, err, errlen, &j);
	if (e)
		return e;
	*prog_id = (uint32_t)json_integer_value(json_object_get(j, "prog_id"));
	snprintf(kernel_mode, 16, "%s", json_string_value(json_object_get(j, "kernel_mode"))
						? json_string_value(json_object_get(j, "kernel_mode"))
						: "?");
	json_decref(j);
	d->attached = true;
	return 0;
}

int dut_detach(struct dut *d)
{
	if (!d->remote)
		return local_detach(d);
	if (!d->attached)
		return 0;
	d->attached = false;
	return remote_simple(d, "detach", NULL, 0, NULL);
}

int dut_snapshot(struct dut *d, enum dut_pass pass, struct dut_snapshot *s)
{
	static const char *const names[] = { "timing", "count", "bpfstats" };
	char cmd[64];
	json_t *j;
	int e;

	if (!d->remote)
		return local_snapshot(d, pass, s);
	snprintf(cmd, sizeof(cmd), "snapshot %s", names[pass]);
	e = remote_simple(d, cmd, NULL, 0, &j);
	if (e)
		return e;
	e = dut_snapshot_from_json(j, s);
	json_decref(j);
	return e;
}

int dut_counters_open(struct dut *d, const int *order, bool cross_check,
		      struct dut_counters_info *info, char *err, size_t errlen)
{
	static const int all[] = { BACKEND_KPROBE, BACKEND_FENTRY, BACKEND_TRACEPOINT, BACKEND_NONE };
	char cmd[128] = "counters open";
	json_t *j;
	int e;

	memset(info, 0, sizeof(*info));
	if (!d->remote)
		return local_counters_open(d, order, cross_check, info, err, errlen);
	if (!order)
		order = all;
	for (int i = 0; order[i] != BACKEND_NONE; i++) {
		strcat(cmd, i ? "," : " ");
		strcat(cmd, counter_backend_name(order[i]));
	}
	if (cross_check)
		strcat(cmd, " cross");
	e = remote_simple(d, cmd, err, errlen, &j);
	if (e)
		return e;
	e = counters_plan_from_json(j, &info->plan);
	json_decref(j);
	if (e)
		return e;
	d->counters_open = true;
	return 0;
}

void dut_counters_close(struct dut *d)
{
	if (!d->remote) {
		local_counters_close(d);
		return;
	}
	if (d->counters_open)
		remote_simple(d, "counters close", NULL, 0, NULL);
	d->counters_open = false;
}

int dut_bpf_stats(struct dut *d, bool on)
{
	if (!d->remote)
		return local_bpf_stats(d, on);
	return remote_simple(d, on ? "bpfstats on" : "bpfstats off", NULL, 0, NULL);
}

int dut_exec(struct dut *d, const char *cmd, int *status, char *out, size_t outlen)
{
	char line[1024];
	json_t *j;
	int e;

	if (!d->remote)
		return -EOPNOTSUPP;
	snprintf(line, sizeof(line), "exec %s", cmd);
	e = remote_simple(d, line, out, outlen, &j);
	if (e)
		return e;
	*status = (int)json_integer_value(json_object_get(j, "status"));
	snprintf(out, outlen, "%s", json_string_value(json_object_get(j, "output")) ?: "");
	json_decref(j);
	return 0;
}

int dut_hello(struct dut *d, char *kernel, size_t len)
{
	json_t *j;
	int e;

	if (!d->remote) {
		struct utsname u;

		uname(&u);
		snprintf(kernel, len, "%s", u.release);
		return 0;
	}
	e = remote_simple(d, "hello", NULL, 0, &j);
	if (e)
		return e;
	snprintf(kernel, len, "%s", json_string_value(json_object_get(j, "kernel")) ?: "?");
	json_decref(j);
	return 0;
}

/* The local DUT's receive path as JSON (rx_path_occupants: each with "xdptc": false,
 * since nothing of a run's is attached between trials), or NULL with @err. */
static json_t *local_rx_path(struct dut *d, char *err, size_t errlen)
{
	struct rx_path p;
	json_t *a;
	int saved, e = netns_enter(d->netns, &saved);

	if (e) {
		snprintf(err, errlen, "cannot enter namespace %s: %s", d->netns, strerror(-e));
		return NULL;
	}
	e = rx_path_read(d->dev, &p, err, errlen);
	netns_return(saved);
	if (e)
		return NULL;
	a = json_array();
	for (int i = 0; i < p.n; i++)
		json_array_append_new(a, rx_occupant_json(&p.occ[i],
							  d->attached && p.occ[i].prog_id ==
								  d->att.prog_id));
	return a;
}

json_t *dut_rx_path(struct dut *d, char *err, size_t errlen)
{
	json_t *j, *a;
	int e;

	if (!d->remote)
		return local_rx_path(d, err, errlen);
	e = remote_simple(d, "rxpath", err, errlen, &j);
	if (e)
		return NULL;
	a = json_incref(json_object_get(j, "receive_path"));
	json_decref(j);
	if (!a)
		snprintf(err, errlen, "the agent sent no receive path");
	return a;
}

void dut_close(struct dut *d)
{
	dut_detach(d);
	dut_counters_close(d);
	dut_bpf_stats(d, false);
	if (d->remote && d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

/* ---------------------------------------------------------------- agent ---- */

static void reply(int fd, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT);

	if (s) {
		if (write_all(fd, s, strlen(s)) == 0)
			write_all(fd, "\n", 1);
		free(s);
	}
	json_decref(j);
}

static json_t *fail(int e, const char *msg)
{
	json_t *j = json_object();

	json_object_set_new(j, "ok", json_false());
	json_object_set_new(j, "errno", json_integer(e));
	json_object_set_new(j, "error", json_string(msg && *msg ? msg : strerror(-e)));
	return j;
}

static json_t *ok(void)
{
	json_t *j = json_object();

	json_object_set_new(j, "ok", json_true());
	return j;
}

static json_t *agent_exec(const char *cmd)
{
	static char out[60000];
	size_t n = 0;
	FILE *p;
	int st;
	json_t *j;

	char full[1100];

	snprintf(full, sizeof(full), "%s 2>&1", cmd);
	p = popen(full, "r");
	if (!p)
		return fail(-errno, NULL);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	st = pclose(p);
	j = ok();
	json_object_set_new(j, "status", json_integer(WIFEXITED(st) ? WEXITSTATUS(st) : -1));
	json_object_set_new(j, "output", json_string(out));
	return j;
}

int dut_agent_serve(int fd, const char *dev)
{
	static char line[4096];
	char buf[8192], err[512], arg[64];
	size_t buflen = 0;
	struct dut d;
	struct utsname u;

	dut_local_init(&d, NULL, dev);
	uname(&u);
	for (;;) {
		int n = read_line(fd, buf, &buflen, sizeof(buf), line, sizeof(line), -1);
		unsigned int port;
		json_t *j;
		int e;

		if (n == -EPIPE) {
			/* a virtio-serial port reads as end of input while no host is
			 * connected: wait for one */
			struct timespec ts = { .tv_sec = 0, .tv_nsec = 100000000L };

			nanosleep(&ts, NULL);
			continue;
		}
		if (n < 0)
			break;
		err[0] = '\0';
		if (!strncmp(line, "sync ", 5)) {
			j = json_object();
			json_object_set_new(j, "sync", json_string(line + 5));
			reply(fd, j);
		} else if (!strcmp(line, "hello")) {
			j = ok();
			json_object_set_new(j, "kernel", json_string(u.release));
			json_object_set_new(j, "dev", json_string(dev));
			reply(fd, j);
		} else if (sscanf(line, "attach %63s %u", arg, &port) == 2) {
			enum drop_mode m;
			uint32_t id = 0;
			char km[16] = "";

			if (drop_mode_parse(arg, &m) || !port || port > 65535) {
				reply(fd, fail(-EINVAL, "bad attach arguments"));
				continue;
			}
			if (d.attached)
				dut_detach(&d);
			e = dut_attach(&d, m, (uint16_t)port, &id, km, err, sizeof(err));
			if (e) {
				reply(fd, fail(e, err));
				continue;
			}
			j = ok();
			json_object_set_new(j, "prog_id", json_integer(id));
			json_object_set_new(j, "kernel_mode", json_string(km));
			reply(fd, j);
		} else if (!strcmp(line, "rxpath")) {
			json_t *a = local_rx_path(&d, err, sizeof(err));

			if (!a) {
				reply(fd, fail(-EIO, err));
				continue;
			}
			j = ok();
			json_object_set_new(j, "receive_path", a);
			reply(fd, j);
		} else if (!strcmp(line, "detach")) {
			e = dut_detach(&d);
			reply(fd, e ? fail(e, NULL) : ok());
		} else if (sscanf(line, "snapshot %63s", arg) == 1) {
			struct dut_snapshot s;
			enum dut_pass p = !strcmp(arg, "count")      ? DUT_PASS_COUNT
					  : !strcmp(arg, "bpfstats") ? DUT_PASS_BPFSTATS
								     : DUT_PASS_TIMING;

			e = dut_snapshot(&d, p, &s);
			reply(fd, e ? fail(e, NULL) : dut_snapshot_to_json(&s));
		} else if (!strncmp(line, "counters open", 13)) {
			struct dut_counters_info info;
			int order[BACKEND_NR + 1], *op = NULL;
			bool cross = false;

			if (line[13] == ' ') {
				char *sp = strchr(line + 14, ' ');

				if (sp) {
					cross = !strcmp(sp + 1, "cross");
					*sp = '\0';
				}
				if (parse_counter_backends(line + 14, order) < 0) {
					reply(fd, fail(-EINVAL, "bad counter backends"));
					continue;
				}
				op = order;
			}
			if (d.counters_open)
				dut_counters_close(&d);
			e = dut_counters_open(&d, op, cross, &info, err, sizeof(err));
			reply(fd, e ? fail(e, err) : counters_plan_to_json(&info.plan));
		} else if (!strcmp(line, "counters close")) {
			dut_counters_close(&d);
			reply(fd, ok());
		} else if (!strcmp(line, "bpfstats on") || !strcmp(line, "bpfstats off")) {
			e = dut_bpf_stats(&d, !strcmp(line, "bpfstats on"));
			reply(fd, e ? fail(e, NULL) : ok());
		} else if (!strncmp(line, "exec ", 5)) {
			reply(fd, agent_exec(line + 5));
		} else if (!strcmp(line, "quit")) {
			reply(fd, ok());
			break;
		} else if (n > 0) {
			reply(fd, fail(-EINVAL, "unknown command"));
		}
	}
	dut_close(&d);
	return 0;
}
