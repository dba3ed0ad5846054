/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* dut_wire.c: the DUT protocol's lines (dut_internal.h). */
#include "dut_wire.h"

#include <errno.h>
#include <poll.h>
#include <string.h>
#include <unistd.h>

int dut_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t w = write(fd, buf, len);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -errno;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

int dut_read_line(int fd, char *buf, size_t *buflen, size_t cap, char *line, size_t linecap,
		     int timeout_ms)
{
	for (;;) {
		char *nl = memchr(buf, '\n', *buflen);
		struct pollfd p = { .fd = fd, .events = POLLIN };
		ssize_t r;
		int pr;

		if (nl) {
			size_t n = (size_t)(nl - buf);

			if (n >= linecap)
				n = linecap - 1;
			memcpy(line, buf, n);
			line[n] = '\0';
			*buflen -= (size_t)(nl - buf) + 1;
			memmove(buf, nl + 1, *buflen);
			return (int)n;
		}
		if (*buflen == cap) /* a line longer than the buffer: drop it */
			*buflen = 0;
		pr = poll(&p, 1, timeout_ms);
		if (pr < 0 && errno == EINTR)
			continue;
		if (pr == 0)
			return -ETIMEDOUT;
		r = read(fd, buf + *buflen, cap - *buflen);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return -EPIPE;
		*buflen += (size_t)r;
	}
}
