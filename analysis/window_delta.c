/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "window_delta.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "block_delta.h"
#include "json_read.h"
#include "segment_delta.h"
#include "stats.h"

static const json_t *timing_windows(const json_t *run, const char *mode, json_int_t rep)
{
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(run, "trials"), i, t) {
		const char *p = json_string_value(json_object_get(t, "pass"));
		const char *m = json_string_value(json_object_get(t, "mode"));

		if (p && m && !strcmp(p, "timing") && !strcmp(m, mode) &&
		    json_integer_value(json_object_get(t, "rep")) == rep)
			return json_object_get(t, "windows");
	}
	return NULL;
}

int window_independent_interval(const double *d, size_t n, double level, double *lo,
				double *hi)
{
	size_t k = 0;
	double *sorted;

	if (!n || stats_median_ci_order(n, level, &k) <= 0 || !k)
		return -ERANGE;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, d, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), stats_cmp_double);
	*lo = expm1(sorted[k - 1]);
	*hi = expm1(sorted[n - k]);
	free(sorted);
	return 0;
}

bool window_pass_alternates(const json_t *run)
{
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (json_is_object(json_object_get(t, "windows")))
			return true;
	return false;
}

/* Window @i's time per packet of @w, or NaN when it is not valid. */
static double window_per_pkt(const json_t *w, size_t i)
{
	double pkts = json_number_value(json_array_get(json_object_get(w, "pkts"), i));
	double cpu = json_number_value(json_array_get(json_object_get(w, "cpu_ns"), i));

	if (!json_is_true(json_array_get(json_object_get(w, "valid"), i)) || !(pkts > 0) ||
	    !(cpu > 0))
		return NAN;
	return cpu / pkts;
}

long window_pairs(const json_t *run, const char *a, const char *b, double **d, size_t **block)
{
	json_int_t maxrep = -1;
	size_t i, n = 0, cap = 0;
	json_t *t;

	*d = NULL;
	*block = NULL;
	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (json_object_get(t, "windows") &&
		    json_integer_value(json_object_get(t, "rep")) > maxrep)
			maxrep = json_integer_value(json_object_get(t, "rep"));
	for (json_int_t rep = 0; rep <= maxrep; rep++) {
		const json_t *wa = timing_windows(run, a, rep), *wb = timing_windows(run, b, rep);
		size_t na = json_array_size(json_object_get(wa, "pkts"));
		size_t nb = json_array_size(json_object_get(wb, "pkts"));

		for (size_t k = 0; k < na && k < nb; k++) {
			double va = window_per_pkt(wa, k), vb = window_per_pkt(wb, k);

			if (!isfinite(va) || !isfinite(vb))
				continue;
			if (n == cap) {
				size_t nc = cap ? 2 * cap : 1024;
				double *nd = realloc(*d, nc * sizeof(**d));
				size_t *nbk;

				if (nd)
					*d = nd;
				nbk = nd ? realloc(*block, nc * sizeof(**block)) : NULL;
				if (!nbk) {
					free(*d);
					free(*block);
					*d = NULL;
					*block = NULL;
					return -ENOMEM;
				}
				*block = nbk;
				cap = nc;
			}
			(*d)[n] = log(vb / va);
			(*block)[n++] = (size_t)rep;
		}
	}
	return (long)n;
}

/* @o has no interval, for the reason @why: its buffers @d and @block freed. */
static json_t *no_interval(json_t *o, const char *why, double *d, size_t *block)
{
	json_object_set_new(o, "ci95_lo", json_null());
	json_object_set_new(o, "ci95_hi", json_null());
	json_object_set_new(o, "real", json_false());
	json_object_set_new(o, "reason", json_string(why));
	free(d);
	free(block);
	return o;
}

json_t *window_delta_json(const json_t *run, const char *metric, const char *a, const char *b)
{
	json_t *o = json_object();
	struct block_delta bd;
	double *d;
	size_t *block;
	long n = window_pairs(run, a, b, &d, &block);
	int e;

	json_object_set_new(o, "metric", json_string(metric));
	json_object_set_new(o, "a", json_string(a));
	json_object_set_new(o, "b", json_string(b));
	json_object_set_new(o, "pairs", json_integer(n > 0 ? n : 0));
	json_object_set_new(o, "interval", json_string("signed-rank over blocks"));
	e = n > 0 ? block_delta_compute(d, block, (size_t)n, 0.95, &bd) : -ERANGE;
	json_object_set_new(o, "blocks", json_integer(n > 0 ? (json_int_t)bd.blocks : 0));
	if (e && e != -ERANGE) {
		json_object_set_new(o, "rel_delta", json_null());
		return no_interval(o, "the windows hold values that cannot be compared", d, block);
	}
	json_object_set_new(o, "rel_delta", n > 0 ? json_real(bd.estimate) : json_null());
	if (n > 0) {
		json_object_set_new(o, "pair_min", json_real(bd.block_min));
		json_object_set_new(o, "pair_max", json_real(bd.block_max));
		json_object_set_new(o, "pair_autocorrelation",
				    isfinite(bd.pair_ac1) ? json_real(bd.pair_ac1) : json_null());
	}
	if (e == -ERANGE)
		return no_interval(o, "fewer than 6 blocks: no interval reaches 95%", d, block);
	json_object_set_new(o, "ci95_lo", json_real(bd.lo));
	json_object_set_new(o, "ci95_hi", json_real(bd.hi));
	json_object_set_new(o, "ci_coverage", json_real(bd.coverage));
	json_object_set_new(o, "real", json_boolean(bd.lo > 0 || bd.hi < 0));
	/* the segments' spread and the next run's interval (segment_delta.h) */
	segment_delta_add(o, run, d, block, (size_t)n, log1p(bd.estimate));
	/* as if every pair were independent: the order-statistics interval of the median
	 * pair (what the classic schedule's pairs get) */
	{
		double ilo, ihi;

		if (!window_independent_interval(d, (size_t)n, 0.95, &ilo, &ihi)) {
			json_object_set_new(o, "independent_ci95_lo", json_real(ilo));
			json_object_set_new(o, "independent_ci95_hi", json_real(ihi));
		}
	}
	free(d);
	free(block);
	return o;
}

void window_schedule_md(const json_t *run, FILE *out)
{
	const json_t *ts = json_object_get(run, "timing_schedule");
	const json_t *nz = json_object_get(ts, "noise"), *ac = json_object_get(nz, "autocorrelation");
	const json_t *l0 = json_array_get(json_object_get(nz, "lengths"), 0);
	const json_t *d = json_object_get(l0, "pair_sd_by_lag");
	size_t nd = json_array_size(d);
	char cut[96] = "";

	if (!ts || strcmp(json_string_value(json_object_get(ts, "schedule")) ?: "", "alternating"))
		return;
	if (json_is_true(json_object_get(ts, "rounds_cut")))
		snprintf(cut, sizeof(cut), ", %lld in the last (the budget ran short)",
			 json_integer_value(json_object_get(ts, "rounds_last_block")));
	fprintf(out, "- Timing schedule: alternating windows of %.1f ms (%lld packets, %lld "
		     "after each attach as warm-up), %lld per attach, %lld blocks of %lld rounds%s "
		     "(every arm once per round, attached and detached around its windows, each "
		     "pair of rounds in a shuffled order and its reverse). Chosen from the noise measured first (%s, %lld back-to-back "
		     "windows of %.1f ms): coefficient of variation %.1f%%, autocorrelation %.2f "
		     "at %.0f ms and %.2f at %.0f ms; two windows' ratio spreads %.2f%% %.0f ms "
		     "apart and %.2f%% %.0f ms apart; %s. Predicted A/A half-width %.2f%% "
		     "(target %.2f%%).\n",
		json_num_or(ts, "window_ms", 0), json_integer_value(json_object_get(ts, "window_packets")),
		json_integer_value(json_object_get(ts, "window_warmup")),
		json_integer_value(json_object_get(ts, "windows_per_visit")),
		json_integer_value(json_object_get(ts, "blocks")),
		json_integer_value(json_object_get(ts, "rounds_per_block")), cut,
		json_string_value(json_object_get(nz, "mode")) ?: "?",
		json_integer_value(json_object_get(nz, "slots")), json_num_or(nz, "slot_ms", 0),
		100 * json_num_or(nz, "cv", 0), json_num_or(ac, "lag1", 0), json_num_or(nz, "slot_cycle_ms", 0), json_num_or(ac, "lag10", 0),
		10 * json_num_or(nz, "slot_cycle_ms", 0), 100 * json_number_value(json_array_get(d, 0)),
		json_num_or(nz, "slot_cycle_ms", 0), 100 * json_number_value(json_array_get(d, nd ? nd - 1 : 0)),
		(double)nd * json_num_or(nz, "slot_cycle_ms", 0),
		!strcmp(json_string_value(json_object_get(ts, "window_from")) ?: "", "noise")
			? "the window length and windows per attach give the least variance per "
			  "second of run"
			: "the window length as --window-ms asked",
		100 * json_num_or(ts, "predicted_halfwidth", 0), 100 * json_num_or(ts, "target_halfwidth", 0));
}
