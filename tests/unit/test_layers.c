/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The layers (ARCHITECTURE.md): bpf/ <- probes/ <- loader/ <- analysis/ <- cmd/. Every
 * #include "..." of every source in them must name a header of its own layer or one
 * below; a generated skeleton (NAME.skel.h) is of the layer of its NAME.bpf.c, and
 * vmlinux.h of bpf/. Run from the source tree's top (make check does).
 */
#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

static const char *const layers[] = { "bpf", "probes", "loader", "analysis", "cmd" };
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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_include_reaches_up),
		cmocka_unit_test(test_no_program_needs_tracefs),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
