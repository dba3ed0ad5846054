/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `xdptc matrix --merge` on cell directories made by the test from a committed run (the
 * 6.1 veth-udp cell of results/examples/20261202T033805Z-matrix), no root, no guest:
 * - a kernel is its full version: two cells of one kernel spec measured on different
 *   builds (6.18.15 and 6.18.20, as fetched on different days) become two rows, each
 *   named by its build, never one cell or one row;
 * - the same cell given twice is judged by the plugin's retired count: a copy whose
 *   every-iteration figures differ (page clearing moves them) is the same result, taken
 *   once; a copy whose retired delta differs is refused with one sentence (exit 2).
 * Run from the repository root, after `make` (./build/xdptc).
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#define RUN "results/examples/20261202T033805Z-matrix/runs/6.1-veth-udp/20261202T033829Z-veth-icount"
#define STAMP "20261202T033829Z-veth-icount"

static char tmp[64];

/* A cell directory @tmp/@name holding the committed run and a cell.json of kernel
 * spec @spec, Debian version @version, release @release. */
static void make_cell(const char *name, const char *spec, const char *version,
		      const char *release)
{
	char cmd[1024], path[512], cell[128];
	json_t *c;

	snprintf(cmd, sizeof(cmd), "mkdir -p %s/%s && cp -a " RUN " %s/%s/", tmp, name, tmp, name);
	assert_int_equal(system(cmd), 0);
	snprintf(cell, sizeof(cell), "%s:veth-udp", spec);
	c = json_pack("{s:s, s:s, s:s, s:s, s:i, s:{s:s, s:s, s:s, s:s, s:s, s:s, s:n, s:s, s:n}, "
		      "s:s, s:f, s:s, s:s, s:{s:s, s:s}, s:{s:i, s:i, s:i, s:s, s:i, s:s, s:i}, "
		      "s:n, s:s}",
		      "schema", "xdptc.cell/1", "cell", cell, "kernel_spec", spec,
		      "experiment", "veth-udp", "boot", 1, "kernel", "spec", spec, "package",
		      "linux-image-amd64", "version", version, "suite", "trixie-backports",
		      "release", release, "status", "ok", "reason", "modes", "tc,xdpgeneric,xdpdrv",
		      "tcx_reason", "status", "ok", "seconds", 60.0, "xdptc", "test", "qemu",
		      "QEMU emulator version 7.2.22", "host", "cpu_model", "test", "kernel_release",
		      "6.18", "settings", "packets", 10000, "reps", 6, "count_reps", 1, "modes",
		      "tc,tcx,xdpgeneric,xdpdrv", "seed", 1, "icount_fixed", "kaslr,aslr,rng",
		      "profile_packets", 20000, "reason", "run_dir", STAMP);
	assert_non_null(c);
	snprintf(path, sizeof(path), "%s/%s/cell.json", tmp, name);
	assert_int_equal(json_dump_file(c, path, JSON_INDENT(2)), 0);
	json_decref(c);
}

/* Run `xdptc matrix --merge --out @tmp/@out` on @cells; its stderr into @err. */
static int merge(const char *out, const char *cells, char *err, size_t len)
{
	char cmd[1024];
	FILE *p;
	size_t n;
	int st;

	snprintf(cmd, sizeof(cmd), "cd %s && %s/build/xdptc matrix --merge --out %s %s 2>&1",
		 tmp, getenv("PWD"), out, cells);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(err, 1, len - 1, p);
	err[n] = '\0';
	st = pclose(p);
	printf("# %s: exit %d\n%s", cells, WEXITSTATUS(st), err);
	return WEXITSTATUS(st);
}

/* @tmp/@out's one matrix.json. */
static json_t *merged(const char *out)
{
	char cmd[256], path[512] = "";
	FILE *p;
	json_t *j;

	snprintf(cmd, sizeof(cmd), "ls -d %s/%s/*-matrix/matrix.json", tmp, out);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(path, sizeof(path), p));
	pclose(p);
	path[strcspn(path, "\n")] = '\0';
	j = json_load_file(path, 0, NULL);
	assert_non_null(j);
	return j;
}

static void test_two_builds_of_one_series_are_two_rows(void **state)
{
	char err[4096], cmd[256];
	json_t *m, *e;
	size_t i;
	int rows = 0;

	(void)state;
	make_cell("a", "6.18", "6.18.15-1~bpo13+1", "6.18.15+deb13-amd64");
	make_cell("b", "6.18", "6.18.20-1~bpo13+1", "6.18.20+deb13-amd64");
	/* today's code took b for a again ("the same results: taken once"): one row */
	assert_int_equal(merge("two", "a b", err, sizeof(err)), 0);
	assert_null(strstr(err, "taken once"));
	assert_non_null(strstr(err, "different builds"));
	m = merged("two");
	assert_int_equal(json_array_size(json_object_get(m, "kernels")), 2);
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(
		m, "kernels"), 0), "spec")), "6.18.15-1~bpo13+1");
	assert_string_equal(json_string_value(json_object_get(json_array_get(json_object_get(
		m, "kernels"), 1), "spec")), "6.18.20-1~bpo13+1");
	json_array_foreach(json_object_get(m, "entries"), i, e) {
		assert_string_equal(json_string_value(json_object_get(e, "status")), "ok");
		rows++;
	}
	assert_int_equal(rows, 2);
	assert_string_not_equal(json_string_value(json_object_get(json_array_get(json_object_get(
		m, "entries"), 0), "kernel")), json_string_value(json_object_get(json_array_get(
		json_object_get(m, "entries"), 1), "kernel")));
	json_decref(m);
	/* matrix.md: a row per build in the experiment's table */
	snprintf(cmd, sizeof(cmd), "grep -q '^| 6.18.15-1~bpo13+1 (' %s/two/*-matrix/matrix.md && "
		 "grep -q '^| 6.18.20-1~bpo13+1 (' %s/two/*-matrix/matrix.md", tmp, tmp);
	assert_int_equal(system(cmd), 0);
}

/* Change the first delta of @metric in @dir's run.json by @by. */
static void nudge(const char *dir, const char *metric, double by)
{
	char path[512];
	json_t *r, *d;
	size_t i;

	snprintf(path, sizeof(path), "%s/%s/" STAMP "/run.json", tmp, dir);
	r = json_load_file(path, 0, NULL);
	assert_non_null(r);
	json_array_foreach(json_object_get(json_object_get(r, "summary"), "deltas"), i, d)
		if (!strcmp(json_string_value(json_object_get(d, "metric")), metric)) {
			json_object_set_new(d, "rel_delta", json_real(json_number_value(
				json_object_get(d, "rel_delta")) + by));
			break;
		}
	assert_true(i < json_array_size(json_object_get(json_object_get(r, "summary"), "deltas")));
	assert_int_equal(json_dump_file(r, path, JSON_INDENT(2)), 0);
	json_decref(r);
}

static void test_the_same_cell_twice_is_judged_by_retired(void **state)
{
	char err[4096];

	(void)state;
	make_cell("c", "6.1", "6.1.192-3", "6.1.0-57-amd64");
	make_cell("d", "6.1", "6.1.192-3", "6.1.0-57-amd64");
	/* the every-iteration figure moved (another page-clearing regime): the same result */
	nudge("d", "guest_instructions_per_pkt", 0.3);
	assert_int_equal(merge("once", "c d", err, sizeof(err)), 0);
	assert_non_null(strstr(err, "with the same results: taken once"));
	/* the retired figure moved: another result */
	nudge("d", "retired_instructions_per_pkt", 0.001);
	assert_int_equal(merge("no", "c d", err, sizeof(err)), 2);
	assert_non_null(strstr(err, "is given twice with different results"));
}

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/xdptc-merge-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmp);
	return system(cmd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_two_builds_of_one_series_are_two_rows),
		cmocka_unit_test(test_the_same_cell_twice_is_judged_by_retired),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
