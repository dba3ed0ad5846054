/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* xdp_drop.bpf.c: the UDP-drop classifier as an XDP program (xdpdrv or xdpgeneric). */
#include "drop_common.bpf.h"

SEC("xdp")
int xdp_drop(struct xdp_md *ctx)
{
	void *data = (void *)(long)ctx->data;
	void *data_end = (void *)(long)ctx->data_end;

	if (udp_classify(data, data_end, drop_port, 0) == UDP_VERDICT_DROP) {
		count_verdict(VERDICT_DROPPED);
		return XDP_DROP;
	}
	count_verdict(VERDICT_PASSED);
	return XDP_PASS;
}
