/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "segment_delta.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "block_delta.h"
#include "stats.h"

double t_quantile_975(int df)
{
	static const double t[31] = {
		NAN,   12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
		2.201, 2.179,  2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080,
		2.074, 2.069,  2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
	};
	double z = 1.959964, v = df;

	if (df < 1)
		return NAN;
	if (df <= 30)
		return t[df];
	return z + (z * z * z + z) / (4 * v) + (5 * pow(z, 5) + 16 * z * z * z + 3 * z) /
						       (96 * v * v);
}

int segment_delta_compute(const double *block_est, const size_t *block_seg, size_t n,
			  double center, struct segment_delta *out)
{
	double buf[SEGMENT_MAX], *v;
	size_t ns = 0;

	memset(out, 0, sizeof(*out));
	out->sd = out->t = out->lo = out->hi = NAN;
	for (size_t i = 0; i < n; i++) {
		if (block_seg[i] >= SEGMENT_MAX)
			return -EINVAL;
		if (block_seg[i] + 1 > ns)
			ns = block_seg[i] + 1;
	}
	v = malloc((n ? n : 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t s = 0; s < ns; s++) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (block_seg[i] == s && isfinite(block_est[i]))
				v[k++] = block_est[i];
		if (!k)
			continue;
		out->blocks[out->segments] = k;
		out->est[out->segments++] = hodges_lehmann(v, k);
	}
	free(v);
	if (out->segments < 2)
		return -ERANGE;
	memcpy(buf, out->est, out->segments * sizeof(*buf));
	{
		double m = stats_mean(buf, out->segments), ss = 0;

		for (size_t s = 0; s < out->segments; s++)
			ss += (buf[s] - m) * (buf[s] - m);
		out->sd = sqrt(ss / (double)(out->segments - 1));
	}
	if (out->segments < SEGMENT_MIN_NEXT)
		return -ERANGE;
	out->t = t_quantile_975((int)out->segments - 1);
	{
		double hw = out->t * out->sd * sqrt(2.0 / (double)out->segments);

		out->lo = expm1(center - hw);
		out->hi = expm1(center + hw);
	}
	return 0;
}

size_t segment_of_rep(const json_t *run, long long rep)
{
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(run, "trials"), i, t) {
		const char *p = json_string_value(json_object_get(t, "pass"));

		if (p && !strcmp(p, "timing") &&
		    json_integer_value(json_object_get(t, "rep")) == rep)
			return (size_t)json_integer_value(json_object_get(t, "segment"));
	}
	return 0;
}

/* Whether @run's timing trials name their segments, and more than one. */
static bool has_segments(const json_t *run)
{
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (json_integer_value(json_object_get(t, "segment")) > 0)
			return true;
	return false;
}

void segment_delta_add(json_t *o, const json_t *run, const double *d, const size_t *block,
		       size_t n, double center)
{
	size_t nb = 0, used = 0, seg[SEGMENT_MAX * 64];
	double est[SEGMENT_MAX * 64], *buf;
	struct segment_delta sd;
	json_t *arr;
	int e;

	if (!has_segments(run) || !n)
		return;
	for (size_t i = 0; i < n; i++)
		if (block[i] + 1 > nb)
			nb = block[i] + 1;
	buf = malloc(n * sizeof(*buf));
	if (!buf)
		return;
	for (size_t b = 0; b < nb && used < SEGMENT_MAX * 64; b++) {
		size_t k = 0;

		for (size_t i = 0; i < n; i++)
			if (block[i] == b)
				buf[k++] = d[i];
		if (!k)
			continue;
		est[used] = hodges_lehmann(buf, k);
		seg[used++] = segment_of_rep(run, (long long)b);
	}
	free(buf);
	e = segment_delta_compute(est, seg, used, center, &sd);
	if (e && e != -ERANGE)
		return;
	arr = json_array();
	for (size_t s = 0; s < sd.segments; s++)
		json_array_append_new(arr, json_real(expm1(sd.est[s])));
	json_object_set_new(o, "segments", json_integer((json_int_t)sd.segments));
	json_object_set_new(o, "segment_estimates", arr);
	json_object_set_new(o, "segment_sd", isfinite(sd.sd) ? json_real(sd.sd) : json_null());
	json_object_set_new(o, "next_run_interval", json_string("t over segments"));
	json_object_set_new(o, "next_run_t", isfinite(sd.t) ? json_real(sd.t) : json_null());
	json_object_set_new(o, "next_run_lo", e ? json_null() : json_real(sd.lo));
	json_object_set_new(o, "next_run_hi", e ? json_null() : json_real(sd.hi));
}
