/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cmd_matrix.c: xdptc matrix, the same XDP-against-TC comparison on a list of Debian
 * guest kernels under the icount engine.
 *
 * Its options, the kernels they name (or one per series, from the virtio topology's
 * script), and the modes that only read what is written: --report, --table, --boots.
 * The measuring is run/matrix_run.c's: per kernel a fetch (topologies/virtio.sh kernel:
 * the private apt configuration of guest_kernel.sh, the initramfs), then one `xdptc run
 * --engine icount` per experiment (analysis/matrix_experiments.c), each a child process
 * with its own results directory under OUT/<stamp>-matrix/runs/ and its log under logs/.
 * The matrix holds the machine's run lock and hands it to its runs (--held-lock): with -j
 * N up to N of them run side by side (docs/matrix.md measures what that does to the
 * deltas), while no host run can start beside them (a matrix that may run the host
 * engine holds it alone, one of guests only shares it with icount runs and cells). A kernel that cannot be fetched or
 * booted is recorded with its reason and the matrix goes on. Results: matrix.json,
 * matrix.md, the delta plot (analysis/matrix.c).
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli.h"
#include "cli_parse.h"
#include "cli_table.h"
#include "matrix.h"
#include "matrix_boots.h"
#include "matrix_cell.h"
#include "matrix_drivers.h"
#include "matrix_experiments.h"
#include "matrix_flame.h"
#include "matrix_run.h"
#include "matrix_table.h"
#include "run_opts.h"
#include "topology.h"

/* The kernels to measure: @list, or one per series (virtio.sh kernel-defaults). */
static int matrix_kernels(struct matrix *m, const char *list)
{
	char buf[1024], cmd[PATH_MAX + 64];
	FILE *p;

	if (list) {
		snprintf(buf, sizeof(buf), "%s", list);
	} else {
		buf[0] = '\0';
		snprintf(cmd, sizeof(cmd), "sh '%s/%s' kernel-defaults", m->topodir,
			 topology_virtio.script);
		p = popen(cmd, "r");
		for (char line[64]; p && fgets(line, sizeof(line), p);) {
			line[strcspn(line, "\n")] = '\0';
			if (strlen(buf) + strlen(line) + 2 < sizeof(buf))
				snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%s%s",
					 buf[0] ? "," : "", line);
		}
		if (!p || pclose(p) || !buf[0]) {
			fprintf(stderr, "xdptc matrix: cannot list Debian's kernels (%s "
					"kernel-defaults failed)\n", topology_virtio.script);
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

/* DIR/matrix.json, an xdptc.matrix/1 file (its path into @path), or NULL: said why. */
static json_t *matrix_json_load(const char *dir, char *path, size_t len)
{
	json_error_t jerr;
	json_t *j;

	snprintf(path, len, "%s/matrix.json", dir);
	j = json_load_file(path, 0, &jerr);
	if (!j || strcmp(json_string_value(json_object_get(j, "schema")) ?: "", "xdptc.matrix/1")) {
		fprintf(stderr, "xdptc matrix: %s: %s\n", path, j ? "not an xdptc.matrix/1 file" : jerr.text);
		json_decref(j);
		return NULL;
	}
	return j;
}

/* --report DIR: matrix.md, the plots and the differential flame graphs again from
 * DIR/matrix.json and the folded profiles it names. */
static int matrix_report(const char *dir)
{
	char path[PATH_MAX + 32];
	json_t *j = matrix_json_load(dir, path, sizeof(path));
	int e;

	if (!j)
		return EXIT_USAGE;
	/* the differential flame graphs before matrix.md and index.html, which link them */
	e = matrix_redraw_profiles(j, dir) < 0;
	if (!e)
		e = matrix_write_files(j, dir);
	json_decref(j);
	return e;
}

/* --table DIR,DIR...: docs/results.md's table from those matrices' matrix.json; with @boots
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

/* --table-drivers DIR: the "Ask your driver" table of DIR/matrix.json to stdout.
 * Returns the exit status: 0, 1 when it has no NIC model's entry, 2 when unreadable. */
static int matrix_table_drivers(const char *dir)
{
	char path[PATH_MAX + 32];
	json_t *j = matrix_json_load(dir, path, sizeof(path));
	int e;

	if (!j)
		return EXIT_USAGE;
	if (!matrix_has_drivers(j)) {
		fprintf(stderr, "xdptc matrix: %s has no NIC model's entry (--nics)\n", path);
		e = 1;
	} else {
		e = matrix_write_drivers(j, stdout) ? 1 : 0;
	}
	json_decref(j);
	return e;
}

static const char *table_drivers; /* --table-drivers DIR (none: NULL) */

#define MATRIX_JOBS_MAX 100 /* --jobs: runs side by side */

enum { OPT_KERNELS = 256, OPT_COUNT_REPS, OPT_REPORT, OPT_REPEAT, OPT_SEED, OPT_TABLE, OPT_BOOTS,
       OPT_LIST, OPT_JSON, OPT_CELL, OPT_BOOT, OPT_MERGE, OPT_HELD, OPT_EXPS, OPT_PROFILE, OPT_NICS,
       OPT_TABLE_DRIVERS };

static struct cli_opt matrix_opts[] = { /* the experiments' words: matrix_words */
	{ "kernels", OPT_KERNELS, "LIST", "comma list of guest kernels, each a Debian version "
	  "prefix (6.1, 6.18, 7.3: the newest patch level in bookworm, trixie, their "
	  "backports or sid) or a full package version", "one per series available, newest "
	  "patch level", "KERNELS" },
	{ "modes", 'm', "LIST", "modes measured on every kernel (tcx is left out, and said so "
	  "before measuring, on kernels older than 6.6; the experiments that measure more "
	  "add theirs: EXPERIMENTS)", "tc,tcx,xdpgeneric,xdpdrv", "MODES" },
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
	{ "profile-packets", OPT_PROFILE, "N", "packets in each run's profile pass (its "
	  "sampled call paths; the exact counts are the plugin's)", "20k" },
	{ "experiments", OPT_EXPS, "LIST", "the experiments measured (a comma list of "
	  "EXPERIMENTS)", "every one but the NIC models' (--nics)", "EXPERIMENTS" },
	{ "nics", OPT_NICS, "LIST", "the driver matrix: also measure the nic topology with "
	  "each of these qemu NIC models as the DUT (a comma list of virtio-net, vmxnet3, e1000e, e1000, igb (under --qemu "
	  "backports), or all), "
	  "with xdpgeneric beside the modes; xdpdrv where the driver has native XDP",
	  "none (virtio-net only)", "NICS" },
	{ "list", OPT_LIST, NULL, "measure nothing: print the matrix's cells, one "
	  "KERNEL:EXPERIMENT per line (each kernel's experiments that it does not leave out), "
	  "for a job engine to fan out (docs/matrix.md, \"Across machines\")" },
	{ "json", OPT_JSON, NULL, "with --list: {\"cell\": [...]} on one line, for a GitHub "
	  "Actions strategy.matrix (fromJSON)" },
	{ "cell", OPT_CELL, "KERNEL:EXPERIMENT", "run one cell by itself into --out DIR (the "
	  "cell directory itself, new or empty): fetch its kernel into the cache, run its "
	  "experiment, write DIR/cell.json; with the same --modes, --packets, --reps, "
	  "--count-reps and --seed as the cells it will be merged with. Icount cells share "
	  "the run lock, so several may run side by side (GNU parallel -j)" },
	{ "boot", OPT_BOOT, "N", "with --cell: the cell's boot (1-5; as --repeat's)", "1" },
	{ "held-lock", OPT_HELD, "FD", "with --cell: the run lock, held already on this "
	  "inherited descriptor (what `xdptc matrix` hands its cells)" },
	{ "merge", OPT_MERGE, NULL, "measure nothing: build OUT/<stamp>-matrix (matrix.json, "
	  "matrix.md, plots, profiles) from the cell directories given as operands, made here "
	  "or on other machines; refused (exit 2) when they do not belong together (another "
	  "xdptc or qemu version, other settings, the same cell twice with other results)" },
	{ "report", OPT_REPORT, "DIR", "measure nothing: write the plots, the differential "
	  "flame graphs, DIR/matrix.md and its self-contained page DIR/index.html again from "
	  "DIR/matrix.json and DIR/profiles (no root needed)" },
	{ "boots", OPT_BOOTS, "DIR,DIR...", "measure nothing: print the \"Between boots\" "
	  "table of these matrices' entries, each kernel and experiment's boots in the order "
	  "given (matrices made with --repeat, or the same matrix made again; no root "
	  "needed)" },
	{ "table", OPT_TABLE, "DIR,DIR...", "measure nothing: print docs/results.md's table across "
	  "kernels from these matrices (xdpdrv and tcx against tc, percent; a kernel in "
	  "several: the last one's; no root needed)" },
	{ "table-drivers", OPT_TABLE_DRIVERS, "DIR", "measure nothing: print the \"Ask your "
	  "driver\" table of the driver matrix in DIR (as matrix.md has it; docs/engines.md's copy; "
	  "no root needed)" },
	{ NULL },
};

/* The word a row of matrix_exps answers to in --experiments (@nic false: an icount
 * row's name) or in --nics (@nic true: its NIC model), or NULL. */
static const char *row_word(int x, bool nic)
{
	if (nic)
		return matrix_exps[x].nic;
	return matrix_exps[x].engine == MATRIX_ICOUNT ? matrix_exps[x].name : NULL;
}

/* Is @list a comma list of rows' words (row_word; "all" too for --nics), none empty? */
static bool rows_known(const char *list, bool nic)
{
	if (nic && !strcmp(list, "all"))
		return true;
	for (const char *s = list; *s;) {
		size_t n = strcspn(s, ",");
		bool ok = false;

		for (int x = 0; x < matrix_nexps; x++) {
			const char *w = row_word(x, nic);

			ok |= w && strlen(w) == n && !strncmp(w, s, n);
		}
		if (!ok || !n)
			return false;
		s += n + (s[n] == ',');
	}
	return true;
}

/* The --nics @list that names a model with no row: said, with the models there are.
 * Returns the exit status. */
static int bad_nics(const char *list)
{
	char want[256] = "all, or a comma list of";

	for (int x = 0; x < matrix_nexps; x++)
		if (matrix_exps[x].nic)
			snprintf(want + strlen(want), sizeof(want) - strlen(want), " %s",
				 matrix_exps[x].nic);
	return bad_value("--nics", list, want);
}

/* The --experiments @list that names no icount experiment or an unknown one: said,
 * with the experiments there are. Returns the exit status. */
static int bad_experiments(const char *list)
{
	char w[256], want[300];

	snprintf(want, sizeof(want), "a comma list of %s", matrix_exp_words(w, sizeof(w), false));
	return bad_value("--experiments", list, want);
}

/* --reps ('r'), --count-reps or --jobs ('j') as @c, its value @arg into @m: the ranges
 * of `xdptc run`'s (run_opts.h) and MATRIX_JOBS_MAX. Returns 0, or -1 (said). */
static int parse_int_opt(struct matrix *m, int c, const char *arg)
{
	uint64_t v;

	if (parse_count(arg, c == 'r' ? RUN_REPS_MAX : c == 'j' ? MATRIX_JOBS_MAX
			: RUN_COUNT_REPS_MAX, &v) ||
	    v < (c == 'r' ? RUN_REPS_MIN : c == 'j' ? 1 : RUN_COUNT_REPS_MIN)) {
		bad_value(c == 'r' ? "--reps" : c == 'j' ? "--jobs" : "--count-reps", arg,
			  c == 'r' ? RUN_STR(RUN_REPS_MIN) "-" RUN_STR(RUN_REPS_MAX)
			  : c == 'j' ? "1-" RUN_STR(MATRIX_JOBS_MAX)
			  : RUN_STR(RUN_COUNT_REPS_MIN) "-" RUN_STR(RUN_COUNT_REPS_MAX));
		return -1;
	}
	*(c == 'r' ? &m->reps : c == 'j' ? &m->jobs : &m->count_reps) = (int)v;
	return 0;
}

static int matrix_parse_end(struct matrix *m, int argc, char **argv);

/* --profile-packets, --boot, --held-lock, --repeat or --seed as @c, its value @arg into
 * @m. Returns -1 to go on, or the exit status (said). */
static int parse_num_opt(struct matrix *m, int c, const char *arg)
{
	uint64_t v;

	switch (c) {
	case OPT_PROFILE:
		if (parse_count(arg, RUN_PACKETS_MAX, &v) || v < RUN_PACKETS_MIN)
			return bad_value("--profile-packets", arg, "a packet count");
		{
			static char pp[32];

			snprintf(pp, sizeof(pp), "%llu", (unsigned long long)v);
			m->profile_packets = pp;
		}
		return -1;
	case OPT_BOOT:
		if (parse_count(arg, MATRIX_MAX_REPEAT, &v) || v < 1)
			return bad_value("--boot", arg, "1-5");
		m->boot = (int)v;
		return -1;
	case OPT_HELD:
		if (parse_count(arg, 1 << 20, &v) || v <= 2)
			return bad_value("--held-lock", arg, "a file descriptor");
		m->held_lock = (int)v;
		return -1;
	case OPT_REPEAT:
		if (parse_count(arg, MATRIX_MAX_REPEAT, &v) || v < 1)
			return bad_value("--repeat", arg, "1-5");
		m->repeat = (int)v;
		return -1;
	case OPT_SEED:
		if (parse_count(arg, UINT64_MAX, &v))
			return bad_value("--seed", arg, "a number");
		m->seed = arg;
		return -1;
	}
	return -1;
}

/* Parse the options into @m. Returns -1 to go on, or the exit status. */
static int matrix_parse(struct matrix *m, int argc, char **argv)
{
	enum drop_mode modes[RUN_MAX_MODES];
	int c, e;

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
			if (parse_int_opt(m, c, optarg))
				return EXIT_USAGE;
			break;
		case 'o': m->out_dir = optarg; m->out_dir_set = true; break;
		case OPT_REPORT: m->report = optarg; break;
		case OPT_TABLE: m->table = optarg; break;
		case OPT_TABLE_DRIVERS: table_drivers = optarg; break;
		case OPT_BOOTS: m->boots = optarg; break;
		case OPT_LIST: m->list = true; break;
		case OPT_JSON: m->list_json = true; break;
		case OPT_CELL: m->cell = optarg; break;
		case OPT_MERGE: m->nmerge = -1; break;
		case OPT_EXPS:
			if (!rows_known(optarg, false))
				return bad_experiments(optarg);
			m->experiments = optarg;
			break;
		case OPT_NICS:
			if (!rows_known(optarg, true))
				return bad_nics(optarg);
			m->nics = optarg;
			break;
		case OPT_PROFILE:
		case OPT_BOOT:
		case OPT_HELD:
		case OPT_REPEAT:
		case OPT_SEED:
			if ((e = parse_num_opt(m, c, optarg)) >= 0)
				return e;
			break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	return matrix_parse_end(m, argc, argv);
}

/* The options of @m that relate to each other and the operands (@argc, @argv from
 * optind on), once every option is read. Returns -1 to go on, or the exit status. */
static int matrix_parse_end(struct matrix *m, int argc, char **argv)
{
	if (m->nmerge) {
		if (optind == argc)
			return need_opt("matrix --merge", "the cell directories (DIR...)");
		m->merge = argv + optind;
		m->nmerge = argc - optind;
		return -1;
	}
	if (optind != argc)
		return bad_value("matrix", argv[optind], "options only");
	if ((m->boot || m->held_lock) && !m->cell)
		return bad_value(m->boot ? "--boot" : "--held-lock", "", "--cell with it");
	if (m->list_json && !m->list)
		return bad_value("--json", "", "--list with it");
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
	int e;

	memset(&m, 0, sizeof(m));
	table_drivers = NULL;
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
	if (table_drivers)
		return matrix_table_drivers(table_drivers);
	if (m.table || m.boots)
		return matrix_table(m.table ? m.table : m.boots, !m.table);
	default_topologies_dir(topodir, sizeof(topodir));
	m.topodir = topodir;
	if (m.merge)
		return matrix_merge(&m);
	if (m.list) { /* the kernels resolved as a matrix would: no root, no lock */
		e = matrix_kernels(&m, m.kernels);
		return e >= 0 ? e : matrix_list(&m);
	}
	if (check_privilege())
		return 1;
	if (!realpath("/proc/self/exe", m.self))
		return 1;
	if (m.cell) {
		if (!m.out_dir_set)
			return need_opt("matrix --cell", "--out DIR (the cell's directory)");
		return matrix_cell_main(&m);
	}
	e = matrix_kernels(&m, m.kernels);
	return e >= 0 ? e : matrix_run(&m);
}

static char matrix_about[2048];

/* The words that name the experiments (--help, the manual, the docs' tables), from their
 * table (analysis/matrix_experiments.c), before anything reads the option table. */
__attribute__((constructor)) static void matrix_words(void)
{
	static char exps[160], exp_help[256], modes_help[512];
	char titled[640], more[160] = "";

	matrix_exp_words(exps, sizeof(exps), false);
	matrix_exp_words(titled, sizeof(titled), true);
	for (int x = 0; x < matrix_nexps; x++)
		if (matrix_exps[x].engine == MATRIX_ICOUNT && matrix_exps[x].modes_more)
			snprintf(more + strlen(more), sizeof(more) - strlen(more), "%s%s adds %s",
				 *more ? ", " : "", matrix_exps[x].name,
				 matrix_exps[x].modes_more + (*matrix_exps[x].modes_more == ','));
	snprintf(matrix_about, sizeof(matrix_about),
		 "Fetch each guest kernel (Debian's package, through a private apt "
		 "configuration in the cache: the host's apt sources are never changed, nothing "
		 "is installed) and run the icount engine's experiments on it: %s. "
		 "Writes OUT/<UTC timestamp>-matrix/matrix.json (an entry per kernel and "
		 "experiment, with the per-mode summaries of its run), matrix.md (kernels as "
		 "rows) and matrix-delta.svg/.png (the xdpdrv-vs-tc delta against the kernel); "
		 "each run keeps its directory under runs/, its log under logs/. When a guest "
		 "kernel is of the host's own series, the host engine's veth runs follow, one at "
		 "a time at their own defaults, beside the guest's in matrix.md. A kernel that "
		 "cannot be fetched or booted is recorded with its reason and the others go on "
		 "(exit status 1 at the end).\nEach experiment's boot is a cell (KERNEL:EXPERIMENT) "
		 "that also runs by itself (--cell), anywhere, and --merge builds the same matrix "
		 "from cell directories made on many machines; --list prints the cells for a job "
		 "engine (docs/matrix.md, \"Across machines\").", titled);
	for (struct cli_opt *x = matrix_opts; x->name; x++) {
		char *buf = !strcmp(x->name, "experiments") ? exp_help
			    : !strcmp(x->name, "modes")     ? modes_help
							    : NULL;
		const char *at = buf ? strstr(x->help, "EXPERIMENTS") : NULL;

		if (!at)
			continue;
		snprintf(buf, buf == exp_help ? sizeof(exp_help) : sizeof(modes_help), "%.*s%s%s",
			 (int)(at - x->help), x->help, buf == exp_help ? exps : more,
			 at + strlen("EXPERIMENTS"));
		x->help = buf;
	}
}

const struct cli_command cli_cmd_matrix = {
	.name = "matrix",
	.fn = cmd_matrix,
	.brief = "XDP against TC on a list of Debian guest kernels (icount engine)",
	.about = matrix_about,
	.opts = matrix_opts,
};
