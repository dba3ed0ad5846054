/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The pages a person reads, in a real browser: a committed run and a committed matrix are
 * rendered into a temporary directory from the data they keep (`xdptc report`, `xdptc
 * matrix --report`, as test_examples does), and Debian's chromium, headless, opens each
 * index.html and prints its DOM (`--dump-dom`). Checked: chromium's console shows no
 * script or load error; the page loads nothing (no src attribute, no <script>, <link>,
 * <iframe> or <img>: its plots are inline SVG, one per plot drawn); every link resolves
 * (a relative file that `report` wrote beside the page, or an id of the page itself) and
 * none leaves the directory or names a scheme (no network); the headline says the delta,
 * interval and verdict of run.json (to the digits it prints), and one cell of a table says
 * run.json's (the run) or matrix.json's (the matrix) figure. Needs no root (as root,
 * chromium's sandbox is off); chromium comes with `make deps`. Run from the repository
 * root, after `make` (build/xdptc).
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
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

#define XDPTC "build/xdptc"
/* README.md's run (udp sender, alternating timing pass, two flame graphs) */
#define RUN_DIR "results/examples/20261202T003258Z-veth"
/* a matrix of five kernels with differential flame graphs */
#define MATRIX_DIR "results/examples/20261201T210011Z-matrix"
#define MATRIX_KERNEL "6.1"
#define MATRIX_EXP "veth-udp"
/* matrix.md's tables show retired instructions where the plugin counted them (its
 * header: "the experiments' instructions and deltas are retired") */
#define MATRIX_METRIC "retired_instructions_per_pkt"

static char tmp[64];
static char dom[1 << 22], con[1 << 16];

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/xdptc-pages-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd);
}

static int sh(const char *fmt, ...)
{
	char cmd[4 * PATH_MAX];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	return system(cmd);
}

/* Chromium's DOM of @page into dom, its console log into con; its exit status 0. */
static void chromium(const char *page)
{
	char cmd[1024], path[96];
	size_t n;
	FILE *f;

	if (system("command -v chromium >/dev/null 2>&1"))
		fail_msg("chromium is not installed (Debian's chromium; `sudo make deps` installs it)");
	snprintf(path, sizeof(path), "%s/console.log", tmp);
	snprintf(cmd, sizeof(cmd), "timeout 60 chromium --headless %s--disable-gpu "
		 "--no-first-run --user-data-dir=%s/profile --enable-logging=stderr --v=0 "
		 "--dump-dom 'file://%s' 2>%s", geteuid() ? "" : "--no-sandbox ", tmp, page, path);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(dom, 1, sizeof(dom) - 1, f);
	dom[n] = '\0';
	assert_int_equal(pclose(f), 0);
	f = fopen(path, "r");
	n = f ? fread(con, 1, sizeof(con) - 1, f) : 0;
	con[n] = '\0';
	if (f)
		fclose(f);
	assert_true(n < sizeof(con) - 1);
}

/* No script or load error in the console (a page without a script logs nothing there:
 * a CONSOLE line is chromium's own complaint, as "Not allowed to load local resource"),
 * no resource that failed (net::ERR_...); the page loads no file of any kind. */
static void no_errors(void)
{
	static const char *const loads[] = { " src=", "<script", "<link", "<iframe", "<img",
					     "@import", NULL };

	if (strstr(con, "CONSOLE") || strstr(con, "net::ERR_") || strstr(con, "Uncaught"))
		fail_msg("chromium's console: %s", con);
	for (int i = 0; loads[i]; i++)
		if (strstr(dom, loads[i]))
			fail_msg("the page loads something: %.120s", strstr(dom, loads[i]));
	assert_non_null(strstr(dom, "</main>")); /* the whole page was read */
}

/* Every href of the page resolves: "#ID" to an id of the page, anything else to a file
 * in @dir, by a relative path that names no scheme and does not leave @dir. Returns how
 * many links lead to files. */
static int links_resolve(const char *dir)
{
	char target[PATH_MAX], path[2 * PATH_MAX], id[PATH_MAX + 8];
	int files = 0, ids = 0;

	for (const char *p = dom; (p = strstr(p, "href=\"")); p++) {
		const char *v = p + 6, *e = strchr(v, '"');

		assert_non_null(e);
		snprintf(target, sizeof(target), "%.*s", (int)(e - v), v);
		if (target[0] == '#') {
			snprintf(id, sizeof(id), "id=\"%s\"", target + 1);
			if (!strstr(dom, id))
				fail_msg("the link %s names no id of the page", target);
			ids++;
			continue;
		}
		if (strchr(target, ':') || target[0] == '/' || strstr(target, ".."))
			fail_msg("the link %s leaves the run's directory", target);
		snprintf(path, sizeof(path), "%s/%s", dir, target);
		if (access(path, R_OK))
			fail_msg("the link %s does not resolve (%s)", target, path);
		files++;
	}
	printf("# %s/index.html: %d links to files beside it and %d to ids of the page, all "
	       "resolved\n", dir, files, ids);
	return files;
}

/* The text of the element that starts at @p (its tags dropped, &amp; &lt; &gt; undone),
 * up to @end_tag, into @buf. */
static void text_of(const char *p, const char *end_tag, char *buf, size_t len)
{
	const char *e = strstr(p, end_tag);
	size_t n = 0;
	bool tag = false;

	assert_non_null(e);
	for (; p < e && n + 1 < len; p++) {
		if (*p == '<' || *p == '>') {
			tag = *p == '<';
			continue;
		}
		if (tag)
			continue;
		if (*p == '&') {
			const char *semi = strchr(p, ';');

			buf[n++] = !strncmp(p, "&lt;", 4) ? '<' : !strncmp(p, "&gt;", 4) ? '>' : '&';
			p = semi && semi < e ? semi : p;
			continue;
		}
		buf[n++] = *p;
	}
	buf[n] = '\0';
}

/* Does the percentage printed at @s (a sign, digits, maybe decimals, "%") equal @frac as
 * a fraction, to the digits printed? */
static bool pct_is(const char *s, double frac)
{
	const char *dot = strchr(s, '.'), *pc = strchr(s, '%');
	int dec = dot && pc && dot < pc ? (int)(pc - dot - 1) : 0;

	assert_non_null(pc);
	return fabs(strtod(s, NULL) - 100 * frac) <= 0.5 * pow(10, -dec) + 1e-9;
}

/* "D% ... [L%, H%]" at @s against @d's rel_delta, ci95_lo and ci95_hi. */
static void delta_is(const char *s, const json_t *d)
{
	const char *lb = strchr(s, '[');

	assert_non_null(lb);
	if (!pct_is(s, json_number_value(json_object_get(d, "rel_delta"))) ||
	    !pct_is(lb + 1, json_number_value(json_object_get(d, "ci95_lo"))) ||
	    !pct_is(strstr(lb, ", ") + 2, json_number_value(json_object_get(d, "ci95_hi"))))
		fail_msg("\"%s\" is not %g [%g, %g]", s,
			 json_number_value(json_object_get(d, "rel_delta")),
			 json_number_value(json_object_get(d, "ci95_lo")),
			 json_number_value(json_object_get(d, "ci95_hi")));
}

/* The delta of @b against @a in @metric among @deltas. */
static const json_t *delta_of(const json_t *deltas, const char *metric, const char *a,
			      const char *b)
{
	const json_t *d;
	size_t i;

	json_array_foreach(deltas, i, d)
		if (!strcmp(json_string_value(json_object_get(d, "metric")) ?: "", metric) &&
		    !strcmp(json_string_value(json_object_get(d, "a")) ?: "", a) &&
		    !strcmp(json_string_value(json_object_get(d, "b")) ?: "", b))
			return d;
	fail_msg("no delta of %s against %s in %s", b, a, metric);
	return NULL;
}

/* The text of cell @col (0: the first) of the first table row after @from whose first
 * cell is @row (with @prefix: starts with it), into @buf. */
static void cell(const char *from, const char *row, bool prefix, int col, char *buf,
		 size_t len)
{
	char first[256];

	for (const char *tr = from; (tr = strstr(tr, "<tr>")); tr++) {
		const char *td = strstr(tr, "<td");

		if (!td || td > strstr(tr, "</tr>"))
			continue;
		text_of(td, "</td>", first, sizeof(first));
		if (prefix ? strncmp(first, row, strlen(row)) : strcmp(first, row))
			continue;
		for (int c = 0; c < col; c++) {
			td = strstr(td + 1, "<td");
			assert_non_null(td);
		}
		text_of(td, "</td>", buf, len);
		return;
	}
	fail_msg("no table row %s", row);
}

/* The column named @name in the first table head after @from (0: the first). */
static int column(const char *from, const char *name)
{
	const char *th = strstr(from, "<thead>"), *end = th ? strstr(th, "</thead>") : NULL;
	char text[256];

	assert_non_null(end);
	for (int c = 0; (th = strstr(th + 1, "<th")) && th < end; c++) {
		text_of(th, "</th>", text, sizeof(text));
		if (!strcmp(text, name))
			return c;
	}
	fail_msg("no column %s", name);
	return -1;
}

/* A run's page: no error, every link resolves (the flame graphs), the plots inline, the
 * headline and the deltas table's cell are run.json's. */
static void test_run_page(void **state)
{
	char dir[128], page[160], head[1024], text[256];
	const char *p;
	json_t *run;
	const json_t *d;
	int svgs = 0;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/run", tmp);
	assert_int_equal(sh("mkdir '%s' && cp " RUN_DIR "/run.json " RUN_DIR "/*.folded '%s/' && "
			    XDPTC " report -q '%s' 2>'%s/report.log'", dir, dir, dir, tmp), 0);
	snprintf(page, sizeof(page), "%s/index.html", dir);
	chromium(page);
	no_errors();
	assert_true(links_resolve(dir) >= 2); /* flame-tc.svg, flame-xdpdrv.svg */
	for (p = dom; (p = strstr(p, "<figure")); p++)
		svgs += !!strstr(p, "<svg");
	assert_int_equal(svgs, 3); /* the time metric, delta and counters plots */
	run = json_load_file(RUN_DIR "/run.json", 0, NULL);
	assert_non_null(run);
	d = delta_of(json_object_get(json_object_get(run, "summary"), "deltas"),
		     json_string_value(json_object_get(run, "time_metric")), "tc", "xdpdrv");
	p = strstr(dom, "id=\"headline\"");
	assert_non_null(p);
	text_of(strchr(p, '>') + 1, "</p>", head, sizeof(head));
	printf("# headline: %s\n", head);
	assert_true(!strncmp(head, "xdpdrv vs tc: ", 14));
	delta_is(head + 14, d);
	assert_non_null(strstr(head, json_is_true(json_object_get(d, "real")) ? "], real" :
			       "], not"));
	cell(dom, json_string_value(json_object_get(run, "time_metric")), false, 3, text,
	     sizeof(text));
	printf("# deltas table, xdpdrv against tc: %s; run.json: %+.4f%%\n", text,
	       100 * json_number_value(json_object_get(d, "rel_delta")));
	assert_true(pct_is(text, json_number_value(json_object_get(d, "rel_delta"))));
	assert_non_null(strstr(dom, json_string_value(json_object_get(json_object_get(run,
		"machine"), "kernel_release")))); /* the machine and kernel's table */
	json_decref(run);
}

/* A matrix's page: no error, every link resolves (the differential flame graphs), the
 * title counts matrix.json's kernels, and one kernel's cell is its entry's delta. */
static void test_matrix_page(void **state)
{
	char dir[128], page[160], title[256], text[256], row[64], want[64];
	const json_t *en, *d = NULL;
	json_t *m;
	const char *p;
	size_t i;

	(void)state;
	snprintf(dir, sizeof(dir), "%s/matrix", tmp);
	assert_int_equal(sh("mkdir -p '%s/profiles' && cp " MATRIX_DIR "/matrix.json '%s/' && "
			    "cp " MATRIX_DIR "/profiles/*.folded '%s/profiles/' && " XDPTC
			    " matrix --report '%s' 2>'%s/matrix.log'", dir, dir, dir, dir, tmp), 0);
	snprintf(page, sizeof(page), "%s/index.html", dir);
	chromium(page);
	no_errors();
	assert_true(links_resolve(dir) >= 1);
	m = json_load_file(MATRIX_DIR "/matrix.json", 0, NULL);
	assert_non_null(m);
	p = strstr(dom, "id=\"title\"");
	assert_non_null(p);
	text_of(strchr(p, '>') + 1, "</h1>", title, sizeof(title));
	snprintf(want, sizeof(want), "on %zu guest kernels",
		 json_array_size(json_object_get(m, "kernels")));
	printf("# title: %s\n", title);
	assert_non_null(strstr(title, want));
	json_array_foreach(json_object_get(m, "entries"), i, en)
		if (!strcmp(json_string_value(json_object_get(en, "kernel")), MATRIX_KERNEL) &&
		    !strcmp(json_string_value(json_object_get(en, "experiment")), MATRIX_EXP))
			d = delta_of(json_object_get(en, "deltas"), MATRIX_METRIC, "tc", "xdpdrv");
	assert_non_null(d);
	p = strstr(dom, "<h2>" MATRIX_EXP "</h2>");
	assert_non_null(p);
	snprintf(row, sizeof(row), "%s (", MATRIX_KERNEL);
	cell(p, row, true, column(p, "xdpdrv vs tc"), text, sizeof(text));
	printf("# %s, %s, xdpdrv vs tc: %s\n", MATRIX_KERNEL, MATRIX_EXP, text);
	delta_is(text, d);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_page),
		cmocka_unit_test(test_matrix_page),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
