/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_experiments.c: the kernel matrix's experiments (matrix_experiments.h). */
#include "matrix_experiments.h"

#include <stdio.h>
#include <string.h>

const struct matrix_exp matrix_exps[MATRIX_NEXP + MATRIX_NHOST] = {
	{ "veth-udp", "veth", "udp", "veth, UDP", false },
	{ "veth-xdp-live", "veth", "xdp-live", "veth, XDP-live", false },
	/* the virtio-net DUT fed by a second NIC of its guest (topology_nic.c) */
	{ "virtio", "nic", "udp", "virtio-net", false },
	/* a container's packets on veth and netkit, in one run: kernels with netkit only */
	{ "container", "container", "udp", "container: veth and netkit", false, ",netkit", 6, 7,
	  "netkit" },
	{ "host-veth-udp", "veth", "udp", "veth, UDP (host)", true },
	{ "host-veth-xdp-live", "veth", "xdp-live", "veth, XDP-live (host)", true },
};

bool matrix_exp_more_modes(const char *name)
{
	for (int x = 0; x < MATRIX_NEXP + MATRIX_NHOST; x++)
		if (!strcmp(matrix_exps[x].name, name))
			return matrix_exps[x].modes_more != NULL;
	return false;
}

char *matrix_exp_words(char *buf, size_t len, bool titles)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int x = 0; x < MATRIX_NEXP && n < len; x++) {
		const struct matrix_exp *e = &matrix_exps[x];
		const char *sep = !x ? "" : titles && x == MATRIX_NEXP - 1 ? " and " : ", ";

		n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, e->name);
		if (!titles || n >= len)
			continue;
		n += (size_t)snprintf(buf + n, len - n, " (%s", e->title);
		if (e->since_major && n < len)
			n += (size_t)snprintf(buf + n, len - n, "; kernels with %s, %d.%d or newer",
					      e->needs, e->since_major, e->since_minor);
		if (e->modes_more && n < len)
			n += (size_t)snprintf(buf + n, len - n, "; also measuring %s",
					      e->modes_more + (*e->modes_more == ','));
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, ")");
	}
	return buf;
}
