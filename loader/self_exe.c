/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* self_exe.c: the path of this program's binary (self_exe.h). */
#include "self_exe.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#define DELETED " (deleted)"

int self_exe(char *buf, size_t len)
{
	ssize_t n;
	size_t d = strlen(DELETED);

	if (!len)
		return -EINVAL;
	n = readlink("/proc/self/exe", buf, len - 1);
	if (n <= 0) {
		buf[0] = '\0';
		return n < 0 ? -errno : -ENOENT;
	}
	buf[n] = '\0';
	if ((size_t)n > d && !strcmp(buf + n - d, DELETED))
		buf[n - d] = '\0';
	return 0;
}
