/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* dut_wire.h: the DUT line protocol's reading and writing (dut_wire.c), for both ends:
 * the host's remote DUT and the guest's agent. */
#ifndef XDPTC_DUT_WIRE_H
#define XDPTC_DUT_WIRE_H

#include <stddef.h>

/* dut_write_all - write all of @buf to @fd (EINTR retried). Returns 0 or -errno. */
int dut_write_all(int fd, const char *buf, size_t len);

/* dut_read_line - one line (without its newline) from @fd into @line, buffered in @buf
 * (@buflen used of @cap); waits at most @timeout_ms (-1: forever). Returns its length,
 * -ETIMEDOUT, or -EPIPE at end of input. */
int dut_read_line(int fd, char *buf, size_t *buflen, size_t cap, char *line, size_t linecap,
		  int timeout_ms);

#endif
