/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * dut_internal.h: what the DUT's implementations share (dut.c dispatches to them):
 * the operations of a DUT, the local one (dut_local.c, also what the agent in a guest
 * runs), the remote one (dut_remote.c, a guest's agent over its control socket), and the
 * line protocol's reading and writing (dut_wire.c).
 */
#ifndef XDPTC_DUT_INTERNAL_H
#define XDPTC_DUT_INTERNAL_H

#include "dut.h"

/* The operations a DUT implements; dut.c's public functions call them. */
struct dut_ops {
	int (*attach)(struct dut *d, enum drop_mode mode, uint16_t port, uint32_t *prog_id,
		      char kernel_mode[16], char *err, size_t errlen);
	int (*detach)(struct dut *d);
	int (*snapshot)(struct dut *d, enum dut_pass pass, struct dut_snapshot *s);
	int (*counters_open)(struct dut *d, const int *order, bool cross_check,
			     struct dut_counters_info *info, char *err, size_t errlen);
	void (*counters_close)(struct dut *d);
	int (*bpf_stats)(struct dut *d, bool on);
	int (*exec)(struct dut *d, const char *cmd, int *status, char *out, size_t outlen);
	json_t *(*rx_path)(struct dut *d, char *err, size_t errlen);
	int (*hello)(struct dut *d, char *kernel, size_t len);
	int (*insns)(struct dut *d, bool open, struct dut_insns *out, char *err, size_t errlen);
	int (*insns_selfcheck)(struct dut *d, struct insn_check c[2], char *err, size_t errlen);
	int (*keep)(struct dut *d, bool on);
	void (*close)(struct dut *d);
};

extern const struct dut_ops dut_local_ops;  /* dut_local.c */
extern const struct dut_ops dut_remote_ops; /* dut_remote.c */

/* dut_write_all - write all of @buf to @fd (EINTR retried). Returns 0 or -errno. */
int dut_write_all(int fd, const char *buf, size_t len);

/* dut_read_line - one line (without its newline) from @fd into @line, buffered in @buf
 * (@buflen used of @cap); waits at most @timeout_ms (-1: forever). Returns its length,
 * -ETIMEDOUT, or -EPIPE at end of input. */
int dut_read_line(int fd, char *buf, size_t *buflen, size_t cap, char *line, size_t linecap,
		  int timeout_ms);

#endif
