/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * block_delta.h: the paired delta of an alternating timing pass (docs/method.md, "The
 * timing schedule"): many short windows, paired window by window, grouped in blocks.
 *
 * Adjacent window pairs are not independent (the machine's noise comes in stretches, the
 * windows of one attach share them, and the two rounds of a counterbalanced pair share
 * one random order), so the interval is computed over blocks, whose arm orders are drawn
 * independently: each block's estimate is the Hodges-Lehmann estimate (the median of the
 * Walsh averages (x_i + x_j) / 2, i <= j) of its pairs' log ratios, robust to an
 * outlying window and nearly as efficient as a mean; the delta is the Hodges-Lehmann
 * estimate over the blocks, and its interval the Wilcoxon signed-rank interval over them
 * (order statistics of the blocks' Walsh averages, from the exact null distribution).
 * For an A/A arm that interval is exact by randomization: swapping the two identical
 * arms' labels in a block is as likely as not and flips the sign of its estimate, block
 * by block independently, whatever the noise. The same function with every pair a
 * block of its own gives the interval as if the pairs were independent: run.json keeps it
 * beside the real one, and the coverage test shows that it is too narrow.
 */
#ifndef XDPTC_ANALYSIS_BLOCK_DELTA_H
#define XDPTC_ANALYSIS_BLOCK_DELTA_H

#include <stddef.h>

struct block_delta {
	size_t pairs;         /* window pairs used */
	size_t blocks;        /* blocks with at least one pair */
	double estimate;      /* exp(Hodges-Lehmann of the block estimates) - 1: -0.28 is 28%
			       * lower */
	double lo, hi;        /* the signed-rank interval, relative like the estimate */
	double coverage;      /* its exact coverage under symmetry (>= the level asked) */
	double block_sd;      /* the block estimates' standard deviation (log ratio) */
	double block_min, block_max; /* the smallest and largest block estimate, relative */
	double pair_ac1;      /* lag-1 autocorrelation of the pairs' log ratios in order */
};

/* hodges_lehmann - the median of the n(n+1)/2 Walsh averages (v[i] + v[j]) / 2, i <= j,
 * of @v[0..n-1]. Returns NaN for n == 0 or when memory runs out. */
double hodges_lehmann(const double *v, size_t n);

/* signed_rank_order - for @n values, the largest c such that [W(c), W(M+1-c)] of the
 * M = n(n+1)/2 sorted Walsh averages (1-based) covers the center of a symmetric
 * distribution with probability at least @level: 1 - 2 P(T < c), T the signed-rank
 * statistic (its exact null distribution). Stores c (0: no interval reaches @level,
 * n < 6 for 0.95) and returns the exact coverage (0 when none). */
double signed_rank_order(size_t n, double level, size_t *c);

/*
 * block_delta_compute - the delta of @n pairs whose log ratios ln(b / a) are @d[i], pair
 * i in block @block[i] (blocks numbered from 0, pairs in time order), at confidence
 * @level (0.95).
 * Returns 0; -ERANGE when too few blocks have pairs for an interval (6 for 0.95;
 * out->estimate is still set when any has, the interval NaN); -EINVAL on bad
 * arguments; -ENOMEM.
 */
int block_delta_compute(const double *d, const size_t *block, size_t n, double level,
			struct block_delta *out);

#endif
