/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* qemu_from.c: which qemu runs the guests (qemu_from.h). */
#include "qemu_from.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_opts.h"

const char *qemu_from_word(int i)
{
	static const char *const w[] = { "installed", "backports" };

	return i >= 0 && i < (int)(sizeof(w) / sizeof(w[0])) ? w[i] : NULL;
}

const char *qemu_from_binary(const char *topodir, int from, char *buf, size_t len)
{
	char cmd[4200];
	FILE *p;
	int ok;

	if (from != QEMU_BACKPORTS) {
		snprintf(buf, len, "%s", getenv("QEMU") ? getenv("QEMU") : "qemu-system-x86_64");
		return buf;
	}
	snprintf(cmd, sizeof(cmd), "sh '%s/qemu_backports.sh'", topodir ? topodir : "topologies");
	p = popen(cmd, "r");
	if (!p)
		return NULL;
	buf[0] = '\0';
	ok = fgets(buf, (int)len, p) != NULL;
	ok = pclose(p) == 0 && ok;
	buf[strcspn(buf, "\n")] = '\0';
	return ok && buf[0] ? buf : NULL;
}
