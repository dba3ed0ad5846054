/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * flame_render.h: a run's flame graphs from their folded stacks (flamegraph.h): what
 * each entry of run.json's "flamegraphs" says of its samples (how many, the sampling
 * error of a frame's share, the frames perf could not name and why: flame_unnamed.h)
 * and the SVG drawn with those words in its subtitle. The run calls it after its profile
 * pass, `xdptc report` again from the committed folded files, and test_examples checks
 * that every committed graph is what it draws.
 */
#ifndef XDPTC_FLAME_RENDER_H
#define XDPTC_FLAME_RENDER_H

#include <jansson.h>
#include <stddef.h>
#include <stdio.h>

#include "flame_unnamed.h"

/* the samples the profile pass sizes each mode's window for (run_passes.c) */
#define FLAME_MIN_SAMPLES 2000
/* above this share of unnamed samples, the summary says what to change */
#define FLAME_UNNAMED_MAX 0.05
/* perf record -F 997 on cpu-clock: the kernel turns the frequency into a fixed period
 * of 10^9 / 997 ns (kernel/events/core.c, perf_swevent_init_hrtimer) */
#define FLAME_FREQ_HZ 997

/* flame_sampling_err - two standard errors of the share @p of a frame among @n samples,
 * as a share: 2 sqrt(p (1 - p) / n) (a binomial share; about 95%). */
double flame_sampling_err(double p, double n);

/* flame_zero_share - the share below which a frame cannot be told from zero among @n
 * samples: where 2 sqrt(p (1 - p) / n) reaches p, p = 4 / (n + 4). */
double flame_zero_share(double n);

/* flame_sample_period - the period of one sample in @fg (its "period", or 10^9 / 997 ns
 * for perf record -F 997), in fg's "period_unit". */
double flame_sample_period(const json_t *fg);

/* flame_group - @v with its thousands grouped ("1,003,009") into @buf. */
const char *flame_group(char *buf, size_t len, double v);

/* flame_pct - @share in percent, one decimal ("under 0.1%" above 0 and below 0.05%). */
const char *flame_pct(char *buf, size_t len, double share);

/* flame_unnamed_json - @u as run.json's "unnamed" object: the shares, each kind with its
 * frame, process and reason, and "fix" (what to change) when the unnamed leaf share or
 * the share with an unnamed kernel frame is above FLAME_UNNAMED_MAX, else null.
 * @kernel_symbols as for flame_unnamed_reason. */
json_t *flame_unnamed_json(const struct flame_unnamed *u, const char *kernel_symbols);

/* flame_unnamed_words - a short phrase of @u's main kind ("user space of xdptc"; "all
 * named"). */
void flame_unnamed_words(const struct flame_unnamed *u, char *buf, size_t len);

/* flame_render_entry - entry @fg of @run's "flamegraphs", in run directory @dir: its
 * folded stacks ("folded") read again, "samples", "sample_period", "sampling_error" and
 * "unnamed" set in @fg, and its SVG drawn to @svg (NULL: the file @dir/"svg"). An entry
 * without "folded" (its trial failed) is left as it is. Returns 0 or -errno. */
int flame_render_entry(const json_t *run, json_t *fg, const char *dir, FILE *svg);

/* flame_render_run - every entry of @run's "flamegraphs" in @dir (one whose folded file
 * is not there is left as it is: a run kept without them). Returns the graphs drawn, or
 * -errno with a sentence in @err. */
int flame_render_run(json_t *run, const char *dir, char *err, size_t errlen);

#endif
