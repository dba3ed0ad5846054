/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test_workflow.c - the kernel matrix's GitHub Actions workflow (.github/workflows/
 * matrix.yml), which is validated here and never run here:
 * - it is valid against SchemaStore's github-workflow schema, vendored in tests/schemas/
 *   (tests/validate-workflow.sh: python3-jsonschema, the YAML read by python3-yaml as
 *   GitHub reads it), and every job it needs exists;
 * - copies of it broken one way each (a misspelt key, a key given twice, a job needing
 *   one that does not exist) are refused, so the check can fail;
 * - its commands are the cells' (`xdptc matrix --list --json`, `--cell`, `--merge`, as
 *   tests/integration/test_matrix.c runs them), and every option it gives `xdptc matrix`
 *   is one `build/xdptc matrix --help` lists;
 * - docs/matrix.md points to it.
 * Run from the repository root, after `make` (build/xdptc).
 */
#include <ctype.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <cmocka.h>

#define WORKFLOW ".github/workflows/matrix.yml"
#define VALIDATE "sh tests/validate-workflow.sh "

/* The whole output of @cmd (at most @len - 1 bytes), NUL-terminated. */
static void output_of(const char *cmd, char *buf, size_t len)
{
	FILE *p = popen(cmd, "r");
	size_t n;

	assert_non_null(p);
	n = fread(buf, 1, len - 1, p);
	buf[n] = '\0';
	pclose(p);
}

static void test_valid(void **state)
{
	(void)state;
	assert_int_equal(system(VALIDATE WORKFLOW), 0);
}

/* A copy of the workflow edited by @sed_expr must differ from it and be refused. */
static void broken_copy_refused(const char *sed_expr)
{
	char tmp[] = "/tmp/xdptc-test-workflow.XXXXXX", cmd[512];

	assert_non_null(mkdtemp(tmp));
	snprintf(cmd, sizeof(cmd), "sed '%s' " WORKFLOW " > %s/w.yml && ! cmp -s " WORKFLOW
		 " %s/w.yml", sed_expr, tmp, tmp);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), VALIDATE "%s/w.yml > %s/out; st=$?; sed 's/^/# /' %s/out; "
		 "exit $st", tmp, tmp, tmp);
	assert_int_equal(WEXITSTATUS(system(cmd)), 1);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

static void test_broken_refused(void **state)
{
	(void)state;
	broken_copy_refused("s/runs-on:/runs_on:/");
	broken_copy_refused("s/^\\( *\\)timeout-minutes: \\(.*\\)/&\\n\\1timeout-minutes: \\2/");
	broken_copy_refused("s/^    needs: list$/    needs: lists/");
}

/* Every `--option` on a line of the workflow that runs `xdptc matrix` (and the lines
 * that continue it with a backslash) is in `xdptc matrix --help`; returns a bit per
 * command of the cells' seen (1: --list --json, 2: --cell, 4: --merge). */
static int options_known(const char *help)
{
	FILE *f = fopen(WORKFLOW, "r");
	char line[1024];
	bool cont = false;
	int seen = 0;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *p = strstr(line, "xdptc matrix ");

		if (!p && !cont)
			continue;
		p = p ? p : line;
		cont = strstr(p, "\\\n") != NULL;
		seen |= (strstr(p, "--list --json") ? 1 : 0) | (strstr(p, "--cell ") ? 2 : 0) |
			(strstr(p, "--merge ") ? 4 : 0);
		for (const char *o = strstr(p, "--"); o; o = strstr(o + 2, "--")) {
			char name[64], want[80];
			size_t n = 2;
			const char *h;

			while (islower((unsigned char)o[n]) || o[n] == '-')
				n++;
			assert_true(n > 2 && n < sizeof(name));
			memcpy(name, o, n);
			name[n] = '\0';
			snprintf(want, sizeof(want), " %s", name);
			for (h = strstr(help, want); h; h = strstr(h + 1, want))
				if (!islower((unsigned char)h[n + 1]) && h[n + 1] != '-')
					break;
			if (!h)
				fail_msg(WORKFLOW ": xdptc matrix %s is no option of its --help", name);
			o += n - 2;
		}
	}
	fclose(f);
	return seen;
}

static void test_commands(void **state)
{
	static char help[65536];
	char doc[256];

	(void)state;
	output_of("build/xdptc matrix --help", help, sizeof(help));
	assert_non_null(strstr(help, "--list"));
	assert_int_equal(options_known(help), 7);
	output_of("grep -c '" WORKFLOW "' docs/matrix.md", doc, sizeof(doc));
	assert_true(atoi(doc) >= 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_valid),
		cmocka_unit_test(test_broken_refused),
		cmocka_unit_test(test_commands),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
