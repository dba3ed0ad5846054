/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The kernel matrix's experiments are one table (analysis/matrix_experiments.c): its rows
 * hold together, and no other file of the matrix's code (analysis/matrix*, run/matrix*,
 * cmd/cmd_matrix.c) names an experiment in its code or its strings, but an experiment's
 * own matrix.md section (analysis/matrix_exp_NAME.c and .h, NAME only). Comments may
 * name them. Run from the source tree's top (make check does).
 */
#include <dirent.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "matrix_experiments.h"
#include "code_words.h"

/* Is @file (a name in @dir) the matrix's code? */
static bool matrix_code(const char *dir, const char *file)
{
	size_t n = strlen(file);

	if (n < 3 || (strcmp(file + n - 2, ".c") && strcmp(file + n - 2, ".h")))
		return false;
	if (!strcmp(dir, "cmd"))
		return !strcmp(file, "cmd_matrix.c");
	return !strncmp(file, "matrix", 6);
}

/* May @file of analysis/ name experiment @name? The table's file; its own section's. */
static bool owner(const char *dir, const char *file, const char *name)
{
	char own[96];

	if (strcmp(dir, "analysis"))
		return false;
	if (!strcmp(file, "matrix_experiments.c"))
		return true;
	snprintf(own, sizeof(own), "matrix_exp_%s.", name);
	return !strncmp(file, own, strlen(own)) && strlen(file) == strlen(own) + 1;
}

static void test_no_experiment_named_outside_the_table(void **state)
{
	static const char *const dirs[] = { "analysis", "run", "cmd" };
	int files = 0, bad = 0;

	(void)state;
	for (int k = 0; k < 3; k++) {
		DIR *d = opendir(dirs[k]);
		struct dirent *de;

		if (!d)
			fail_msg("no %s/ here (run from the source tree's top)", dirs[k]);
		while ((de = readdir(d))) {
			char path[512], *code;

			if (!matrix_code(dirs[k], de->d_name))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[k], de->d_name);
			code = code_of(path);
			assert_non_null(code);
			files++;
			for (int x = 0; x < matrix_nexps; x++) {
				int line = code_word_line(code, matrix_exps[x].name);

				if (line && !owner(dirs[k], de->d_name, matrix_exps[x].name)) {
					fprintf(stderr, "%s:%d names experiment %s: ask its row "
							"(matrix_experiments.h) instead\n", path, line,
						matrix_exps[x].name);
					bad++;
				}
			}
			free(code);
		}
		closedir(d);
	}
	printf("# %d experiments, %d files of the matrix read; %d places name one\n",
	       matrix_nexps, files, bad);
	assert_true(files > 15);
	assert_int_equal(bad, 0);
}

/* The reader above finds what it looks for: every row's name in the table's own file,
 * none in a comment or inside a longer word. */
static void test_the_reader_finds_names(void **state)
{
	char *code = code_of("analysis/matrix_experiments.c");

	(void)state;
	assert_non_null(code);
	for (int x = 0; x < matrix_nexps; x++)
		assert_true(code_word_line(code, matrix_exps[x].name) > 0);
	free(code);
	{
		char c[] = "a = 1; /* veth-udp's\n */ // veth-udp\nb = '\"'; /* \" */ veth-udp\n";
		char d[] = "s = \"/* veth-udp */\";";

		assert_int_equal(code_word_line(uncomment(c), "veth-udp"), 3);
		assert_int_equal(code_word_line(uncomment(d), "veth-udp"), 1);
	}
	assert_int_equal(code_word_line(" \"%s/virtio.sh\" virtio-net host-veth-udp", "virtio"), 0);
	assert_int_equal(code_word_line(" host-veth-udp", "veth-udp"), 0);
	assert_int_equal(code_word_line("x\n\"6.12:veth-udp\"", "veth-udp"), 2);
	assert_int_equal(code_word_line("\"## container: a container's\"", "container"), 1);
}

/* The rows hold together: names distinct, every field a row needs, a host run beside an
 * icount experiment of its own topology and sender, the first row in README's table. */
static void test_the_rows_hold_together(void **state)
{
	int icount = 0, host = 0;

	(void)state;
	assert_true(matrix_nexps >= 2 && matrix_nexps <= MATRIX_MAX_EXPS);
	assert_true(matrix_exps[0].readme && matrix_exps[0].engine == MATRIX_ICOUNT);
	for (int x = 0; x < matrix_nexps; x++) {
		const struct matrix_exp *e = &matrix_exps[x], *b;

		assert_non_null(e->name);
		assert_non_null(e->title);
		assert_non_null(e->topology);
		assert_non_null(e->sender);
		assert_ptr_equal(matrix_exp_find(e->name), e);
		assert_true(!e->since.major == !e->since.needs);
		assert_true(!e->modes_more || e->modes_more[0] == ',');
		for (int a = 0; a < MATRIX_EXP_ARGS; a++) /* options, NULL-ended */
			assert_true(a ? !e->args[a] || e->args[a - 1]
				      : !e->args[0] || !strncmp(e->args[0], "--", 2));
		if (e->engine == MATRIX_ICOUNT) {
			icount++;
			assert_non_null(e->md);
			assert_null(e->beside);
			continue;
		}
		host++;
		assert_true(matrix_exp_host(e->name));
		assert_null(e->md);
		assert_false(e->readme);
		b = matrix_exp_find(e->beside ? e->beside : "");
		assert_non_null(b);
		assert_int_equal(b->engine, MATRIX_ICOUNT);
		assert_string_equal(b->topology, e->topology);
		assert_string_equal(b->sender, e->sender);
	}
	assert_null(matrix_exp_find("no-such-experiment"));
	printf("# %d icount experiments, %d of the host engine\n", icount, host);
	assert_true(icount > 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_reader_finds_names),
		cmocka_unit_test(test_no_experiment_named_outside_the_table),
		cmocka_unit_test(test_the_rows_hold_together),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
