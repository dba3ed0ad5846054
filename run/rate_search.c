/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "rate_search.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

/* A rate whose check found a lossy repeat is lowered by this share */
#define RATE_LOWER_STEP 0.02

/* One trial at @rate, repeated while it stalls (at most RATE_STALL_REPEATS times). */
static int trial_unstalled(rate_probe_fn fn, void *ctx, uint64_t rate, struct rate_probe *p,
			   int *stalled_trials)
{
	int before = 0, e;

	for (;;) {
		memset(p, 0, sizeof(*p));
		p->rate_pps = rate;
		e = fn(ctx, rate, p);
		if (e)
			return e;
		if (p->lossless)
			p->stalled = false;
		if (!p->stalled || before == RATE_STALL_REPEATS)
			break;
		before++;
		(*stalled_trials)++;
	}
	p->stalled_before = before;
	return 0;
}

static int probe(rate_probe_fn fn, void *ctx, uint64_t rate, struct rate_search_result *res,
		 struct rate_probe **out)
{
	struct rate_probe *p = &res->probe[res->steps];
	int e = trial_unstalled(fn, ctx, rate, p, &res->stalled_trials);

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

/* @reps trials at @rate; returns the lossless ones (>= 0) or -errno. @clean_lossy (if not
 * NULL) counts the lossy ones whose loss no stall explains. */
static int lossless_of(rate_probe_fn fn, void *ctx, uint64_t rate, int reps, double *cpu,
		       int *stalled_trials, int *clean_lossy, struct rate_search_result *at_max)
{
	int ok = 0;

	if (clean_lossy)
		*clean_lossy = 0;

	for (int i = 0; i < reps; i++) {
		struct rate_probe p;
		int e = trial_unstalled(fn, ctx, rate, &p, stalled_trials);

		if (e)
			return e;
		ok += p.lossless;
		if (clean_lossy && !p.lossless && !p.stalled)
			(*clean_lossy)++;
		if (p.lossless && cpu)
			*cpu = p.cpu_ns_per_pkt;
		if (p.lossless && at_max && at_max->at_max_n < 32)
			at_max->at_max_cpu[at_max->at_max_n++] = p.cpu_ns_per_pkt;
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
		res->at_max_n = 0; /* the repeats at the rate that stands */
		n = lossless_of(fn, ctx, res->max_drop_pps, reps, &res->cpu_ns_per_pkt,
				&res->stalled_trials, NULL, res);
		if (n < 0)
			return n;
		res->confirm_lossless_at_max = n;
		if (n == reps || res->confirm_lowered == 3)
			break;
		res->confirm_lowered++;
		res->max_drop_pps = (uint64_t)((double)res->max_drop_pps * (1 - RATE_LOWER_STEP));
	}
	res->confirm_above_pps = (uint64_t)((double)res->max_drop_pps * (1 + margin));
	/* above it, only loss that no stall explains shows where the DUT's own limit is */
	n = lossless_of(fn, ctx, res->confirm_above_pps, reps, NULL, &res->stalled_trials,
			&res->confirm_lossy_above, NULL);
	if (n < 0)
		return n;
	res->confirmed = res->confirm_lossless_at_max == reps && res->confirm_lossy_above > 0;
	return 0;
}

double median_ci_order_stat(int n, double level, int *k)
{
	size_t kk;
	double c = stats_median_ci_order(n > 0 ? (size_t)n : 0, level, &kk);

	*k = (int)kk;
	return c;
}

int rate_saturation_add(struct rate_search_result *res, const struct rate_probe *p)
{
	if (res->sat_n >= (int)(sizeof(res->sat_reached) / sizeof(res->sat_reached[0])))
		return -E2BIG;
	res->sat_reached[res->sat_n++] = p->achieved_pps;
	res->confirm_lossless_at_max += p->lossless;
	if (p->lossless)
		res->cpu_ns_per_pkt = p->cpu_ns_per_pkt;
	if (p->lossless && res->at_max_n < 32)
		res->at_max_cpu[res->at_max_n++] = p->cpu_ns_per_pkt;
	return 0;
}

int rate_saturation_finish(struct rate_search_result *res, double margin)
{
	double sorted[32];
	int n = res->sat_n, k;

	if (!res->sender_bound || n < 6 || margin <= 0)
		return -EINVAL;
	memcpy(sorted, res->sat_reached, (size_t)n * sizeof(sorted[0]));
	qsort(sorted, (size_t)n, sizeof(sorted[0]), stats_cmp_double);
	res->saturation = true;
	res->confirm_reps = n;
	res->reached_min = sorted[0];
	res->reached_max = sorted[n - 1];
	res->max_drop_pps = (uint64_t)stats_median(sorted, (size_t)n);
	res->ci_level = median_ci_order_stat(n, 0.95, &k);
	if (k < 1)
		return -EINVAL;
	res->ci_lo = sorted[k - 1];
	res->ci_hi = sorted[n - k];
	res->confirmed = res->confirm_lossless_at_max == n &&
		res->ci_lo >= (double)res->max_drop_pps * (1 - margin) &&
		res->ci_hi <= (double)res->max_drop_pps * (1 + margin);
	return 0;
}
