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
#include "matrix_cell.h"
#include "matrix_experiments.h"
#include "report.h"
#include "run_json.h" /* machine_cpu_model */
#include "run_lock.h"
#include "run_signals.h"

/* matrix.json from the cells of this matrix's experiments (each task's directory under
 * runs/, its cell.json written by the cell, or here for a cell whose kernel failed). */
static json_t *matrix_json(const struct matrix *m)
{
	char **rel = calloc((size_t)m->nt + 1, sizeof(*rel));
	json_t *ks = json_array(), *j;
	int n = 0;

	if (!rel)
		return NULL;

	for (int i = 0; i < m->nk; i++)
		json_array_append_new(ks, matrix_kernel_json(&m->k[i]));
	for (int i = 0; i < m->nt; i++) {
		const struct matrix_task *t = &m->t[i];
		char path[PATH_MAX + 16];

		if (t->exp < 0)
			continue;
		snprintf(path, sizeof(path), "%s/cell.json", t->out);
		if (access(path, R_OK))
			matrix_cell_write(m, t); /* never started, or gone before it wrote one */
		rel[n++] = (char *)t->out + strlen(m->dir) + 1;
	}
	j = matrix_json_from_cells(m, rel, n, ks);
	json_decref(ks);
	free(rel);
	return j;
}

static int matrix_write(const struct matrix *m)
{
	char path[PATH_MAX + 32], line[1024];
	json_t *j = matrix_json(m);
	FILE *f;

	snprintf(path, sizeof(path), "%s/matrix.json", m->dir);
	if (!j || json_dump_file(j, path, JSON_INDENT(2)) || matrix_write_files(j, m->dir)) {
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
			for (int x = 0; x < matrix_nexps && !e; x++)
				if (matrix_exps[x].engine == MATRIX_ICOUNT && matrix_exp_wanted(m, x) &&
				    !matrix_exp_left_out(&m->k[k], x))
					e = plan_task(m, k, x, b);
		if (e)
			return e;
	}
	return 0;
}

/* Is host row @x wanted: no --experiments, or its icount twin (.beside) among them? */
static bool host_row_wanted(const struct matrix *m, int x)
{
	const struct matrix_exp *b = matrix_exp_find(matrix_exps[x].beside);

	return !m->experiments || (b && matrix_exp_wanted(m, (int)(b - matrix_exps)));
}

/* May this matrix run the host engine (matrix_host_check)? Only when a host row is
 * wanted and a kernel asked for may be of the host's series: a spec "MAJOR.MINOR[...]"
 * of another series cannot be. Decided before any fetch, to choose the run lock: a
 * matrix of guests only shares it with other icount runs and cells. */
static bool matrix_may_run_host(const struct matrix *m)
{
	struct utsname u;
	int hmaj, hmin, maj, min, x;

	for (x = 0; x < matrix_nexps; x++)
		if (matrix_exps[x].engine == MATRIX_HOST && host_row_wanted(m, x))
			break;
	if (x == matrix_nexps)
		return false;
	if (uname(&u) || sscanf(u.release, "%d.%d", &hmaj, &hmin) != 2)
		return true;
	for (int k = 0; k < m->nk; k++)
		if (sscanf(m->k[k].spec, "%d.%d", &maj, &min) != 2 || (maj == hmaj && min == hmin))
			return true;
	return false;
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
	for (int x = 0; x < matrix_nexps; x++)
		if (matrix_exps[x].engine == MATRIX_HOST && host_row_wanted(m, x) &&
		    plan_task(m, k, x, 1))
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
	bool host;

	host = matrix_may_run_host(m); /* a host run times: nothing may run beside it */
	m->lock_fd = host ? run_lock_take(&holder) : run_lock_take_shared(&holder);
	if (m->lock_fd < 0) {
		fprintf(stderr, "xdptc matrix: another xdptc run or matrix (pid %d) is measuring "
				"on this machine; wait for it to finish%s\n", holder,
			host ? "" : " (a matrix of guests only runs beside icount runs and cells)");
		return 1;
	}
	run_signals_install();
	m->t0 = now_s();
	/* the plan's most: per kernel its fetch and every boot of every row; the host rows */
	m->t = calloc((size_t)m->nk * ((size_t)matrix_nexps * (size_t)m->repeat + 1) +
		      (size_t)matrix_nexps, sizeof(*m->t));
	e = m->t ? matrix_dirs(m) : -ENOMEM;
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
	int nexp = 0;

	for (int x = 0; x < matrix_nexps; x++)
		nexp += matrix_exps[x].engine == MATRIX_ICOUNT && matrix_exp_wanted(m, x);
	say(m, "xdptc matrix: %d kernel(s) x %d experiments%s%s%s, %d at a time, into %s/\n",
		m->nk, nexp, m->repeat > 1 ? " x " : "",
		m->repeat > 1 ? (const char *[]){ "", "", "2", "3", "4", "5" }[m->repeat] : "",
		m->repeat > 1 ? " boots" : "", m->jobs, m->dir);
	st = matrix_schedule(m);
	if (st == 0 && host) /* (under the exclusive lock only) */
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
