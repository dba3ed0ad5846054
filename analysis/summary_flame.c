/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_flame.c: summary.md's flame graphs (summary_flame.h). */
#include "summary_flame.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "flame_render.h"
#include "json_read.h"

/* The first kind of @un (the one with the most unnamed samples) in a few words. */
static void main_kind(const json_t *un, const char *kind, char *buf, size_t len)
{
	const json_t *k;
	size_t i;

	snprintf(buf, len, "none");
	json_array_foreach(json_object_get(un, "kinds"), i, k)
		if (!kind || !strcmp(json_str_of(k, "kind", ""), kind)) {
			snprintf(buf, len, "%s", json_str_of(k, "reason", ""));
			return;
		}
}

/* A share in percent (without the sign) with @dec decimals, or n/a. */
static const char *pct(char *buf, size_t len, double v, int dec)
{
	if (isnan(v))
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%.*f", dec, 100 * v);
	return buf;
}

void summary_flame_render(const struct render_ctx *rc)
{
	const json_t *fgs = json_object_get(rc->run, "flamegraphs"), *fg;
	FILE *out = rc->out;
	size_t i;

	if (!json_array_size(fgs))
		return;
	fprintf(out, "\nFlame graphs (the profile pass: one window per mode, every CPU sampled; "
		     "open the SVG in a browser: click a frame to zoom, Search highlights a "
		     "regular expression and prints its share; docs/flamegraphs.md). A frame's "
		     "share carries a sampling error of two standard errors of a binomial "
		     "share, 2 sqrt(p (1 - p) / n) for a share p of n samples (about 95%%):\n\n"
		     "| graph | samples | packets at the DUT | error of a frame at 1%% | at 10%% | "
		     "not told from 0 below | unnamed: hit | in the stack | mostly |\n"
		     "|---|---|---|---|---|---|---|---|---|\n");
	json_array_foreach(fgs, i, fg) {
		const json_t *se = json_object_get(fg, "sampling_error");
		const json_t *un = json_object_get(fg, "unnamed");
		char a[32], b[32], c[32], d[32], e[32], pk[48], s[48], why[512];

		if (!json_is_string(json_object_get(fg, "svg"))) {
			fprintf(out, "| %s | no graph: %s ||||||||\n", json_str_of(fg, "mode", ""),
				json_str_of(fg, "error", "not drawn"));
			continue;
		}
		main_kind(un, NULL, why, sizeof(why));
		fprintf(out, "| `%s` | %s | %s | ±%s points | ±%s points | %s%% | %s%% | %s%% | %s |\n",
			json_str_of(fg, "svg", ""),
			summary_fmt_count(s, sizeof(s), json_object_get(fg, "samples")),
			summary_fmt_count(pk, sizeof(pk), json_object_get(fg, "pkts_at_dut")),
			pct(a, sizeof(a), json_num_of(se, "at_1pct"), 2),
			pct(b, sizeof(b), json_num_of(se, "at_10pct"), 1),
			pct(c, sizeof(c), json_num_of(se, "zero_below"), 2),
			pct(d, sizeof(d), json_num_of(un, "share"), 1),
			pct(e, sizeof(e), json_num_of(un, "path_share"), 1),
			json_array_size(json_object_get(un, "kinds")) ? why : "(all named)");
	}
	json_array_foreach(fgs, i, fg) {
		const json_t *un = json_object_get(fg, "unnamed");
		char a[32], b[32], why[512];

		if (!json_is_string(json_object_get(fg, "svg")))
			continue;
		if (json_num_of(fg, "samples") < FLAME_MIN_SAMPLES)
			fprintf(out, "\n`%s` holds %.0f samples, fewer than the 2,000 the profile "
				     "pass aims at (its window: %s): a frame under %s%% of it cannot be "
				     "told from nothing.\n", json_str_of(fg, "svg", ""),
				json_num_of(fg, "samples"),
				json_str_of(fg, "window_from", "--packets, before the window was sized"),
				pct(a, sizeof(a), json_num_of(json_object_get(fg, "sampling_error"),
							      "zero_below"), 1));
		if (!json_is_string(json_object_get(un, "fix")))
			continue;
		main_kind(un, json_str_of(un, "fix_kind", NULL), why, sizeof(why));
		fprintf(out, "\n**Unnamed frames in `%s`**: %s%% of its samples hit frames perf could "
			     "not name and %s%% have one in the stack, most of them %s: to name them, "
			     "%s.\n", json_str_of(fg, "svg", ""),
			pct(a, sizeof(a), json_num_of(un, "share"), 1),
			pct(b, sizeof(b), json_num_of(un, "path_share"), 1), why,
			json_str_of(un, "fix", ""));
	}
}
