/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A topology owns what is only its own (ARCHITECTURE.md, "Adding a topology"): its name,
 * the modes no other topology runs (its descriptor's own_modes), and its script's keys
 * of its own (its descriptor's keys, and the buffers they are read into). None of them
 * appears in the code (comments blanked) of the run driver, the CLI or the analysis
 * (run/, cmd/, analysis/) outside its owner: run/topology_NAME.c, the table of
 * topologies (run/topology.h's TOPOLOGY_LIST, run/topologies.c), and the few files of
 * allowed[] below, each with its reason. A key of its own, or its buffer, appears in
 * no other C file of the tree at all (bpf/, probes/, loader/ too). Below run/, the
 * loader and the BPF programs implement every mode (its program, attach and hook) for
 * whichever topology runs it: who may run a mode is the descriptor's, how it runs is
 * theirs. Run from the source tree's top (make check does).
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

#include "drop_mode.h"
#include "run_opt_table.h"
#include "topologies.h"
#include "code_words.h"

/* Files that may name what a topology owns, beyond its own file and the table, and why. */
static const struct {
	const char *path, *why;
} allowed[] = {
	{ "analysis/matrix_experiments.c", "the kernel matrix's experiments, one table: each "
	  "row names its topology and the modes it adds (test_matrix_names)" },
	{ "analysis/matrix_exp_container.c", "the container experiment's own matrix.md "
	  "section (its netkit column)" },
	{ "analysis/matrix_plot.c", "the matrix's delta plots: one line per mode against tc, "
	  "the modes of the matrix's experiments" },
	{ "cmd/cmd_netkit.c", "`xdptc netkit-pair`, the command container.sh runs to make its "
	  "netkit pair (iproute2 before 6.8 cannot)" },
	{ "run/engine_icount.c", "the icount engine boots the virtio topology's guest for a "
	  "topology whose experiment it runs inside one (icount_inside)" },
	{ "cmd/cmd_matrix.c", "the matrix lists and fetches its guest kernels through the "
	  "virtio topology's script (kernel-defaults)" },
};
#define NALLOWED ((int)(sizeof(allowed) / sizeof(allowed[0])))

/* What a topology owns, as the words that name it in code. */
struct owned {
	const struct topology_desc *td;
	char word[48];
	const char *what;
	bool everywhere; /* a key of its own: in no C file at all but its owner's */
};

#define MAX_OWNED 128

/* The buffer the key table row for @key in @owner's code reads into ("{ \"KEY\", buf,"),
 * into @out; false when the row is not found. */
static bool key_buffer(const char *owner, const char *key, char *out, size_t len)
{
	char *code = code_of(owner), pat[64];
	const char *p;
	bool ok = false;

	assert_non_null(code);
	snprintf(pat, sizeof(pat), "\"%s\",", key);
	p = strstr(code, pat);
	if (p && sscanf(p + strlen(pat), " %47[A-Za-z0-9_]", out) == 1 && len > strlen(out))
		ok = true;
	free(code);
	return ok;
}

static void add(struct owned *o, int *n, const struct topology_desc *td, const char *word,
		const char *what, bool everywhere)
{
	assert_true(*n < MAX_OWNED);
	o[*n].td = td;
	snprintf(o[*n].word, sizeof(o[*n].word), "%s", word);
	o[*n].what = what;
	o[*n].everywhere = everywhere;
	(*n)++;
}

/* Is @name also an option's name of `xdptc run` (--dev, --nic)? Then "NAME" is the
 * option's word as much as the topology's. */
static bool an_option(const char *name)
{
	for (int i = 0; run_opt_table[i].name; i++)
		if (!strcmp(run_opt_table[i].name, name))
			return true;
	return false;
}

/* Every word a topology owns: its descriptor's symbol (topology_NAME) and its name as a
 * string ("NAME", unless an option has that name too); each mode of its own, by name and enum (MODE_NAME); each key of its
 * own and its buffer. Returns how many. */
static int owned_words(struct owned *o)
{
	int n = 0;

	for (int i = 0; topologies[i]; i++) {
		const struct topology_desc *td = topologies[i];
		char w[48], own[96];

		snprintf(w, sizeof(w), "topology_%s", td->name);
		add(o, &n, td, w, "its descriptor", false);
		snprintf(w, sizeof(w), "\"%s\"", td->name);
		if (!an_option(td->name))
			add(o, &n, td, w, "its name", false);
		for (int m = 0; m < MODE_NR; m++) {
			if (!(td->own_modes & (1u << m)))
				continue;
			add(o, &n, td, drop_mode_name(m), "a mode of its own", false);
			snprintf(w, sizeof(w), "MODE_%s", drop_mode_name(m));
			for (char *c = w; *c; c++)
				*c = *c >= 'a' && *c <= 'z' ? (char)(*c - 'a' + 'A') : *c;
			add(o, &n, td, w, "a mode of its own", false);
		}
		snprintf(own, sizeof(own), "run/topology_%s.c", td->name);
		for (const struct topology_key *k = td->keys; k && k->key; k++) {
			add(o, &n, td, k->key, "a script key of its own", true);
			if (!key_buffer(own, k->key, w, sizeof(w)))
				fail_msg("%s: no row { \"%s\", BUFFER, ... } read", own, k->key);
			add(o, &n, td, w, "a script key's buffer", true);
		}
	}
	return n;
}

/* May @path name @w? Its owner's file, the table of topologies, an allowed file. */
static bool may_name(const char *path, const struct owned *w)
{
	char own[96];

	snprintf(own, sizeof(own), "run/topology_%s.c", w->td->name);
	if (!strcmp(path, own))
		return true;
	if (w->everywhere)
		return false;
	/* another descriptor may use the word as a key of its own ("veth": the container's
	 * veth pair in run.json); a branch on a name is test_layers' to find */
	if (!strcmp(w->what, "its name") && !strncmp(path, "run/topology_", 13))
		return true;
	if (!strcmp(path, "run/topology.h") || !strcmp(path, "run/topologies.c"))
		return true;
	for (int i = 0; i < NALLOWED; i++)
		if (!strcmp(path, allowed[i].path))
			return true;
	return false;
}

/* The owned words @path names where it may not; each said. Returns how many. */
static int check_file(const char *dir, const char *path, const struct owned *o, int n)
{
	char *code = code_of(path);
	bool driver = !strcmp(dir, "run") || !strcmp(dir, "cmd") || !strcmp(dir, "analysis");
	int bad = 0;

	assert_non_null(code);
	for (int i = 0; i < n; i++) {
		int line;

		if ((!driver && !o[i].everywhere) || may_name(path, &o[i]))
			continue;
		line = code_word_line(code, o[i].word);
		if (line) {
			fprintf(stderr, "%s:%d names %s, %s of the %s topology: ask its descriptor "
					"(run/topology.h)\n", path, line, o[i].word, o[i].what,
				o[i].td->name);
			bad++;
		}
	}
	free(code);
	return bad;
}

static void test_no_topology_owned_word_outside_its_owner(void **state)
{
	static const char *const dirs[] = { "bpf", "probes", "loader", "analysis", "run", "cmd",
					    "tools/claims" };
	static struct owned o[MAX_OWNED];
	int n = owned_words(o), files = 0, bad = 0, keys = 0;

	(void)state;
	for (int i = 0; i < n; i++)
		keys += o[i].everywhere;
	for (size_t k = 0; k < sizeof(dirs) / sizeof(dirs[0]); k++) {
		DIR *d = opendir(dirs[k]);
		struct dirent *de;

		if (!d)
			fail_msg("no %s/ here (run from the source tree's top)", dirs[k]);
		while ((de = readdir(d))) {
			size_t l = strlen(de->d_name);
			char path[512];

			if (l < 3 || (strcmp(de->d_name + l - 2, ".c") &&
				      strcmp(de->d_name + l - 2, ".h")))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[k], de->d_name);
			files++;
			bad += check_file(dirs[k], path, o, n);
		}
		closedir(d);
	}
	printf("# %d words topologies own (%d script keys and their buffers), %d files read; "
	       "%d places name one outside its owner\n", n, keys, files, bad);
	assert_true(files > 150);
	assert_true(keys >= 2);
	assert_int_equal(bad, 0);
}

/* The allow-list names files that exist, each with its reason. */
static void test_the_allowed_files_exist(void **state)
{
	(void)state;
	for (int i = 0; i < NALLOWED; i++) {
		FILE *f = fopen(allowed[i].path, "r");

		if (!f)
			fail_msg("allowed[] names %s, which is not there", allowed[i].path);
		fclose(f);
		assert_true(strlen(allowed[i].why) > 20);
	}
}

/* The reader finds what it looks for: words, not parts of longer ones; none in a
 * comment; each owned mode's owner is the one topology_mode_owner gives. */
static void test_the_reader_finds_words(void **state)
{
	char c[] = "a = 1; /* netkit\n */ // netkit\nb = '\"'; x(\"netkit\");\n";
	char d[] = "\"netkit-pair\" cmd_netkit_pair veth.sh topology_veth_x";

	(void)state;
	assert_int_equal(code_word_line(uncomment(c), "netkit"), 3);
	assert_int_equal(code_word_line(d, "netkit"), 0);
	assert_int_equal(code_word_line(d, "topology_veth"), 0);
	assert_int_equal(code_word_line("x(MODE_NETKIT)", "MODE_NETKIT"), 1);
	for (int i = 0; topologies[i]; i++)
		for (int m = 0; m < MODE_NR; m++)
			if (topologies[i]->own_modes & (1u << m)) {
				assert_non_null(topologies[i]->own_modes_why);
				assert_non_null(topology_mode_owner(m));
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_reader_finds_words),
		cmocka_unit_test(test_the_allowed_files_exist),
		cmocka_unit_test(test_no_topology_owned_word_outside_its_owner),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
