/*
 * stats.c - descriptive statistics of measurement repetitions and the distribution-free
 * interval of a paired median ratio. See stats.h for the API contract.
 */
#include "stats.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int stats_cmp_double(const void *pa, const void *pb)
{
	double x = *(const double *)pa;
	double y = *(const double *)pb;

	if (isnan(x) || isnan(y))
		return isnan(x) - isnan(y);
	return (x > y) - (x < y);
}

static void sort_doubles(double *v, size_t n)
{
	qsort(v, n, sizeof(*v), stats_cmp_double);
}

/* Sorted copy of v, or NULL on n == 0 / allocation failure / overflow. */
static double *sorted_copy(const double *v, size_t n)
{
	double *c;

	if (!v || n == 0 || n > SIZE_MAX / sizeof(*c))
		return NULL;
	c = malloc(n * sizeof(*c));
	if (!c)
		return NULL;
	memcpy(c, v, n * sizeof(*c));
	sort_doubles(c, n);
	return c;
}

/* Median of an already sorted, non-empty array. */
static double median_sorted(const double *x, size_t n)
{
	if (n % 2)
		return x[n / 2];
	return (x[n / 2 - 1] + x[n / 2]) / 2.0;
}

/* Type-7 percentile of an already sorted, non-empty array; p in [0, 1]. */
static double percentile_sorted(const double *x, size_t n, double p)
{
	double h = p * (double)(n - 1);
	size_t k = (size_t)h; /* h >= 0, so truncation == floor */
	double f = h - (double)k;

	if (k + 1 >= n)
		return x[n - 1];
	return x[k] + f * (x[k + 1] - x[k]);
}

double stats_median(const double *v, size_t n)
{
	double *c = sorted_copy(v, n);
	double m;

	if (!c)
		return NAN;
	m = median_sorted(c, n);
	free(c);
	return m;
}

double stats_percentile(const double *v, size_t n, double p)
{
	double *c;
	double r;

	if (!(p >= 0.0 && p <= 1.0)) /* also rejects NaN */
		return NAN;
	c = sorted_copy(v, n);
	if (!c)
		return NAN;
	r = percentile_sorted(c, n, p);
	free(c);
	return r;
}

/* The smallest (@sign -1) or largest (@sign +1) of @v, NaN when there is none. */
static double extreme(const double *v, size_t n, int sign)
{
	double m;

	if (!v || n == 0)
		return NAN;
	m = v[0];
	for (size_t i = 1; i < n; i++)
		if (sign * (v[i] - m) > 0)
			m = v[i];
	return m;
}

double stats_min(const double *v, size_t n)
{
	return extreme(v, n, -1);
}

double stats_max(const double *v, size_t n)
{
	return extreme(v, n, +1);
}

double stats_mean(const double *v, size_t n)
{
	double sum = 0.0;

	if (!v || n == 0)
		return NAN;
	for (size_t i = 0; i < n; i++)
		sum += v[i];
	return sum / (double)n;
}

double stats_cv(const double *v, size_t n)
{
	double mean, ss = 0.0;

	if (!v || n < 2)
		return NAN;
	mean = stats_mean(v, n);
	if (mean == 0.0)
		return NAN;
	for (size_t i = 0; i < n; i++) {
		double d = v[i] - mean;

		ss += d * d;
	}
	return sqrt(ss / (double)(n - 1)) / mean;
}

/* --- a generator for seeds and shuffles --------------------------------- */

uint64_t stats_splitmix64(uint64_t *x)
{
	uint64_t z = (*x += UINT64_C(0x9e3779b97f4a7c15));

	z = (z ^ (z >> 30)) * UINT64_C(0xbf58476d1ce4e5b9);
	z = (z ^ (z >> 27)) * UINT64_C(0x94d049bb133111eb);
	return z ^ (z >> 31);
}

bool stats_interval_excludes_zero(const struct stats_interval *iv)
{
	if (!iv)
		return false;
	return iv->lo > 0.0 || iv->hi < 0.0;
}

/* --- distribution-free interval of a median --------------------------- */

double stats_median_ci_order(size_t n, double level, size_t *k)
{
	/* P(Bin(n, 1/2) <= j), summed term by term; each term from its logarithm, since
	 * 2^-n underflows for n above about 1,070 */
	double cdf = 0, best = 0, lg_n1 = lgamma((double)n + 1), ln2n = (double)n * log(2.0);

	*k = 0;
	for (size_t j = 0; 2 * (j + 1) <= n; j++) {
		/* [x(j+1), x(n-j)] covers the median unless j+1 or more of n fall on one
		 * side of it: 1 - 2 P(Bin <= j) */
		cdf += exp(lg_n1 - lgamma((double)j + 1) - lgamma((double)(n - j) + 1) - ln2n);
		if (1 - 2 * cdf < level)
			break;
		*k = j + 1;
		best = 1 - 2 * cdf;
	}
	return best;
}

int stats_paired_rel_delta_exact(const double *a, const double *b, size_t n, double level,
				 struct stats_interval *out, double *coverage, size_t *k)
{
	double *r;

	if (!a || !b || !out || !coverage || !k || n < 1 || !(level > 0.0 && level < 1.0))
		return -EINVAL;
	for (size_t i = 0; i < n; i++)
		if (!isfinite(a[i]) || !isfinite(b[i]) || a[i] <= 0.0 || !isfinite(b[i] / a[i]))
			return -EINVAL;
	r = calloc(n, sizeof(*r));
	if (!r)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		r[i] = b[i] / a[i];
	sort_doubles(r, n);
	*coverage = stats_median_ci_order(n, level, k);
	out->estimate = median_sorted(r, n) - 1.0;
	out->lo = *k ? r[*k - 1] - 1.0 : NAN;
	out->hi = *k ? r[n - *k] - 1.0 : NAN;
	free(r);
	return *k ? 0 : -ERANGE;
}
