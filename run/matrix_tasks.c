/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_tasks.c: the kernel matrix's children (matrix_tasks.h): each kernel's fetch
 * (topologies/virtio.sh kernel) and each boot of each of its experiments (`xdptc run
 * --engine icount`, or the host engine's cross-check), at most --jobs at a time, with
 * their logs, outcomes and progress lines.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "matrix_tasks.h"
#include "run_signals.h"
#include "name_list.h"

/* A line of progress, on stderr and in the matrix's progress.log. */
void say(const struct matrix *m, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	if (m->log) {
		va_start(ap, fmt);
		vfprintf(m->log, fmt, ap);
		va_end(ap);
		fflush(m->log);
	}
}

double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Why a child failed, from its log @path into @buf: the first line that says something
 * failed or cannot be done (the cause, not the clean-up after it), else the last line. */
static void failure_reason(const char *path, char *buf, size_t len)
{
	char line[512];
	bool found = false;
	FILE *f = fopen(path, "r");

	snprintf(buf, len, "no output (see %s)", path);
	while (f && !found && fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0] || line[0] == '[' || strchr(line, '\r'))
			continue; /* progress */
		found = strstr(line, "failed") || strstr(line, "cannot") || strstr(line, "no Debian") ||
			strstr(line, "did not") || strstr(line, "refus");
		snprintf(buf, len, "%s", line);
	}
	if (f)
		fclose(f);
}

/* The modes measured on kernel @k: the user's, without tcx before Linux 6.6. */
static void kernel_modes(struct matrix *m, struct matrix_kernel *k)
{
	int major = 0, minor = 0;
	char buf[64];

	snprintf(k->modes, sizeof(k->modes), "%s", m->modes);
	if (!strstr(m->modes, "tcx") || sscanf(k->release, "%d.%d", &major, &minor) != 2 ||
	    major > 6 || (major == 6 && minor >= 6))
		return;
	snprintf(k->tcx_reason, sizeof(k->tcx_reason), "tcx (Linux %d.%d has none; it came "
		 "in 6.6)", major, minor);
	buf[0] = '\0';
	for (char *save = NULL, *s = strtok_r(k->modes, ",", &save); s; s = strtok_r(NULL, ",", &save))
		if (strcmp(s, "tcx"))
			snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s", buf[0] ? "," : "", s);
	snprintf(k->modes, sizeof(k->modes), "%s", buf);
}

bool matrix_exp_left_out(struct matrix_kernel *k, int x)
{
	const struct matrix_exp *e = &matrix_exps[x];
	unsigned int major = 0, minor = 0;
	size_t n = strlen(k->exp_reason);

	if (e->since.major && strstr(k->exp_reason, e->name)) /* said already */
		return true;
	if (!e->since.major || sscanf(k->spec, "%u.%u", &major, &minor) != 2 ||
	    major > (unsigned)e->since.major ||
	    (major == (unsigned)e->since.major && minor >= (unsigned)e->since.minor))
		return false;
	snprintf(k->exp_reason + n, sizeof(k->exp_reason) - n, "%s%s (Linux %u.%u has no %s; it "
		 "came in %d.%d)", n ? "; " : "", e->name, major, minor, e->since.needs,
		 e->since.major, e->since.minor);
	return true;
}

/* The fetch's KEY=VALUE lines into @k. */
static void read_fetch(struct matrix_kernel *k, const char *path)
{
	char line[256];
	FILE *f = fopen(path, "r");

	while (f && fgets(line, sizeof(line), f)) {
		char *v = strchr(line, '=');

		if (!v)
			continue;
		*v++ = '\0';
		v[strcspn(v, "\n")] = '\0';
		if (!strcmp(line, "KERNEL_PACKAGE"))
			snprintf(k->package, sizeof(k->package), "%s", v);
		else if (!strcmp(line, "KERNEL_VERSION"))
			snprintf(k->version, sizeof(k->version), "%s", v);
		else if (!strcmp(line, "KERNEL_SUITE"))
			snprintf(k->suite, sizeof(k->suite), "%s", v);
		else if (!strcmp(line, "KERNEL_RELEASE"))
			snprintf(k->release, sizeof(k->release), "%s", v);
	}
	if (f)
		fclose(f);
}

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* @na arguments @a after the @n of @av, those that are NULL left out. Returns the
 * count. */
static size_t put_args(const char **av, size_t n, const char *const *a, size_t na)
{
	for (size_t i = 0; i < na; i++)
		if (a[i])
			av[n++] = a[i];
	return n;
}

/* The kernel's @modes and each of @more's (",a,b", or NULL) that @modes lacks, as one
 * comma list into @buf (@len bytes): an experiment's modes beside the matrix's, never
 * one twice (xdptc run refuses a mode given twice). */
static void modes_with(char *buf, size_t len, const char *modes, const char *more)
{
	char item[32];

	snprintf(buf, len, "%s", modes);
	for (const char *s = more; s && *s;) {
		size_t n;

		s += *s == ',';
		n = strcspn(s, ",");
		snprintf(item, sizeof(item), "%.*s", (int)n, s);
		s += n;
		if (*item && !name_list_has(buf, item))
			snprintf(buf + strlen(buf), len - strlen(buf), ",%s", item);
	}
}

/* The experiment of cell task @t (this process is the cell, m->cell_mode): exec its
 * `xdptc run`, the row's own arguments last, with the run lock @lock handed down and
 * @num the packets, repetitions and count repetitions. Returns only when exec fails. */
static void exec_run(struct matrix *m, const struct matrix_task *t, char num[3][32],
		     const char *lock)
{
	const struct matrix_kernel *k = &m->k[t->k];
	const struct matrix_exp *x = &matrix_exps[t->exp];
	static char modes[96];
	/* the host engine's: its own defaults (a host run times, it does not count) */
	const char *host[] = { "xdptc", "run", "--topology", x->topology, "--sender", x->sender,
			       "--modes", k->modes, "--out", t->out, "--quiet", "--held-lock",
			       lock };
	const char *icount[] = { "xdptc", "run", "--engine", "icount", "--topology",
				 x->topology, "--sender", x->sender, "--guest-kernel", k->version,
				 "--modes", modes, "--packets", num[0], "--reps", num[1],
				 "--count-reps", num[2], "--profile-packets", m->profile_packets
				 ? m->profile_packets : MATRIX_PROFILE_PACKETS, "--out", t->out,
				 "--quiet", "--held-lock", lock, m->seed ? "--seed" : NULL,
				 m->seed };
	const char *av[ARRAY_SIZE(icount) + MATRIX_EXP_ARGS + 1];
	size_t n;

	modes_with(modes, sizeof(modes), k->modes, x->modes_more);
	n = x->engine == MATRIX_HOST ? put_args(av, 0, host, ARRAY_SIZE(host))
				     : put_args(av, 0, icount, ARRAY_SIZE(icount));
	av[put_args(av, n, x->args, MATRIX_EXP_ARGS)] = NULL;
	execv(m->self, (char *const *)av);
}

/* In the child: exec task @t (a kernel's fetch; an experiment's boot as a cell, `xdptc
 * matrix --cell`; or, in a cell, its run). Returns only when exec fails. */
static void task_exec(struct matrix *m, const struct matrix_task *t, const char *lock)
{
	const struct matrix_kernel *k = &m->k[t->k];
	char num[3][32], vmpath[PATH_MAX + 16], cell[128], boot[16];

	snprintf(num[0], sizeof(num[0]), "%llu", (unsigned long long)m->packets);
	snprintf(num[1], sizeof(num[1]), "%d", m->reps);
	snprintf(num[2], sizeof(num[2]), "%d", m->count_reps);
	if (t->exp < 0) {
		snprintf(vmpath, sizeof(vmpath), "%s/virtio.sh", m->topodir);
		setenv("GUEST_KERNEL", k->spec, 1);
		execlp("sh", "sh", vmpath, "kernel", (char *)NULL);
		return;
	}
	fcntl(m->lock_fd, F_SETFD, 0); /* the run lock, handed down */
	if (m->cell_mode) {
		exec_run(m, t, num, lock);
		return;
	}
	snprintf(cell, sizeof(cell), "%s:%s", k->spec, matrix_exps[t->exp].name);
	snprintf(boot, sizeof(boot), "%d", t->boot);
	{ /* the experiment's boot is a cell of its own */
		const char *av[] = { "xdptc", "matrix", "--cell", cell, "--boot", boot, "--out",
				     t->out, "--held-lock", lock, "--modes", m->modes, "--packets",
				     num[0], "--reps", num[1], "--count-reps", num[2],
				     "--profile-packets", m->profile_packets ? m->profile_packets
				     : MATRIX_PROFILE_PACKETS, m->seed ? "--seed" : NULL, m->seed,
				     NULL };

		execv(m->self, (char *const *)av);
	}
}

/* Start task @t: a child with stdin from /dev/null, stdout and stderr to its files. */
static int task_start(struct matrix *m, struct matrix_task *t)
{
	char lock[16];
	pid_t pid;

	snprintf(lock, sizeof(lock), "%d", m->lock_fd);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int in = open("/dev/null", O_RDONLY);
		int err = open(t->log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		int out = t->exp < 0 ? open(t->out, O_WRONLY | O_CREAT | O_TRUNC, 0644) : in;

		if (in < 0 || err < 0 || out < 0)
			_exit(126);
		dup2(in, 0);
		dup2(t->exp < 0 ? out : err, 1);
		dup2(err, 2);
		setpgid(0, 0); /* a stop is passed on by the matrix, to each group */
		prctl(PR_SET_PDEATHSIG, SIGTERM); /* and a matrix killed outright stops it too */
		if (getppid() == 1)
			_exit(130);
		task_exec(m, t, lock);
		_exit(127);
	}
	setpgid(pid, pid);
	t->pid = pid;
	t->state = TASK_RUNNING;
	t->start = now_s();
	m->running++;
	return 0;
}

/* The next task that may start, or NULL: a kernel's fetch, then its experiments once it
 * is fetched, kernels in order. */
static struct matrix_task *task_next(struct matrix *m)
{
	for (int i = 0; i < m->nt; i++) {
		struct matrix_task *t = &m->t[i];

		if (t->state != TASK_WAITING)
			continue;
		if (t->exp < 0 || m->k[t->k].fetch == TASK_DONE)
			return t;
	}
	return NULL;
}

/* "1h02m", "3m05s", "42s" */
static void fmt_dur(char *buf, size_t len, double s)
{
	long v = (long)(s + 0.5);

	if (v >= 3600)
		snprintf(buf, len, "%ldh%02ldm", v / 3600, v / 60 % 60);
	else if (v >= 60)
		snprintf(buf, len, "%ldm%02lds", v / 60, v % 60);
	else
		snprintf(buf, len, "%lds", v);
}

/* A progress line for the end of @t, with an ETA over the whole matrix: the mean time
 * of the experiments done so far (fetches likewise), over the jobs. */
static void task_progress(const struct matrix *m, const struct matrix_task *t)
{
	double run_sum = 0, fetch_sum = 0, left = 0;
	int done = 0, runs = 0, fetches = 0, runs_left = 0, fetches_left = 0;
	char el[32], eta[32];

	for (int i = 0; i < m->nt; i++) {
		const struct matrix_task *u = &m->t[i];
		bool over = u->state == TASK_DONE || u->state == TASK_FAILED;

		done += over;
		if (over && u->state == TASK_DONE)
			*(u->exp < 0 ? &fetch_sum : &run_sum) += u->secs;
		if (over && u->state == TASK_DONE)
			(*(u->exp < 0 ? &fetches : &runs))++;
		if (!over)
			(*(u->exp < 0 ? &fetches_left : &runs_left))++;
	}
	left = (runs ? run_sum / runs : 180.0) * runs_left +
	       (fetches ? fetch_sum / fetches : 30.0) * fetches_left;
	fmt_dur(el, sizeof(el), now_s() - m->t0);
	fmt_dur(eta, sizeof(eta), left / m->jobs);
	say(m, "xdptc matrix: [%d/%d] %s %s%s %s in %.0f s%s%s; elapsed %s, ETA %s\n",
		done, m->nt, m->k[t->k].spec, t->exp < 0 ? "fetch" : matrix_exps[t->exp].name,
		t->boot > 1 ? (const char *[]){ "", "", " boot 2", " boot 3", " boot 4",
						" boot 5" }[t->boot] : "",
		t->state == TASK_DONE ? "done" : "FAILED", t->secs, t->state == TASK_DONE ? "" : ": ",
		t->state == TASK_DONE ? "" : t->reason, el, done == m->nt ? "0s" : eta);
}

/* The experiments of kernel @k cannot run: each recorded as failed for @why. */
static void kernel_failed(struct matrix *m, int k, const char *why)
{
	m->k[k].fetch = TASK_FAILED;
	snprintf(m->k[k].reason, sizeof(m->k[k].reason), "%s", why);
	for (int i = 0; i < m->nt; i++)
		if (m->t[i].k == k && m->t[i].exp >= 0 && m->t[i].state == TASK_WAITING) {
			m->t[i].state = TASK_FAILED;
			snprintf(m->t[i].reason, sizeof(m->t[i].reason), "%s", why);
		}
}

/* A child @pid ended with status @st: its task's outcome. */
static void task_ended(struct matrix *m, pid_t pid, int st)
{
	struct matrix_task *t = NULL;

	for (int i = 0; i < m->nt && !t; i++)
		if (m->t[i].pid == pid && m->t[i].state == TASK_RUNNING)
			t = &m->t[i];
	if (!t)
		return;
	m->running--;
	t->secs = now_s() - t->start;
	t->state = WIFEXITED(st) && !WEXITSTATUS(st) ? TASK_DONE : TASK_FAILED;
	if (t->state == TASK_FAILED)
		failure_reason(t->log, t->reason, sizeof(t->reason));
	if (t->exp < 0 && t->state == TASK_DONE) {
		struct matrix_kernel *k = &m->k[t->k];

		read_fetch(k, t->out);
		k->fetch = TASK_DONE;
		kernel_modes(m, k);
		say(m, "xdptc matrix: %s is %s %s (%s), release %s; measuring %s%s%s\n",
			k->spec, k->package, k->version, k->suite, k->release, k->modes,
			k->tcx_reason[0] ? "; not " : "", k->tcx_reason);
	} else if (t->exp < 0) {
		kernel_failed(m, t->k, t->reason);
	}
	task_progress(m, t);
}

/* Run every task, at most m->jobs at a time. Returns 0, or 130 when stopped (every
 * child stopped and waited for). */
int matrix_schedule(struct matrix *m)
{
	for (;;) {
		struct matrix_task *t;
		int st;
		pid_t pid;

		while (!run_stopped() && m->running < m->jobs && (t = task_next(m))) {
			int e = task_start(m, t);

			if (e) {
				t->state = TASK_FAILED;
				snprintf(t->reason, sizeof(t->reason), "fork: %s", strerror(-e));
			}
		}
		if (run_stopped()) {
			for (int i = 0; i < m->nt; i++)
				if (m->t[i].state == TASK_RUNNING)
					kill(-m->t[i].pid, SIGTERM);
		}
		if (!m->running)
			return run_stopped() ? 130 : 0;
		pid = waitpid(-1, &st, 0);
		if (pid > 0)
			task_ended(m, pid, st);
		else if (errno != EINTR)
			return 1;
	}
}
