/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* dut_remote.h: a DUT in a guest (dut_remote.c), driven through its agent's control
 * socket with the line protocol of dut.h. */
#ifndef XDPTC_DUT_REMOTE_H
#define XDPTC_DUT_REMOTE_H

#include "dut.h"

/* dut_remote_connect - connect to an agent's control socket and synchronise (drop
 * stale lines). Returns 0, or -errno with a sentence in @err. */
int dut_remote_connect(struct dut *d, const char *sock_path, int timeout_ms, char *err,
		       size_t errlen);

#endif
