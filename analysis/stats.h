/*
 * stats.h - descriptive statistics of measurement repetitions (median, percentile, min,
 * max, mean, coefficient of variation), the distribution-free interval of a median from
 * order statistics and the paired relative delta built on it (what the summary prints
 * for a run's trials), and splitmix64 for seeds and shuffles.
 *
 * All functions are units-agnostic: they operate on plain doubles and
 * return results in the units of their inputs (median, min, max, mean,
 * percentile) or as dimensionless ratios (cv, relative delta).
 *
 * No function modifies its input arrays. Inputs are expected to be finite;
 * for the descriptive functions a NaN input does not cause undefined
 * behaviour but the result is unspecified (median/percentile order NaN
 * above +inf). Array pointers may be NULL only when n == 0.
 *
 * Percentile definition (stats_percentile):
 * let x[0] <= ... <= x[n-1] be the sorted values, h = p * (n - 1),
 * k = floor(h), f = h - k. Then
 *     P(p) = x[k] + f * (x[k+1] - x[k])   if k + 1 < n
 *     P(p) = x[n-1]                       otherwise (p == 1)
 * This is linear interpolation between closest ranks (Hyndman & Fan
 * type 7, the default of numpy.percentile and R's quantile()).
 */
#ifndef XDPTC_ANALYSIS_STATS_H
#define XDPTC_ANALYSIS_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* stats_cmp_double - qsort's comparison of two doubles in increasing order, a total
 * order: NaN sorts above everything, including +inf. */
int stats_cmp_double(const void *a, const void *b);

/*
 * stats_median - median of v[0..n-1].
 * @v: values (not modified; a sorted copy is made internally).
 * @n: number of values.
 * Returns the middle value for odd n, the mean of the two middle values
 * for even n. Returns NAN when n == 0, v == NULL, or the internal copy
 * cannot be allocated.
 */
double stats_median(const double *v, size_t n);

/*
 * stats_min / stats_max - smallest / largest of v[0..n-1].
 * @v: values (not modified).
 * @n: number of values.
 * Returns NAN when n == 0 or v == NULL.
 */
double stats_min(const double *v, size_t n);
double stats_max(const double *v, size_t n);

/*
 * stats_mean - arithmetic mean of v[0..n-1].
 * @v: values (not modified).
 * @n: number of values.
 * Returns NAN when n == 0 or v == NULL.
 */
double stats_mean(const double *v, size_t n);

/*
 * stats_cv - coefficient of variation of v[0..n-1].
 * @v: values (not modified).
 * @n: number of values.
 * Returns s / mean, where s is the sample standard deviation
 * sqrt(sum((v[i] - mean)^2) / (n - 1)). Dimensionless; its sign follows
 * the sign of the mean. Returns NAN when n < 2, v == NULL, or mean == 0.
 */
double stats_cv(const double *v, size_t n);

/*
 * stats_percentile - p-quantile of v[0..n-1] with linear interpolation
 * between closest ranks (exact definition at the top of this file).
 * @v: values (not modified; a sorted copy is made internally).
 * @n: number of values.
 * @p: quantile in [0, 1]; 0 gives the minimum, 1 the maximum,
 *     0.5 the median.
 * Returns NAN when n == 0, v == NULL, p is outside [0, 1] or NaN, or the
 * internal copy cannot be allocated.
 */
double stats_percentile(const double *v, size_t n, double p);

/* A point estimate with a confidence interval [lo, hi]. */
struct stats_interval {
	double estimate;
	double lo;
	double hi;
};

/*
 * stats_splitmix64 - the next value of the splitmix64 sequence whose state is *@x
 * (Steele, Lea, Flood): a fast, well-mixed 64-bit generator for seeding and shuffles.
 */
uint64_t stats_splitmix64(uint64_t *x);

/*
 * stats_median_ci_order - the distribution-free confidence interval of a median from
 * order statistics (the sign test's): for @n values, the largest k such that
 * [x(k), x(n+1-k)] (1-based, sorted) covers the true median with probability at least
 * @level, whatever the distribution: 1 - 2 P(Bin(n, 1/2) <= k - 1).
 * Stores k in @k (0 when no interval reaches @level: n < 6 for 0.95) and returns its
 * exact coverage (0 when none). For n = 10, level 0.95: k = 2, 0.979; n = 21: k = 6,
 * 0.973.
 */
double stats_median_ci_order(size_t n, double level, size_t *k);

/*
 * stats_paired_rel_delta_exact - paired relative delta of B against A with the
 * distribution-free interval of the median ratio (stats_median_ci_order).
 * @a, @b:     paired measurements; pair i is (a[i], b[i]). Not modified.
 * @n:         number of pairs.
 * @level:     the least coverage wanted, in (0, 1), e.g. 0.95.
 * @out:       estimate = median(b[i] / a[i]) - 1 (-0.28: B is 28% lower than A);
 *             lo, hi = the k-th smallest and k-th largest ratio - 1 (NaN when k = 0).
 * @coverage:  the interval's exact coverage of the true median ratio (>= @level).
 * @k:         the order statistic used; 0 when no interval reaches @level.
 * Returns 0; -ERANGE when no interval reaches @level for so few pairs (@out->estimate
 * is still set); -EINVAL on bad arguments (n < 1, a[i] <= 0, non-finite values);
 * -ENOMEM.
 */
int stats_paired_rel_delta_exact(const double *a, const double *b, size_t n, double level,
				 struct stats_interval *out, double *coverage, size_t *k);

/*
 * stats_interval_excludes_zero - whether 0 lies strictly outside [lo, hi].
 * @iv: interval (may be NULL).
 * Returns true if lo > 0 or hi < 0; false otherwise, including when @iv is
 * NULL or lo/hi is NaN.
 */
bool stats_interval_excludes_zero(const struct stats_interval *iv);

#endif /* XDPTC_ANALYSIS_STATS_H */
