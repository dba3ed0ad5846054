/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_experiments.c: the kernel matrix's experiments (matrix_experiments.h). */
#include "matrix_experiments.h"

#include <stdio.h>
#include <string.h>

#include "matrix_exp_container.h"
#include "matrix_section.h"

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

const struct matrix_exp matrix_exps[] = {
	{ .name = "veth-udp", .title = "veth, UDP", .topology = "veth", .sender = "udp",
	  .engine = MATRIX_ICOUNT, .readme = true, .md = matrix_md_section },
	{ .name = "veth-xdp-live", .title = "veth, XDP-live", .topology = "veth",
	  .sender = "xdp-live", .engine = MATRIX_ICOUNT, .readme = true,
	  .md = matrix_md_section },
	/* the virtio-net DUT fed by a second NIC of its guest (topology_nic.c) */
	{ .name = "virtio", .title = "virtio-net", .topology = "nic", .sender = "udp",
	  .engine = MATRIX_ICOUNT, .readme = true, .nic = "virtio-net", .md = matrix_md_section },
	/* the driver matrix (issue 39): other qemu NIC models as the DUT, opt-in (--nics);
	 * xdpgeneric beside the matrix's modes, xdpdrv refused by the run where the driver
	 * has no native XDP */
	{ .name = "nic-vmxnet3", .title = "vmxnet3 (NIC model)", .topology = "nic",
	  .sender = "udp", .engine = MATRIX_ICOUNT, .modes_more = ",xdpgeneric",
	  .args = { "--nic", "vmxnet3" }, .nic = "vmxnet3", .opt_in = true, .md = matrix_md_nic },
	{ .name = "nic-e1000e", .title = "e1000e (NIC model)", .topology = "nic",
	  .sender = "udp", .engine = MATRIX_ICOUNT, .modes_more = ",xdpgeneric",
	  .args = { "--nic", "e1000e" }, .nic = "e1000e", .opt_in = true, .md = matrix_md_nic },
	{ .name = "nic-e1000", .title = "e1000 (NIC model)", .topology = "nic",
	  .sender = "udp", .engine = MATRIX_ICOUNT, .modes_more = ",xdpgeneric",
	  .args = { "--nic", "e1000" }, .nic = "e1000", .opt_in = true, .md = matrix_md_nic },
	/* igb is in qemu 8.0 and later: its runs use bookworm-backports' qemu 10.0.2 (its
	 * cells record that qemu, and --merge keeps them apart from 7.2's) */
	{ .name = "nic-igb", .title = "igb (NIC model)", .topology = "nic",
	  .sender = "udp", .engine = MATRIX_ICOUNT, .modes_more = ",xdpgeneric",
	  .args = { "--nic", "igb", "--qemu", "backports" }, .nic = "igb", .opt_in = true,
	  .md = matrix_md_nic },
	/* a container's packets on veth and netkit, in one run: kernels with netkit only */
	{ .name = "container", .title = "container: veth and netkit", .topology = "container",
	  .sender = "udp", .engine = MATRIX_ICOUNT, .since = { 6, 7, "netkit" },
	  .modes_more = ",netkit", .md = matrix_md_container },
	/* veth with every mode's packets in veth's NAPI (tc's through GRO too), where on
	 * veth-udp only xdpdrv's take it */
	{ .name = "veth-napi", .title = "veth, NAPI for every mode", .topology = "veth-napi",
	  .sender = "udp", .engine = MATRIX_ICOUNT, .md = matrix_md_section },
	/* a pod behind a routed host: the DUT's veth behind a router namespace (opt in:
	 * --experiments routed) */
	{ .name = "routed", .title = "routed: a veth behind a router", .topology = "routed",
	  .sender = "udp", .engine = MATRIX_ICOUNT, .opt_in = true, .md = matrix_md_section },
	{ .name = "host-veth-udp", .title = "veth, UDP (host)", .topology = "veth",
	  .sender = "udp", .engine = MATRIX_HOST, .beside = "veth-udp" },
	{ .name = "host-veth-xdp-live", .title = "veth, XDP-live (host)", .topology = "veth",
	  .sender = "xdp-live", .engine = MATRIX_HOST, .beside = "veth-xdp-live" },
};

const int matrix_nexps = (int)ARRAY_SIZE(matrix_exps);

_Static_assert(ARRAY_SIZE(matrix_exps) <= MATRIX_MAX_EXPS,
	       "more experiments than MATRIX_MAX_EXPS: raise it");

const struct matrix_exp *matrix_exp_find(const char *name)
{
	for (int x = 0; x < matrix_nexps; x++)
		if (!strcmp(matrix_exps[x].name, name))
			return &matrix_exps[x];
	return NULL;
}

bool matrix_exp_host(const char *name)
{
	const struct matrix_exp *x = matrix_exp_find(name);

	return x && x->engine == MATRIX_HOST;
}

/* " (TITLE[; kernels with NEEDS, MAJOR.MINOR or newer][; also measuring MODES])" of @e
 * into @buf (@len bytes). Returns what snprintf would have written. */
static size_t titled(char *buf, size_t len, const struct matrix_exp *e)
{
	size_t n = (size_t)snprintf(buf, len, " (%s", e->title);

	if (e->since.major && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; kernels with %s, %d.%d or newer",
				      e->since.needs, e->since.major, e->since.minor);
	if (e->modes_more && n < len)
		n += (size_t)snprintf(buf + n, len - n, "; also measuring %s",
				      e->modes_more + (*e->modes_more == ','));
	if (n < len)
		n += (size_t)snprintf(buf + n, len - n, ")");
	return n;
}

char *matrix_exp_words(char *buf, size_t len, bool titles)
{
	size_t n = 0;
	int last = -1, said = 0;

	for (int x = 0; x < matrix_nexps; x++)
		if (matrix_exps[x].engine == MATRIX_ICOUNT)
			last = x;
	buf[0] = '\0';
	for (int x = 0; x < matrix_nexps && n < len; x++) {
		const struct matrix_exp *e = &matrix_exps[x];
		const char *sep = !said ? "" : titles && x == last ? " and " : ", ";

		if (e->engine != MATRIX_ICOUNT)
			continue;
		said++;
		n += (size_t)snprintf(buf + n, len - n, "%s%s", sep, e->name);
		if (titles && n < len)
			n += titled(buf + n, len - n, e);
	}
	return buf;
}
