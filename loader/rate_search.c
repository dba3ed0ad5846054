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

/* @reps trials at @rate; returns the lossless ones (>= 0) or -errno */
static int lossless_of(rate_probe_fn fn, void *ctx, uint64_t rate, int reps, double *cpu)
{
	int ok = 0;

	for (int i = 0; i < reps; i++) {
		struct rate_probe p = { .rate_pps = rate };
		int e = fn(ctx, rate, &p);

		if (e)
			return e;
		ok += p.lossless;
		if (p.lossless && cpu)
			*cpu = p.cpu_ns_per_pkt;
	}
	return ok;
}

int rate_search_confirm(rate_probe_fn fn, void *ctx, int reps, double margin,
			struct rate_search_result *res)
{
	int n;

	if (reps < 1 || margin <= 0)
		return -EINVAL;
	if (res->sender_bound || !res->max_drop_pps)
		return 0;
	res->confirm_reps = reps;
	for (;;) {
		n = lossless_of(fn, ctx, res->max_drop_pps, reps, &res->cpu_ns_per_pkt);
		if (n < 0)
			return n;
		res->confirm_lossless_at_max = n;
		if (n == reps || res->confirm_lowered == 3)
			break;
		res->confirm_lowered++;
		res->max_drop_pps = (uint64_t)((double)res->max_drop_pps * 0.98);
	}
	res->confirm_above_pps = (uint64_t)((double)res->max_drop_pps * (1 + margin));
	n = lossless_of(fn, ctx, res->confirm_above_pps, reps, NULL);
	if (n < 0)
		return n;
	res->confirm_lossy_above = reps - n;
	res->confirmed = res->confirm_lossless_at_max == reps && res->confirm_lossy_above > 0;
	return 0;
}
