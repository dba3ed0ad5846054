/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* netns.h: enter a named network namespace (/run/netns/NAME) from this thread. */
#ifndef XDPTC_NETNS_H
#define XDPTC_NETNS_H

#include <stdint.h>

/*
 * netns_enter - move the calling thread into network namespace @name.
 * @name: a name under /run/netns (as made by `ip netns add`), or NULL/"" to stay.
 * @saved_fd: out, an fd of the namespace the thread was in (for netns_return), or -1
 *            when @name was NULL/"".
 * Uses setns(2), which keeps this process's mounts (bpffs, tracefs) visible, unlike
 * `ip netns exec`. Returns 0, or -errno (-ENOENT: no such namespace).
 */
int netns_enter(const char *name, int *saved_fd);

/* netns_return - go back to the namespace saved by netns_enter and close @saved_fd.
 * A @saved_fd of -1 is a no-op. Returns 0 or -errno. */
int netns_return(int saved_fd);

/* netns_current_ino - inode number of the calling thread's network namespace
 * (what the kernel calls net->ns.inum), or 0 on error. */
uint32_t netns_current_ino(void);

/* netns_current_cookie - the calling thread's network namespace cookie
 * (SO_NETNS_COOKIE of a socket made here; net->net_cookie): unique for the boot, never
 * reused, unlike the inode number. 0 when the kernel has none (before Linux 5.14). */
uint64_t netns_current_cookie(void);

#endif
