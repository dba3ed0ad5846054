/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The committed examples say what this version computes: for every run directory under
 * results/examples/, the summary stored in run.json equals the one summary_compute
 * makes from its trials now, and summary.md equals, byte for byte, what
 * summary_render_md writes from it (what `xdptc report DIR` would rewrite). An example
 * left stale by a change of the summary fails here until `xdptc report` re-renders it.
 * Likewise every committed kernel matrix: its matrix.md is what matrix_write_md writes
 * from its matrix.json (`xdptc matrix --report DIR`). And every committed flame graph is
 * what this version draws from its folded stacks, with run.json's entry of it as it
 * says (`xdptc report DIR`; a matrix's differential graphs: `xdptc matrix --report DIR`).
 * Run from the repository root.
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
#include <unistd.h>
#include <cmocka.h>

#include "flame_render.h"
#include "matrix.h"
#include "matrix_flame.h"
#include "report.h"
#include "summary.h"
#include "summary_md.h"

#define EXAMPLES "results/examples"

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

static void test_examples_are_current(void **state)
{
	DIR *d = opendir(EXAMPLES);
	struct dirent *de;
	int checked = 0, stale = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		char dir[PATH_MAX], path[PATH_MAX + 32], err[512], *md, *now;
		size_t mdlen, nowlen;
		json_t *run, *computed;
		FILE *mem;

		if (de->d_name[0] == '.')
			continue;
		snprintf(dir, sizeof(dir), EXAMPLES "/%s", de->d_name);
		snprintf(path, sizeof(path), "%s/run.json", dir);
		if (access(path, R_OK))
			continue; /* a sweep's directory */
		assert_int_equal(report_load(dir, &run, err, sizeof(err)), 0);
		computed = summary_compute(run);
		assert_non_null(computed);
		if (!json_equal(computed, json_object_get(run, "summary"))) {
			printf("# STALE %s: run.json's summary is not what this version computes "
			       "(xdptc report %s)\n", de->d_name, dir);
			stale++;
		}
		json_object_set_new(run, "summary", computed);
		snprintf(path, sizeof(path), "%s/summary.md", dir);
		md = slurp(path, &mdlen);
		mem = open_memstream(&now, &nowlen);
		assert_non_null(mem);
		assert_int_equal(summary_render_md(run, mem), 0);
		fclose(mem);
		if (!md || mdlen != nowlen || memcmp(md, now, mdlen)) {
			printf("# STALE %s: summary.md is not what this version renders "
			       "(xdptc report %s)\n", de->d_name, dir);
			stale++;
		}
		free(md);
		free(now);
		json_decref(run);
		checked++;
	}
	closedir(d);
	printf("# %d committed examples checked, %d stale\n", checked, stale);
	/* and each holds to the documented schema */
	assert_int_equal(system("sh tests/validate-run-json.sh " EXAMPLES "/*/run.json "
				">/dev/null"), 0);
	assert_true(checked >= 10);
	assert_int_equal(stale, 0);
}

/* Every committed matrix's matrix.md is what this version renders from its matrix.json */
static void test_matrix_examples_are_current(void **state)
{
	DIR *d = opendir(EXAMPLES);
	struct dirent *de;
	int checked = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		char path[PATH_MAX + 32], *md, *now;
		size_t mdlen, nowlen;
		json_error_t jerr;
		json_t *m;
		FILE *mem;

		snprintf(path, sizeof(path), EXAMPLES "/%s/matrix.json", de->d_name);
		if (de->d_name[0] == '.' || access(path, R_OK))
			continue;
		m = json_load_file(path, 0, &jerr);
		if (!m)
			fail_msg("%s: %s", path, jerr.text);
		snprintf(path, sizeof(path), EXAMPLES "/%s/matrix.md", de->d_name);
		md = slurp(path, &mdlen);
		mem = open_memstream(&now, &nowlen);
		assert_non_null(mem);
		assert_int_equal(matrix_write_md(m, mem), 0);
		fclose(mem);
		if (!md || mdlen != nowlen || memcmp(md, now, mdlen))
			fail_msg("%s is not what this version renders (xdptc matrix --report %s/%s)",
				 path, EXAMPLES, de->d_name);
		free(md);
		free(now);
		json_decref(m);
		checked++;
	}
	closedir(d);
	printf("# %d committed matrices checked\n", checked);
}

/* Is the file @path, byte for byte, what @mem holds (@len bytes)? */
static bool same_file(const char *path, const char *mem, size_t len)
{
	size_t flen;
	char *f = slurp(path, &flen);
	bool same = f && flen == len && !memcmp(f, mem, len);

	free(f);
	return same;
}

/* Every committed run's flame graphs (results/examples/RUN and a matrix's
 * runs/EXPERIMENT/RUN, where their folded stacks are kept) and every matrix's
 * differential graphs are what this version draws. */
static void test_flame_graphs_are_current(void **state)
{
	static const char *const runs[] = { EXAMPLES "/*/run.json", EXAMPLES "/*/runs/*/*/run.json" };
	int graphs = 0, diffs = 0, stale = 0;
	glob_t g;

	(void)state;
	for (size_t r = 0; r < 2; r++) {
		assert_int_equal(glob(runs[r], 0, NULL, &g), 0);
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char dir[PATH_MAX], path[PATH_MAX + 64];
			json_error_t jerr;
			json_t *run = json_load_file(g.gl_pathv[i], 0, &jerr), *fg;
			size_t k;

			if (!run)
				fail_msg("%s: %s", g.gl_pathv[i], jerr.text);
			snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(g.gl_pathv[i], '/') - g.gl_pathv[i]),
				 g.gl_pathv[i]);
			json_array_foreach(json_object_get(run, "flamegraphs"), k, fg) {
				json_t *now = json_deep_copy(fg);
				char *svg;
				size_t len;
				FILE *mem;
				int e;

				snprintf(path, sizeof(path), "%s/%s", dir,
					 json_string_value(json_object_get(fg, "folded")) ?: "");
				if (!json_is_string(json_object_get(fg, "folded")) || access(path, R_OK)) {
					json_decref(now);
					continue; /* kept without its folded stacks */
				}
				mem = open_memstream(&svg, &len);
				assert_non_null(mem);
				e = flame_render_entry(run, now, dir, mem);
				fclose(mem);
				assert_int_equal(e, 0);
				snprintf(path, sizeof(path), "%s/%s", dir,
					 json_string_value(json_object_get(fg, "svg")) ?: "");
				if (!same_file(path, svg, len) || !json_equal(now, fg)) {
					printf("# STALE %s (or its entry in run.json): xdptc report %s\n", path, dir);
					stale++;
				}
				free(svg);
				json_decref(now);
				graphs++;
			}
			json_decref(run);
		}
		globfree(&g);
	}
	assert_int_equal(glob(EXAMPLES "/*/matrix.json", 0, NULL, &g), 0);
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char dir[PATH_MAX], path[PATH_MAX + 64];
		json_error_t jerr;
		json_t *m = json_load_file(g.gl_pathv[i], 0, &jerr), *en;
		size_t k;

		if (!m)
			fail_msg("%s: %s", g.gl_pathv[i], jerr.text);
		snprintf(dir, sizeof(dir), "%.*s", (int)(strrchr(g.gl_pathv[i], '/') - g.gl_pathv[i]),
			 g.gl_pathv[i]);
		json_array_foreach(json_object_get(m, "entries"), k, en) {
			const json_t *p = json_object_get(en, "profiles");
			const char *name = json_string_value(json_object_get(json_object_get(p, "diff"), "svg"));
			char *svg;
			size_t len;
			FILE *mem;

			if (!name)
				continue;
			mem = open_memstream(&svg, &len);
			assert_non_null(mem);
			assert_int_equal(matrix_profile_svg(p, dir, mem), 0);
			fclose(mem);
			snprintf(path, sizeof(path), "%s/%s", dir, name);
			if (!same_file(path, svg, len)) {
				printf("# STALE %s: xdptc matrix --report %s\n", path, dir);
				stale++;
			}
			free(svg);
			diffs++;
		}
		json_decref(m);
	}
	globfree(&g);
	printf("# %d flame graphs of runs and %d differential ones checked, %d stale\n", graphs,
	       diffs, stale);
	assert_true(graphs >= 10 && diffs >= 10);
	assert_int_equal(stale, 0);
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
		cmocka_unit_test(test_examples_are_current),
		cmocka_unit_test(test_matrix_examples_are_current),
		cmocka_unit_test(test_flame_graphs_are_current),
		cmocka_unit_test(test_compare_context),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
