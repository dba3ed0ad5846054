/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_dirs.h: a run's results directory: made before anything is measured, written at
 * the end, removed when nothing in it is worth keeping. */
#ifndef XDPTC_RUN_DIRS_H
#define XDPTC_RUN_DIRS_H

#include <jansson.h>
#include <stddef.h>

/* run_make_parents - mkdir -p @path. Returns 0 or -errno. */
int run_make_parents(const char *path);

/* run_dir_make - create a new, empty run directory @out_dir/@stamp-@name (adding -2,
 * -3, ... when a run started in the same second has it) into @dir. Returns 0 or
 * -errno. */
int run_dir_make(const char *out_dir, const char *stamp, const char *name, char *dir,
		 size_t len);

/* run_results_write - run.json and summary.md into @dir (the summary on stdout unless
 * @quiet). Returns 0 or -errno (said on stderr). */
int run_results_write(json_t *run, const char *dir, int quiet);

/* run_dir_remove - remove what run_results_write may have written, and @dir itself. */
void run_dir_remove(const char *dir);

#endif
