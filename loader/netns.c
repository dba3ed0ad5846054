/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "netns.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

int netns_enter(const char *name, int *saved_fd)
{
	char path[PATH_MAX];
	int fd, err;

	*saved_fd = -1;
	if (!name || !*name)
		return 0;
	snprintf(path, sizeof(path), "/run/netns/%s", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	*saved_fd = open("/proc/thread-self/ns/net", O_RDONLY | O_CLOEXEC);
	if (*saved_fd < 0) {
		err = -errno;
		close(fd);
		return err;
	}
	if (setns(fd, CLONE_NEWNET)) {
		err = -errno;
		close(fd);
		close(*saved_fd);
		*saved_fd = -1;
		return err;
	}
	close(fd);
	return 0;
}

int netns_return(int saved_fd)
{
	int err = 0;

	if (saved_fd < 0)
		return 0;
	if (setns(saved_fd, CLONE_NEWNET))
		err = -errno;
	close(saved_fd);
	return err;
}

uint32_t netns_current_ino(void)
{
	struct stat st;

	if (stat("/proc/thread-self/ns/net", &st))
		return 0;
	return (uint32_t)st.st_ino;
}

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71 /* include/uapi/asm-generic/socket.h, Linux 5.14 */
#endif

uint64_t netns_current_cookie(void)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		return 0;
	if (getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) || len != sizeof(cookie))
		cookie = 0;
	close(fd);
	return cookie;
}
