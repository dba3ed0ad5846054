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
 * (--held-lock): with -j N up to N of them run side by side (docs/matrix.md measures what
 * that does to the deltas), while no host run can start beside them; the children
 * themselves are matrix_tasks.c's. A kernel that
 * cannot be fetched or booted is recorded with its reason and the matrix goes on.
 * Results: matrix.json, matrix.md, the delta plot (analysis/matrix.c).
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"
#include "cli_parse.h"
#include "cli_table.h"
#include "matrix.h"
#include "matrix_boots.h"
#include "matrix_experiments.h"
#include "matrix_table.h"
#include "report.h"
#include "run.h"
#include "run_json.h" /* machine_cpu_model */
#include "run_lock.h"
#include "run_signals.h"

#include "matrix_tasks.h"

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
			if (parse_count(optarg, RUN_PACKETS_MAX, &m->packets) ||
			    m->packets < RUN_PACKETS_MIN) {
				char what[96];

				snprintf(what, sizeof(what), "a packet count from %s, as `xdptc "
					 "run --packets`", cli_packets_range());
				return bad_value("--packets", optarg, what);
			}
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
