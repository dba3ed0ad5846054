/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cmd_matrix.c: xdptc matrix, the same XDP-against-TC comparison on a list of Debian
 * guest kernels under the icount engine.
 *
 * Per kernel: fetch it (topologies/virtio.sh kernel: the private apt configuration of
 * guest_kernel.sh, the initramfs), then one `xdptc run --engine icount` per experiment
 * (veth with the udp sender, veth with the xdp-live sender, the virtio DUT), each a
 * child process with its own results directory under OUT/<stamp>-matrix/runs/ and its
 * log under logs/. The matrix holds the machine's run lock and hands it to its runs
 * (--held-lock): icount numbers do not depend on the host's load, so with -j N up to N
 * of them run side by side, while no host run can start beside them. A kernel that
 * cannot be fetched or booted is recorded with its reason and the matrix goes on.
 * Results: matrix.json, matrix.md, the delta plot (analysis/matrix.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_parse.h"
#include "cli_table.h"
#include "matrix.h"
#include "matrix_boots.h"
#include "matrix_table.h"
#include "report.h"
#include "run.h"
#include "run_internal.h"

#define MATRIX_MAX_KERNELS 24
#define MATRIX_NEXP 3  /* the icount experiments of every kernel */
/* The profile pass's window in the matrix's runs: the plugin's exact counts give the
 * per-function figures, so the sampled profiles need only show the call paths (20k
 * packets: about 2,800 to 5,000 samples at 7,000 to 12,600 instructions per packet, a
 * sample every 50,000), not a single icount run's 50k */
#define MATRIX_PROFILE_PACKETS "20000"
#define MATRIX_NHOST 2 /* and the host engine's cross-check on the host's own series */
#define MATRIX_MAX_REPEAT 5 /* --repeat: separate boots of each experiment */

/* The experiments: (name, topology, sender, engine); the first MATRIX_NEXP per kernel
 * under icount, then the cross-check's on the host. */
static const struct matrix_exp {
	const char *name, *topology, *sender;
	bool host;
} matrix_exps[MATRIX_NEXP + MATRIX_NHOST] = {
	{ "veth-udp", "veth", "udp", false },
	{ "veth-xdp-live", "veth", "xdp-live", false },
	{ "virtio", "virtio", "udp", false },
	{ "host-veth-udp", "veth", "udp", true },
	{ "host-veth-xdp-live", "veth", "xdp-live", true },
};

enum task_state { TASK_WAITING, TASK_RUNNING, TASK_DONE, TASK_FAILED };

/* One child: a kernel's fetch (exp -1) or one boot of one of its experiments (boot 1 to
 * --repeat). */
struct matrix_task {
	int k, exp, boot;
	enum task_state state;
	pid_t pid;
	double start, secs;
	char log[PATH_MAX], out[PATH_MAX]; /* stderr; the fetch's stdout or the run's OUT */
	char reason[256];
};

struct matrix_kernel {
	char spec[65];                     /* as the user gave it */
	char package[96], version[64], suite[32], release[64];
	enum task_state fetch;
	char reason[256];
	char modes[64];                    /* what is measured on it */
	char tcx_reason[96];               /* why tcx is not, or "" */
};

struct matrix {
	struct matrix_kernel k[MATRIX_MAX_KERNELS];
	int nk;
	struct matrix_task t[MATRIX_MAX_KERNELS * (MATRIX_NEXP * MATRIX_MAX_REPEAT + 1) +
			     MATRIX_NHOST];
	int nt;
	int jobs, running, lock_fd, repeat;
	const char *modes, *topodir, *out_dir, *kernels, *report, *seed, *table, *boots;
	uint64_t packets;
	int reps, count_reps;
	char dir[PATH_MAX];                /* OUT/<stamp>-matrix */
	char self[PATH_MAX];               /* this binary */
	double t0;
	FILE *log;                         /* DIR/progress.log: what it said on stderr */
};

/* A line of progress, on stderr and in the matrix's progress.log. */
static void say(const struct matrix *m, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
static void say(const struct matrix *m, const char *fmt, ...)
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

static double now_s(void)
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

/* The kernels to measure: @list, or one per series (virtio.sh kernel-defaults). */
static int matrix_kernels(struct matrix *m, const char *list)
{
	char buf[1024], cmd[PATH_MAX + 64];
	FILE *p;

	if (list) {
		snprintf(buf, sizeof(buf), "%s", list);
	} else {
		buf[0] = '\0';
		snprintf(cmd, sizeof(cmd), "sh '%s/virtio.sh' kernel-defaults", m->topodir);
		p = popen(cmd, "r");
		for (char line[64]; p && fgets(line, sizeof(line), p);) {
			line[strcspn(line, "\n")] = '\0';
			if (strlen(buf) + strlen(line) + 2 < sizeof(buf))
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
					 buf[0] ? "," : "", line);
		}
		if (!p || pclose(p) || !buf[0]) {
			fprintf(stderr, "xdptc matrix: cannot list Debian's kernels (virtio.sh "
					"kernel-defaults failed)\n");
			return 1;
		}
	}
	for (char *save = NULL, *s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save)) {
		if (!guest_kernel_spec_ok(s))
			return bad_value("--kernels", s, "kernel versions such as 6.1,6.18,7.3");
		if (m->nk == MATRIX_MAX_KERNELS)
			return bad_value("--kernels", list, "at most 24 kernels");
		snprintf(m->k[m->nk++].spec, sizeof(m->k[0].spec), "%s", s);
	}
	return m->nk ? -1 : need_opt("matrix", "--kernels LIST");
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

/* Start task @t: a child with stdin from /dev/null, stdout and stderr to its files. */
static int task_start(struct matrix *m, struct matrix_task *t)
{
	struct matrix_kernel *k = &m->k[t->k];
	char num[3][32], lock[16];
	pid_t pid;

	snprintf(num[0], sizeof(num[0]), "%llu", (unsigned long long)m->packets);
	snprintf(num[1], sizeof(num[1]), "%d", m->reps);
	snprintf(num[2], sizeof(num[2]), "%d", m->count_reps);
	snprintf(lock, sizeof(lock), "%d", m->lock_fd);
	pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		char vmpath[PATH_MAX + 16];
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
		if (t->exp < 0) {
			snprintf(vmpath, sizeof(vmpath), "%s/virtio.sh", m->topodir);
			setenv("GUEST_KERNEL", k->spec, 1);
			execlp("sh", "sh", vmpath, "kernel", (char *)NULL);
		} else {
			const struct matrix_exp *x = &matrix_exps[t->exp];

			fcntl(m->lock_fd, F_SETFD, 0); /* the run lock, handed down */
			if (x->host) /* its own defaults: a host run times, it does not count */
				execl(m->self, "xdptc", "run", "--topology", x->topology, "--sender",
				      x->sender, "--modes", k->modes, "--out", t->out, "--quiet",
				      "--held-lock", lock, (char *)NULL);
			{
				const char *av[] = { "xdptc", "run", "--engine", "icount", "--topology",
						     x->topology, "--sender", x->sender,
						     "--guest-kernel", k->version, "--modes", k->modes,
						     "--packets", num[0], "--reps", num[1],
						     "--count-reps", num[2], "--profile-packets",
						     MATRIX_PROFILE_PACKETS, "--out", t->out, "--quiet",
						     "--held-lock", lock,
						     m->seed ? "--seed" : NULL, m->seed, NULL };

				execv(m->self, (char *const *)av);
			}
		}
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
static int matrix_schedule(struct matrix *m)
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

/* The one run directory under @parent into @dir (0), or -ENOENT. */
static int run_dir_in(const char *parent, char *dir, size_t len)
{
	char cmd[PATH_MAX + 64];
	FILE *p;
	int e = -ENOENT;

	snprintf(cmd, sizeof(cmd), "ls -d '%s'/*/ 2>/dev/null | head -n 1", parent);
	p = popen(cmd, "r");
	if (p && fgets(dir, (int)len, p)) {
		dir[strcspn(dir, "\n")] = '\0';
		if (dir[0] && dir[strlen(dir) - 1] == '/')
			dir[strlen(dir) - 1] = '\0';
		e = dir[0] ? 0 : -ENOENT;
	}
	if (p)
		pclose(p);
	return e;
}

static json_t *kernel_json(const struct matrix_kernel *k)
{
	json_t *j = json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "spec", k->spec, "package",
			      k->package, "version", k->version, "suite", k->suite, "release",
			      k->release, "status", k->fetch == TASK_DONE ? "ok" : "failed");

	json_object_set_new(j, "reason", k->fetch == TASK_DONE ? json_null() : json_string(k->reason));
	json_object_set_new(j, "modes", json_string(k->modes));
	json_object_set_new(j, "tcx_reason", k->tcx_reason[0] ? json_string(k->tcx_reason) : json_null());
	return j;
}

/* matrix.json's entry of experiment task @t. */
static json_t *task_entry(const struct matrix *m, const struct matrix_task *t)
{
	const struct matrix_exp *x = &matrix_exps[t->exp];
	char dir[PATH_MAX], err[512];
	json_t *run = NULL, *e;

	if (t->state == TASK_DONE && (run_dir_in(t->out, dir, sizeof(dir)) ||
				      report_load(dir, &run, err, sizeof(err))))
		run = NULL;
	if (run) {
		char name[160];
		json_t *prof;

		e = matrix_entry_from_run(m->k[t->k].spec, x->name, run);
		json_object_set_new(e, "run_dir", json_string(dir + strlen(m->dir) + 1));
		snprintf(name, sizeof(name), "profiles/%s-%s", m->k[t->k].spec, x->name);
		/* the profiles of the first boot only: later boots measure its repeatability */
		prof = t->boot > 1 ? NULL : matrix_profiles(run, dir, m->dir, name, 25);
		if (prof)
			json_object_set_new(e, "profiles", prof);
		json_decref(run);
	} else {
		e = json_pack("{s:s, s:s, s:s}", "kernel", m->k[t->k].spec, "experiment", x->name,
			      "status", "failed");
		json_object_set_new(e, "reason", json_string(t->state == TASK_DONE
					? "its run directory cannot be read" : t->reason));
	}
	json_object_set_new(e, "topology", json_string(x->topology));
	json_object_set_new(e, "sender", json_string(x->sender));
	json_object_set_new(e, "seconds", json_real(t->secs));
	json_object_set_new(e, "boot", json_integer(t->boot));
	return e;
}

static json_t *matrix_json(const struct matrix *m)
{
	char cpu[160], qemu[160] = "";
	struct utsname u;
	json_t *j = json_object(), *ks = json_array(), *es = json_array();
	FILE *p = popen("qemu-system-x86_64 --version 2>/dev/null | head -n 1", "r");

	if (p && fgets(qemu, sizeof(qemu), p))
		qemu[strcspn(qemu, "\n")] = '\0';
	if (p)
		pclose(p);
	uname(&u);
	machine_cpu_model(cpu, sizeof(cpu));
	json_object_set_new(j, "schema", json_string("xdptc.matrix/1"));
	json_object_set_new(j, "host", json_pack("{s:s, s:s, s:s}", "cpu_model", cpu,
						 "kernel_release", u.release, "qemu", qemu));
	json_object_set_new(j, "settings", json_pack("{s:I, s:i, s:i, s:s, s:i, s:i, s:o}",
						     "packets", (json_int_t)m->packets, "reps",
						     m->reps, "count_reps", m->count_reps, "modes",
						     m->modes, "jobs", m->jobs, "repeat", m->repeat,
						     "seed", m->seed ? json_integer((json_int_t)strtoull(m->seed, NULL, 10))
							     : json_null()));
	for (int i = 0; i < m->nk; i++)
		json_array_append_new(ks, kernel_json(&m->k[i]));
	for (int i = 0; i < m->nt; i++)
		if (m->t[i].exp >= 0)
			json_array_append_new(es, task_entry(m, &m->t[i]));
	json_object_set_new(j, "kernels", ks);
	json_object_set_new(j, "entries", es);
	json_object_set_new(j, "elapsed_s", json_real(now_s() - m->t0));
	return j;
}

/* matrix.json, matrix.md (also on stdout) and the plot. Returns 0 or 1 (said why). */
/* matrix.md and the plots in @dir from matrix.json @j. Returns 0 or 1 (said why). */
static int matrix_render(const json_t *j, const char *dir)
{
	char path[PATH_MAX + 32], cmd[PATH_MAX + 128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/matrix.md", dir);
	f = fopen(path, "w");
	if (!f || matrix_write_md(j, f) || fclose(f)) {
		fprintf(stderr, "xdptc matrix: cannot write %s\n", path);
		return 1;
	}
	if (matrix_write_plot(j, dir) > 0) {
		snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot matrix-delta.gp 2>/dev/null", dir);
		if (system(cmd))
			fprintf(stderr, "xdptc matrix: the plots were not drawn (gnuplot failed)\n");
	}
	return 0;
}

/* --report DIR: matrix.md and the plots again from DIR/matrix.json alone. */
static int matrix_report(const char *dir)
{
	char path[PATH_MAX + 32];
	json_error_t jerr;
	json_t *j;
	int e;

	snprintf(path, sizeof(path), "%s/matrix.json", dir);
	j = json_load_file(path, 0, &jerr);
	if (!j || strcmp(json_string_value(json_object_get(j, "schema")) ?: "", "xdptc.matrix/1")) {
		fprintf(stderr, "xdptc matrix: %s: %s\n", path, j ? "not an xdptc.matrix/1 file" : jerr.text);
		json_decref(j);
		return EXIT_USAGE;
	}
	e = matrix_render(j, dir);
	json_decref(j);
	return e;
}

/* --table DIR,DIR...: README.md's table from those matrices' matrix.json; with @boots
 * (--boots) their "Between boots" table instead. */
static int matrix_table(const char *dirs, bool boots)
{
	json_t *j[MATRIX_MAX_KERNELS];
	const char *given[MATRIX_MAX_KERNELS];
	char buf[4096], path[PATH_MAX + 32];
	int n = 0, e = 0;

	snprintf(buf, sizeof(buf), "%s", dirs);
	for (char *save = NULL, *d = strtok_r(buf, ",", &save); d && n < MATRIX_MAX_KERNELS;
	     d = strtok_r(NULL, ",", &save)) {
		json_error_t jerr;
		int seen = 0;

		/* the same matrix twice would be taken for two boots */
		for (int k = 0; k < n && boots; k++)
			seen += !strcmp(given[k], d);
		if (seen) {
			fprintf(stderr, "xdptc matrix: --boots: %s is given twice\n", d);
			e = EXIT_USAGE;
			break;
		}
		snprintf(path, sizeof(path), "%s/matrix.json", d);
		j[n] = json_load_file(path, 0, &jerr);
		if (!j[n]) {
			fprintf(stderr, "xdptc matrix: %s: %s\n", path, jerr.text);
			e = EXIT_USAGE;
			break;
		}
		given[n++] = d;
	}
	if (!e && boots) {
		json_t *b = matrix_boots_join(j, n);

		if (b)
			matrix_md_boots(b, stdout);
		e = b ? 0 : 1;
		json_decref(b);
	} else if (!e && matrix_write_table(j, n, stdout)) {
		e = 1;
	}
	while (n--)
		json_decref(j[n]);
	return e;
}

static int matrix_write(const struct matrix *m)
{
	char path[PATH_MAX + 32], line[1024];
	json_t *j = matrix_json(m);
	FILE *f;

	snprintf(path, sizeof(path), "%s/matrix.json", m->dir);
	if (json_dump_file(j, path, JSON_INDENT(2)) || matrix_render(j, m->dir)) {
		fprintf(stderr, "xdptc matrix: cannot write in %s\n", m->dir);
		json_decref(j);
		return 1;
	}
	json_decref(j);
	snprintf(path, sizeof(path), "%s/matrix.md", m->dir);
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		fputs(line, stdout);
	if (f)
		fclose(f);
	say(m, "xdptc matrix: %s/ (matrix.json, matrix.md, matrix-delta*.svg, profiles/, runs/, "
	    "logs/, progress.log)\n", m->dir);
	return 0;
}

/* A task of kernel @k, experiment @x (-1: its fetch), boot @boot (1 to --repeat), with
 * its files: a later boot's names end in -bootN. */
static int plan_task(struct matrix *m, int k, int x, int boot)
{
	struct matrix_task *t = &m->t[m->nt++];
	char dir[PATH_MAX], spec[sizeof(m->k[0].spec)]; /* copies: *t is inside *m */
	char name[64];

	snprintf(name, sizeof(name), "%s", x < 0 ? "fetch" : matrix_exps[x].name);
	if (boot > 1)
		snprintf(name + strlen(name), sizeof(name) - strlen(name), "-boot%d", boot);
	snprintf(dir, sizeof(dir), "%s", m->dir);
	snprintf(spec, sizeof(spec), "%s", m->k[k].spec);
	t->k = k;
	t->exp = x;
	t->boot = boot;
	snprintf(t->log, sizeof(t->log), "%s/logs/%s-%s.log", dir, spec, name);
	snprintf(t->out, sizeof(t->out), x < 0 ? "%s/logs/%s-%s.out" : "%s/runs/%s-%s", dir,
		 spec, name);
	return x >= 0 && mkdir(t->out, 0755) ? -errno : 0;
}

/* The tasks: per kernel its fetch, then its icount experiments, all of a boot before
 * the next boot's (so the boots of one experiment meet different host moments). */
static int matrix_plan(struct matrix *m)
{
	for (int k = 0; k < m->nk; k++) {
		int e = plan_task(m, k, -1, 1);

		for (int b = 1; b <= m->repeat && !e; b++)
			for (int x = 0; x < MATRIX_NEXP && !e; x++)
				e = plan_task(m, k, x, b);
		if (e)
			return e;
	}
	return 0;
}

/* The cross-check of the two engines: when a kernel measured under icount is of the
 * host's own series (6.18 on a 6.18 host), the host engine's veth runs with the same
 * senders and modes, one at a time after every guest is down (a host run times, and
 * nothing may run beside it). Returns 0, 130 when stopped, or 1. */
static int matrix_host_check(struct matrix *m)
{
	struct utsname u;
	char series[32];
	int k, major, minor, jobs, st;

	uname(&u);
	if (sscanf(u.release, "%d.%d", &major, &minor) != 2)
		return 0;
	snprintf(series, sizeof(series), "%d.%d.", major, minor);
	for (k = 0; k < m->nk; k++)
		if (m->k[k].fetch == TASK_DONE && !strncmp(m->k[k].release, series, strlen(series)))
			break;
	if (k == m->nk)
		return 0;
	say(m, "xdptc matrix: the host runs Linux %s, the series of guest kernel %s: "
			"the host engine's veth runs for the cross-check, one at a time\n",
		u.release, m->k[k].spec);
	for (int x = MATRIX_NEXP; x < MATRIX_NEXP + MATRIX_NHOST; x++)
		if (plan_task(m, k, x, 1))
			return 1;
	jobs = m->jobs;
	m->jobs = 1;
	st = matrix_schedule(m);
	m->jobs = jobs; /* what matrix.json records: the guests' runs */
	return st;
}

/* OUT/<stamp>-matrix with its logs/ and runs/. Returns 0 or -errno. */
static int matrix_dirs(struct matrix *m)
{
	char stamp[32], sub[PATH_MAX + 16];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(m->dir, sizeof(m->dir), "%s/%s-matrix", m->out_dir, stamp);
	if (mkdir(m->out_dir, 0755) && errno != EEXIST)
		return -errno;
	if (mkdir(m->dir, 0755))
		return -errno;
	snprintf(sub, sizeof(sub), "%s/logs", m->dir);
	if (mkdir(sub, 0755))
		return -errno;
	snprintf(sub, sizeof(sub), "%s/profiles", m->dir);
	if (mkdir(sub, 0755))
		return -errno;
	snprintf(sub, sizeof(sub), "%s/runs", m->dir);
	return mkdir(sub, 0755) ? -errno : 0;
}

enum { OPT_KERNELS = 256, OPT_COUNT_REPS, OPT_REPORT, OPT_REPEAT, OPT_SEED, OPT_TABLE, OPT_BOOTS };

static const struct cli_opt matrix_opts[] = {
	{ "kernels", OPT_KERNELS, "LIST", "comma list of guest kernels, each a Debian version "
	  "prefix (6.1, 6.18, 7.3: the newest patch level in bookworm, trixie, their "
	  "backports or sid) or a full package version", "one per series available, newest "
	  "patch level", "KERNELS" },
	{ "modes", 'm', "LIST", "modes measured on every kernel (tcx is left out, and said so "
	  "before measuring, on kernels older than 6.6)", "tc,tcx,xdpgeneric,xdpdrv", "MODES" },
	{ "packets", 'n', "N", "packets per measured window (k/M suffixes; instruction counts "
	  "vary little from window to window, so a small window suffices)", "10k", "PACKETS" },
	{ "reps", 'r', "N", "repetitions of the timing pass per run (6 or more give each delta "
	  "an interval)", "6", "REPS" },
	{ "count-reps", OPT_COUNT_REPS, "N", "repetitions of the count and BPF-statistics "
	  "passes per run (the counts are exact)", "1", "COUNT_REPS" },
	{ "jobs", 'j', "N", "runs side by side (each guest takes a host CPU, so more than the "
	  "CPUs buys nothing; docs/matrix.md says how far the host's load moves the deltas)",
	  "the number of CPUs", "JOBS" },
	{ "repeat", OPT_REPEAT, "N", "boot and measure each kernel's experiments N times "
	  "(1-5): matrix.md then gives each delta's spread between the boots and whether "
	  "their intervals overlap", "1", "REPEAT" },
	{ "seed", OPT_SEED, "N", "seed of every run's trial order: each run still shuffles its "
	  "repetitions, the same way in every run and boot (a seed of its own per run moved "
	  "the veth deltas more between boots: docs/matrix.md)", "1", "SEED" },
	{ "out", 'o', "DIR", "parent directory of the matrix directory", "results", "OUT",
	  .flags = CLI_MAKE_CMDLINE },
	{ "report", OPT_REPORT, "DIR", "measure nothing: write DIR/matrix.md and the plots "
	  "again from DIR/matrix.json (no root needed)" },
	{ "boots", OPT_BOOTS, "DIR,DIR...", "measure nothing: print the \"Between boots\" "
	  "table of these matrices' entries, each kernel and experiment's boots in the order "
	  "given (matrices made with --repeat, or the same matrix made again; no root "
	  "needed)" },
	{ "table", OPT_TABLE, "DIR,DIR...", "measure nothing: print README.md's table across "
	  "kernels from these matrices (xdpdrv and tcx against tc, percent; a kernel in "
	  "several: the last one's; no root needed)" },
	{ NULL },
};

/* Parse the options into @m. Returns -1 to go on, or the exit status. */
static int matrix_parse(struct matrix *m, int argc, char **argv)
{
	enum drop_mode modes[RUN_MAX_MODES];
	uint64_t v;
	int c;

	while ((c = cli_next(&cli_cmd_matrix, argc, argv)) > 0) {
		switch (c) {
		case OPT_KERNELS: m->kernels = optarg; break;
		case 'm':
			if (parse_modes(optarg, modes, RUN_MAX_MODES) < 1)
				return bad_mode(optarg);
			m->modes = optarg;
			break;
		case 'n':
			if (parse_count(optarg, 1000000000ull, &m->packets) || m->packets < 1000)
				return bad_value("--packets", optarg, "1000 or more");
			break;
		case 'r':
		case OPT_COUNT_REPS:
		case 'j':
			if (parse_count(optarg, 100, &v) || v < (c == 'r' ? 2u : 1u))
				return bad_value(c == 'r' ? "--reps" : c == 'j' ? "--jobs" : "--count-reps",
						 optarg, c == 'r' ? "2-100" : "1-100");
			*(c == 'r' ? &m->reps : c == 'j' ? &m->jobs : &m->count_reps) = (int)v;
			break;
		case 'o': m->out_dir = optarg; break;
		case OPT_REPORT: m->report = optarg; break;
		case OPT_TABLE: m->table = optarg; break;
		case OPT_BOOTS: m->boots = optarg; break;
		case OPT_REPEAT:
			if (parse_count(optarg, MATRIX_MAX_REPEAT, &v) || v < 1)
				return bad_value("--repeat", optarg, "1-5");
			m->repeat = (int)v;
			break;
		case OPT_SEED:
			if (parse_count(optarg, UINT64_MAX, &v))
				return bad_value("--seed", optarg, "a number");
			m->seed = optarg;
			break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (optind != argc)
		return bad_value("matrix", argv[optind], "options only");
	if (strncmp(m->modes, "tc,", 3))
		return bad_value("--modes", m->modes, "two modes or more, tc first (every delta "
				 "is against tc)");
	if (m->kernels) { /* their form now, before root and the run lock */
		char buf[1024];
		int n = 0;

		snprintf(buf, sizeof(buf), "%s", m->kernels);
		for (char *save = NULL, *s = strtok_r(buf, ",", &save); s; s = strtok_r(NULL, ",", &save), n++)
			if (!guest_kernel_spec_ok(s) || n == MATRIX_MAX_KERNELS)
				return bad_value("--kernels", m->kernels, "at most 24 kernel versions "
						 "such as 6.1,6.18,7.3");
	}
	return -1;
}

int cmd_matrix(int argc, char **argv)
{
	static struct matrix m;
	static char topodir[PATH_MAX];
	int holder = 0, e, st;

	memset(&m, 0, sizeof(m));
	m.modes = "tc,tcx,xdpgeneric,xdpdrv";
	m.out_dir = "results";
	m.packets = 10000;
	m.reps = 6;
	m.count_reps = 1;
	m.repeat = 1;
	m.seed = "1";
	m.jobs = (int)sysconf(_SC_NPROCESSORS_ONLN);
	if (m.jobs < 1)
		m.jobs = 1;
	e = matrix_parse(&m, argc, argv);
	if (e >= 0)
		return e;
	if (m.report)
		return matrix_report(m.report);
	if (m.table || m.boots)
		return matrix_table(m.table ? m.table : m.boots, !m.table);
	if (check_privilege())
		return 1;
	default_topologies_dir(topodir, sizeof(topodir));
	m.topodir = topodir;
	if (!realpath("/proc/self/exe", m.self))
		return 1;
	m.lock_fd = run_lock_take(&holder);
	if (m.lock_fd < 0) {
		fprintf(stderr, "xdptc matrix: another xdptc run or matrix (pid %d) is measuring "
				"on this machine; wait for it to finish\n", holder);
		return 1;
	}
	run_signals_install();
	m.t0 = now_s();
	e = matrix_kernels(&m, m.kernels);
	if (e >= 0)
		return e;
	e = matrix_dirs(&m);
	if (!e)
		e = matrix_plan(&m);
	if (e) {
		fprintf(stderr, "xdptc matrix: cannot create %s: %s\n", m.dir, strerror(-e));
		return 1;
	}
	{
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/progress.log", m.dir);
		m.log = fopen(path, "w");
	}
	say(&m, "xdptc matrix: %d kernel(s) x %d experiments%s%s%s, %d at a time, into %s/\n",
		m.nk, MATRIX_NEXP, m.repeat > 1 ? " x " : "",
		m.repeat > 1 ? (const char *[]){ "", "", "2", "3", "4", "5" }[m.repeat] : "",
		m.repeat > 1 ? " boots" : "", m.jobs, m.dir);
	st = matrix_schedule(&m);
	if (st == 0)
		st = matrix_host_check(&m);
	if (st == 130) {
		say(&m, "xdptc matrix: interrupted; what was measured is in %s/\n", m.dir);
		return 130;
	}
	if (matrix_write(&m))
		return 1;
	for (int i = 0; i < m.nt; i++)
		if (m.t[i].state != TASK_DONE)
			return 1;
	return 0;
}

const struct cli_command cli_cmd_matrix = {
	.name = "matrix",
	.fn = cmd_matrix,
	.brief = "XDP against TC on a list of Debian guest kernels (icount engine)",
	.about = "Fetch each guest kernel (Debian's package, through a private apt "
		 "configuration in the cache: the host's apt sources are never changed, nothing "
		 "is installed) and run the icount engine's comparison on it: the veth "
		 "experiment with the udp and the xdp-live senders, and the virtio experiment. "
		 "Writes OUT/<UTC timestamp>-matrix/matrix.json (an entry per kernel and "
		 "experiment, with the per-mode summaries of its run), matrix.md (kernels as "
		 "rows) and matrix-delta.svg/.png (the xdpdrv-vs-tc delta against the kernel); "
		 "each run keeps its directory under runs/, its log under logs/. When a guest "
		 "kernel is of the host's own series, the host engine's veth runs follow, one at "
		 "a time at their own defaults, beside the guest's in matrix.md. A kernel that "
		 "cannot be fetched or booted is recorded with its reason and the others go on "
		 "(exit status 1 at the end).",
	.opts = matrix_opts,
};
