/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "rate_search.h"

#include <errno.h>
#include <string.h>

static int probe(rate_probe_fn fn, void *ctx, uint64_t rate, struct rate_search_result *res,
		 struct rate_probe **out)
{
	struct rate_probe *p = &res->probe[res->steps];
	int e;

	memset(p, 0, sizeof(*p));
	p->rate_pps = rate;
	e = fn(ctx, rate, p);
	if (e)
		return e;
	res->steps++;
	*out = p;
	return 0;
}

int rate_search(rate_probe_fn fn, void *ctx, double precision, int max_steps,
		struct rate_search_result *res)
{
	struct rate_probe *p;
	uint64_t lo = 0, hi;
	int e;

	memset(res, 0, sizeof(*res));
	if (max_steps > 32)
		max_steps = 32;
	if (max_steps < 2 || precision <= 0)
		return -EINVAL;
	e = probe(fn, ctx, 0, res, &p);
	if (e)
		return e;
	hi = (uint64_t)p->achieved_pps;
	if (p->lossless) {
		res->max_drop_pps = hi;
		res->sender_bound = true;
		res->cpu_ns_per_pkt = p->cpu_ns_per_pkt;
		return 0;
	}
	/* lossy at full speed: bisect between 0 (lossless by definition) and hi */
	while (res->steps < max_steps && (lo == 0 || (double)(hi - lo) > precision * (double)lo)) {
		uint64_t mid = lo ? lo + (hi - lo) / 2 : hi / 2;

		if (!mid)
			break;
		e = probe(fn, ctx, mid, res, &p);
		if (e)
			return e;
		if (p->lossless) {
			lo = mid;
			res->max_drop_pps = mid;
			res->cpu_ns_per_pkt = p->cpu_ns_per_pkt;
		} else {
			hi = mid;
		}
	}
	return 0;
}
