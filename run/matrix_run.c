/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_run.c: one kernel matrix on this machine (matrix_run.h): under the machine's run
 * lock, its directory, its plan (per kernel a fetch, then each boot of each icount
 * experiment: analysis/matrix_experiments.c), its children (matrix_tasks.c), the host
 * engine's cross-check on the host's own kernel series, and matrix.json with matrix.md and
 * the plots (analysis/matrix.c).
 */
#include "matrix_run.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "matrix.h"
#include "matrix_experiments.h"
#include "report.h"
#include "run_json.h" /* machine_cpu_model */
#include "run_lock.h"
#include "run_signals.h"

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
	if (k->exp_reason[0])
		json_object_set_new(j, "experiments_left_out", json_string(k->exp_reason));
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


static int matrix_write(const struct matrix *m)
{
	char path[PATH_MAX + 32], line[1024];
	json_t *j = matrix_json(m);
	FILE *f;

	snprintf(path, sizeof(path), "%s/matrix.json", m->dir);
	if (json_dump_file(j, path, JSON_INDENT(2)) || matrix_write_files(j, m->dir)) {
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
				if (!matrix_exp_left_out(&m->k[k], x))
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

int matrix_run(struct matrix *m)
{
	int holder = 0, e, st;

	m->lock_fd = run_lock_take(&holder);
	if (m->lock_fd < 0) {
		fprintf(stderr, "xdptc matrix: another xdptc run or matrix (pid %d) is measuring "
				"on this machine; wait for it to finish\n", holder);
		return 1;
	}
	run_signals_install();
	m->t0 = now_s();
	e = matrix_dirs(m);
	if (!e)
		e = matrix_plan(m);
	if (e) {
		fprintf(stderr, "xdptc matrix: cannot create %s: %s\n", m->dir, strerror(-e));
		return 1;
	}
	{
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/progress.log", m->dir);
		m->log = fopen(path, "w");
	}
	say(m, "xdptc matrix: %d kernel(s) x %d experiments%s%s%s, %d at a time, into %s/\n",
		m->nk, MATRIX_NEXP, m->repeat > 1 ? " x " : "",
		m->repeat > 1 ? (const char *[]){ "", "", "2", "3", "4", "5" }[m->repeat] : "",
		m->repeat > 1 ? " boots" : "", m->jobs, m->dir);
	st = matrix_schedule(m);
	if (st == 0)
		st = matrix_host_check(m);
	if (st == 130) {
		say(m, "xdptc matrix: interrupted; what was measured is in %s/\n", m->dir);
		return 130;
	}
	if (matrix_write(m))
		return 1;
	for (int i = 0; i < m->nt; i++)
		if (m->t[i].state != TASK_DONE)
			return 1;
	return 0;
}
