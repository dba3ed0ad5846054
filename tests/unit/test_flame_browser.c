/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The flame graphs' script in a real browser: Debian's chromium, headless, loads a small
 * page written here that holds a committed example's flame graph in an iframe, drives the
 * graph as a reader would (the Search control with a regular expression given to its
 * prompt, a click on a frame, a click on "Reset zoom") and writes what the graph's DOM
 * says into its own, which `chromium --dump-dom` prints. Checked: the share the search
 * prints against the one computed here from the example's folded stacks (a match inside
 * another counted once; in a differential graph, the share of the difference from both
 * sides' folded stacks and scales in matrix.json), the zoom (the clicked frame spans the
 * graph, a frame outside it is hidden, a child is scaled as much) and its reset, and that
 * the page reported no script error (chromium's console log on stderr). Needs no root
 * (as root, chromium's sandbox is off); chromium comes with `make deps`.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <regex.h>
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

/* README.md's run and one of its matrices: a graph of each kind */
#define RUN_DIR "results/examples/20261202T003258Z-veth"
#define MATRIX_DIR "results/examples/20261201T210011Z-matrix"
#define MATRIX_ENTRY_KERNEL "6.1"
#define MATRIX_ENTRY_EXP "veth-udp"
/* known functions of the UDP sender's path: one frame per stack, and one that matches
 * frames nested in each other (udp_send_skb, ip_send_skb, kfree_skb, ...) */
#define SEARCH_ONE "^udp_sendmsg$"
#define SEARCH_NESTED "skb"

static char tmp[64];

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/xdptc-browser-XXXXXX");
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return system(cmd);
}

/* The samples of the folded stacks in @path, and of those with a frame (the process
 * included) that @re matches, each count times @scale; stacks of @skip left out. */
static void folded_share(const char *path, const char *re, double scale, const char *skip,
			 double *all, double *matched)
{
	char line[16384];
	regex_t rx;
	FILE *f = fopen(path, "r");

	assert_non_null(f);
	assert_int_equal(regcomp(&rx, re, REG_EXTENDED | REG_NOSUB), 0);
	*all = *matched = 0;
	while (fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' '), *save = NULL;
		double c;
		bool hit = false;

		if (!sp)
			continue;
		c = strtod(sp + 1, NULL) * scale;
		*sp = '\0';
		if (skip && !strncmp(line, skip, strlen(skip)) && line[strlen(skip)] == ';')
			continue;
		*all += c;
		for (char *t = strtok_r(line, ";", &save); t && !hit; t = strtok_r(NULL, ";", &save))
			hit = !regexec(&rx, t, 0, NULL, 0);
		if (hit)
			*matched += c;
	}
	regfree(&rx);
	fclose(f);
}

/* The page that drives the graph @svg (an absolute path): it searches @re, clicks the
 * first frame whose name @click matches, then "Reset zoom", and prints what it read as
 * "key=value" lines in <pre id="out">. */
static void write_page(const char *page, const char *svg, const char *re, const char *click)
{
	FILE *f = fopen(page, "w");

	assert_non_null(f);
	fprintf(f, "<!DOCTYPE html>\n<html><body>\n<iframe id=\"g\" src=\"file://%s\" "
		   "width=\"1200\" height=\"800\"></iframe>\n<pre id=\"out\">not loaded</pre>\n"
		   "<script>\nvar RE = %s, CLICK = new RegExp(%s);\n", svg, re, click);
	fputs("document.getElementById('g').addEventListener('load', function () {\n"
	      "  var w = this.contentWindow, d = this.contentDocument, o = [];\n"
	      "  function say(k, v) { o.push(k + '=' + v); }\n"
	      "  function name(g) { return g.getElementsByTagName('title')[0].textContent.split('\\n')[0]; }\n"
	      "  function rect(g, a) { return +g.getElementsByTagName('rect')[0].getAttribute(a); }\n"
	      "  function shown(g) { return g.style.display !== 'none'; }\n"
	      "  try {\n"
	      "    say('script', typeof w.xdptcFlame);\n"
	      "    w.prompt = function () { return RE; };\n"
	      "    d.getElementById('search').dispatchEvent(new MouseEvent('click', { bubbles: true }));\n"
	      "    say('matched', d.getElementById('matched').textContent);\n"
	      "    var hl = 0, gs = d.querySelectorAll('g.f'), z = null, kid = null, out = null;\n"
	      "    for (var i = 0; i < gs.length; i++) if (gs[i].getElementsByTagName('rect')[0].getAttribute('fill') === 'rgb(230,0,230)') hl++;\n"
	      "    say('highlighted', hl);\n"
	      "    for (i = 0; i < gs.length && !z; i++) if (CLICK.test(name(gs[i]))) z = gs[i];\n"
	      "    var W = +d.documentElement.getAttribute('width'), zw = rect(z, 'width'), zy = rect(z, 'y');\n"
	      "    for (i = 0; i < gs.length; i++) {\n"
	      "      var x = rect(gs[i], 'x'), y = rect(gs[i], 'y'), gw = rect(gs[i], 'width');\n"
	      "      if (Math.abs(y - (zy - 16)) < 0.01 && x >= rect(z, 'x') - 0.05 && x + gw <= rect(z, 'x') + zw + 0.05 && (!kid || gw > rect(kid, 'width'))) kid = gs[i];\n"
	      "      if (!out && Math.abs(y - zy) < 0.01 && gs[i] !== z) out = gs[i];\n"
	      "    }\n"
	      "    var kw = kid ? rect(kid, 'width') : 0;\n"
	      "    z.dispatchEvent(new MouseEvent('click', { bubbles: true }));\n"
	      "    say('clicked', name(z));\n"
	      "    say('graph_width', W);\n"
	      "    say('zoomed_x', rect(z, 'x'));\n"
	      "    say('zoomed_width', rect(z, 'width'));\n"
	      "    say('width_before', zw);\n"
	      "    say('child_scale', kid ? (rect(kid, 'width') / kw) / (rect(z, 'width') / zw) : 'no child');\n"
	      "    say('sibling_hidden', out ? !shown(out) : 'no sibling');\n"
	      "    var hidden = 0; for (i = 0; i < gs.length; i++) if (!shown(gs[i])) hidden++;\n"
	      "    say('hidden', hidden);\n"
	      "    say('reset_shown', shown(d.getElementById('reset')));\n"
	      "    d.getElementById('reset').dispatchEvent(new MouseEvent('click', { bubbles: true }));\n"
	      "    say('reset_width', rect(z, 'width'));\n"
	      "    hidden = 0; for (i = 0; i < gs.length; i++) if (!shown(gs[i])) hidden++;\n"
	      "    say('hidden_after_reset', hidden);\n"
	      "  } catch (e) { say('error', e); }\n"
	      "  document.getElementById('out').textContent = o.join('\\n');\n"
	      "});\n</script>\n</body></html>\n", f);
	fclose(f);
}

/* Chromium's dump of @page, read into @dom; its console log into @log. Returns its exit
 * status. */
static int chromium(const char *page, char *dom, size_t domlen, char *log, size_t loglen)
{
	char cmd[1024], path[96];
	size_t n;
	FILE *f;
	int st;

	if (system("command -v chromium >/dev/null 2>&1"))
		fail_msg("chromium is not installed (Debian's chromium; `sudo make deps` installs it)");
	snprintf(path, sizeof(path), "%s/console.log", tmp);
	snprintf(cmd, sizeof(cmd), "timeout 60 chromium --headless %s--disable-gpu "
		 "--no-first-run --user-data-dir=%s/profile --allow-file-access-from-files "
		 "--enable-logging=stderr --v=0 --dump-dom 'file://%s' 2>%s", geteuid() ? ""
		 : "--no-sandbox ", tmp, page, path);
	f = popen(cmd, "r");
	assert_non_null(f);
	n = fread(dom, 1, domlen - 1, f);
	dom[n] = '\0';
	st = pclose(f);
	f = fopen(path, "r");
	n = f ? fread(log, 1, loglen - 1, f) : 0;
	log[n] = '\0';
	if (f)
		fclose(f);
	return st;
}

/* The value of "key=" in the page's output (up to its line's end), or NULL. */
static const char *value(const char *dom, const char *key, char *buf, size_t len)
{
	char k[64];
	const char *p = strstr(dom, "<pre id=\"out\">"), *e;

	snprintf(k, sizeof(k), "%s=", key);
	for (; p && (p = strstr(p, k)); p++)
		if (p[-1] == '\n' || p[-1] == '>')
			break;
	if (!p)
		return NULL;
	p += strlen(k);
	e = p + strcspn(p, "\n<");
	snprintf(buf, len, "%.*s", (int)(e - p), p);
	return buf;
}

static double num(const char *dom, const char *key)
{
	char b[256];

	if (!value(dom, key, b, sizeof(b)))
		fail_msg("the page printed no %s", key);
	return strtod(b, NULL);
}

/* No script error in chromium's console log, and the page ran to its end. */
static void no_errors(const char *dom, const char *log)
{
	char b[512];

	for (const char *p = log; (p = strstr(p, "CONSOLE")); p++) {
		const char *e = strchr(p, '\n');

		printf("# console: %.*s\n", e ? (int)(e - p) : (int)strlen(p), p);
		if (strstr(p, "Uncaught") && (!e || strstr(p, "Uncaught") < e))
			fail_msg("a script error in the page: %.*s", e ? (int)(e - p) : (int)strlen(p), p);
	}
	if (value(dom, "error", b, sizeof(b)))
		fail_msg("the page's driver failed: %s", b);
	assert_non_null(value(dom, "script", b, sizeof(b)));
	assert_string_equal(b, "object"); /* the graph's script ran and set window.xdptcFlame */
}

/* The zoom as the page read it: the frame clicked spans the graph, its widest child is
 * scaled as much, a frame beside it is hidden, and "Reset zoom" puts it back. */
static void zoomed(const char *dom)
{
	double w = num(dom, "graph_width");

	assert_true(fabs(num(dom, "zoomed_x") - 10) < 0.05);
	assert_true(fabs(num(dom, "zoomed_width") - (w - 20)) < 0.05);
	assert_true(num(dom, "width_before") < w - 20 - 1); /* it was narrower */
	assert_true(fabs(num(dom, "child_scale") - 1) < 0.01);
	assert_true(num(dom, "hidden") > 0);
	assert_true(fabs(num(dom, "reset_width") - num(dom, "width_before")) < 0.05);
	assert_int_equal((int)num(dom, "hidden_after_reset"), 0);
}

static char *abs_path(const char *rel)
{
	char *p = realpath(rel, NULL);

	if (!p)
		fail_msg("%s: %s (run from the source tree's top)", rel, strerror(errno));
	return p;
}

static void js_string(char *buf, size_t len, const char *s)
{
	snprintf(buf, len, "'%s'", s); /* the expressions here hold no quote or backslash */
}

/* A run's flame graph: the search's share is the folded stacks' own. */
static void test_run_graph(void **state)
{
	static char dom[1 << 20], log[1 << 16];
	char page[128], re[64], click[64], b[256];
	const char *tests[] = { SEARCH_ONE, SEARCH_NESTED };
	char *svg = abs_path(RUN_DIR "/flame-tc.svg"), *folded = abs_path(RUN_DIR "/flame-tc.folded");

	(void)state;
	for (int t = 0; t < 2; t++) {
		double all, matched, m, of;
		int st;

		snprintf(page, sizeof(page), "%s/run-%d.html", tmp, t);
		js_string(re, sizeof(re), tests[t]);
		js_string(click, sizeof(click), SEARCH_ONE);
		write_page(page, svg, re, click);
		st = chromium(page, dom, sizeof(dom), log, sizeof(log));
		assert_int_equal(st, 0);
		no_errors(dom, log);
		folded_share(folded, tests[t], 1, NULL, &all, &matched);
		assert_non_null(value(dom, "matched", b, sizeof(b)));
		printf("# %s, /%s/: the graph says \"%s\"; its folded stacks: %.0f of %.0f "
		       "samples (%.2f%%)\n", RUN_DIR "/flame-tc.svg", tests[t], b, matched, all,
		       100 * matched / all);
		/* "Matched /RE/: P% of the samples (M of T, N frames)" */
		assert_int_equal(sscanf(strstr(b, "(") ? strstr(b, "(") : "", "(%lf of %lf", &m, &of), 2);
		assert_true(m == matched && of == all);
		assert_true(fabs(strtod(strstr(b, ": ") + 2, NULL) - 100 * matched / all) < 0.006);
		assert_true(num(dom, "highlighted") >= 1);
		zoomed(dom);
		value(dom, "clicked", b, sizeof(b));
		printf("# zoomed into %s: %.1f px wide of %.0f, back to %.1f after Reset zoom\n", b,
		       num(dom, "zoomed_width"), num(dom, "graph_width"), num(dom, "reset_width"));
	}
	free(svg);
	free(folded);
}

/* A matrix's differential graph: the search prints the matches' share of the
 * difference, from both sides' folded stacks and their scales. */
static void test_diff_graph(void **state)
{
	static char dom[1 << 20], log[1 << 16];
	char page[128], re[64], click[64], b[512], path[PATH_MAX];
	const json_t *en, *p = NULL;
	json_error_t jerr;
	json_t *m = json_load_file(MATRIX_DIR "/matrix.json", 0, &jerr);
	double at, mt, ab, mb;
	size_t i;
	char *svg;

	(void)state;
	assert_non_null(m);
	json_array_foreach(json_object_get(m, "entries"), i, en)
		if (!strcmp(json_string_value(json_object_get(en, "kernel")), MATRIX_ENTRY_KERNEL) &&
		    !strcmp(json_string_value(json_object_get(en, "experiment")), MATRIX_ENTRY_EXP))
			p = json_object_get(en, "profiles");
	assert_non_null(p);
	snprintf(path, sizeof(path), MATRIX_DIR "/%s",
		 json_string_value(json_object_get(json_object_get(p, "diff"), "svg")));
	svg = abs_path(path);
	for (int k = 0; k < 2; k++) {
		const json_t *side = json_object_get(json_object_get(p, "modes"), k ? "xdpdrv" : "tc");

		snprintf(path, sizeof(path), MATRIX_DIR "/%s",
			 json_string_value(json_object_get(side, "folded_file")));
		folded_share(path, SEARCH_NESTED, json_number_value(json_object_get(side, "per_sample")),
			     json_string_value(json_object_get(p, "left_out")), k ? &mt : &at,
			     k ? &mb : &ab);
	}
	snprintf(page, sizeof(page), "%s/diff.html", tmp);
	js_string(re, sizeof(re), SEARCH_NESTED);
	js_string(click, sizeof(click), SEARCH_ONE);
	write_page(page, svg, re, click);
	assert_int_equal(chromium(page, dom, sizeof(dom), log, sizeof(log)), 0);
	no_errors(dom, log);
	assert_non_null(value(dom, "matched", b, sizeof(b)));
	printf("# %s, /%s/: the graph says \"%s\"; the folded stacks: xdpdrv - tc %+.1f of "
	       "%+.1f instructions per packet (%.1f%% of the difference)\n", svg, SEARCH_NESTED,
	       b, mb - ab, mt - at, 100 * (mb - ab) / (mt - at));
	/* "Matched /RE/: xdpdrv - tc +D instructions per packet, P% of the difference (...)" */
	assert_non_null(strstr(b, "of the difference"));
	assert_true(fabs(strtod(strstr(b, "per packet, ") + 12, NULL) -
			 100 * (mb - ab) / (mt - at)) < 0.051);
	zoomed(dom);
	free(svg);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_run_graph),
		cmocka_unit_test(test_diff_graph),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
