/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* mode_refuse.c: xdpdrv refused where the driver has no native XDP (mode_refuse.h). */
#include "mode_refuse.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "run_ctx.h"

int mode_leave_out(struct run_ctx *c, enum drop_mode mode, const char *why)
{
	struct run_opts *o = &c->o;
	int n = 0, aa = -1;

	for (int i = 0; i < o->nmodes; i++) {
		if (o->modes[i] == mode)
			continue;
		if (i == o->aa_arm)
			aa = n;
		o->modes[n++] = o->modes[i];
	}
	if (!n || (n == 1 && aa == 0)) {
		snprintf(c->why, sizeof(c->why), "no mode is left to measure: %s", why);
		fprintf(stderr, "xdptc: %s\n", c->why);
		return -1;
	}
	o->nmodes = n;
	o->aa_arm = aa;
	return 0;
}

/* xdpdrv out of the run, with @why; returns 0, or -1 when no mode is left */
static int refuse(struct run_ctx *c, const char *dev, const char *why, json_t *refused)
{
	fprintf(stderr, "xdptc: xdpdrv refused on %s: the kernel says %s; the other modes run\n",
		dev, why);
	json_array_append_new(refused, json_pack("{s:s, s:s}", "mode", "xdpdrv", "reason", why));
	return mode_leave_out(c, MODE_XDPDRV, why);
}

int mode_refuse_xdpdrv(struct run_ctx *c, const char *dev, const json_t *info, json_t *refused)
{
	const json_t *native = json_object_get(info, "xdp_native");
	bool has = false;
	char err[256] = "", km[16];
	uint32_t id;

	for (int i = 0; i < c->o.nmodes; i++)
		has |= c->o.modes[i] == MODE_XDPDRV;
	if (!has || json_is_true(native))
		return 0;
	if (json_is_false(native)) {
		const char *why = json_string_value(json_object_get(info, "xdp_native_reason"));

		return refuse(c, dev, why ? why : "its driver has no native XDP", refused);
	}
	if (!dut_attach(&c->dut, MODE_XDPDRV, c->o.port, &id, km, err, sizeof(err))) {
		dut_detach(&c->dut);
		return 0;
	}
	return refuse(c, dev, err[0] ? err : "an xdpdrv attach was refused", refused);
}
