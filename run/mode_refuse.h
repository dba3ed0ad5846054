/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * mode_refuse.h: xdpdrv taken out of a run on a device whose driver has no native XDP,
 * with the kernel's reason, the other modes kept (the dev and nic topologies).
 */
#ifndef XDPTC_MODE_REFUSE_H
#define XDPTC_MODE_REFUSE_H

#include <jansson.h>

#include "drop_mode.h"

struct run_ctx;

/* mode_leave_out - take @mode out of c->o.modes, the A/A arm kept on its mode. Returns 0,
 * or -1 when no mode is left to measure (c->why says so, with @why, and it is said on
 * stderr). */
int mode_leave_out(struct run_ctx *c, enum drop_mode mode, const char *why);

/* mode_refuse_xdpdrv - when the run measures xdpdrv on @dev (in namespace @ns, NULL:
 * this one) and its driver announces no native XDP (@info's "xdp_native", from
 * dev_report(): netdev xdp-features), or, where the kernel cannot say (before Linux 6.3),
 * an xdpdrv attach on c->dut is refused (it is detached at once when it succeeds), take
 * xdpdrv out of c->o.modes and append {"mode": "xdpdrv", "reason": ...} to @refused
 * (run.json's "modes_refused"). Returns 0, or -1 when no mode is left (said why, in
 * c->why). */
int mode_refuse_xdpdrv(struct run_ctx *c, const char *dev, const json_t *info, json_t *refused);

#endif
