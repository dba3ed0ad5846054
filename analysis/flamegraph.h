/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * flamegraph.h: flame graphs from `perf record -g` samples without any outside tool:
 * fold the text of `perf script` into one line per distinct stack ("comm;outer;...;inner
 * COUNT", the format of Brendan Gregg's stackcollapse-perf.pl), and draw folded stacks
 * as an SVG flame graph (root at the bottom, widths proportional to samples).
 */
#ifndef XDPTC_FLAMEGRAPH_H
#define XDPTC_FLAMEGRAPH_H

#include <stdbool.h>
#include <stdio.h>

/* flame_fold - read `perf script` output from @in, write folded stacks to @out, sorted.
 * Offsets (+0x..) are dropped from symbols; unknown frames keep their DSO name.
 * Samples of the idle task (comm "swapper") are left out and counted in *@idle
 * (may be NULL): an idle CPU would otherwise squeeze the work into a sliver.
 * Returns the number of samples folded, or -errno. */
long flame_fold(FILE *in, FILE *out, long *idle);

/* What a flame graph says besides its frames. */
struct flame_opts {
	const char *title;
	const char *lines[3];  /* the subtitle, up to three lines (NULL: fewer) */
	const char *unit;      /* what a frame's value per packet counts ("ns", "guest
				* instructions"); NULL: values per packet are not known */
	double per_sample;     /* flame_svg: the value per packet of one sample (a sampling
				* period over the packets); 0: not known */
	const char *a_name, *b_name; /* flame_svg_diff: the two sides' names */
};

/* flame_svg - draw the folded stacks read from @in as an interactive SVG flame graph on
 * @out (click to zoom, search by regular expression: flamegraph_js.h), titled by @o;
 * each frame's tooltip holds its full name, samples, share and, when @o->per_sample is
 * known, its value per packet. Every frame is drawn, however narrow (a zoom or a search
 * may need it). Returns the total number of samples drawn, or -errno (-ENODATA when
 * there is no sample). */
long flame_svg(FILE *in, FILE *out, const struct flame_opts *o);

/* flame_svg_diff - a differential flame graph of B against A: the folded stacks read
 * from @a and @b, each count times its scale (@a_scale, @b_scale: a sampling period over
 * packets makes both per packet), stacks of the processes in @skip_comm (a comma list;
 * NULL: none; "perf": the profiler's own) left out. A frame is as wide as the larger of its two values,
 * red where B exceeds A and blue where it falls short, the deeper the larger the
 * difference against the largest; its tooltip holds both values, both sides' samples
 * and the frame's share of the difference; the search prints the matches' share of the
 * difference. Returns 0, or -errno (-ENODATA when neither has a sample). */
int flame_svg_diff(FILE *a, double a_scale, FILE *b, double b_scale, const char *skip_comm,
		   FILE *out, const struct flame_opts *o);

/* One function's self (leaf) values in two profiles, [0] A and [1] B. */
struct flame_fn {
	char name[128];
	double samples[2];     /* samples in which it is the leaf */
	double per_pkt[2];     /* those times the profile's scale */
	double err[2];         /* sampling error of per_pkt: 2 * sqrt(samples) * scale (a
				* Poisson count's two standard deviations, about 95%) */
};

/* flame_self_diff - the self values of every leaf function in the folded stacks @a and
 * @b (scaled as for flame_svg_diff, @skip_comm left out) into @fns (at most @max),
 * sorted by |B - A|, largest first. Returns the number of functions, or -errno
 * (-E2BIG: more than @max). */
int flame_self_diff(FILE *a, double a_scale, FILE *b, double b_scale, const char *skip_comm,
		    struct flame_fn *fns, int max);

/* flame_folded_split - a line of folded stacks ("comm;frame;...;leaf COUNT") split in
 * place: @line ends before its count, which goes to *@count. Returns false when the line
 * has no count, or its process (the first frame) is one of @skip_comm (a comma list;
 * NULL: none): a line to leave out. */
bool flame_folded_split(char *line, const char *skip_comm, double *count);

/* flame_make - fold perf data @data (`perf script -i`) into the file @folded, the idle
 * task's samples counted in *@idle; remove the perf data. Returns the samples folded, or
 * -errno (-ENODATA: none). */
long flame_make(const char *data, const char *folded, long *idle);

#endif
