/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The layers (ARCHITECTURE.md): bpf/ <- probes/ <- loader/ <- analysis/ <- run/ <- cmd/,
 * and above them all the repository's tools (tools/claims/): a tool may use the
 * product's code, nothing of the product includes a tool's header.
 * Every #include "..." of every source in them must name a header of its own layer or
 * one below; a generated skeleton (NAME.skel.h) is of the layer of its NAME.bpf.c, and
 * vmlinux.h of bpf/. Inside each folder the files are ordered the same way: a unit
 * (NAME.c with its NAME.h, or a header alone) that includes another's header stands above
 * it, and no two units include each other, directly or round a circle. Run from the
 * source tree's top (make check does).
 */
#include <dirent.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

static const char *const layers[] = { "bpf", "probes", "loader", "analysis", "run", "cmd",
				      "tools/claims" };
#define NLAYERS ((int)(sizeof(layers) / sizeof(layers[0])))

static int exists(const char *dir, const char *name)
{
	char path[512];
	struct stat st;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !stat(path, &st);
}

/* the layer of header @h, or -1 when it is none of the project's */
static int layer_of(const char *h)
{
	char bpf_c[256];
	size_t n = strlen(h);

	if (!strcmp(h, "vmlinux.h"))
		return 0;
	if (n > 7 && !strcmp(h + n - 7, ".skel.h")) {
		snprintf(bpf_c, sizeof(bpf_c), "%.*s.bpf.c", (int)(n - 7), h);
		for (int l = 0; l < NLAYERS; l++)
			if (exists(layers[l], bpf_c))
				return l;
		return -1;
	}
	for (int l = 0; l < NLAYERS; l++)
		if (exists(layers[l], h))
			return l;
	return -1;
}

static void test_no_include_reaches_up(void **state)
{
	int files = 0, includes = 0, bad = 0;

	(void)state;
	for (int l = 0; l < NLAYERS; l++) {
		DIR *d = opendir(layers[l]);
		struct dirent *de;

		if (!d)
			fail_msg("no %s/ here (run from the source tree's top)", layers[l]);
		while ((de = readdir(d))) {
			size_t n = strlen(de->d_name);
			char path[512], line[512];
			FILE *f;

			if (n < 3 || (strcmp(de->d_name + n - 2, ".c") && strcmp(de->d_name + n - 2, ".h")))
				continue;
			snprintf(path, sizeof(path), "%s/%s", layers[l], de->d_name);
			f = fopen(path, "r");
			assert_non_null(f);
			files++;
			while (fgets(line, sizeof(line), f)) {
				char h[256];
				int hl;

				if (sscanf(line, "#include \"%255[^\"]\"", h) != 1)
					continue;
				includes++;
				hl = layer_of(h);
				if (hl > l) {
					fprintf(stderr, "%s includes %s of %s/, a layer above\n", path,
						h, layers[hl]);
					bad++;
				}
			}
			fclose(f);
		}
		closedir(d);
	}
	printf("# %d files, %d includes checked; %d reach up\n", files, includes, bad);
	assert_true(files > 50);
	assert_int_equal(bad, 0);
}

/* No BPF program attaches through tracefs: a classic tracepoint section ("tp/...",
 * "tracepoint/...") makes libbpf read the tracepoint's id from tracefs, which a freshly
 * booted machine has not mounted; raw_tp and tp_btf need none. */
static void test_no_program_needs_tracefs(void **state)
{
	static const char *const dirs[] = { "bpf", "probes" };
	int programs = 0, bad = 0;

	(void)state;
	for (int l = 0; l < 2; l++) {
		DIR *d = opendir(dirs[l]);
		struct dirent *de;

		assert_non_null(d);
		while ((de = readdir(d))) {
			size_t n = strlen(de->d_name);
			char path[512], line[512];
			FILE *f;

			if (n < 7 || strcmp(de->d_name + n - 6, ".bpf.c"))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[l], de->d_name);
			f = fopen(path, "r");
			assert_non_null(f);
			while (fgets(line, sizeof(line), f)) {
				const char *sec = strstr(line, "SEC(\"");

				if (!sec || line[0] == ' ' || line[0] == '*')
					continue; /* a comment */
				programs++;
				sec += 5;
				if (!strncmp(sec, "tp/", 3) || !strncmp(sec, "tracepoint/", 11)) {
					fprintf(stderr, "%s: %s", path, line);
					bad++;
				}
			}
			fclose(f);
		}
		closedir(d);
	}
	printf("# %d sections of BPF objects read; %d need tracefs\n", programs, bad);
	assert_true(programs > 10);
	assert_int_equal(bad, 0);
}

/* ---- inside a folder: the units' include graph has no circle ---- */

#define MAX_UNITS 128

struct folder {
	char name[MAX_UNITS][64]; /* unit: the file's name without .bpf.c, .c or .h */
	bool edge[MAX_UNITS][MAX_UNITS]; /* [a][b]: a includes b's header */
	int n;
};

/* The unit of file @f ("trial.c", "trial.h": "trial"; a BPF object "x.bpf.c": "x", the
 * unit of its loader "x.c"; what the two share is "x_shared.h", a unit of its own). */
static void unit_of(const char *f, char *out, size_t len)
{
	size_t n = strlen(f);

	if (n > 6 && !strcmp(f + n - 6, ".bpf.c"))
		n -= 6;
	else if (n > 2 && f[n - 2] == '.')
		n -= 2;
	snprintf(out, len, "%.*s", (int)n, f);
}

static int unit_index(struct folder *fo, const char *u)
{
	for (int i = 0; i < fo->n; i++)
		if (!strcmp(fo->name[i], u))
			return i;
	assert_true(fo->n < MAX_UNITS);
	snprintf(fo->name[fo->n], sizeof(fo->name[0]), "%s", u);
	return fo->n++;
}

/* Depth-first search from @u; @state 0 unseen, 1 on the path, 2 done. Returns true
 * when a circle was found (printed, from @u back to itself). */
static bool find_circle(const struct folder *fo, int u, int *state, int *path, int depth,
			const char *dir)
{
	state[u] = 1;
	path[depth] = u;
	for (int v = 0; v < fo->n; v++) {
		if (!fo->edge[u][v])
			continue;
		if (state[v] == 1) {
			int k = depth;

			while (path[k] != v)
				k--;
			fprintf(stderr, "%s/: a circle of includes:", dir);
			for (; k <= depth; k++)
				fprintf(stderr, " %s ->", fo->name[path[k]]);
			fprintf(stderr, " %s\n", fo->name[v]);
			return true;
		}
		if (!state[v] && find_circle(fo, v, state, path, depth + 1, dir))
			return true;
	}
	state[u] = 2;
	return false;
}

static void test_no_circle_inside_a_folder(void **state)
{
	int edges = 0, bad = 0;

	(void)state;
	for (int l = 0; l < NLAYERS; l++) {
		static struct folder fo;
		int st[MAX_UNITS] = { 0 }, path[MAX_UNITS];
		DIR *d = opendir(layers[l]);
		struct dirent *de;

		assert_non_null(d);
		memset(&fo, 0, sizeof(fo));
		while ((de = readdir(d))) {
			size_t n = strlen(de->d_name);
			char path_[512], line[512], u[64], h[256], hu[64];
			FILE *f;
			int a;

			if (n < 3 || (strcmp(de->d_name + n - 2, ".c") && strcmp(de->d_name + n - 2, ".h")))
				continue;
			unit_of(de->d_name, u, sizeof(u));
			a = unit_index(&fo, u);
			snprintf(path_, sizeof(path_), "%s/%s", layers[l], de->d_name);
			f = fopen(path_, "r");
			assert_non_null(f);
			while (fgets(line, sizeof(line), f)) {
				int b;

				if (sscanf(line, "#include \"%255[^\"]\"", h) != 1 ||
				    !exists(layers[l], h))
					continue;
				unit_of(h, hu, sizeof(hu));
				b = unit_index(&fo, hu);
				if (b != a && !fo.edge[a][b]) {
					fo.edge[a][b] = true;
					edges++;
				}
			}
			fclose(f);
		}
		closedir(d);
		for (int i = 0; i < fo.n; i++)
			if (!st[i] && find_circle(&fo, i, st, path, 0, layers[l])) {
				bad++;
				break;
			}
	}
	printf("# %d includes between units of one folder; %d folder(s) with a circle\n", edges,
	       bad);
	assert_true(edges > 50);
	assert_int_equal(bad, 0);
}

/* ---- cmd/ is the CLI only; no branch on a topology's name ---- */

/* Every file of cmd/ is the CLI's: xdptc.c, a command (cmd_*.c) or the CLI's own
 * (cli*.c, cli*.h); the run driver is run/'s. */
static void test_cmd_is_the_cli(void **state)
{
	DIR *d = opendir("cmd");
	struct dirent *de;
	int files = 0, bad = 0;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d))) {
		const char *n = de->d_name;

		if (n[0] == '.')
			continue;
		files++;
		if (strcmp(n, "xdptc.c") && strncmp(n, "cmd_", 4) && strncmp(n, "cli", 3)) {
			fprintf(stderr, "cmd/%s is not the CLI's (xdptc.c, cmd_*.c, cli*)\n", n);
			bad++;
		}
	}
	closedir(d);
	printf("# %d files in cmd/, %d not the CLI's\n", files, bad);
	assert_true(files > 10);
	assert_int_equal(bad, 0);
}

/* The topologies' names, from run/topology.h's TOPOLOGY_LIST rows ("\tX(veth) \"). */
static int topology_names_read(char names[][32], int max)
{
	FILE *f = fopen("run/topology.h", "r");
	char line[256];
	int n = 0;
	bool in = false;

	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		if (strstr(line, "#define TOPOLOGY_LIST(X)"))
			in = true;
		else if (in && sscanf(line, " X(%31[a-z0-9_])", names[n]) == 1 && n < max)
			n++;
		else if (in)
			break;
	}
	fclose(f);
	return n;
}

/* A topology's name as a string literal ("veth") is compared, or stands beside the word
 * topology, in no source of cmd/, run/, loader/ or analysis/ but its own descriptor
 * (run/topology_NAME.c) and the matrix's experiments table (analysis/matrix_experiments.c:
 * data naming each experiment's topology): what differs between topologies is the
 * descriptor's, never a branch on the name. ("dev" is also an option's, a JSON key's and
 * tc's word: alone on a line it is no branch.) */
static void test_no_branch_on_a_topology_name(void **state)
{
	static const char *const dirs[] = { "cmd", "run", "loader", "analysis" };
	char names[16][32];
	int nt = topology_names_read(names, 16), files = 0, bad = 0;

	(void)state;
	assert_true(nt >= 2);
	for (int k = 0; k < 4; k++) {
		DIR *d = opendir(dirs[k]);
		struct dirent *de;

		assert_non_null(d);
		while ((de = readdir(d))) {
			size_t n = strlen(de->d_name);
			char path[512], line[1024];
			FILE *f;
			int ln = 0;

			if (n < 3 || (strcmp(de->d_name + n - 2, ".c") && strcmp(de->d_name + n - 2, ".h")))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[k], de->d_name);
			if (!strcmp(path, "analysis/matrix_experiments.c"))
				continue;
			f = fopen(path, "r");
			assert_non_null(f);
			files++;
			while (fgets(line, sizeof(line), f)) {
				ln++;
				for (int t = 0; t < nt; t++) {
					char lit[40], own[64];

					snprintf(lit, sizeof(lit), "\"%s\"", names[t]);
					snprintf(own, sizeof(own), "run/topology_%s.c", names[t]);
					/* a branch: the literal beside a comparison or the word
					 * topology ("dev" is also an option's and a key's name) */
					if (strstr(line, lit) && strcmp(path, own) &&
					    (strstr(line, "strcmp") || strcasestr(line, "topolog") ||
					     strstr(line, "=="))) {
						fprintf(stderr, "%s:%d names topology %s: %s", path, ln,
							names[t], line);
						bad++;
					}
				}
			}
			fclose(f);
		}
		closedir(d);
	}
	printf("# %d topologies, %d files read; %d lines name one\n", nt, files, bad);
	assert_true(files > 100);
	assert_int_equal(bad, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_include_reaches_up),
		cmocka_unit_test(test_no_program_needs_tracefs),
		cmocka_unit_test(test_no_circle_inside_a_folder),
		cmocka_unit_test(test_cmd_is_the_cli),
		cmocka_unit_test(test_no_branch_on_a_topology_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
