/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "run_timing.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cpu_time.h"
#include "run_arms.h"
#include "run_signals.h"
#include "block_delta.h"
#include "stats.h"

#define SLOT_MS 2.0          /* the calibration's windows */
#define CAL_MS 1500.0        /* ... for this long */
#define CAL_MAX_SLOTS 4096
#define MIN_NOISE_PAIRS 40   /* a spread at a lag needs this many pairs */
#define MIN_NOISE_WINDOWS 100 /* a window length needs this many windows */
#define WARMUP_SHARE 0.1     /* packets after each attach, of the window's */
#define WARMUP_MIN 1000      /* ... and at least this many */
/* the half-width of the interval over blocks in standard errors of the mean pair: t's
 * 2.09 for 20 degrees of freedom, the signed-rank interval's 1/sqrt(0.955) and the
 * Hodges-Lehmann estimate's within the blocks, for noise about normal */
#define HALF_WIDTH_Z 2.2

/* What one window's time metric is: the numerator of cpu_ns_per_pkt. */
static double window_cpu_ns(const struct trial_env *env, const struct trial_result *r)
{
	return env->cpu_source == CPU_GUEST_VCPU ? (double)r->vcpu_ns
	       : env->cpu_source == CPU_GUEST_SOFTIRQ
		       ? (double)r->softirq_cpu_ns
		       : (double)(r->sender_cpu_ns + r->softirq_cpu_ns);
}

static double ms_since(uint64_t t0)
{
	return (double)(clock_ns(CLOCK_MONOTONIC) - t0) / 1e6;
}

/* 1.4826 x the median absolute deviation of v[0..n-1] (v reordered): a standard
 * deviation that a few outlying windows (an interrupt, a preemption) do not move. */
static double robust_sd(double *v, size_t n)
{
	double med, *dev = malloc(n * sizeof(*dev)), r;

	if (!dev || n < 2) {
		free(dev);
		return NAN;
	}
	qsort(v, n, sizeof(*v), stats_cmp_double);
	med = stats_median(v, n);
	for (size_t i = 0; i < n; i++)
		dev[i] = fabs(v[i] - med);
	r = 1.4826 * stats_median(dev, n);
	free(dev);
	return r;
}

/* The structure function of windows of @m consecutive slots: l->d[k-1] = robust sd of
 * ln(y[j + k] / y[j]) for k = 1..nlags (at least MIN_NOISE_PAIRS pairs each). */
static void noise_at_length(const double *cpu, const double *pkts, int n, int m,
			    struct timing_noise_len *l)
{
	int g = n / m;
	double *y = calloc((size_t)g + 1, sizeof(*y)), *d = calloc((size_t)g + 1, sizeof(*d));

	l->slots = m;
	l->nlags = 0;
	if (!y || !d)
		goto out;
	for (int j = 0; j < g; j++) {
		double c = 0, p = 0;

		for (int i = j * m; i < (j + 1) * m; i++)
			c += cpu[i], p += pkts[i];
		y[j] = c / p;
	}
	for (int k = 1; g >= MIN_NOISE_WINDOWS && k <= TIMING_MAX_LAGS && g - k >= MIN_NOISE_PAIRS;
	     k++) {
		for (int j = 0; j + k < g; j++)
			d[j] = log(y[j + k] / y[j]);
		l->d[k - 1] = robust_sd(d, (size_t)(g - k));
		/* windows further apart share no more of their noise than closer ones: a
		 * dip at a longer lag is the estimate's own noise (and choosing by it the
		 * winner's curse), so the spread never falls with the lag */
		if (k > 1 && l->d[k - 1] < l->d[k - 2])
			l->d[k - 1] = l->d[k - 2];
		l->nlags = k;
	}
out:
	free(y);
	free(d);
}

/* How much wider the Hodges-Lehmann estimate of a block spreads than the robust sd
 * predicts, on this noise: adjacent slots' log ratios drawn at random in groups of 16,
 * the groups' estimates' sd x 4 over the robust sd of all (1 for normal noise, 1.5 and
 * more for the heavy tails an interrupt or a preemption gives a window). */
static double hl_inflation(const double *cpu, const double *pkts, int n, uint64_t seed)
{
	double *d = calloc((size_t)n, sizeof(*d)), est[300], g[16], f = 1, rsd;
	uint64_t x = seed ^ 0x6a09e667f3bcc909ull;

	if (!d || n < 2 * MIN_NOISE_PAIRS) {
		free(d);
		return 1;
	}
	for (int j = 0; j + 1 < n; j++)
		d[j] = log((cpu[j + 1] / pkts[j + 1]) / (cpu[j] / pkts[j]));
	for (int r = 0; r < 300; r++) {
		for (int i = 0; i < 16; i++)
			g[i] = d[stats_splitmix64(&x) % (uint64_t)(n - 1)];
		est[r] = hodges_lehmann(g, 16);
	}
	rsd = robust_sd(d, (size_t)(n - 1));
	if (rsd > 0) {
		double m = stats_mean(est, 300), v = 0;

		for (int r = 0; r < 300; r++)
			v += (est[r] - m) * (est[r] - m);
		f = sqrt(v / 299) * 4 / rsd;
	}
	free(d);
	return f > 1 ? f : 1;
}

/* The overhead of a visit of each arm: attach, warm-up, one window of a slot, detach,
 * less the window itself and one gap. */
static int measure_overhead(const struct run_opts *o, struct trial_session *s,
			    struct timing_noise *nz, uint64_t warmup, char *why, size_t whylen)
{
	for (int a = 0; a < o->nmodes; a++) {
		struct trial_result r;
		double ms[5];

		for (int k = 0; k < 5; k++) { /* the median of five: a visit as it goes, stalls
					       * and all, not the best of them */
			uint64_t t0 = clock_ns(CLOCK_MONOTONIC);
			int e = trial_session_window(s, o->modes[a], nz->slot_packets, warmup, &r);

			ms[k] = ms_since(t0) - (double)r.wall_ns / 1e6 - nz->gap_ms;
			trial_result_release(&r);
			if (e) {
				snprintf(why, whylen, "the noise calibration's %s window failed: %s",
					 drop_mode_name(o->modes[a]), r.error);
				return e;
			}
		}
		nz->overhead_ms_by_arm[a] = fmax(stats_median(ms, 5), 0.01);
	}
	return 0;
}

/* Back-to-back slots of the baseline arm, one attach. */
static int measure_slots(const struct run_opts *o, struct trial_session *s, struct timing_noise *nz,
			 double *cpu, double *pkts, char *why, size_t whylen)
{
	struct trial_result r;
	uint64_t t0;
	double wall = 0;
	int n = 0, e;

	nz->mode = drop_mode_name(o->modes[0]);
	e = trial_session_attach(s, o->modes[0], &r);
	/* a first window for the sender's speed, warm */
	if (!e)
		e = trial_session_measure(s, 2000, 2000, &r);
	if (!e && (!r.sent || !r.wall_ns)) {
		snprintf(r.error, sizeof(r.error), "the sender sent nothing");
		e = -EIO;
	}
	if (!e) {
		nz->wall_ns_per_pkt = (double)r.wall_ns / (double)r.sent;
		nz->slot_packets = (uint64_t)(SLOT_MS * 1e6 / nz->wall_ns_per_pkt);
		if (nz->slot_packets < 100)
			nz->slot_packets = 100;
	}
	t0 = clock_ns(CLOCK_MONOTONIC);
	/* CAL_MS, and longer (up to 4 x) until there are twice MIN_NOISE_WINDOWS */
	while (!e && n < CAL_MAX_SLOTS &&
	       (ms_since(t0) < CAL_MS || (n < 2 * MIN_NOISE_WINDOWS && ms_since(t0) < 4 * CAL_MS))) {
		e = trial_session_measure(s, nz->slot_packets, 0, &r);
		trial_result_release(&r);
		if (e || !r.valid || !r.pkts_at_dut)
			continue; /* an invalid slot is left out */
		cpu[n] = window_cpu_ns(s->env, &r);
		pkts[n] = (double)r.pkts_at_dut;
		wall += (double)r.wall_ns / 1e6;
		n++;
	}
	nz->span_ms = ms_since(t0);
	trial_session_detach(s);
	if (e) {
		snprintf(why, whylen, "the noise calibration failed: %s", r.error);
		return e;
	}
	nz->slots = n;
	nz->slot_ms = n ? wall / n : 0;
	nz->slot_cycle_ms = n ? nz->span_ms / n : 0;
	nz->gap_ms = nz->slot_cycle_ms - nz->slot_ms;
	return 0;
}

/* The slots' own figures: robust cv, autocorrelation of their logarithm. */
static void slot_figures(const double *cpu, const double *pkts, struct timing_noise *nz)
{
	static double lv[CAL_MAX_SLOTS], tmp[CAL_MAX_SLOTS];
	static const int lags[4] = { 1, 2, 5, 10 };
	int n = nz->slots;
	double m, den = 0;

	for (int i = 0; i < n; i++)
		lv[i] = log(cpu[i] / pkts[i]), tmp[i] = cpu[i] / pkts[i];
	nz->cv = robust_sd(tmp, (size_t)n) / stats_median(tmp, (size_t)n);
	m = stats_mean(lv, (size_t)n);
	for (int i = 0; i < n; i++)
		den += (lv[i] - m) * (lv[i] - m);
	for (int k = 0; k < 4; k++) {
		double num = 0;

		for (int i = 0; i + lags[k] < n; i++)
			num += (lv[i] - m) * (lv[i + lags[k]] - m);
		nz->ac[k] = den > 0 ? num / den : NAN;
	}
}

/* The semivariogram of ln(window) at lag @h ms for windows of len @l: D(h)^2 / 2, D
 * interpolated linearly between the lags measured (the first lag's below it: the
 * windows' own noise, which no closeness removes; the last's beyond). */
static double semivariogram(const struct timing_noise *nz, const struct timing_noise_len *l,
			    double h)
{
	double step = l->slots * nz->slot_cycle_ms, x = h / step, d;
	int k = (int)floor(x);

	if (k < 1)
		d = l->d[0];
	else if (k >= l->nlags)
		d = l->d[l->nlags - 1];
	else
		d = l->d[k - 1] + (x - k) * (l->d[k] - l->d[k - 1]);
	return d * d / 2;
}

/* One candidate schedule: windows of len @l, @w per visit. The variance of one round's
 * paired estimate (the mean of its w pairs' log ratios) into *@var and the typical lag
 * between paired windows into *@lag_ms; returns the round's time, ms.
 * Pair i: A at t, B at t + tau; pair i + k: both k windows (k delta) later. From the
 * semivariogram g: Var(d) = 2 g(tau), Cov(d_i, d_i+k) = g(|tau - k delta|) +
 * g(tau + k delta) - 2 g(k delta): windows of one visit share the noise of their stretch,
 * so more windows per attach add less than their number. */
static double candidate(const struct run_opts *o, const struct timing_noise *nz,
			const struct timing_noise_len *l, int w, int junction, double *var,
			double *lag_ms)
{
	double round_ms = 0, tau, delta = l->window_ms + nz->gap_ms, v;

	/* the visits' overhead was measured with the warm-up in it; the junction arm's
	 * attach serves two rounds */
	for (int a = 0; a < o->nmodes; a++)
		round_ms += nz->overhead_ms_by_arm[a] / (a == junction ? 2 : 1) + w * delta;
	/* two given arms of a shuffled round of n are (n + 1) / 3 visits apart on average */
	tau = round_ms / o->nmodes * (o->nmodes + 1) / 3.0;
	*lag_ms = tau;
	v = w * 2 * semivariogram(nz, l, tau);
	for (int k = 1; k < w; k++)
		v += 2.0 * (w - k) * (semivariogram(nz, l, fabs(tau - k * delta)) +
				      semivariogram(nz, l, tau + k * delta) -
				      2 * semivariogram(nz, l, k * delta));
	v /= (double)w * w;
	/* never better than w independent pairs would be by more than a factor 2 */
	if (v < semivariogram(nz, l, tau) / w)
		v = semivariogram(nz, l, tau) / w;
	*var = v;
	return round_ms;
}

int timing_calibrate(const struct run_opts *o, struct trial_session *s, struct timing_plan *p,
		     char *why, size_t whylen)
{
	static double cpu[CAL_MAX_SLOTS], pkts[CAL_MAX_SLOTS];
	struct timing_noise *nz = &p->noise;
	double best_cost = INFINITY, per_pair = 0, rounds_ms;
	int e, bl = -1, bw = 1;

	memset(p, 0, sizeof(*p));
	p->alternating = true;
	/* the blocks in segments of equal size, at least --reps of them */
	p->segments = o->segments > 0 ? o->segments : 1;
	p->blocks_per_segment = (o->reps + p->segments - 1) / p->segments;
	p->blocks = p->segments * p->blocks_per_segment;
	p->target_halfwidth = o->target_halfwidth;
	p->budget_s = o->timing_budget_s;
	e = measure_slots(o, s, nz, cpu, pkts, why, whylen);
	if (!e && nz->slots < MIN_NOISE_WINDOWS) {
		snprintf(why, whylen, "the noise calibration measured too few windows (%d valid)",
			 nz->slots);
		e = -EIO;
	}
	if (e)
		return e;
	slot_figures(cpu, pkts, nz);
	nz->hl_inflation = hl_inflation(cpu, pkts, nz->slots, o->seed);
	for (int m = 1; nz->nlen < TIMING_MAX_LENGTHS; m *= 2) {
		struct timing_noise_len *l = &nz->len[nz->nlen];

		noise_at_length(cpu, pkts, nz->slots, m, l);
		if (!l->nlags)
			break;
		l->window_ms = m * nz->slot_ms;
		nz->nlen++;
	}
	/* the warm-up after each attach: a share of the window, at least WARMUP_MIN */
	p->window_warmup = WARMUP_MIN;
	if ((e = measure_overhead(o, s, nz, p->window_warmup, why, whylen)))
		return e;
	/* the arm slowest to attach meets itself where two rounds meet (not an arm of the
	 * A/A pair: their labels must stay exchangeable) */
	p->junction_arm = -1;
	for (int a = 0; a < o->nmodes; a++)
		if (a != 0 && a != o->aa_arm &&
		    (p->junction_arm < 0 ||
		     nz->overhead_ms_by_arm[a] > nz->overhead_ms_by_arm[p->junction_arm]))
			p->junction_arm = a;
	/* the cheapest variance per second: a round's variance x its time */
	for (int i = 0; i < nz->nlen; i++) {
		const struct timing_noise_len *l = &nz->len[i];

		if (o->window_ms > 0 && i && fabs(log(l->window_ms / o->window_ms)) >=
						     fabs(log(nz->len[bl].window_ms / o->window_ms)))
			continue;
		if (o->window_ms > 0)
			best_cost = INFINITY; /* asked for: the nearest length, its best w */
		for (int w = 1; w <= TIMING_MAX_PER_VISIT; w *= 2) {
			if (o->windows_per_attach && w != o->windows_per_attach)
				continue;
			double var, lag, t = candidate(o, nz, l, w, p->junction_arm, &var, &lag);

			if (isfinite(var) && var * t < best_cost) {
				best_cost = var * t;
				bl = i;
				bw = w;
				/* the spread of one pair that gives a round's variance */
				p->pair_sd = sqrt(var * w);
				p->pair_lag_ms = lag;
				per_pair = t / w;
			}
		}
	}
	if (bl < 0) {
		snprintf(why, whylen, "the noise calibration gave no usable spread");
		return -EIO;
	}
	p->per_visit = bw;
	/* the spread the blocks' estimates will show: heavy tails widen it */
	p->pair_sd *= nz->hl_inflation;
	p->window_ms = o->window_ms > 0 ? o->window_ms : nz->len[bl].window_ms;
	p->window_from = o->window_ms > 0 ? "--window-ms" : "noise";
	p->window_packets = (uint64_t)(p->window_ms * 1e6 / nz->wall_ns_per_pkt);
	if (p->window_packets < 100)
		p->window_packets = 100;
	if (p->window_warmup < p->window_packets / 10)
		p->window_warmup = p->window_packets / 10;
	/* pairs: what the target needs, capped by the budget; whole counterbalanced pairs of
	 * rounds */
	{
		/* no margin: what back-to-back windows do not show (the attaches between the
		 * alternation's windows widen its pairs' spread) and the noise changing after
		 * its measurement are what the stopping rule sees and adds segments for
		 * (run_segments.h); a margin here (2 before it) only spent the budget before the
		 * rule could look */
		double need = pow(HALF_WIDTH_Z * p->pair_sd / p->target_halfwidth, 2);
		double cap = p->budget_s * 1000 / per_pair;
		double pairs = need < cap ? need : cap;
		int rounds = (int)ceil(pairs / bw);

		p->pairs_for_target = (int)ceil(need);
		p->rounds_per_block = (rounds + p->blocks - 1) / p->blocks;
		if (p->rounds_per_block < 2)
			p->rounds_per_block = 2;
		p->rounds_per_block += p->rounds_per_block % 2;
	}
	rounds_ms = per_pair * bw * p->rounds_per_block * p->blocks;
	p->predicted_halfwidth = HALF_WIDTH_Z * p->pair_sd /
				 sqrt((double)p->rounds_per_block * p->blocks * bw);
	p->predicted_s = rounds_ms / 1000;
	fprintf(stderr, "xdptc: noise (%s, %d windows of %.1f ms back to back): cv %.1f%%, "
			"autocorrelation %.2f at %.0f ms, %.2f at %.0f ms; a paired ratio "
			"spreads %.2f%% at %.0f ms apart, %.2f%% at %.0f ms\n",
		nz->mode, nz->slots, nz->slot_ms, 100 * nz->cv, nz->ac[0], nz->slot_cycle_ms,
		nz->ac[3], 10 * nz->slot_cycle_ms, 100 * nz->len[0].d[0], nz->slot_cycle_ms,
		100 * nz->len[0].d[nz->len[0].nlags - 1], nz->len[0].nlags * nz->slot_cycle_ms);
	fprintf(stderr, "xdptc: schedule: windows of %.1f ms (%llu packets), %d per attach, %d "
			"blocks of %d rounds; paired windows about %.0f ms apart spread %.2f%%: "
			"predicted A/A half-width %.2f%% (target %.2f%%), about %.0f s\n",
		p->window_ms, (unsigned long long)p->window_packets, p->per_visit, p->blocks,
		p->rounds_per_block, p->pair_lag_ms, 100 * p->pair_sd,
		100 * p->predicted_halfwidth, 100 * p->target_halfwidth, p->predicted_s);
	return 0;
}

json_t *timing_plan_json(const struct timing_plan *p)
{
	const struct timing_noise *nz = &p->noise;
	json_t *j = json_object(), *n = json_object(), *lens = json_array(), *oh = json_array();

	json_object_set_new(j, "schedule", json_string(p->alternating ? "alternating" : "classic"));
	if (!p->alternating)
		return j;
	json_object_set_new(j, "window_ms", json_real(p->window_ms));
	json_object_set_new(j, "window_from", json_string(p->window_from));
	json_object_set_new(j, "window_packets", json_integer((json_int_t)p->window_packets));
	json_object_set_new(j, "window_warmup", json_integer((json_int_t)p->window_warmup));
	json_object_set_new(j, "windows_per_visit", json_integer(p->per_visit));
	json_object_set_new(j, "junction_arm", p->junction_arm >= 0
			    ? json_integer(p->junction_arm) : json_null());
	json_object_set_new(j, "blocks", json_integer(p->blocks));
	json_object_set_new(j, "rounds_per_block", json_integer(p->rounds_per_block));
	json_object_set_new(j, "segments", json_integer(p->segments));
	json_object_set_new(j, "blocks_per_segment", json_integer(p->blocks_per_segment));
	json_object_set_new(j, "pairs_for_target", json_integer(p->pairs_for_target));
	json_object_set_new(j, "pair_lag_ms", json_real(p->pair_lag_ms));
	json_object_set_new(j, "pair_sd", json_real(p->pair_sd));
	json_object_set_new(j, "target_halfwidth", json_real(p->target_halfwidth));
	json_object_set_new(j, "predicted_halfwidth", json_real(p->predicted_halfwidth));
	json_object_set_new(j, "budget_s", json_real(p->budget_s));
	json_object_set_new(j, "predicted_s", json_real(p->predicted_s));
	json_object_set_new(n, "mode", json_string(nz->mode));
	json_object_set_new(n, "slots", json_integer(nz->slots));
	json_object_set_new(n, "slot_ms", json_real(nz->slot_ms));
	json_object_set_new(n, "slot_cycle_ms", json_real(nz->slot_cycle_ms));
	json_object_set_new(n, "slot_packets", json_integer((json_int_t)nz->slot_packets));
	json_object_set_new(n, "span_ms", json_real(nz->span_ms));
	json_object_set_new(n, "wall_ns_per_pkt", json_real(nz->wall_ns_per_pkt));
	json_object_set_new(n, "cv", json_real(nz->cv));
	json_object_set_new(n, "autocorrelation", json_pack("{s:f, s:f, s:f, s:f}",
		"lag1", nz->ac[0], "lag2", nz->ac[1], "lag5", nz->ac[2], "lag10", nz->ac[3]));
	json_object_set_new(n, "gap_ms", json_real(nz->gap_ms));
	json_object_set_new(n, "hl_inflation", json_real(nz->hl_inflation));
	for (int i = 0; i < RUN_MAX_MODES && nz->overhead_ms_by_arm[i] > 0; i++)
		json_array_append_new(oh, json_real(nz->overhead_ms_by_arm[i]));
	json_object_set_new(n, "visit_overhead_ms_by_arm", oh);
	for (int i = 0; i < nz->nlen; i++) {
		const struct timing_noise_len *l = &nz->len[i];
		json_t *d = json_array();

		for (int k = 0; k < l->nlags; k++)
			json_array_append_new(d, json_real(l->d[k]));
		json_array_append_new(lens, json_pack("{s:f, s:i, s:f, s:o}", "window_ms",
						      l->window_ms, "slots", l->slots, "lag_ms",
						      l->slots * nz->slot_cycle_ms, "pair_sd_by_lag", d));
	}
	json_object_set_new(n, "lengths", lens);
	json_object_set_new(j, "noise", n);
	return j;
}

/* Add window @r to the arm's sums @a. */
static void sum_into(const struct trial_env *env, struct trial_result *a,
		     const struct trial_result *r, int window)
{
	if (window == 0) {
		a->valid = true;
		a->mode = r->mode;
		a->pass = r->pass;
		a->prog_id = r->prog_id;
		snprintf(a->kernel_mode, sizeof(a->kernel_mode), "%s", r->kernel_mode);
	}
	a->sent += r->sent;
	a->dropped += r->dropped;
	a->passed += r->passed;
	a->dut_rx_packets += r->dut_rx_packets;
	a->dut_rx_dropped += r->dut_rx_dropped;
	a->snd_tx_dropped += r->snd_tx_dropped;
	a->lost_before_dut += r->lost_before_dut;
	a->pkts_at_dut += r->pkts_at_dut;
	a->unexplained += r->unexplained;
	a->wall_ns += r->wall_ns;
	a->sender_cpu_ns += r->sender_cpu_ns;
	a->softirq_cpu_ns += r->softirq_cpu_ns;
	a->cpus_busy_ns += r->cpus_busy_ns;
	a->vcpu_ns += r->vcpu_ns;
	a->steal_ns += r->steal_ns;
	/* other work: the sums' difference (busy time comes in 10 ms ticks: per window of a
	 * few ms it is 0 or a tick, and only the sum means anything) */
	a->self_ns += r->self_ns;
	a->other_busy_ns = a->cpus_busy_ns > a->sender_cpu_ns + a->softirq_cpu_ns + a->steal_ns +
						     a->self_ns
				   ? a->cpus_busy_ns - a->sender_cpu_ns - a->softirq_cpu_ns -
					     a->steal_ns - a->self_ns
				   : 0;
	a->attach_ns += r->attach_ns;
	a->perf_enabled_ns += r->perf_enabled_ns;
	a->detach_ns += r->detach_ns;
	a->bpf_stats_on |= r->bpf_stats_on;
	if (!r->valid && a->valid) {
		a->valid = false;
		snprintf(a->invalid_reason, sizeof(a->invalid_reason), "window %d: %.200s", window,
			 r->invalid_reason);
	}
	a->cpu_ns_per_pkt = a->pkts_at_dut ? window_cpu_ns(env, a) / (double)a->pkts_at_dut : NAN;
	a->other_load = a->wall_ns && a->other_busy_ns * 4 >= a->wall_ns;
	a->host_steal = a->wall_ns && a->steal_ns * 4 >= a->wall_ns;
}

int timing_block(const struct run_opts *o, struct trial_session *s, const struct timing_plan *p,
		 int block, uint64_t t0_ns, struct trial_result agg[RUN_MAX_MODES],
		 json_t *windows[RUN_MAX_MODES], char *why, size_t whylen)
{
	int order[RUN_MAX_MODES], nwin[RUN_MAX_MODES] = { 0 }, e = 0, attached = -1;
	static struct perf_stat ps[RUN_MAX_MODES];
	bool perf_on[RUN_MAX_MODES] = { false };

	for (int a = 0; a < o->nmodes; a++) {
		memset(&agg[a], 0, sizeof(agg[a]));
		windows[a] = json_pack("{s:[], s:[], s:[], s:[]}", "start_ms", "pkts", "cpu_ns",
				       "valid");
		/* perf events: one perf stat per arm for the block, on in its windows */
		if (s->env->perf_nevents > 0)
			perf_on[a] = trial_session_perf_start(s, &ps[a], &agg[a]) == 0;
	}
	for (int rd = 0; !e && rd < p->rounds_per_block; rd++) {
		/* counterbalanced: a shuffled order, then the same reversed, so a drift that
		 * is linear over the two rounds adds the same to every arm; the arm slowest to
		 * attach last in the first, so first in the second: one attach for both */
		if (rd % 2 == 0) {
			shuffle_arms(o, 0, block * 4096 + rd / 2 + 1, order);
			for (int i = 0; p->junction_arm >= 0 && i + 1 < o->nmodes; i++)
				if (order[i] == p->junction_arm) {
					order[i] = order[i + 1];
					order[i + 1] = p->junction_arm;
				}
		}
		for (int i = 0; !e && i < o->nmodes; i++) {
			int a = order[rd % 2 ? o->nmodes - 1 - i : i];
			bool fresh = a != attached;
			struct trial_result r;

			s->perf = perf_on[a] ? &ps[a] : NULL;
			/* the same arm again (where two rounds meet): still attached, warm */
			if (fresh && attached >= 0)
				agg[attached].detach_ns += trial_session_detach(s);
			attached = -1;
			e = fresh ? trial_session_attach(s, o->modes[a], &r) : 0;
			if (!e)
				attached = a;
			if (fresh)
				agg[a].attach_ns += r.attach_ns;
			for (int w = 0; !e && w < p->per_visit; w++) {
				double start = (double)(clock_ns(CLOCK_MONOTONIC) - t0_ns) / 1e6;
				json_t *wa = windows[a];

				e = trial_session_measure(s, p->window_packets,
							  w || !fresh ? 0 : p->window_warmup, &r);
				trial_result_release(&r);
				if (e)
					break;
				r.attach_ns = 0;
				sum_into(s->env, &agg[a], &r, nwin[a]++);
				json_array_append_new(json_object_get(wa, "start_ms"),
						      json_real(round(start * 1000) / 1000));
				json_array_append_new(json_object_get(wa, "pkts"),
						      json_integer((json_int_t)r.pkts_at_dut));
				json_array_append_new(json_object_get(wa, "cpu_ns"),
						      json_integer((json_int_t)window_cpu_ns(s->env, &r)));
				json_array_append_new(json_object_get(wa, "valid"),
						      json_boolean(r.valid));
			}
			if (e)
				snprintf(why, whylen, "%s", r.error);
		}
	}
	if (attached >= 0)
		agg[attached].detach_ns += trial_session_detach(s);
	s->perf = NULL;
	for (int a = 0; a < o->nmodes; a++) {
		if (s->env->perf_nevents > 0) {
			char perr[sizeof(agg[a].perf_error)];

			snprintf(perr, sizeof(perr), "%s", agg[a].perf_error);
			trial_session_perf_finish(s, &ps[a], perf_on[a], &agg[a]);
			if (perr[0] && !agg[a].perf_error[0])
				snprintf(agg[a].perf_error, sizeof(agg[a].perf_error), "%s", perr);
		}
		if (e) {
			json_decref(windows[a]);
			windows[a] = NULL;
		}
	}
	return e;
}
