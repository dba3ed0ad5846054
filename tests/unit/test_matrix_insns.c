/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The matrix's exact per-function tables (analysis/matrix_insns.h), from a committed
 * run.json: 6.12 veth-udp of results/examples/20261202T181100Z-matrix, whose modes keep
 * different functions in their 150 stored rows (tc has `__tcf_classify.constprop.0` and
 * `tcf_classify`, tcx has neither). Every figure a table prints must be the one run.json
 * stores for that mode (a function that mode did not keep is shown as a bound, never as
 * 0), and no difference larger than the table's smallest row may be left out. Run from
 * the repository root.
 */
#include <jansson.h>
#include <math.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "matrix.h"
#include "matrix_entry.h"
#include "matrix_insns.h"

#define RUN "results/examples/20261202T181100Z-matrix/runs/6.12-veth-udp/" \
	    "20261202T181126Z-veth-icount/run.json"
#define ROWS 12

static json_t *run_json(void)
{
	json_t *r = json_load_file(RUN, 0, NULL);

	assert_non_null(r);
	return r;
}

/* matrix.md's plugin sections for one entry made from @run. */
static char *render(const json_t *run)
{
	json_t *m = json_pack("{s:[o]}", "entries", matrix_entry_from_run("6.12", "veth-udp", run));
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	matrix_md_insns(m, f, ROWS);
	fclose(f);
	json_decref(m);
	return buf;
}

/* The retired figure of function @name in @run's profile of @mode; NAN when not kept. */
static double stored(const json_t *run, const char *mode, const char *name)
{
	const json_t *p = matrix_by_mode(json_object_get(run, "insn_profiles"), mode), *f;
	size_t i;

	json_array_foreach(json_object_get(p, "functions"), i, f)
		if (!strcmp(json_string_value(json_object_get(f, "name")), name))
			return json_number_value(json_object_get(f, "retired_per_pkt"));
	return NAN;
}

/* A printed cell against the stored figure @v: "%.1f" of it, or a bound when not kept. */
static void check_cell(const char *cell, double v, const char *what)
{
	char want[64];

	if (isnan(v)) {
		if (strncmp(cell, "≤ ", strlen("≤ ")))
			fail_msg("%s: not kept in run.json, printed as \"%s\" (not a bound)", what, cell);
		return;
	}
	snprintf(want, sizeof(want), "%.1f", v);
	if (strcmp(cell, want))
		fail_msg("%s: printed \"%s\", run.json stores %s", what, cell, want);
}

struct printed {
	char mode[32], name[128];
	double diff; /* the difference printed first (a bound's first end) */
};

/* Every row of each "MODE against tc" table: its cells checked against run.json; the
 * rows go to @p (at most @max), their number returned. */
static int check_rows(const json_t *run, char *md, struct printed *p, int max)
{
	char *save = NULL, mode[32] = "";
	int n = 0;

	for (char *l = strtok_r(md, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		char name[128], where[32], a[32], b[32], d[48], what[256];
		const char *h = strstr(l, " against tc");

		if (!strncmp(l, "### ", 4) && h) {
			const char *s = strrchr(l, ':');

			assert_non_null(s);
			snprintf(mode, sizeof(mode), "%.*s", (int)(h - s - 2), s + 2);
			continue;
		}
		if (strncmp(l, "| `", 3) || !*mode)
			continue;
		assert_int_equal(sscanf(l, "| `%127[^`]` | %31[^|]| %31[^|]| %31[^|]| %47[^|]|",
					name, where, a, b, d), 5);
		for (char *c = a + strlen(a); c > a && c[-1] == ' '; *--c = '\0')
			;
		for (char *c = b + strlen(b); c > b && c[-1] == ' '; *--c = '\0')
			;
		snprintf(what, sizeof(what), "%s against tc, `%s`, tc", mode, name);
		check_cell(a, stored(run, "tc", name), what);
		snprintf(what, sizeof(what), "%s against tc, `%s`, %s", mode, name, mode);
		check_cell(b, stored(run, mode, name), what);
		assert_true(n < max);
		snprintf(p[n].mode, sizeof(p[n].mode), "%s", mode);
		snprintf(p[n].name, sizeof(p[n].name), "%s", name);
		p[n++].diff = strtod(d, NULL);
	}
	return n;
}

static bool printed_in(const struct printed *p, int n, const char *mode, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(p[i].mode, mode) && !strcmp(p[i].name, name))
			return true;
	return false;
}

static void test_tables_hold_run_json(void **state)
{
	json_t *run = run_json();
	char *md = render(run);
	struct printed p[128];
	const json_t *prof;
	size_t i;
	int n = check_rows(run, md, p, 128);

	(void)state;
	assert_true(n > 3 && n <= 3 * ROWS); /* xdpdrv, xdpgeneric and tcx against tc */
	/* tc classifies through __tcf_classify (47 per packet) and tcf_classify (14); tcx
	 * does not keep either: both are among tcx's largest differences */
	assert_true(printed_in(p, n, "tcx", "__tcf_classify.constprop.0"));
	assert_true(printed_in(p, n, "tcx", "tcf_classify"));
	/* no function both modes kept, whose difference exceeds the table's last row by a
	 * whole instruction, is left out */
	json_array_foreach(json_object_get(run, "insn_profiles"), i, prof) {
		const char *mode = json_string_value(json_object_get(prof, "mode"));
		const json_t *f;
		double last = INFINITY;
		size_t k;

		if (!strcmp(mode, "tc"))
			continue;
		for (int j = 0; j < n; j++)
			if (!strcmp(p[j].mode, mode) && fabs(p[j].diff) < last)
				last = fabs(p[j].diff);
		json_array_foreach(json_object_get(prof, "functions"), k, f) {
			const char *name = json_string_value(json_object_get(f, "name"));
			double d = stored(run, mode, name) - stored(run, "tc", name);

			if (!isnan(d) && strcmp(name, "[other functions]") && fabs(d) > last + 1 &&
			    !printed_in(p, n, mode, name))
				fail_msg("%s against tc: `%s` differs by %+.1f, not printed (last row "
					 "%.1f)", mode, name, d, last);
		}
	}
	free(md);
	json_decref(run);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_tables_hold_run_json),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
