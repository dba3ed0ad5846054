/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "cleanup.h"

#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "attach_record.h"
#include "drop_prog.h"

/* Run one topology script's cleanup; echo its lines with @tag; count removals. */
static int run_script(const char *topodir, const char *script, const char *tag)
{
	char cmd[PATH_MAX + 64], line[512];
	int n = 0;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "sh '%s/%s' cleanup 2>&1", topodir, script);
	p = popen(cmd, "r");
	if (!p)
		return -errno;
	while (fgets(line, sizeof(line), p)) {
		fprintf(stderr, "%s%s", tag, line);
		n += !strncmp(line, "removing", 8);
	}
	return pclose(p) == 0 ? n : -EIO;
}

/* Is a run measuring now (its lock held)? */
static int run_lock_held(void)
{
	int fd = open(XDPTC_RUN_LOCK, O_RDONLY | O_CLOEXEC), held;

	if (fd < 0)
		return 0;
	held = flock(fd, LOCK_SH | LOCK_NB) != 0;
	close(fd);
	return held;
}

/* Does @name look like a run directory ("20261130T112135Z-veth", "...-virtio-2")? */
static int is_run_dir_name(const char *name)
{
	return strlen(name) > 17 && name[8] == 'T' && name[15] == 'Z' && name[16] == '-';
}

int cleanup_leftovers(const char *topologies_dir, const char *const *scripts,
		      const char *results_dir, const char *tag)
{
	int removed = 0, n;

	for (int i = 0; scripts[i]; i++) {
		n = run_script(topologies_dir, scripts[i], tag);
		if (n < 0)
			return n;
		removed += n;
	}
	n = attach_records_prune();
	if (n)
		fprintf(stderr, "%sremoved %d record(s) or pin(s) of attachments that are gone or "
				"were a killed run's\n", tag, n);
	removed += n;
	if (results_dir && !run_lock_held()) {
		n = cleanup_empty_run_dirs(results_dir, tag);
		if (n > 0)
			removed += n;
	}
	return removed;
}

int cleanup_empty_run_dirs(const char *results_dir, const char *tag)
{
	DIR *d = opendir(results_dir);
	struct dirent *de;
	int removed = 0;

	if (!d)
		return errno == ENOENT ? 0 : -errno;
	while ((de = readdir(d))) {
		char path[PATH_MAX];

		if (!is_run_dir_name(de->d_name))
			continue;
		snprintf(path, sizeof(path), "%s/%s", results_dir, de->d_name);
		if (!rmdir(path)) { /* only an empty one: a killed run's */
			fprintf(stderr, "%sremoved the empty run directory %s\n", tag, path);
			removed++;
		}
	}
	closedir(d);
	return removed;
}
