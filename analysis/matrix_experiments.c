/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_experiments.c: the kernel matrix's experiments (matrix_experiments.h). */
#include "matrix_experiments.h"

const struct matrix_exp matrix_exps[MATRIX_NEXP + MATRIX_NHOST] = {
	{ "veth-udp", "veth", "udp", "veth, UDP", false },
	{ "veth-xdp-live", "veth", "xdp-live", "veth, XDP-live", false },
	{ "virtio", "virtio", "udp", "virtio-net", false },
	{ "host-veth-udp", "veth", "udp", "veth, UDP (host)", true },
	{ "host-veth-xdp-live", "veth", "xdp-live", "veth, XDP-live (host)", true },
};
