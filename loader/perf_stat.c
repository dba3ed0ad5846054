/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "perf_stat.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

const char *perf_stat_metric_name(const char *event, char *buf, size_t len)
{
	size_t o = 0;
	bool under = false;

	for (const char *p = event; *p && o + 9 < len; p++) {
		if (isalnum((unsigned char)*p)) {
			buf[o++] = (char)tolower((unsigned char)*p);
			under = false;
		} else if (!under && o) {
			buf[o++] = '_';
			under = true;
		}
	}
	while (o && buf[o - 1] == '_')
		o--;
	snprintf(buf + o, len - o, "_per_pkt");
	return buf;
}

/* Split @line at @sep into at most @max fields (in place). Returns how many. */
static int split(char *line, char sep, char **f, int max)
{
	int n = 0;

	f[n++] = line;
	for (char *p = line; *p && n < max; p++)
		if (*p == sep) {
			*p = '\0';
			f[n++] = p + 1;
		}
	return n;
}

int perf_stat_parse_line(const char *line, char sep, struct perf_stat_value *v)
{
	char buf[512], *f[12], *end;
	int n;

	snprintf(buf, sizeof(buf), "%s", line);
	buf[strcspn(buf, "\r\n")] = '\0';
	if (!buf[0] || buf[0] == '#')
		return 0;
	n = split(buf, sep, f, 12);
	if (n < 5)
		return -EINVAL;
	if (!f[2][0])
		return 0; /* a further metric of the line before: nothing counted here */
	memset(v, 0, sizeof(*v));
	snprintf(v->event, sizeof(v->event), "%s", f[2]);
	snprintf(v->unit, sizeof(v->unit), "%s", f[1]);
	v->pct_running = strtod(f[4], &end);
	if (end == f[4])
		v->pct_running = 0;
	if (f[0][0] == '<') { /* <not supported>, <not counted> */
		snprintf(v->reason, sizeof(v->reason), "%s", f[0]);
		return 1;
	}
	v->value = strtod(f[0], &end);
	if (end == f[0] || *end)
		return -EINVAL;
	v->counted = true;
	v->lines = 1;
	if (!strcmp(v->unit, "msec")) { /* task-clock, cpu-clock: ns like cpu_ns_per_pkt */
		v->value *= 1e6;
		snprintf(v->unit, sizeof(v->unit), "ns");
	}
	return 1;
}

/* Is @printed the line of asked-for event @asked: the same name, or the name inside a
 * PMU's "pmu/asked/" (hybrid machines print one line per core type)? */
static bool is_line_of(const char *printed, const char *asked, bool *user_only)
{
	const char *s = strchr(printed, '/');
	size_t n = strlen(asked);

	*user_only = false;
	if (!strcmp(printed, asked))
		return true;
	/* perf's own fallback for a caller that may not count the kernel */
	if (!strncmp(printed, asked, n) && !strcmp(printed + n, ":u") && !strchr(asked, ':'))
		return *user_only = true;
	return s && !strchr(asked, '/') && !strncmp(s + 1, asked, n) && s[1 + n] == '/' &&
	       !s[2 + n];
}

int perf_stat_parse(FILE *in, char sep, struct perf_stat_value *vals, int n)
{
	char line[512];

	for (int i = 0; i < n; i++) {
		char ev[64];

		snprintf(ev, sizeof(ev), "%s", vals[i].event);
		memset(&vals[i], 0, sizeof(vals[i]));
		snprintf(vals[i].event, sizeof(vals[i].event), "%s", ev);
		perf_stat_metric_name(ev, vals[i].metric, sizeof(vals[i].metric));
		snprintf(vals[i].reason, sizeof(vals[i].reason), "no line from perf");
	}
	while (fgets(line, sizeof(line), in)) {
		struct perf_stat_value v;
		int e = perf_stat_parse_line(line, sep, &v);

		if (e < 0)
			return e;
		if (!e)
			continue;
		for (int i = 0; i < n; i++) {
			struct perf_stat_value *x = &vals[i];
			bool user_only;

			if (!is_line_of(v.event, x->event, &user_only))
				continue;
			x->user_only |= user_only;
			if (v.counted) {
				if (!x->counted || !x->lines) {
					x->value = 0;
					x->pct_running = v.pct_running;
					x->reason[0] = '\0';
				}
				x->counted = true;
				x->value += v.value;
				if (v.pct_running < x->pct_running)
					x->pct_running = v.pct_running;
				snprintf(x->unit, sizeof(x->unit), "%s", v.unit);
				x->lines++;
			} else if (!x->counted) {
				snprintf(x->reason, sizeof(x->reason), "%s", v.reason);
				x->pct_running = v.pct_running;
			}
			break;
		}
	}
	return 0;
}

int perf_stat_split_events(const char *list, struct perf_stat_value *vals, int max)
{
	int n = 0, slashes = 0;
	size_t len = 0;
	char cur[64];

	if (!list || !*list)
		return -EINVAL;
	for (const char *p = list;; p++) {
		if (!*p || (*p == ',' && slashes % 2 == 0)) {
			if (!len || n >= max)
				return -EINVAL;
			cur[len] = '\0';
			memset(&vals[n], 0, sizeof(vals[n]));
			snprintf(vals[n].event, sizeof(vals[n].event), "%s", cur);
			perf_stat_metric_name(cur, vals[n].metric, sizeof(vals[n].metric));
			n++;
			len = 0;
			slashes = 0;
			if (!*p)
				break;
			continue;
		}
		if (!isalnum((unsigned char)*p) && !strchr("_-.:/=,@", *p))
			return -EINVAL;
		slashes += *p == '/';
		if (len + 1 >= sizeof(cur))
			return -EINVAL;
		cur[len++] = *p;
	}
	return n;
}

static void remove_dir(struct perf_stat *ps)
{
	static const char *const files[] = { "ctl", "ack", "out", "err" };
	char path[96];

	if (!ps->dir[0])
		return;
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", ps->dir, files[i]);
		unlink(path);
	}
	rmdir(ps->dir);
	ps->dir[0] = '\0';
}

static void perf_said(const struct perf_stat *ps, char *err, size_t errlen);
static int perf_control(struct perf_stat *ps, const char *cmd, int timeout_ms);

/* Start `perf ARGS... -D -1 --control fifo:CTL,ACK` (@args: its arguments after "perf",
 * ended by NULL; "@out" stands for ps->dir/out) with its events disabled, its stdout and
 * stderr into ps->dir/err. Returns 0, or -errno with a sentence in @err. */
static int perf_control_start(struct perf_stat *ps, const char *const *args, char *err,
			      size_t errlen)
{
	char ctl[96], ack[96], out[96], errf[96], control[200];
	const char *argv[32];
	int e, n = 0;

	memset(ps, 0, sizeof(*ps));
	ps->pid = -1;
	ps->ctl_fd = ps->ack_fd = -1;
	snprintf(ps->dir, sizeof(ps->dir), "/tmp/xdptc-perf-XXXXXX");
	if (!mkdtemp(ps->dir)) {
		e = -errno;
		ps->dir[0] = '\0';
		snprintf(err, errlen, "perf: cannot make a directory: %s", strerror(-e));
		return e;
	}
	snprintf(ctl, sizeof(ctl), "%s/ctl", ps->dir);
	snprintf(ack, sizeof(ack), "%s/ack", ps->dir);
	snprintf(out, sizeof(out), "%s/out", ps->dir);
	snprintf(errf, sizeof(errf), "%s/err", ps->dir);
	snprintf(control, sizeof(control), "fifo:%s,%s", ctl, ack);
	if (mkfifo(ctl, 0600) || mkfifo(ack, 0600)) {
		e = -errno;
		snprintf(err, errlen, "perf: cannot make its control fifos: %s", strerror(-e));
		remove_dir(ps);
		return e;
	}
	/* read-write opens of a fifo never block: perf opens the other ends */
	ps->ctl_fd = open(ctl, O_RDWR | O_CLOEXEC);
	ps->ack_fd = open(ack, O_RDWR | O_CLOEXEC);
	if (ps->ctl_fd < 0 || ps->ack_fd < 0) {
		e = -errno;
		snprintf(err, errlen, "perf: cannot open its control fifos: %s", strerror(-e));
		perf_stat_abort(ps);
		return e;
	}
	argv[n++] = "perf";
	for (int i = 0; args[i] && n < 26; i++)
		argv[n++] = strcmp(args[i], "@out") ? args[i] : out;
	argv[n++] = "-D";
	argv[n++] = "-1";
	argv[n++] = "--control";
	argv[n++] = control;
	argv[n] = NULL;
	ps->pid = fork();
	if (ps->pid < 0) {
		e = -errno;
		snprintf(err, errlen, "perf: fork: %s", strerror(-e));
		perf_stat_abort(ps);
		return e;
	}
	if (ps->pid == 0) {
		int fd = open(errf, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (fd >= 0) {
			dup2(fd, STDOUT_FILENO);
			dup2(fd, STDERR_FILENO);
		}
		execvp("perf", (char *const *)argv);
		_exit(127);
	}
	return 0;
}

int perf_stat_start(struct perf_stat *ps, const char *events, const pid_t *tids, int n,
		    char *err, size_t errlen)
{
	char tidlist[PERF_STAT_MAX_TIDS * 12];
	const char *args[] = { "stat", "-x", ",", "--no-big-num", "-o", "@out", "-e", events,
			       "-t", tidlist, NULL };
	size_t o = 0;

	if (n < 1 || n > PERF_STAT_MAX_TIDS) {
		snprintf(err, errlen, "perf stat: %d threads to count (1 to %d)", n,
			 PERF_STAT_MAX_TIDS);
		return -EINVAL;
	}
	for (int i = 0; i < n; i++)
		o += (size_t)snprintf(tidlist + o, sizeof(tidlist) - o, "%s%d", i ? "," : "",
				      (int)tids[i]);
	return perf_control_start(ps, args, err, errlen);
}

int perf_stat_start_cpus(struct perf_stat *ps, const char *events, const char *cpus,
			 char *err, size_t errlen)
{
	const char *args[] = { "stat", "-x", ",", "--no-big-num", "-o", "@out", "-e", events,
			       "-a", cpus && *cpus ? "-C" : NULL, cpus, NULL };

	return perf_control_start(ps, args, err, errlen);
}

int perf_record_start(struct perf_stat *ps, const char *path, unsigned long long period,
		      char *err, size_t errlen)
{
	char rate[32];
	const char *args[] = { "record", "-q", "-a", "-g", "-e", "cpu-clock", period ? "-c" : "-F",
			       rate, "-o", path, NULL };
	int e;

	snprintf(rate, sizeof(rate), "%llu", period ? period : 997ull);
	/* ready once perf acknowledges a command (still off: perf_stat_enable turns it on
	 * for the window). perf record -a reads every process's maps first, which in an
	 * emulated guest takes seconds; and there a perf now and then never answers (seen
	 * twice in the first matrices, the guest idle meanwhile, so not busy starting up):
	 * such a perf is killed and another started, three times at most */
	for (int tries = 0; tries < 3; tries++) {
		char said[160];

		e = perf_control_start(ps, args, err, errlen);
		if (e)
			return e;
		e = perf_control(ps, "disable\n", 20000);
		if (!e)
			return 0;
		perf_said(ps, said, sizeof(said));
		snprintf(err, errlen, "not ready (%s, %d tries); %s", strerror(-e), tries + 1, said);
		perf_stat_abort(ps);
		if (e != -ETIMEDOUT)
			break;
		fprintf(stderr, "xdptc: perf record did not answer within 20 s; starting it again\n");
	}
	return e;
}

int perf_record_stop(struct perf_stat *ps, const char *path, char *err, size_t errlen)
{
	struct stat st;
	int status = 0, e;

	if (ps->pid > 0) {
		kill(ps->pid, SIGINT);
		while (waitpid(ps->pid, &status, 0) < 0 && errno == EINTR)
			;
		ps->pid = -1;
	}
	/* perf's exit status on SIGINT varies between versions; its file does not */
	e = WIFEXITED(status) && WEXITSTATUS(status) == 127 ? -ENOENT
	    : !stat(path, &st) && st.st_size > 0	    ? 0
							    : -EIO;
	if (e == -ENOENT)
		snprintf(err, errlen, "perf is not installed (linux-perf)");
	else if (e)
		perf_said(ps, err, errlen);
	perf_stat_abort(ps);
	return e;
}

int perf_stat_enable(struct perf_stat *ps, bool on)
{
	return perf_control(ps, on ? "enable\n" : "disable\n", 5000);
}

/* Send @cmd over perf's control fifo and wait up to @timeout_ms for its "ack". Returns 0
 * or -errno (-ETIMEDOUT, -EPIPE: perf ended, -EPROTO: another answer). */
static int perf_control(struct perf_stat *ps, const char *cmd, int timeout_ms)
{
	struct pollfd p = { .fd = ps->ack_fd, .events = POLLIN };
	char buf[16];
	ssize_t r;

	if (ps->pid <= 0)
		return -EINVAL;
	if (write(ps->ctl_fd, cmd, strlen(cmd)) != (ssize_t)strlen(cmd))
		return -EPIPE;
	for (;;) {
		int e = poll(&p, 1, timeout_ms);

		if (e < 0 && errno == EINTR)
			continue;
		if (e <= 0) {
			/* perf gone (it could not open the events) or stuck */
			return waitpid(ps->pid, NULL, WNOHANG) == ps->pid ? (ps->pid = -1, -EPIPE)
									  : -ETIMEDOUT;
		}
		break;
	}
	r = read(ps->ack_fd, buf, sizeof(buf) - 1);
	if (r <= 0)
		return -EPIPE;
	buf[r] = '\0';
	return strncmp(buf, "ack", 3) ? -EPROTO : 0;
}

/* The first line perf wrote on stderr (why it failed), into @err. */
static void perf_said(const struct perf_stat *ps, char *err, size_t errlen)
{
	char path[96], line[256] = "";
	FILE *f;

	snprintf(path, sizeof(path), "%s/err", ps->dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] && strncmp(line, "Events ", 7))
			break; /* "Events disabled/enabled" are perf's --control chatter */
		line[0] = '\0';
	}
	if (f)
		fclose(f);
	snprintf(err, errlen, "perf: %s", line[0] ? line : "nothing written on stderr");
}

int perf_stat_finish(struct perf_stat *ps, struct perf_stat_value *vals, int n, char *err,
		     size_t errlen)
{
	char path[96];
	int status = 0, e;
	FILE *f;

	if (ps->pid > 0) {
		kill(ps->pid, SIGINT);
		while (waitpid(ps->pid, &status, 0) < 0 && errno == EINTR)
			;
		ps->pid = -1;
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		snprintf(err, errlen, "perf is not installed (linux-perf)");
		perf_stat_abort(ps);
		return -ENOENT;
	}
	snprintf(path, sizeof(path), "%s/out", ps->dir);
	f = fopen(path, "r");
	e = f ? perf_stat_parse(f, ',', vals, n) : -errno;
	if (f)
		fclose(f);
	if (!e) { /* no line at all: perf failed before counting */
		bool any = false;

		for (int i = 0; i < n; i++)
			any |= strcmp(vals[i].reason, "no line from perf") != 0;
		if (!any)
			e = -EIO;
	}
	if (e)
		perf_said(ps, err, errlen);
	perf_stat_abort(ps);
	return e;
}

void perf_stat_abort(struct perf_stat *ps)
{
	if (ps->pid > 0) {
		kill(ps->pid, SIGKILL);
		while (waitpid(ps->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	ps->pid = -1;
	if (ps->ctl_fd >= 0)
		close(ps->ctl_fd);
	if (ps->ack_fd >= 0)
		close(ps->ack_fd);
	ps->ctl_fd = ps->ack_fd = -1;
	remove_dir(ps);
}
