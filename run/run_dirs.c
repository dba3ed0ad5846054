/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_dirs.c: a run's directory and its results files (run_dirs.h). */
#include "run_dirs.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report.h"

int run_make_parents(const char *path)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(tmp, 0755) && errno != EEXIST ? -errno : 0;
}

/* run.json and summary.md into @dir (the summary on stdout unless @quiet). Returns 0 or
 * -errno (said). */
int run_results_write(json_t *run, const char *dir, int quiet)
{
	char path[PATH_MAX + 32], err[PATH_MAX + 128];
	int e;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	e = report_write(run, dir, path, quiet, err, sizeof(err));
	if (e)
		fprintf(stderr, "xdptc: %s\n", err);
	return e;
}


/* Create a new, empty run directory @out_dir/@stamp-@topology (adding -2, -3, ... when
 * a run started in the same second has it) into @dir. Returns 0 or -errno. */
int run_dir_make(const char *out_dir, const char *stamp, const char *topology,
			char *dir, size_t len)
{
	int e = run_make_parents(out_dir);

	if (e)
		return e;
	for (int i = 1; i < 100; i++) {
		if (i == 1)
			snprintf(dir, len, "%s/%s-%s", out_dir, stamp, topology);
		else
			snprintf(dir, len, "%s/%s-%s-%d", out_dir, stamp, topology, i);
		if (!mkdir(dir, 0755))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Remove what run_results_write may have written, and the directory itself. */
void run_dir_remove(const char *dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/run.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/index.html", dir);
	unlink(path);
	rmdir(dir);
}
