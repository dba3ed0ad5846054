/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_cell.c: the matrix's cells: one run by itself, the list, the merge
 * (matrix_cell.h). */
#include "matrix_cell.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "json_read.h"
#include "matrix.h"
#include "matrix_experiments.h"
#include "matrix_merge_rules.h"
#include "report.h"
#include "run_json.h" /* machine_cpu_model */
#include "run_lock.h"
#include "run_signals.h"
#include "name_list.h"

int matrix_cell_parse(const char *s, char *kernel, size_t klen, int *exp)
{
	const char *c = s ? strchr(s, ':') : NULL;

	if (!c || c == s || (size_t)(c - s) >= klen) {
		fprintf(stderr, "xdptc matrix: --cell '%s': KERNEL:EXPERIMENT, such as 6.12:%s "
				"(`xdptc matrix --list` prints them)\n", s ? s : "", matrix_exps[0].name);
		return -1;
	}
	snprintf(kernel, klen, "%.*s", (int)(c - s), s);
	if (matrix_exp_find(c + 1)) {
		*exp = (int)(matrix_exp_find(c + 1) - matrix_exps);
		return 0;
	}
	fprintf(stderr, "xdptc matrix: --cell '%s': no experiment '%s'; the experiments:", s, c + 1);
	for (int x = 0; x < matrix_nexps; x++)
		fprintf(stderr, "%s %s", x ? "," : "", matrix_exps[x].name);
	fprintf(stderr, "\n");
	return -1;
}

/* What made a cell: this source tree's `git describe --always --dirty` (the suite's
 * version), or "unknown" outside a git checkout. */
static void xdptc_version(const char *topodir, char *buf, size_t len)
{
	char cmd[PATH_MAX + 96];
	FILE *p;

	snprintf(buf, len, "unknown");
	snprintf(cmd, sizeof(cmd), "git -C '%s/..' describe --always --dirty 2>/dev/null", topodir);
	p = popen(cmd, "r");
	if (p && fgets(buf, (int)len, p))
		buf[strcspn(buf, "\n")] = '\0';
	if (p)
		pclose(p);
	if (!buf[0])
		snprintf(buf, len, "unknown");
}

/* The qemu of the cell whose run directory is @run_dir (NULL: none): the one its run
 * recorded (run.json's engine.qemu: an experiment may run under another qemu, --qemu
 * backports), else the installed one's first line of --version. */
static void qemu_version(const char *run_dir, char *buf, size_t len)
{
	char path[PATH_MAX + 16];
	json_t *run = NULL;
	FILE *p;

	if (run_dir) {
		snprintf(path, sizeof(path), "%s/run.json", run_dir);
		run = json_load_file(path, 0, NULL);
	}
	buf[0] = '\0';
	if (run)
		snprintf(buf, len, "%s", json_str_of(json_object_get(run, "engine"), "qemu", ""));
	json_decref(run);
	if (buf[0])
		return;
	p = popen("qemu-system-x86_64 --version 2>/dev/null | head -n 1", "r");
	if (p && fgets(buf, (int)len, p))
		buf[strcspn(buf, "\n")] = '\0';
	if (p)
		pclose(p);
}

static json_t *host_json(void)
{
	char cpu[160];
	struct utsname u;

	uname(&u);
	machine_cpu_model(cpu, sizeof(cpu));
	return json_pack("{s:s, s:s}", "cpu_model", cpu, "kernel_release", u.release);
}

json_t *matrix_kernel_json(const struct matrix_kernel *k)
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

/* The settings every cell of one matrix must share. */
static json_t *cell_settings_json(const struct matrix *m)
{
	const char *fixed = getenv("ICOUNT_FIXED");

	return json_pack("{s:I, s:i, s:i, s:s, s:o, s:s, s:I}", "packets", (json_int_t)m->packets,
			 "reps", m->reps, "count_reps", m->count_reps, "modes", m->modes, "seed",
			 m->seed ? json_integer((json_int_t)strtoull(m->seed, NULL, 10)) : json_null(),
			 "icount_fixed", fixed && *fixed ? fixed : "kaslr,aslr,rng", "profile_packets",
			 (json_int_t)strtoull(m->profile_packets ? m->profile_packets
					      : MATRIX_PROFILE_PACKETS, NULL, 10));
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

int matrix_cell_write(const struct matrix *m, const struct matrix_task *t)
{
	const struct matrix_kernel *k = &m->k[t->k];
	char path[PATH_MAX + 16], dir[PATH_MAX], ver[128], qemu[160], cell[160];
	json_t *j;
	int e;

	snprintf(cell, sizeof(cell), "%s:%s", k->spec, matrix_exps[t->exp].name);
	xdptc_version(m->topodir, ver, sizeof(ver));
	qemu_version(!run_dir_in(t->out, dir, sizeof(dir)) ? dir : NULL, qemu, sizeof(qemu));
	j = json_pack("{s:s, s:s, s:s, s:s, s:i, s:o, s:s, s:f, s:s, s:s, s:o, s:o}", "schema",
		      MATRIX_CELL_SCHEMA, "cell", cell, "kernel_spec", k->spec, "experiment",
		      matrix_exps[t->exp].name, "boot", t->boot, "kernel", matrix_kernel_json(k),
		      "status", t->state == TASK_DONE ? "ok" : "failed", "seconds", t->secs,
		      "xdptc", ver, "qemu", qemu, "host", host_json(), "settings", cell_settings_json(m));
	json_object_set_new(j, "reason", t->state == TASK_DONE ? json_null() : json_string(t->reason));
	json_object_set_new(j, "run_dir", !run_dir_in(t->out, dir, sizeof(dir))
				  ? json_string(strrchr(dir, '/') + 1) : json_null());
	snprintf(path, sizeof(path), "%s/cell.json", t->out);
	e = json_dump_file(j, path, JSON_INDENT(2)) ? -EIO : 0;
	json_decref(j);
	return e;
}

int matrix_cell_main(struct matrix *m)
{
	static struct matrix_task tasks[2]; /* its kernel's fetch, its run */
	struct matrix_kernel *k = &m->k[0];
	struct matrix_task *t;
	int x, holder = 0, st;
	bool host;

	if (matrix_cell_parse(m->cell, k->spec, sizeof(k->spec), &x))
		return 2;
	m->nk = 1;
	if (matrix_exp_left_out(k, x)) {
		fprintf(stderr, "xdptc matrix: --cell %s: left out: %s\n", m->cell, k->exp_reason);
		return 2;
	}
	if (mkdir(m->out_dir, 0755) && (errno != EEXIST || rmdir(m->out_dir) || mkdir(m->out_dir, 0755))) {
		fprintf(stderr, "xdptc matrix: --cell: the cell directory %s must be new or empty: %s\n",
			m->out_dir, strerror(errno));
		return 2;
	}
	host = matrix_exps[x].engine == MATRIX_HOST; /* a host run times: nothing beside it */
	m->lock_fd = m->held_lock > 0 ? run_lock_inherited(m->held_lock, host)
		     : host ? run_lock_take(&holder) : run_lock_take_shared(&holder);
	if (m->lock_fd < 0) {
		fprintf(stderr, "xdptc matrix: another xdptc run (pid %d) is measuring on this "
				"machine; a cell %s only beside other icount cells\n", holder,
			host ? "of the host engine runs alone" : "runs");
		rmdir(m->out_dir);
		return 1;
	}
	run_signals_install();
	m->cell_mode = true;
	m->jobs = 1;
	m->t0 = now_s();
	snprintf(m->dir, sizeof(m->dir), "%s", m->out_dir);
	m->t = tasks;
	t = &m->t[0]; /* its fetch: the cache's copy when there is one */
	t->k = 0;
	t->exp = -1;
	t->boot = 1;
	snprintf(t->log, sizeof(t->log), "%s/fetch.log", m->out_dir);
	snprintf(t->out, sizeof(t->out), "%s/fetch.out", m->out_dir);
	t = &m->t[1];
	t->k = 0;
	t->exp = x;
	t->boot = m->boot > 0 ? m->boot : 1;
	snprintf(t->log, sizeof(t->log), "%s/run.log", m->out_dir);
	snprintf(t->out, sizeof(t->out), "%s", m->out_dir);
	m->nt = 2;
	say(m, "xdptc matrix: cell %s (boot %d) into %s/\n", m->cell, t->boot, m->out_dir);
	st = matrix_schedule(m);
	if (t->state == TASK_WAITING) { /* its kernel failed: so did the cell */
		t->state = TASK_FAILED;
		snprintf(t->reason, sizeof(t->reason), "%s", k->reason);
	}
	if (matrix_cell_write(m, t)) {
		fprintf(stderr, "xdptc matrix: cannot write %s/cell.json\n", m->out_dir);
		return 1;
	}
	say(m, "xdptc matrix: cell %s %s%s%s\n", m->cell, t->state == TASK_DONE ? "done" : "FAILED",
	    t->state == TASK_DONE ? "" : ": ", t->state == TASK_DONE ? "" : t->reason);
	return st == 130 ? 130 : t->state == TASK_DONE ? 0 : 1;
}

/* Is experiment @x wanted: named by m->experiments (NULL: every row that is not
 * opt_in), or a row whose NIC model m->nics names ("all": every one)? */
static bool exp_wanted(const struct matrix *m, int x)
{
	const char *nic = matrix_exps[x].nic;

	if (nic && (name_list_has(m->nics, nic) || name_list_has(m->nics, "all")))
		return true;
	return m->experiments ? name_list_has(m->experiments, matrix_exps[x].name)
			      : !matrix_exps[x].opt_in;
}

bool matrix_exp_wanted(const struct matrix *m, int x)
{
	return exp_wanted(m, x);
}

int matrix_list(struct matrix *m)
{
	json_t *cells = json_array();

	for (int i = 0; i < m->nk; i++)
		for (int x = 0; x < matrix_nexps; x++) {
			char c[160];

			if (matrix_exps[x].engine != MATRIX_ICOUNT || !exp_wanted(m, x) ||
			    matrix_exp_left_out(&m->k[i], x))
				continue;
			snprintf(c, sizeof(c), "%s:%s", m->k[i].spec, matrix_exps[x].name);
			if (m->list_json)
				json_array_append_new(cells, json_string(c));
			else
				printf("%s\n", c);
		}
	for (int i = 0; i < m->nk; i++)
		if (m->k[i].exp_reason[0])
			fprintf(stderr, "xdptc matrix: %s leaves out %s\n", m->k[i].spec, m->k[i].exp_reason);
	if (m->list_json) {
		json_t *j = json_pack("{s:o}", "cell", cells);

		json_dumpf(j, stdout, JSON_COMPACT);
		printf("\n");
		json_decref(j);
	} else {
		json_decref(cells);
	}
	return 0;
}

/* matrix.json's entry of the cell in @mdir/@rel, whose cell.json is @cell. */
static json_t *cell_entry(const char *mdir, const char *rel, const json_t *cell)
{
	const char *spec = json_str_of(cell, "kernel_spec", ""), *exp = json_str_of(cell, "experiment", "");
	const json_t *rd = json_object_get(cell, "run_dir");
	char dir[PATH_MAX * 2], err[512], name[200];
	json_t *run = NULL, *e;
	int boot = (int)json_integer_value(json_object_get(cell, "boot"));
	const struct matrix_exp *x = matrix_exp_find(exp);

	snprintf(dir, sizeof(dir), "%s/%s/%s", mdir, rel, json_is_string(rd) ? json_string_value(rd) : "");
	if (!strcmp(json_str_of(cell, "status", ""), "ok") && json_is_string(rd) &&
	    report_load(dir, &run, err, sizeof(err)))
		run = NULL;
	if (run) {
		json_t *prof;

		e = matrix_entry_from_run(spec, exp, run);
		json_object_set_new(e, "run_dir", json_string(dir + strlen(mdir) + 1));
		snprintf(name, sizeof(name), "profiles/%s-%s", spec, exp);
		/* the profiles of the first boot only: later boots measure its repeatability */
		prof = boot > 1 ? NULL : matrix_profiles(run, dir, mdir, name, 25);
		if (prof)
			json_object_set_new(e, "profiles", prof);
		json_decref(run);
	} else {
		e = json_pack("{s:s, s:s, s:s}", "kernel", spec, "experiment", exp, "status", "failed");
		json_object_set_new(e, "reason", json_string(!strcmp(json_str_of(cell, "status", ""), "ok")
					? "its run directory cannot be read"
					: json_str_of(cell, "reason", "failed")));
	}
	json_object_set_new(e, "topology", json_string(x ? x->topology : ""));
	json_object_set_new(e, "sender", json_string(x ? x->sender : ""));
	json_object_set_new(e, "seconds", json_real(json_num_of(cell, "seconds")));
	json_object_set_new(e, "boot", json_integer(boot));
	json_object_set_new(e, "host", json_deep_copy(json_object_get(cell, "host")));
	return e;
}

/* matrix.json's "settings": the first cell's @first (NULL: @m's), with the jobs (none
 * for a merge) and the boots, @repeat in a merge; the keys in the order matrix.json
 * always had them. A new reference. */
static json_t *matrix_settings_json(const struct matrix *m, const json_t *first, int repeat)
{
	json_t *set = first ? json_deep_copy(json_object_get(first, "settings")) : cell_settings_json(m);
	json_t *o;

	json_object_set_new(set, "jobs", m->merge ? json_null() : json_integer(m->jobs));
	json_object_set_new(set, "repeat", json_integer(m->merge ? repeat : m->repeat));
	o = json_pack("{s:O, s:O, s:O, s:O, s:O, s:O, s:O}", "packets",
		      json_object_get(set, "packets"), "reps", json_object_get(set, "reps"),
		      "count_reps", json_object_get(set, "count_reps"), "modes",
		      json_object_get(set, "modes"), "jobs", json_object_get(set, "jobs"),
		      "repeat", json_object_get(set, "repeat"), "seed",
		      json_object_get(set, "seed"));
	json_decref(set);
	return o;
}

json_t *matrix_json_from_cells(const struct matrix *m, char **cells, int n, json_t *kernels)
{
	json_t *j = json_object(), *es = json_array(), *hosts = json_array(), *first = NULL;
	json_t *ks = kernels ? json_incref(kernels) : json_array();
	int repeat = 1;

	for (int i = 0; i < n; i++) {
		char path[PATH_MAX * 2];
		json_t *c, *h;
		size_t hi;
		bool seen = false;

		snprintf(path, sizeof(path), "%s/%s/cell.json", m->dir, cells[i]);
		c = json_load_file(path, 0, NULL);
		if (!c)
			continue;
		if (!first)
			first = json_incref(c);
		json_array_append_new(es, cell_entry(m->dir, cells[i], c));
		json_array_foreach(hosts, hi, h)
			seen |= json_equal(h, json_object_get(c, "host"));
		if (!seen)
			json_array_append(hosts, json_object_get(c, "host"));
		if (json_integer_value(json_object_get(c, "boot")) > repeat)
			repeat = (int)json_integer_value(json_object_get(c, "boot"));
		if (!kernels) {
			json_t *k;
			size_t ki;
			bool have = false;

			json_array_foreach(ks, ki, k)
				have |= !strcmp(json_str_of(k, "spec", ""), json_str_of(c, "kernel_spec", ""));
			if (!have)
				json_array_append(ks, json_object_get(c, "kernel"));
		}
		json_decref(c);
	}
	json_object_set_new(j, "schema", json_string("xdptc.matrix/1"));
	{
		json_t *h = json_deep_copy(json_array_size(hosts) ? json_array_get(hosts, 0) : NULL);

		if (!h)
			h = host_json();
		json_object_set_new(h, "qemu", json_string(first ? json_str_of(first, "qemu", "") : ""));
		json_object_set_new(j, "host", h);
	}
	if (json_array_size(hosts) > 1) /* allowed: guest instructions do not depend on it */
		json_object_set(j, "hosts", hosts);
	json_object_set_new(j, "settings", matrix_settings_json(m, first, repeat));
	if (m->merge)
		json_object_set_new(j, "merged", json_pack("{s:i, s:s}", "cells", n, "xdptc",
							    first ? json_str_of(first, "xdptc", "") : ""));
	json_object_set_new(j, "kernels", ks);
	json_object_set_new(j, "entries", es);
	{
		double s = 0;
		const json_t *e;
		size_t i;

		json_array_foreach(es, i, e)
			s += json_num_of(e, "seconds");
		json_object_set_new(j, "elapsed_s", json_real(m->merge ? s : now_s() - m->t0));
	}
	json_decref(hosts);
	json_decref(first);
	return j;
}

/* ---- the merge ---- */

#define MERGE_MAX (MATRIX_MAX_KERNELS * MATRIX_MAX_EXPS * MATRIX_MAX_REPEAT)

/* The first key of the objects @a and @b whose values differ, or NULL. */
static const char *key_differs(const json_t *a, const json_t *b)
{
	const char *k;
	const json_t *v;

	json_object_foreach((json_t *)a, k, v)
		if (!json_equal(v, json_object_get(b, k)))
			return k;
	json_object_foreach((json_t *)b, k, v)
		if (!json_object_get(a, k))
			return k;
	return NULL;
}

/* A cell's matrix_judged_figures, for telling a duplicate's apart (NULL: none). A new reference. */
static json_t *cell_results(const char *dir, const json_t *cell)
{
	char path[PATH_MAX * 2], err[256];
	json_t *run = NULL, *r;

	if (!json_is_string(json_object_get(cell, "run_dir")))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", dir, json_str_of(cell, "run_dir", ""));
	if (report_load(path, &run, err, sizeof(err)))
		return NULL;
	r = matrix_judged_figures(run);
	json_decref(run);
	return r;
}

static void val_text(const json_t *v, char *buf, size_t len)
{
	char *s = v ? json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;

	snprintf(buf, len, "%s", s ? s : "none");
	free(s);
}

/* Every cell.json of m->merge into @given, each kernel named by its full version where
 * builds differ (matrix_split_builds). Returns 0, or 2 (said). */
static int merge_load(const struct matrix *m, json_t **given)
{
	if (m->nmerge > MERGE_MAX * 2) {
		fprintf(stderr, "xdptc matrix: --merge: more than %d cell directories\n", MERGE_MAX * 2);
		return 2;
	}
	for (int i = 0; i < m->nmerge; i++) {
		char path[PATH_MAX + 16];

		snprintf(path, sizeof(path), "%s/cell.json", m->merge[i]);
		given[i] = json_load_file(path, 0, NULL);
		if (!given[i] || strcmp(json_str_of(given[i], "schema", ""), MATRIX_CELL_SCHEMA)) {
			fprintf(stderr, "xdptc matrix: --merge: %s is no cell directory (no %s cell.json)\n",
				m->merge[i], MATRIX_CELL_SCHEMA);
			return 2;
		}
	}
	return matrix_split_builds(given, m->nmerge);
}

/* Do the cells @first and @c not belong together (another xdptc, another qemu, other
 * settings)? Said why on stderr. */
static bool merge_mixed(const json_t *first, const json_t *c)
{
	static const char *const same[] = { "xdptc", "qemu" };
	static const char *const what[] = { "xdptc versions", "qemu versions" };
	const char *k;
	char a[96], b[96];

	for (int s = 0; s < 2; s++)
		if (strcmp(json_str_of(c, same[s], ""), json_str_of(first, same[s], ""))) {
			fprintf(stderr, "xdptc matrix: --merge: the cells %s and %s come "
					"from different %s (%s; %s): their instructions "
					"are not comparable\n",
				json_str_of(first, "cell", ""), json_str_of(c, "cell", ""),
				what[s], json_str_of(first, same[s], ""),
				json_str_of(c, same[s], ""));
			return true;
		}
	k = key_differs(json_object_get(first, "settings"), json_object_get(c, "settings"));
	if (!k)
		return false;
	val_text(json_object_get(json_object_get(first, "settings"), k), a, sizeof(a));
	val_text(json_object_get(json_object_get(c, "settings"), k), b, sizeof(b));
	fprintf(stderr, "xdptc matrix: --merge: the cells %s and %s were run with "
			"different settings: %s %s and %s\n",
		json_str_of(first, "cell", ""), json_str_of(c, "cell", ""), k, a, b);
	return true;
}

/* The cell @c of directory @dir is the cell @had of @had_dir again (the same cell and
 * boot): 0 when their results are the same (taken once, said), else -1 (said). */
static int merge_dup(const json_t *had, const char *had_dir, const json_t *c, const char *dir)
{
	json_t *a = cell_results(had_dir, had), *b = cell_results(dir, c);
	bool same = a && b && json_equal(a, b);

	json_decref(a);
	json_decref(b);
	if (!same) {
		fprintf(stderr, "xdptc matrix: --merge: the cell %s (boot %lld) is given "
				"twice with different results (%s and %s)\n",
			json_str_of(c, "cell", ""),
			(long long)json_integer_value(json_object_get(c, "boot")), had_dir, dir);
		return -1;
	}
	fprintf(stderr, "xdptc matrix: --merge: %s is %s again, with the same results: "
			"taken once\n", dir, had_dir);
	return 0;
}

/* The rows of matrix.json @j for the cells that no directory of the merge holds: of
 * each kernel of @ks that was fetched, each icount experiment that some cell of @cell
 * (@n) measured (or of --experiments), unless the kernel leaves it out. */
static void merge_missing(const struct matrix *m, json_t *j, const json_t *ks,
			  json_t *const *cell, int n)
{
	const json_t *k;
	size_t ki;

	json_array_foreach(ks, ki, k) {
		struct matrix_kernel mk;

		if (strcmp(json_str_of(k, "status", ""), "ok"))
			continue;
		memset(&mk, 0, sizeof(mk));
		snprintf(mk.spec, sizeof(mk.spec), "%s", json_str_of(k, "spec", ""));
		for (int x = 0; x < matrix_nexps; x++) {
			const struct matrix_exp *e = &matrix_exps[x];
			bool have = false, any = m->experiments != NULL; /* else: what some cell
									  * measured */

			for (int i = 0; i < n && !any; i++)
				any = !strcmp(json_str_of(cell[i], "experiment", ""), e->name);
			if (e->engine != MATRIX_ICOUNT || !any || !matrix_exp_wanted(m, x) ||
			    matrix_exp_left_out(&mk, x))
				continue;
			for (int i = 0; i < n; i++)
				have |= !strcmp(json_str_of(cell[i], "kernel_spec", ""), mk.spec) &&
					!strcmp(json_str_of(cell[i], "experiment", ""), e->name);
			if (!have)
				json_array_append_new(json_object_get(j, "entries"),
						      json_pack("{s:s, s:s, s:s, s:s, s:s, s:s}", "kernel",
								mk.spec, "experiment", e->name, "status",
								"failed", "reason", "no cell of it was "
								"given to the merge", "topology",
								e->topology, "sender", e->sender));
		}
	}
}

/* The merge's OUT/<stamp>-matrix with its runs/, profiles/ and logs/ in m->dir.
 * Returns 0, or -1 (said why). */
static int merge_dirs(struct matrix *m)
{
	char stamp[32], sub[PATH_MAX + 16];
	time_t now = time(NULL);
	struct tm tm;

	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	snprintf(m->dir, sizeof(m->dir), "%s/%s-matrix", m->out_dir, stamp);
	if ((mkdir(m->out_dir, 0755) && errno != EEXIST) || mkdir(m->dir, 0755)) {
		fprintf(stderr, "xdptc matrix: cannot create %s: %s\n", m->dir, strerror(errno));
		return -1;
	}
	for (const char *s = "runs"; s; s = !strcmp(s, "runs") ? "profiles" : !strcmp(s, "profiles") ? "logs" : NULL) {
		snprintf(sub, sizeof(sub), "%s/%s", m->dir, s);
		mkdir(sub, 0755);
	}
	return 0;
}

/* The cell @c of directory @src copied into m->dir as runs/KERNEL-EXPERIMENT[-bootN],
 * that name into @rel (@len bytes), its cell.json as named here. Returns 0, or -1
 * (said). */
static int merge_copy(const struct matrix *m, const json_t *c, const char *src, char *rel,
		      size_t len)
{
	char cmd[PATH_MAX * 3];
	long long boot = json_integer_value(json_object_get(c, "boot"));

	snprintf(rel, len, "runs/%s-%s", json_str_of(c, "kernel_spec", ""),
		 json_str_of(c, "experiment", ""));
	if (boot > 1)
		snprintf(rel + strlen(rel), len - strlen(rel), "-boot%lld", boot);
	snprintf(cmd, sizeof(cmd), "cp -a '%s' '%s/%s'", src, m->dir, rel);
	if (system(cmd) || (snprintf(cmd, sizeof(cmd), "%s/%s/cell.json", m->dir, rel),
			    json_dump_file(c, cmd, JSON_INDENT(2)))) {
		fprintf(stderr, "xdptc matrix: --merge: cannot copy %s\n", src);
		return -1;
	}
	return 0;
}

int matrix_merge(struct matrix *m)
{
	static json_t *cell[MERGE_MAX], *given[MERGE_MAX * 2];
	static char *rel[MERGE_MAX];
	const char *src[MERGE_MAX];
	char sub[PATH_MAX + 16];
	int n = 0, failed = 0;
	json_t *j, *ks;

	if (merge_load(m, given))
		return 2;
	for (int i = 0; i < m->nmerge; i++) {
		json_t *c = given[i];
		int dup = -1;

		if (n && merge_mixed(cell[0], c))
			return 2;
		for (int d = 0; d < n; d++)
			if (!strcmp(json_str_of(cell[d], "cell", ""), json_str_of(c, "cell", "")) &&
			    json_integer_value(json_object_get(cell[d], "boot")) ==
				    json_integer_value(json_object_get(c, "boot")))
				dup = d;
		if (dup >= 0) {
			if (merge_dup(cell[dup], src[dup], c, m->merge[i]))
				return 2;
			json_decref(c);
			continue;
		}
		if (n == MERGE_MAX) {
			fprintf(stderr, "xdptc matrix: --merge: more than %d cells\n", MERGE_MAX);
			return 2;
		}
		src[n] = m->merge[i];
		cell[n++] = c;
	}
	if (merge_dirs(m))
		return 1;
	ks = json_array();
	for (int i = 0; i < n; i++) { /* each cell into runs/, as a local matrix keeps it */
		json_t *k;
		size_t ki;
		bool have = false;

		rel[i] = malloc(256);
		if (!rel[i] || merge_copy(m, cell[i], src[i], rel[i], 256))
			return 1;
		json_array_foreach(ks, ki, k)
			have |= !strcmp(json_str_of(k, "spec", ""), json_str_of(cell[i], "kernel_spec", ""));
		if (!have)
			json_array_append(ks, json_object_get(cell[i], "kernel"));
	}
	j = matrix_json_from_cells(m, rel, n, ks);
	merge_missing(m, j, ks, cell, n);
	{
		const json_t *e;
		size_t i;

		json_array_foreach(json_object_get(j, "entries"), i, e)
			failed += strcmp(json_str_of(e, "status", ""), "ok") != 0;
	}
	snprintf(sub, sizeof(sub), "%s/matrix.json", m->dir);
	if (json_dump_file(j, sub, JSON_INDENT(2)) || matrix_write_files(j, m->dir)) {
		fprintf(stderr, "xdptc matrix: cannot write in %s\n", m->dir);
		json_decref(j);
		return 1;
	}
	fprintf(stderr, "xdptc matrix: merged %d cell(s)%s into %s/ (matrix.json, matrix.md, "
			"plots, profiles)\n", n,
		json_array_size(json_object_get(j, "hosts")) > 1 ? " from different hosts" : "", m->dir);
	json_decref(j);
	json_decref(ks);
	for (int i = 0; i < n; i++) {
		json_decref(cell[i]);
		free(rel[i]);
	}
	return failed ? 1 : 0;
}
