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

/* The plan's frame from the options: alternating, the blocks in segments of equal size
 * (at least --reps blocks), the target half-width and the budget (s). */
static void plan_frame(const struct run_opts *o, struct timing_plan *p)
{
	memset(p, 0, sizeof(*p));
	p->alternating = true;
	/* the blocks in segments of equal size, at least --reps of them */
	p->segments = o->segments > 0 ? o->segments : 1;
	p->blocks_per_segment = (o->reps + p->segments - 1) / p->segments;
	p->blocks = p->segments * p->blocks_per_segment;
	p->target_halfwidth = o->target_halfwidth;
	p->budget_s = o->timing_budget_s;
}

/* The noise's figures from the calibration's nz->slots windows (CPU time @cpu, ns, over
 * @pkts packets each): the robust cv and autocorrelation, how much heavy tails widen a
 * block's estimate (seeded by @seed), and the spread by lag of windows of 1, 2, 4, ...
 * slots (nz->len, as many lengths as have enough windows). */
static void noise_figures(const double *cpu, const double *pkts, uint64_t seed,
			  struct timing_noise *nz)
{
	slot_figures(cpu, pkts, nz);
	nz->hl_inflation = hl_inflation(cpu, pkts, nz->slots, seed);
	for (int m = 1; nz->nlen < TIMING_MAX_LENGTHS; m *= 2) {
		struct timing_noise_len *l = &nz->len[nz->nlen];

		noise_at_length(cpu, pkts, nz->slots, m, l);
		if (!l->nlags)
			break;
		l->window_ms = m * nz->slot_ms;
		nz->nlen++;
	}
}

/* The arm that meets itself where two rounds meet: the one slowest to attach, never the
 * baseline or an arm of the A/A pair (their labels must stay exchangeable); -1 none. */
static int junction_arm(const struct run_opts *o, const struct timing_noise *nz)
{
	int j = -1;

	for (int a = 0; a < o->nmodes; a++)
		if (a != 0 && a != o->aa_arm &&
		    (j < 0 || nz->overhead_ms_by_arm[a] > nz->overhead_ms_by_arm[j]))
			j = a;
	return j;
}

/* The schedule chosen: a window length and the windows per visit. */
struct schedule_choice {
	int len;            /* its index in nz->len; -1: none usable */
	int per_visit;      /* windows per attach */
	double per_pair_ms; /* a round's time per window pair, ms */
};

/* Choose the schedule with the least variance per second of run (a round's variance x
 * its time) among the lengths measured and 1, 2, 4, ... windows per visit; --window-ms
 * takes the nearest length (its best per-visit count), --windows-per-attach that count.
 * Sets p->pair_sd (the spread of one pair that gives a round's variance) and
 * p->pair_lag_ms (ms between paired windows). Returns the choice; c.len -1 when no
 * candidate had a finite variance. */
static struct schedule_choice choose_schedule(const struct run_opts *o, struct timing_plan *p)
{
	const struct timing_noise *nz = &p->noise;
	struct schedule_choice c = { .len = -1, .per_visit = 1 };
	double best_cost = INFINITY;

	for (int i = 0; i < nz->nlen; i++) {
		const struct timing_noise_len *l = &nz->len[i];

		if (o->window_ms > 0 && i && fabs(log(l->window_ms / o->window_ms)) >=
						     fabs(log(nz->len[c.len].window_ms / o->window_ms)))
			continue;
		if (o->window_ms > 0)
			best_cost = INFINITY; /* asked for: the nearest length, its best w */
		for (int w = 1; w <= TIMING_MAX_PER_VISIT; w *= 2) {
			if (o->windows_per_attach && w != o->windows_per_attach)
				continue;
			double var, lag, t = candidate(o, nz, l, w, p->junction_arm, &var, &lag);

			if (isfinite(var) && var * t < best_cost) {
				best_cost = var * t;
				c.len = i;
				c.per_visit = w;
				/* the spread of one pair that gives a round's variance */
				p->pair_sd = sqrt(var * w);
				p->pair_lag_ms = lag;
				c.per_pair_ms = t / w;
			}
		}
	}
	return c;
}

/* The plan's windows from choice @c: per visit, the spread the blocks' estimates will
 * show (heavy tails widen it), the window's length (ms; --window-ms or the noise's) and
 * packets (at least 100, at the calibration's send rate), the warm-up after each attach
 * (a tenth of the window, at least WARMUP_MIN packets). */
static void plan_windows(const struct run_opts *o, struct timing_plan *p,
			 const struct schedule_choice *c)
{
	const struct timing_noise *nz = &p->noise;

	p->per_visit = c->per_visit;
	/* the spread the blocks' estimates will show: heavy tails widen it */
	p->pair_sd *= nz->hl_inflation;
	p->window_ms = o->window_ms > 0 ? o->window_ms : nz->len[c->len].window_ms;
	p->window_from = o->window_ms > 0 ? "--window-ms" : "noise";
	p->window_packets = (uint64_t)(p->window_ms * 1e6 / nz->wall_ns_per_pkt);
	if (p->window_packets < 100)
		p->window_packets = 100;
	if (p->window_warmup < p->window_packets / 10)
		p->window_warmup = p->window_packets / 10;
}

/* The plan's rounds from choice @c: the pairs the target half-width needs, capped by the
 * budget, as whole counterbalanced pairs of rounds per block (at least 2); the predicted
 * A/A half-width and the pass's predicted time (s). */
static void plan_rounds(struct timing_plan *p, const struct schedule_choice *c)
{
	/* no margin: what back-to-back windows do not show (the attaches between the
	 * alternation's windows widen its pairs' spread) and the noise changing after its
	 * measurement are what the stopping rule sees and adds segments for
	 * (run_segments.h); a margin here (2 before it) only spent the budget before the
	 * rule could look */
	double need = pow(HALF_WIDTH_Z * p->pair_sd / p->target_halfwidth, 2);
	double cap = p->budget_s * 1000 / c->per_pair_ms;
	double pairs = need < cap ? need : cap;
	int rounds = (int)ceil(pairs / c->per_visit);
	double rounds_ms;

	p->pairs_for_target = (int)ceil(need);
	p->rounds_per_block = (rounds + p->blocks - 1) / p->blocks;
	if (p->rounds_per_block < 2)
		p->rounds_per_block = 2;
	p->rounds_per_block += p->rounds_per_block % 2;
	rounds_ms = c->per_pair_ms * c->per_visit * p->rounds_per_block * p->blocks;
	p->predicted_halfwidth = HALF_WIDTH_Z * p->pair_sd /
				 sqrt((double)p->rounds_per_block * p->blocks * c->per_visit);
	p->predicted_s = rounds_ms / 1000;
}

/* Say on stderr what the noise was and what schedule it gave (two lines). */
static void say_schedule(const struct timing_plan *p)
{
	const struct timing_noise *nz = &p->noise;

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
}

int timing_calibrate(const struct run_opts *o, struct trial_session *s, struct timing_plan *p,
		     char *why, size_t whylen)
{
	static double cpu[CAL_MAX_SLOTS], pkts[CAL_MAX_SLOTS];
	struct timing_noise *nz = &p->noise;
	struct schedule_choice c;
	int e;

	plan_frame(o, p);
	e = measure_slots(o, s, nz, cpu, pkts, why, whylen);
	if (!e && nz->slots < MIN_NOISE_WINDOWS) {
		snprintf(why, whylen, "the noise calibration measured too few windows (%d valid)",
			 nz->slots);
		e = -EIO;
	}
	if (e)
		return e;
	noise_figures(cpu, pkts, o->seed, nz);
	/* the warm-up after each attach: a share of the window, at least WARMUP_MIN */
	p->window_warmup = WARMUP_MIN;
	if ((e = measure_overhead(o, s, nz, p->window_warmup, why, whylen)))
		return e;
	p->junction_arm = junction_arm(o, nz);
	c = choose_schedule(o, p);
	if (c.len < 0) {
		snprintf(why, whylen, "the noise calibration gave no usable spread");
		return -EIO;
	}
	plan_windows(o, p, &c);
	plan_rounds(p, &c);
	say_schedule(p);
	return 0;
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

/* A block of the timing pass while it runs (timing_block). */
struct block_run {
	const struct run_opts *o;
	struct trial_session *s;
	const struct timing_plan *p;
	uint64_t t0_ns;                /* the pass's start: the windows' start_ms from it */
	struct trial_result *agg;      /* per arm: its windows summed */
	json_t **windows;              /* per arm: its windows listed */
	struct perf_stat *ps;          /* per arm: its perf stat for the block */
	bool perf_on[RUN_MAX_MODES];   /* ... started */
	int nwin[RUN_MAX_MODES];       /* per arm: its windows so far */
	int attached;                  /* the arm attached now; -1 none */
};

/* The block's start: per arm an empty sum, an empty list of windows (start_ms, pkts,
 * cpu_ns, valid) and, when perf events are asked for, one perf stat for the block, on
 * in the arm's windows only. */
static void block_start(struct block_run *b)
{
	for (int a = 0; a < b->o->nmodes; a++) {
		memset(&b->agg[a], 0, sizeof(b->agg[a]));
		b->windows[a] = json_pack("{s:[], s:[], s:[], s:[]}", "start_ms", "pkts", "cpu_ns",
					  "valid");
		/* perf events: one perf stat per arm for the block, on in its windows */
		if (b->s->env->perf_nevents > 0)
			b->perf_on[a] = trial_session_perf_start(b->s, &b->ps[a], &b->agg[a]) == 0;
	}
}

/* Round @rd's order of arms into @order (block @block's seed): counterbalanced, a shuffled
 * order for an even round, then the same reversed for the odd one after it (the caller
 * reads it backwards), so a drift that is linear over the two rounds adds the same to
 * every arm; p->junction_arm, the arm slowest to attach, last in the first, so first in
 * the second: one attach for both. */
static void round_order(const struct run_opts *o, const struct timing_plan *p, int block,
			int rd, int order[RUN_MAX_MODES])
{
	shuffle_arms(o, 0, block * 4096 + rd / 2 + 1, order);
	for (int i = 0; p->junction_arm >= 0 && i + 1 < o->nmodes; i++)
		if (order[i] == p->junction_arm) {
			order[i] = order[i + 1];
			order[i + 1] = p->junction_arm;
		}
}

/* Window @r, which started @start_ms after the pass's start, listed in its arm's windows
 * @wa: its start (ms, to the microsecond), packets at the DUT, the time metric's
 * numerator (ns) and whether it is valid. */
static void window_list(const struct trial_env *env, json_t *wa, double start_ms,
			const struct trial_result *r)
{
	json_array_append_new(json_object_get(wa, "start_ms"),
			      json_real(round(start_ms * 1000) / 1000));
	json_array_append_new(json_object_get(wa, "pkts"), json_integer((json_int_t)r->pkts_at_dut));
	json_array_append_new(json_object_get(wa, "cpu_ns"),
			      json_integer((json_int_t)window_cpu_ns(env, r)));
	json_array_append_new(json_object_get(wa, "valid"), json_boolean(r->valid));
}

/* Arm @a's visit in a round: the arm attached before it detached and @a attached (unless
 * it is @a again where two rounds meet: still attached, warm), its p->per_visit windows
 * measured (the first after a fresh attach warmed up), each summed into its trial and
 * listed. Returns 0, -EINTR, or -errno with the failure in @why. */
static int block_visit(struct block_run *b, int a, char *why, size_t whylen)
{
	struct trial_session *s = b->s;
	const struct timing_plan *p = b->p;
	bool fresh = a != b->attached;
	struct trial_result r;
	int e;

	s->perf = b->perf_on[a] ? &b->ps[a] : NULL;
	/* the same arm again (where two rounds meet): still attached, warm */
	if (fresh && b->attached >= 0)
		b->agg[b->attached].detach_ns += trial_session_detach(s);
	b->attached = -1;
	e = fresh ? trial_session_attach(s, b->o->modes[a], &r) : 0;
	if (!e)
		b->attached = a;
	if (fresh)
		b->agg[a].attach_ns += r.attach_ns;
	for (int w = 0; !e && w < p->per_visit; w++) {
		double start = (double)(clock_ns(CLOCK_MONOTONIC) - b->t0_ns) / 1e6;

		e = trial_session_measure(s, p->window_packets, w || !fresh ? 0 : p->window_warmup,
					  &r);
		trial_result_release(&r);
		if (e)
			break;
		r.attach_ns = 0;
		sum_into(s->env, &b->agg[a], &r, b->nwin[a]++);
		window_list(s->env, b->windows[a], start, &r);
	}
	if (e)
		snprintf(why, whylen, "%s", r.error);
	return e;
}

/* The block's end: the last arm detached, each arm's perf stat collected into its trial
 * (a window's perf error kept when the collection gives none), and on failure @e every
 * arm's list of windows dropped (NULL). */
static void block_end(struct block_run *b, int e)
{
	struct trial_session *s = b->s;

	if (b->attached >= 0)
		b->agg[b->attached].detach_ns += trial_session_detach(s);
	s->perf = NULL;
	for (int a = 0; a < b->o->nmodes; a++) {
		if (s->env->perf_nevents > 0) {
			char perr[sizeof(b->agg[a].perf_error)];

			snprintf(perr, sizeof(perr), "%s", b->agg[a].perf_error);
			trial_session_perf_finish(s, &b->ps[a], b->perf_on[a], &b->agg[a]);
			if (perr[0] && !b->agg[a].perf_error[0])
				snprintf(b->agg[a].perf_error, sizeof(b->agg[a].perf_error), "%s", perr);
		}
		if (e) {
			json_decref(b->windows[a]);
			b->windows[a] = NULL;
		}
	}
}

int timing_block(const struct run_opts *o, struct trial_session *s, const struct timing_plan *p,
		 int block, uint64_t t0_ns, struct trial_result agg[RUN_MAX_MODES],
		 json_t *windows[RUN_MAX_MODES], char *why, size_t whylen)
{
	static struct perf_stat ps[RUN_MAX_MODES];
	struct block_run b = { .o = o, .s = s, .p = p, .t0_ns = t0_ns, .agg = agg,
			       .windows = windows, .ps = ps, .attached = -1 };
	int order[RUN_MAX_MODES], e = 0;

	block_start(&b);
	for (int rd = 0; !e && rd < p->rounds_per_block; rd++) {
		if (rd % 2 == 0) /* the odd round after it takes the same order reversed */
			round_order(o, p, block, rd, order);
		for (int i = 0; !e && i < o->nmodes; i++)
			e = block_visit(&b, order[rd % 2 ? o->nmodes - 1 - i : i], why, whylen);
	}
	block_end(&b, e);
	return e;
}
