/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The committed examples say what this version computes, rendered again from the data
 * each keeps (results/examples/README.md, "What an example keeps"): every run directory
 * (results/examples/RUN, a matrix's runs/EXPERIMENT/RUN, a benchmark's runs/RUN) has its
 * run.json and folded stacks copied into a temporary directory and `xdptc report` run
 * there; every kernel matrix has its matrix.json and profiles/ copied and `xdptc matrix
 * --report` run; every repeatability benchmark has `xdptc repeatability --out` run on its
 * runs. A file both committed and made again must be the same: byte for byte, JSON by
 * value (a committed run.json is stored compact, xdptc writes it indented), so a change of
 * the summary, a report or a graph fails here until the examples are rendered again. A
 * file only made again must be made, not empty. A committed graph or plot must be one
 * that results/examples/README.md names, and a committed run.json or matrix.json must be
 * compact. Run from the repository root, after `make` (build/xdptc).
 */
#include <dirent.h>
#include <errno.h>
#include <glob.h>
#include <jansson.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "report.h"

#define EXAMPLES "results/examples"
#define XDPTC "build/xdptc"

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t cap = 0;

	*len = 0;
	if (!f)
		return NULL;
	for (;;) {
		size_t n;

		if (*len + 4096 + 1 > cap) {
			cap = 2 * cap + 8192;
			buf = realloc(buf, cap);
			assert_non_null(buf);
		}
		n = fread(buf + *len, 1, cap - *len - 1, f);
		if (!n)
			break;
		*len += n;
	}
	fclose(f);
	buf[*len] = '\0';
	return buf;
}

/* What one test found over the examples it rendered. */
struct tally {
	int rendered, compared, made, stale;
	char *readme; /* results/examples/README.md, which names the graphs kept */
};

static int sh(const char *fmt, ...)
{
	char cmd[4 * PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* The temporary directory a test renders in, removed after it, failed or not. */
static char made_in[PATH_MAX];

static int remove_made(void **state)
{
	(void)state;
	if (*made_in && sh("rm -rf '%s'", made_in))
		return -1;
	*made_in = '\0';
	return 0;
}

/* A fresh directory @base/out to render into; @base (PATH_MAX) is made here, the last
 * one made before removed. */
static void render_dir(char *base, char *out)
{
	assert_int_equal(remove_made(NULL), 0);
	snprintf(base, PATH_MAX, "/tmp/xdptc-examples-XXXXXX");
	assert_non_null(mkdtemp(base));
	snprintf(made_in, sizeof(made_in), "%s", base);
	snprintf(out, PATH_MAX, "%s/out", base);
	assert_int_equal(mkdir(out, 0755), 0);
}

/* Run @cmd (its output to @base/log); a failure prints the log and fails. */
static void render(const char *base, const char *cmd)
{
	if (sh("%s >'%s/log' 2>&1", cmd, base)) {
		sh("cat '%s/log'", base);
		fail_msg("failed: %s", cmd);
	}
}

/* Are the committed file @kept and the one made again, @made, the same (JSON files by
 * value, others byte for byte)? */
static bool same(const char *kept, const char *made)
{
	size_t la, lb;
	char *a = slurp(kept, &la), *b = slurp(made, &lb);
	bool eq = a && b && la == lb && !memcmp(a, b, la);

	if (!eq && a && b && strlen(kept) > 5 && !strcmp(kept + strlen(kept) - 5, ".json")) {
		json_t *ja = json_loads(a, 0, NULL), *jb = json_loads(b, 0, NULL);

		eq = ja && jb && json_equal(ja, jb);
		json_decref(ja);
		json_decref(jb);
	}
	free(a);
	free(b);
	return eq;
}

/* May @name (a file made again) be committed without README.md naming it? */
static bool kept_always(const char *name)
{
	static const char *const files[] = { "summary.md", "matrix.md", "run.json",
					     "matrix.json", "repeatability.json", NULL };

	for (int i = 0; files[i]; i++)
		if (!strcmp(name, files[i]))
			return true;
	return (strlen(name) > 7 && !strcmp(name + strlen(name) - 7, ".folded")) ||
	       (strlen(name) > 10 && !strcmp(name + strlen(name) - 10, ".folded.gz"));
}

/* Every file made under @made/@rel against the example @kept (EXAMPLES/@name): the same
 * where it is committed too, and then a data file, summary.md, matrix.md or a graph
 * README.md names; counted where it is not (the callers check what must be made). */
static void compare_tree(const char *made, const char *kept, const char *name,
			 const char *rel, struct tally *t)
{
	char dir[PATH_MAX], m[PATH_MAX + 256], k[PATH_MAX + 256], r[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s%s%s", made, *rel ? "/" : "", rel);
	d = opendir(dir);
	assert_non_null(d);
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(r, sizeof(r), "%s%s%s", rel, *rel ? "/" : "", de->d_name);
		snprintf(m, sizeof(m), "%s/%s", made, r);
		snprintf(k, sizeof(k), "%s/%s", kept, r);
		assert_int_equal(stat(m, &st), 0);
		if (S_ISDIR(st.st_mode)) {
			compare_tree(made, kept, name, r, t);
			continue;
		}
		if (!strcmp(de->d_name, "plots.log"))
			fail_msg("%s/%s: gnuplot failed (%s)", name, r, m);
		if (access(k, F_OK)) {
			t->made++; /* (a plot's data may be empty: a run with no delta) */
			continue;
		}
		if (!same(k, m)) {
			printf("# STALE %s: not what this version makes of the example's data\n", k);
			t->stale++;
		} else if (!kept_always(de->d_name)) {
			char cite[PATH_MAX + 256];

			snprintf(cite, sizeof(cite), "%s/%s", name, r);
			if (!strstr(t->readme, cite))
				fail_msg("%s is committed, but " EXAMPLES "/README.md does not name "
					 "it among the graphs kept (%s)", k, cite);
		}
		t->compared++;
	}
	closedir(d);
}

/* The gnuplot script @script was written in @dir, and every plot it names (set output
 * '...') was drawn. */
static void plots_drawn(const char *dir, const char *script)
{
	char pat[PATH_MAX + 16], line[512], path[PATH_MAX + 256];
	glob_t g;

	snprintf(pat, sizeof(pat), "%s/%s", dir, script);
	if (glob(pat, 0, NULL, &g))
		fail_msg("%s: not written", pat);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		FILE *f = fopen(g.gl_pathv[i], "r");
		struct stat st;

		assert_non_null(f);
		while (fgets(line, sizeof(line), f)) {
			char *q;

			if (strncmp(line, "set output '", 12) || !(q = strchr(line + 12, '\'')))
				continue;
			snprintf(path, sizeof(path), "%s/%.*s", dir, (int)(q - line - 12), line + 12);
			if (stat(path, &st) || !st.st_size)
				fail_msg("%s names %s, which was not drawn", g.gl_pathv[i], path);
		}
		fclose(f);
	}
	globfree(&g);
}

/* Is the committed JSON file @path stored compact (no line break but the last)? */
static void assert_compact(const char *path)
{
	size_t len;
	char *s = slurp(path, &len), *nl;

	assert_non_null(s);
	nl = memchr(s, '\n', len);
	if (nl && nl != s + len - 1)
		fail_msg("%s is indented: store it compact (python3 -m json.tool --compact "
			 "--no-ensure-ascii, results/examples/README.md)", path);
	free(s);
}

static void tally_start(struct tally *t)
{
	size_t len;

	memset(t, 0, sizeof(*t));
	t->readme = slurp(EXAMPLES "/README.md", &len);
	assert_non_null(t->readme);
}

static void tally_end(struct tally *t, const char *what)
{
	printf("# %d %s rendered again: %d files compared with the committed ones, %d made "
	       "that are not committed, %d stale\n", t->rendered, what, t->compared, t->made,
	       t->stale);
	free(t->readme);
	assert_int_equal(t->stale, 0);
}

/* @out gets a copy of what `xdptc report` reads of @rundir (a run.json's directory): its
 * run.json, which must be stored compact, and its folded stacks. */
static void run_copy(const char *rundir, const char *out)
{
	char path[PATH_MAX + 16];

	snprintf(path, sizeof(path), "%s/run.json", rundir);
	assert_compact(path);
	assert_int_equal(mkdir(out, 0755), 0);
	assert_int_equal(sh("cp '%s/run.json' '%s/' && for f in '%s'/*.folded; do "
			    "[ ! -e \"$f\" ] || cp \"$f\" '%s/'; done", rundir, out, rundir, out), 0);
}

/* What `xdptc report` made in @out of @rundir's copy: summary.md, a flame graph from
 * every folded stack kept, every plot of plots.gp; and the files @rundir commits too. */
static void run_check(const char *rundir, const char *out, struct tally *t)
{
	char path[PATH_MAX + 64];
	json_t *run, *fg;
	size_t i;

	snprintf(path, sizeof(path), "%s/run.json", rundir);
	run = json_load_file(path, 0, NULL);
	assert_non_null(run);
	json_array_foreach(json_object_get(run, "flamegraphs"), i, fg) {
		char folded[PATH_MAX + 64];

		snprintf(folded, sizeof(folded), "%s/%s", rundir,
			 json_string_value(json_object_get(fg, "folded")) ?: "");
		snprintf(path, sizeof(path), "%s/%s", out,
			 json_string_value(json_object_get(fg, "svg")) ?: "");
		if (json_is_string(json_object_get(fg, "folded")) && !access(folded, R_OK) &&
		    access(path, R_OK))
			fail_msg("%s: no flame graph drawn from %s", path, folded);
	}
	json_decref(run);
	snprintf(path, sizeof(path), "%s/summary.md", out);
	assert_int_equal(access(path, R_OK), 0);
	plots_drawn(out, "plots.gp");
	compare_tree(out, rundir, rundir + sizeof(EXAMPLES), "", t);
	t->rendered++;
}

/* Every committed run: at the top, in a matrix's runs/EXPERIMENT/ and a benchmark's
 * runs/, each copied to @base/N and rendered there, two at a time; and every top-level
 * run.json holds to the documented schema. */
static void test_runs_render(void **state)
{
	static const char *const runs[] = { EXAMPLES "/*/run.json", EXAMPLES "/*/runs/*/run.json",
					    EXAMPLES "/*/runs/*/*/run.json" };
	char base[PATH_MAX], out[PATH_MAX + 16], cmd[2 * PATH_MAX];
	glob_t g[3];
	struct tally t;
	int n = 0;

	(void)state;
	tally_start(&t);
	render_dir(base, out);
	for (size_t r = 0; r < 3; r++) {
		if (glob(runs[r], 0, NULL, &g[r]))
			g[r].gl_pathc = 0;
		for (size_t i = 0; i < g[r].gl_pathc; i++) {
			*strrchr(g[r].gl_pathv[i], '/') = '\0';
			snprintf(out, sizeof(out), "%s/out/%d", base, n++);
			run_copy(g[r].gl_pathv[i], out);
		}
	}
	snprintf(cmd, sizeof(cmd), "ls -d '%s'/out/*/ | xargs -P 2 -n 1 " XDPTC " report -q", base);
	render(base, cmd);
	n = 0;
	for (size_t r = 0; r < 3; r++) {
		for (size_t i = 0; i < g[r].gl_pathc; i++) {
			snprintf(out, sizeof(out), "%s/out/%d", base, n++);
			run_check(g[r].gl_pathv[i], out, &t);
		}
		if (g[r].gl_pathc)
			globfree(&g[r]);
	}
	tally_end(&t, "runs");
	assert_true(t.rendered >= 60);
	assert_int_equal(system("sh tests/validate-run-json.sh " EXAMPLES "/*/run.json "
				">/dev/null"), 0);
}

/* The differential flame graph of the matrix entry @en, if it has one, was drawn in
 * @out from the copy of the example @dir, and matrix.md links it; where @dir keeps its
 * folded stacks only compressed (a lean copy: profiles/NAME.folded.gz), it was not drawn,
 * and matrix.md names it without a link (results/examples/README.md). */
static void graph_drawn(const json_t *en, const char *dir, const char *out)
{
	const json_t *p = json_object_get(en, "profiles");
	const char *svg = json_string_value(json_object_get(json_object_get(p, "diff"), "svg"));
	const char *tc = json_string_value(json_object_get(json_object_get(json_object_get(
		p, "modes"), "tc"), "folded_file"));
	char path[PATH_MAX + 256], link[PATH_MAX];
	size_t len;
	char *md;

	if (!svg)
		return;
	snprintf(path, sizeof(path), "%s/matrix.md", out);
	md = slurp(path, &len);
	assert_non_null(md);
	snprintf(link, sizeof(link), "](%s)", svg);
	snprintf(path, sizeof(path), "%s/%s.gz", dir, tc ?: "?");
	if (access(path, R_OK)) { /* its stacks kept as they are: drawn and linked */
		snprintf(path, sizeof(path), "%s/%s", out, svg);
		if (access(path, R_OK) || !strstr(md, link))
			fail_msg("%s: not drawn, or not linked from matrix.md", path);
	} else if (!strstr(md, svg) || strstr(md, link)) {
		fail_msg("%s/matrix.md: %s, whose stacks are kept compressed, must be named "
			 "without a link", out, svg);
	}
	free(md);
}

/* The lines of the file @path (a folded stack per line), or -1. */
static long lines_in(const char *path)
{
	FILE *f = fopen(path, "r");
	long n = 0;
	int c;

	if (!f)
		return -1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* The unpacked folded stacks of tc and xdpdrv in the profiles @p of a matrix entry hold
 * as many stacks as matrix.json says they did (its modes' "stacks"), in @base/unpacked. */
static void stacks_counted(const json_t *p, const char *base)
{
	static const char *const modes[] = { "tc", "xdpdrv" };
	char path[PATH_MAX + 256];

	for (int i = 0; i < 2; i++) {
		const json_t *m = json_object_get(json_object_get(p, "modes"), modes[i]);
		double want = json_number_value(json_object_get(m, "stacks"));
		long n;

		snprintf(path, sizeof(path), "%s/unpacked/%s", base,
			 json_string_value(json_object_get(m, "folded_file")) ?: "?");
		n = lines_in(path);
		if (n < 1 || (double)n != want)
			fail_msg("%s: %ld stacks, where matrix.json says %.0f", path, n, want);
	}
}

/* Where the example @dir keeps folded stacks compressed, they hold the stacks matrix.json
 * counts, and `xdptc matrix --report` draws every differential flame graph from them once
 * they are unpacked, in @base/unpacked, beside those it keeps uncompressed (the pair a doc
 * links the graph of). */
static void stacks_gz_draw(const char *dir, const char *base)
{
	char cmd[3 * PATH_MAX], path[PATH_MAX + 64];
	json_t *m, *en;
	size_t k;
	glob_t g;

	snprintf(path, sizeof(path), "%s/profiles/*.folded.gz", dir);
	if (glob(path, 0, NULL, &g))
		return;
	globfree(&g);
	assert_int_equal(sh("mkdir -p '%s/unpacked/profiles' && cp '%s/matrix.json' '%s/unpacked/' "
			    "&& for f in '%s'/profiles/*.folded.gz; do gzip -dc \"$f\" > '%s/unpacked/"
			    "profiles/'\"$(basename \"$f\" .gz)\"; done && for f in '%s'/profiles/*.folded; "
			    "do [ ! -e \"$f\" ] || cp \"$f\" '%s/unpacked/profiles/'; done", base, dir,
			    base, dir, base, dir, base), 0);
	snprintf(cmd, sizeof(cmd), XDPTC " matrix --report '%s/unpacked'", base);
	render(base, cmd);
	snprintf(path, sizeof(path), "%s/matrix.json", dir);
	m = json_load_file(path, 0, NULL);
	assert_non_null(m);
	json_array_foreach(json_object_get(m, "entries"), k, en) {
		const char *svg = json_string_value(json_object_get(json_object_get(
			json_object_get(en, "profiles"), "diff"), "svg"));

		if (!svg)
			continue;
		stacks_counted(json_object_get(en, "profiles"), base);
		snprintf(path, sizeof(path), "%s/unpacked/%s", base, svg);
		if (access(path, R_OK))
			fail_msg("%s: not drawn from the unpacked stacks", path);
	}
	json_decref(m);
}

/* Every committed matrix: matrix.md, its delta plots and differential flame graphs made
 * again by `xdptc matrix --report` from a copy of matrix.json and profiles/. */
static void test_matrices_render(void **state)
{
	struct tally t;
	glob_t g;

	(void)state;
	tally_start(&t);
	assert_int_equal(glob(EXAMPLES "/*/matrix.json", 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char base[PATH_MAX], out[PATH_MAX], cmd[2 * PATH_MAX];
		char *dir = g.gl_pathv[i];
		json_t *m, *en;
		size_t k;

		assert_compact(dir); /* DIR/matrix.json, DIR below */
		m = json_load_file(dir, 0, NULL);
		assert_non_null(m);
		*strrchr(dir, '/') = '\0';
		render_dir(base, out);
		assert_int_equal(sh("cp '%s/matrix.json' '%s/' && mkdir '%s/profiles' && for f in "
				    "'%s'/profiles/*.folded '%s'/profiles/*.folded.gz; do [ ! -e \"$f\" ] "
				    "|| cp \"$f\" '%s/profiles/'; done", dir, out, out, dir, dir, out), 0);
		snprintf(cmd, sizeof(cmd), XDPTC " matrix --report '%s'", out);
		render(base, cmd);
		json_array_foreach(json_object_get(m, "entries"), k, en)
			graph_drawn(en, dir, out);
		json_decref(m);
		stacks_gz_draw(dir, base);
		plots_drawn(out, "matrix-delta.gp");
		compare_tree(out, dir, dir + sizeof(EXAMPLES), "", &t);
		t.rendered++;
	}
	globfree(&g);
	tally_end(&t, "matrices");
	assert_true(t.rendered >= 10);
}

/* Every committed repeatability benchmark: summary.md and repeatability.json made again
 * by `xdptc repeatability --out` from its runs, named as `make repeatability` named them. */
static void test_repeatability_renders(void **state)
{
	struct tally t;
	glob_t g;

	(void)state;
	tally_start(&t);
	assert_int_equal(glob(EXAMPLES "/*/repeatability.json", 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char base[PATH_MAX], out[PATH_MAX], cmd[3 * PATH_MAX];
		char *dir = g.gl_pathv[i];

		*strrchr(dir, '/') = '\0';
		render_dir(base, out);
		/* each run named as make repeatability names it: no trailing slash */
		snprintf(cmd, sizeof(cmd), XDPTC " repeatability --out '%s' $(ls -d '%s'/runs/*/ | "
			 "sed 's,/$,,')", out, dir);
		render(base, cmd);
		compare_tree(out, dir, dir + sizeof(EXAMPLES), "", &t);
		t.rendered++;
	}
	globfree(&g);
	tally_end(&t, "repeatability benchmarks");
	assert_true(t.rendered >= 1);
}

static json_t *example(const char *name)
{
	char dir[PATH_MAX], err[512];
	json_t *run;

	snprintf(dir, sizeof(dir), EXAMPLES "/%s", name);
	assert_int_equal(report_load(dir, &run, err, sizeof(err)), 0);
	return run;
}

/* compare keeps the context: the settings that differ are named (a udp and an xdp-live
 * run); runs of different topologies or engines are refused with a sentence, unless
 * --mixed. */
static void test_compare_context(void **state)
{
	json_t *udp = example("20261130T123910Z-veth"), *live = example("20261130T130115Z-veth");
	json_t *virtio = example("20261130T122519Z-virtio");
	json_t *icount = example("20261130T134828Z-veth-icount");
	char *out, why[512];
	size_t len;
	FILE *mem;

	(void)state;
	mem = open_memstream(&out, &len);
	assert_int_equal(report_compare(udp, "A", live, "B", false, mem, why, sizeof(why)), 0);
	fclose(mem);
	printf("%s", out);
	assert_non_null(strstr(out, "| sender (differs) | udp | xdp-live |"));
	assert_non_null(strstr(out, "21 pairs, real"));
	free(out);
	mem = open_memstream(&out, &len);
	assert_int_equal(report_compare(udp, "A", virtio, "B", false, mem, why, sizeof(why)),
			 -EINVAL);
	fclose(mem);
	free(out);
	printf("# veth and virtio: %s\n", why);
	assert_non_null(strstr(why, "differ in topology"));
	mem = open_memstream(&out, &len);
	assert_int_equal(report_compare(udp, "A", icount, "B", false, mem, why, sizeof(why)),
			 -EINVAL);
	fclose(mem);
	free(out);
	printf("# host and icount: %s\n", why);
	assert_non_null(strstr(why, "differ in engine"));
	mem = open_memstream(&out, &len);
	assert_true(report_compare(udp, "A", icount, "B", true, mem, why, sizeof(why)) != -EINVAL);
	fclose(mem);
	assert_non_null(strstr(out, "| engine (differs) | host | icount |"));
	free(out);
	json_decref(udp);
	json_decref(live);
	json_decref(virtio);
	json_decref(icount);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_teardown(test_runs_render, remove_made),
		cmocka_unit_test_teardown(test_matrices_render, remove_made),
		cmocka_unit_test_teardown(test_repeatability_renders, remove_made),
		cmocka_unit_test(test_compare_context),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
