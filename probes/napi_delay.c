/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "napi_delay.h"

#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "napi_delay.skel.h"

int napi_delay_open(struct napi_delay *nd, const pid_t *pids, int n, char *err, size_t errlen)
{
	struct napi_delay_bpf *skel;
	int e;

	memset(nd, 0, sizeof(*nd));
	if (n < 1 || n > NAPI_DELAY_MAX_PIDS) {
		snprintf(err, errlen, "napi_delay: %d NAPI threads to watch (1 to %d)", n,
			 NAPI_DELAY_MAX_PIDS);
		return -EINVAL;
	}
	skel = napi_delay_bpf__open_and_load();
	if (!skel) {
		e = -errno;
		snprintf(err, errlen, "napi_delay: loading the sched and napi tracepoint probe failed: %s",
			 strerror(-e));
		return e;
	}
	for (int i = 0; i < n; i++)
		skel->bss->napi_pids[i] = (__u32)pids[i];
	e = napi_delay_bpf__attach(skel);
	if (e) {
		snprintf(err, errlen, "napi_delay: attaching to the raw tracepoints (tp_btf) "
				      "sched_waking, sched_switch and napi_poll failed: %s",
			 strerror(-e));
		napi_delay_bpf__destroy(skel);
		return e;
	}
	nd->skel = skel;
	nd->npids = n;
	return 0;
}

void napi_delay_reset(struct napi_delay *nd)
{
	struct napi_delay_bpf *skel = nd->skel;

	if (!skel)
		return;
	memset(&skel->bss->stats, 0, sizeof(skel->bss->stats));
}

void napi_delay_read(const struct napi_delay *nd, struct napi_wait_stats *out)
{
	const struct napi_delay_bpf *skel = nd->skel;

	memset(out, 0, sizeof(*out));
	if (skel)
		memcpy(out, (const void *)&skel->bss->stats, sizeof(*out));
	out->max_culprit[sizeof(out->max_culprit) - 1] = '\0';
}

void napi_delay_close(struct napi_delay *nd)
{
	if (nd->skel)
		napi_delay_bpf__destroy(nd->skel);
	nd->skel = NULL;
	nd->npids = 0;
}

uint64_t ring_overflow_wait_ns(double rate_pps)
{
	return rate_pps > 0 ? (uint64_t)((double)VETH_RING_FRAMES * 1e9 / rate_pps) : 0;
}
