/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "block_delta.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"

double hodges_lehmann(const double *v, size_t n)
{
	size_t m = n * (n + 1) / 2, k = 0;
	double *w, r;

	if (!n || !v)
		return NAN;
	w = malloc(m * sizeof(*w));
	if (!w)
		return NAN;
	for (size_t i = 0; i < n; i++)
		for (size_t j = i; j < n; j++)
			w[k++] = (v[i] + v[j]) / 2;
	r = stats_median(w, m);
	free(w);
	return r;
}

static double lag1_autocorrelation(const double *d, size_t n)
{
	double m = stats_mean(d, n), num = 0, den = 0;

	for (size_t i = 0; i < n; i++)
		den += (d[i] - m) * (d[i] - m);
	for (size_t i = 0; i + 1 < n; i++)
		num += (d[i] - m) * (d[i + 1] - m);
	return den > 0 ? num / den : NAN;
}

double signed_rank_order(size_t n, double level, size_t *c)
{
	size_t m = n * (n + 1) / 2;
	double *cnt, total = ldexp(1.0, (int)n), cum = 0, cover = 0;

	*c = 0;
	if (n < 1 || n > 1000 || !(level > 0 && level < 1))
		return 0;
	cnt = calloc(m + 1, sizeof(*cnt));
	if (!cnt)
		return 0;
	/* cnt[t]: the subsets of ranks 1..n whose sum is t (the null distribution x 2^n) */
	cnt[0] = 1;
	for (size_t r = 1; r <= n; r++)
		for (size_t t = m; t >= r; t--)
			cnt[t] += cnt[t - r];
	/* P(T < c) = cum after t = c - 1 */
	for (size_t t = 0; t <= m; t++) {
		double below = cum / total; /* P(T < t) */

		if (1 - 2 * below >= level && t >= 1) {
			*c = t;
			cover = 1 - 2 * below;
		}
		if (1 - 2 * below < level)
			break;
		cum += cnt[t];
	}
	free(cnt);
	return *c ? cover : 0;
}

int block_delta_compute(const double *d, const size_t *block, size_t n, double level,
			struct block_delta *out)
{
	size_t nb = 0, used = 0, c = 0;
	double *est, *buf, mean, sd = 0;

	if (!d || !block || !out || !(level > 0 && level < 1))
		return -EINVAL;
	memset(out, 0, sizeof(*out));
	out->estimate = out->lo = out->hi = out->block_sd = out->pair_ac1 = NAN;
	out->block_min = out->block_max = NAN;
	for (size_t i = 0; i < n; i++) {
		if (!isfinite(d[i]))
			return -EINVAL;
		if (block[i] + 1 > nb)
			nb = block[i] + 1;
	}
	if (!n)
		return -ERANGE;
	est = calloc(nb, sizeof(*est));
	buf = calloc(n, sizeof(*buf));
	if (!est || !buf) {
		free(est);
		free(buf);
		return -ENOMEM;
	}
	for (size_t b = 0; b < nb; b++) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (block[i] == b)
				buf[k++] = d[i];
		if (k)
			est[used++] = hodges_lehmann(buf, k);
	}
	out->pairs = n;
	out->blocks = used;
	out->pair_ac1 = lag1_autocorrelation(d, n);
	mean = stats_mean(est, used);
	for (size_t b = 0; b < used; b++)
		sd += (est[b] - mean) * (est[b] - mean);
	out->block_sd = used > 1 ? sqrt(sd / (double)(used - 1)) : NAN;
	out->block_min = expm1(stats_min(est, used));
	out->block_max = expm1(stats_max(est, used));
	out->estimate = expm1(hodges_lehmann(est, used));
	out->coverage = signed_rank_order(used, level, &c);
	if (c) {
		size_t m = used * (used + 1) / 2, k = 0;
		double *w = malloc(m * sizeof(*w));

		if (!w) {
			free(est);
			free(buf);
			return -ENOMEM;
		}
		for (size_t i = 0; i < used; i++)
			for (size_t j = i; j < used; j++)
				w[k++] = (est[i] + est[j]) / 2;
		qsort(w, m, sizeof(*w), stats_cmp_double);
		out->lo = expm1(w[c - 1]);
		out->hi = expm1(w[m - c]);
		free(w);
	}
	free(est);
	free(buf);
	if (!c)
		return -ERANGE;
	return 0;
}
