/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of the option tables (cmd/cli_table.c): every documented option of every
 * command parses to its own key, appears in its --help and in the manual page as groff
 * renders it; the Makefile's RUN_ARGS is the generated one and passes exactly the make
 * variables the run table names; docs/settings.md's table is the one `xdptc help --make-vars` prints, docs/cli.md's
 * synopsis the one `xdptc help --synopsis` prints.
 * Run from the source tree's top (make check does).
 */
#include <getopt.h>
#include <regex.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "cli.h"
#include "cli_table.h"
#include "topologies.h"

/* the text @fn writes (a new string to free) */
static char *capture(void (*fn)(FILE *))
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f);
	fclose(f);
	return buf;
}

static char *help_of(const struct cli_command *c)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	cli_help(c, f);
	fclose(f);
	return buf;
}

static char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	if (!f)
		fail_msg("cannot open %s (run from the source tree's top)", path);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* every documented option of every command: parsed by cli_next to its own key (with
 * its value in optarg), unique within the command, and in the command's --help */
static void test_every_option_parses_and_is_documented(void **state)
{
	int commands = 0, options = 0;

	(void)state;
	for (int i = 0; cli_commands[i]; i++) {
		const struct cli_command *c = cli_commands[i];
		char *help = help_of(c);

		commands++;
		assert_non_null(c->fn);
		assert_non_null(c->brief);
		assert_non_null(c->about);
		assert_ptr_equal(cli_command_find(c->name), c);
		for (const struct cli_opt *o = c->opts; o->name; o++) {
			char lng[64], *argv[4];
			int argc = 0, k;

			for (const struct cli_opt *p = c->opts; p < o; p++) {
				assert_int_not_equal(p->key, o->key);
				assert_string_not_equal(p->name, o->name);
			}
			assert_true(o->key > 0);
			assert_non_null(o->help);
			snprintf(lng, sizeof(lng), "--%s", o->name);
			if (!(o->flags & CLI_HIDDEN)) {
				if (!strstr(help, lng))
					fail_msg("xdptc %s --help lacks %s", c->name, lng);
				options++;
			}
			if (!strcmp(c->name, "sweep"))
				continue; /* sweep reads --over and --values itself (cmd_sweep) */
			argv[argc++] = (char *)c->name;
			argv[argc++] = lng;
			if (o->arg)
				argv[argc++] = (char *)"VALUE";
			argv[argc] = NULL;
			optind = 0;
			k = cli_next(c, argc, argv);
			if (k != o->key)
				fail_msg("xdptc %s %s: key %d, expected %d", c->name, lng, k, o->key);
			if (o->arg)
				assert_string_equal(optarg, "VALUE");
			assert_int_equal(cli_next(c, argc, argv), CLI_END);
		}
		free(help);
	}
	assert_int_equal(commands, 15);
	assert_true(options > 40);
}

/* an unknown option, a missing value and --help: CLI_BAD (exit 2), CLI_HELP (exit 0) */
static void test_bad_options_and_help(void **state)
{
	const struct cli_command *run = cli_command_find("run");
	char *bad[] = { "run", "--no-such-option", NULL };
	char *missing[] = { "run", "--packets", NULL };
	char *help[] = { "cleanup", "--help", NULL };
	int k;

	(void)state;
	assert_non_null(run);
	optind = 0;
	assert_int_equal(cli_next(run, 2, bad), CLI_BAD);
	optind = 0;
	assert_int_equal(cli_next(run, 2, missing), CLI_BAD);
	assert_int_equal(cli_exit(CLI_BAD), 2);
	optind = 0;
	fflush(stdout);
	k = cli_next(cli_command_find("cleanup"), 2, help);
	assert_int_equal(k, CLI_HELP);
	assert_int_equal(cli_exit(k), 0);
}

/* @s with every run of spaces and newlines made one space, in place */
static char *squeeze(char *s)
{
	char *w = s;

	for (char *r = s; *r; r++)
		if (!((*r == ' ' || *r == '\n') && w > s && w[-1] == ' '))
			*w++ = *r == '\n' ? ' ' : *r;
	*w = '\0';
	return s;
}

/* run --help gives each engine's defaults (the icount engine's too), however wrapped */
static void test_run_help_gives_engine_defaults(void **state)
{
	char *help = squeeze(help_of(cli_command_find("run")));

	(void)state;
	assert_non_null(strstr(help, "200k; virtio 50k; icount 20k"));
	assert_non_null(strstr(help, "21; virtio 10; dev 10; icount 11"));
	assert_non_null(strstr(help, "3; icount 2"));
	free(help);
}

/* the manual page, rendered by groff as man would: every command's section and every
 * documented option, no groff warning */
static void test_man_page_shows_every_option(void **state)
{
	char *src = capture(cli_man), *text = NULL, line[4096];
	char tmpl[] = "/tmp/xdptc-man-XXXXXX", cmd[256];
	size_t len = 0, checked = 0;
	FILE *f, *out;
	int fd;

	(void)state;
	if (system("command -v groff >/dev/null 2>&1"))
		fail_msg("groff is missing (groff-base; scripts/install-deps.sh installs it)");
	fd = mkstemp(tmpl);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, src, strlen(src)), (ssize_t)strlen(src));
	close(fd);
	/* plain text, no hyphenation or adjusting, wide lines; warnings into the text */
	snprintf(cmd, sizeof(cmd), "groff -man -Tascii -P-cbou -rLL=200n -rHY=0 -ww '%s' 2>&1", tmpl);
	f = popen(cmd, "r");
	assert_non_null(f);
	out = open_memstream(&text, &len);
	while (fgets(line, sizeof(line), f))
		fputs(line, out);
	fclose(out);
	assert_int_equal(pclose(f), 0);
	unlink(tmpl);
	if (strstr(text, "warning"))
		fail_msg("groff warns: %s", strstr(text, "warning"));
	for (int i = 0; cli_commands[i]; i++) {
		const struct cli_command *c = cli_commands[i];
		char want[96];

		snprintf(want, sizeof(want), "xdptc %s [OPTIONS]", c->name);
		if (!strstr(text, want))
			fail_msg("the manual lacks the section '%s'", want);
		for (const struct cli_opt *o = c->opts; o->name; o++) {
			if (o->flags & CLI_HIDDEN)
				continue;
			snprintf(want, sizeof(want), "--%s", o->name);
			if (!strstr(text, want))
				fail_msg("the manual lacks %s of xdptc %s", want, c->name);
			checked++;
		}
	}
	assert_non_null(strstr(text, "MAKE VARIABLES"));
	assert_non_null(strstr(text, "PACKETS=N"));
	assert_true(checked > 40);
	free(src);
	free(text);
}

/* The Makefile's @var (RUN_ARGS, MATRIX_ARGS): each $(if ...) that passes an option, as
 * "VAR|--opt|value-or-empty|cmdline-or-empty" lines, sorted. */
static char *makefile_mapping(const char *var)
{
	char *mk = read_file("Makefile"), def[64], *start, *end, *p;
	char *out = NULL, rows[64][128];
	size_t len = 0;
	int n = 0;
	regex_t re_val, re_flag, re_cmdline;
	regmatch_t m[4];
	FILE *f = open_memstream(&out, &len);

	snprintf(def, sizeof(def), "\n%s = ", var);
	start = strstr(mk, def);
	assert_non_null(start);
	/* the definition runs to the first line not continued by a backslash */
	for (end = start + 1; (end = strchr(end, '\n')) && end[-1] == '\\'; end++)
		;
	assert_non_null(end);
	*end = '\0';
	assert_int_equal(regcomp(&re_val, "\\$\\(if \\$\\(([A-Z_]+)\\),(--[a-z-]+) \\$\\(\\1\\)\\)",
				 REG_EXTENDED), 0);
	assert_int_equal(regcomp(&re_flag, "\\$\\(if \\$\\(filter ([0-9]+),\\$\\(([A-Z_]+)\\)\\),"
				 "(--[a-z-]+)\\)", REG_EXTENDED), 0);
	assert_int_equal(regcomp(&re_cmdline, "\\$\\(if \\$\\(call cmdline,([A-Z_]+)\\),"
				 "(--[a-z-]+) \\$\\(\\1\\)\\)", REG_EXTENDED), 0);
	for (p = start; (p = strstr(p, "$(if ")) && n < 64; p++) {
		if (!regexec(&re_val, p, 3, m, 0) && m[0].rm_so == 0)
			snprintf(rows[n++], sizeof(rows[0]), "%.*s|%.*s||",
				 (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so,
				 (int)(m[2].rm_eo - m[2].rm_so), p + m[2].rm_so);
		else if (!regexec(&re_flag, p, 4, m, 0) && m[0].rm_so == 0)
			snprintf(rows[n++], sizeof(rows[0]), "%.*s|%.*s|%.*s|",
				 (int)(m[2].rm_eo - m[2].rm_so), p + m[2].rm_so,
				 (int)(m[3].rm_eo - m[3].rm_so), p + m[3].rm_so,
				 (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so);
		else if (!regexec(&re_cmdline, p, 3, m, 0) && m[0].rm_so == 0)
			snprintf(rows[n++], sizeof(rows[0]), "%.*s|%.*s||cmdline",
				 (int)(m[1].rm_eo - m[1].rm_so), p + m[1].rm_so,
				 (int)(m[2].rm_eo - m[2].rm_so), p + m[2].rm_so);
		else
			fail_msg("%s: a form this test does not know: %.60s", var, p);
	}
	qsort(rows, (size_t)n, sizeof(rows[0]), (int (*)(const void *, const void *))strcmp);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s\n", rows[i]);
	fclose(f);
	regfree(&re_val);
	regfree(&re_flag);
	regfree(&re_cmdline);
	free(mk);
	return out;
}

/* the same mapping from the make_var fields of command @cmd's table */
static char *table_mapping(const char *cmd)
{
	char *out = NULL, rows[64][128];
	size_t len = 0;
	int n = 0;
	FILE *f = open_memstream(&out, &len);

	for (const struct cli_opt *o = cli_command_find(cmd)->opts; o->name; o++)
		if (o->make_var)
			snprintf(rows[n++], sizeof(rows[0]), "%s|--%s|%s|%s", o->make_var, o->name,
				 o->make_value ? o->make_value : "",
				 o->flags & CLI_MAKE_CMDLINE ? "cmdline" : "");
	qsort(rows, (size_t)n, sizeof(rows[0]), (int (*)(const void *, const void *))strcmp);
	for (int i = 0; i < n; i++)
		fprintf(f, "%s\n", rows[i]);
	fclose(f);
	return out;
}

static void test_makefile_passes_what_the_table_says(void **state)
{
	static const char *const pairs[][2] = { { "RUN_ARGS", "run" }, { "MATRIX_ARGS", "matrix" } };

	(void)state;
	for (int i = 0; i < 2; i++) {
		char *mk = makefile_mapping(pairs[i][0]), *tab = table_mapping(pairs[i][1]);

		if (strcmp(mk, tab))
			fail_msg("the Makefile's %s and the %s table (cmd/cmd_%s.c) differ:\n"
				 "Makefile:\n%s\ntable:\n%s", pairs[i][0], pairs[i][1], pairs[i][1],
				 mk, tab);
		assert_true(strlen(tab) > 60); /* not two empty lists */
		free(mk);
		free(tab);
	}
}

/* docs/cli.md's synopsis is every command's usage line as --help prints it */
static void test_cli_doc_synopsis_is_generated(void **state)
{
	char *doc = read_file("docs/cli.md"), *gen = capture(cli_synopsis);

	(void)state;
	if (!strstr(doc, gen)) {
		fprintf(stderr, "%s", gen);
		fail_msg("docs/cli.md's synopsis is not what `build/xdptc help --synopsis` "
			 "prints (above); `make docs` writes it in");
	}
	free(doc);
	free(gen);
}

static void test_readme_table_is_generated(void **state)
{
	char *readme = read_file("docs/settings.md"), *gen = capture(cli_make_vars_md);

	(void)state;
	if (!strstr(readme, gen)) {
		fprintf(stderr, "%s", gen);
		fail_msg("docs/settings.md's table of make variables is not what `build/xdptc help "
			 "--make-vars` prints (above); `make docs` writes it in");
	}
	free(readme);
	free(gen);
}

/* The Makefile's RUN_ARGS and SWITCHES are what `xdptc help --make-args` prints from the
 * run options' declaration, under their marker */
static void test_makefile_run_args_are_generated(void **state)
{
	char *mk = read_file("Makefile"), *gen = capture(cli_make_args), *at;
	static const char mark[] = "# generated by `build/xdptc help --make-args`";

	(void)state;
	at = strstr(mk, mark);
	assert_non_null(at);
	at = strchr(at, '\n');
	assert_non_null(at);
	if (strncmp(at + 1, gen, strlen(gen)) || at[1 + strlen(gen)] != '\n') {
		fprintf(stderr, "%s", gen);
		fail_msg("the Makefile's RUN_ARGS and SWITCHES are not what `build/xdptc help "
			 "--make-args` prints (above); `make docs` writes them in");
	}
	free(mk);
	free(gen);
}

/* docs/run.schema.json's "topology" is one of the table of topologies' names, in its
 * order (run/topology.h's TOPOLOGY_LIST): a new topology's runs validate */
static void test_schema_topologies_are_the_table(void **state)
{
	json_error_t err;
	json_t *schema = json_load_file("docs/run.schema.json", 0, &err), *en;
	char want[512] = "", have[512] = "";
	size_t i;
	json_t *v;

	(void)state;
	assert_non_null(schema);
	en = json_object_get(json_object_get(json_object_get(schema, "properties"), "topology"),
			     "enum");
	assert_true(json_is_array(en));
	for (int t = 0; topologies[t]; t++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s\"%s\"",
			 t ? ", " : "", topologies[t]->name);
	json_array_foreach(en, i, v)
		snprintf(have + strlen(have), sizeof(have) - strlen(have), "%s\"%s\"",
			 i ? ", " : "", json_string_value(v) ? json_string_value(v) : "?");
	if (strcmp(want, have))
		fail_msg("docs/run.schema.json's \"topology\" enum is [%s]; the table of "
			 "topologies says [%s]", have, want);
	json_decref(schema);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_every_option_parses_and_is_documented),
		cmocka_unit_test(test_bad_options_and_help),
		cmocka_unit_test(test_run_help_gives_engine_defaults),
		cmocka_unit_test(test_man_page_shows_every_option),
		cmocka_unit_test(test_makefile_passes_what_the_table_says),
		cmocka_unit_test(test_readme_table_is_generated),
		cmocka_unit_test(test_makefile_run_args_are_generated),
		cmocka_unit_test(test_cli_doc_synopsis_is_generated),
		cmocka_unit_test(test_schema_topologies_are_the_table),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
