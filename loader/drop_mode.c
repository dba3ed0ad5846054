/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* drop_mode.c: the modes' names (drop_mode.h). */
#include "drop_mode.h"

#include <errno.h>
#include <string.h>

static const char *const mode_names[MODE_NR] = {
	[MODE_NONE] = "none",
	[MODE_XDPDRV] = "xdpdrv",
	[MODE_XDPGENERIC] = "xdpgeneric",
	[MODE_TC] = "tc",
	[MODE_TCX] = "tcx",
	[MODE_NETKIT] = "netkit",
};

const char *drop_mode_name(enum drop_mode mode)
{
	return mode < MODE_NR ? mode_names[mode] : "?";
}

int drop_mode_parse(const char *s, enum drop_mode *out)
{
	for (int m = 0; m < MODE_NR; m++) {
		if (s && !strcmp(s, mode_names[m])) {
			*out = (enum drop_mode)m;
			return 0;
		}
	}
	return -EINVAL;
}

const char *drop_mode_choices(void)
{
	return "none, xdpdrv, xdpgeneric, tc, tcx, netkit";
}
