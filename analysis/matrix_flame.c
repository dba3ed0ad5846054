/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_flame.c: the matrix's differential flame graphs (matrix_flame.h). */
#include "matrix_flame.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "flame_render.h"
#include "flamegraph.h"
#include "json_read.h"

/* The folded copy of @mode in @p, opened, or NULL. */
static FILE *open_folded(const json_t *p, const char *mode, const char *mdir)
{
	const json_t *m = json_object_get(json_object_get(p, "modes"), mode);
	char path[PATH_MAX + 64];

	if (!json_is_string(json_object_get(m, "folded_file")))
		return NULL;
	snprintf(path, sizeof(path), "%s/%s", mdir, json_str_of(m, "folded_file", ""));
	return fopen(path, "r");
}

int matrix_profile_svg(const json_t *p, const char *mdir, FILE *svg)
{
	const json_t *d = json_object_get(p, "diff"), *modes = json_object_get(p, "modes");
	const char *skip = json_str_of(p, "left_out", NULL);
	double as = json_num_of(json_object_get(modes, "tc"), "per_sample");
	double bs = json_num_of(json_object_get(modes, "xdpdrv"), "per_sample");
	char l[3][400], path[PATH_MAX + 64], wa[128], wb[128], g[4][32];
	struct flame_opts o = { .title = "xdpdrv against tc", .unit = "instructions",
				.a_name = "tc", .b_name = "xdpdrv" };
	struct flame_unnamed ua, ub;
	FILE *a, *b, *out = svg;
	int e;

	if (!json_is_string(json_object_get(d, "svg")))
		return -ENOENT;
	a = open_folded(p, "tc", mdir);
	b = open_folded(p, "xdpdrv", mdir);
	e = a && b ? 0 : -ENOENT;
	if (!e)
		e = flame_unnamed_count(a, skip, &ua);
	if (!e)
		e = flame_unnamed_count(b, skip, &ub);
	if (!e && !out) {
		snprintf(path, sizeof(path), "%s/%s", mdir, json_str_of(d, "svg", ""));
		out = fopen(path, "w");
		e = out ? 0 : -errno;
	}
	if (!e) {
		snprintf(l[0], sizeof(l[0]), "instructions per packet (a sample every %.0f %s, "
			 "scaled to the measured total; the processes %s left out); red: xdpdrv "
			 "does more, blue: less", json_num_of(p, "period"),
			 json_str_of(p, "period_unit", ""), skip ? skip : "none");
		snprintf(l[1], sizeof(l[1]), "tc %s samples, xdpdrv %s: a frame's share is within "
			 "%.2f and %.2f points at 1%% and %.1f and %.1f at 10%% (two standard "
			 "errors, binomial)", flame_group(g[0], sizeof(g[0]), ua.samples),
			 flame_group(g[1], sizeof(g[1]), ub.samples),
			 100 * flame_sampling_err(0.01, ua.samples),
			 100 * flame_sampling_err(0.01, ub.samples),
			 100 * flame_sampling_err(0.10, ua.samples),
			 100 * flame_sampling_err(0.10, ub.samples));
		flame_unnamed_words(&ua, wa, sizeof(wa));
		flame_unnamed_words(&ub, wb, sizeof(wb));
		snprintf(l[2], sizeof(l[2]), "Unnamed frames: tc %s of the samples hit one (%s "
			 "in their stack; %s), xdpdrv %s (%s; %s)",
			 flame_pct(g[0], sizeof(g[0]), ua.samples > 0 ? ua.self / ua.samples : 0),
			 flame_pct(g[1], sizeof(g[1]), ua.samples > 0 ? ua.path / ua.samples : 0), wa,
			 flame_pct(g[2], sizeof(g[2]), ub.samples > 0 ? ub.self / ub.samples : 0),
			 flame_pct(g[3], sizeof(g[3]), ub.samples > 0 ? ub.path / ub.samples : 0), wb);
		for (int i = 0; i < 3; i++)
			o.lines[i] = l[i];
		rewind(a);
		rewind(b);
		e = flame_svg_diff(a, as, b, bs, skip, out, &o);
	}
	if (a)
		fclose(a);
	if (b)
		fclose(b);
	if (out && out != svg && fclose(out) && !e)
		e = -EIO;
	return e;
}

int matrix_redraw_profiles(const json_t *matrix, const char *mdir)
{
	const json_t *en;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(matrix, "entries"), i, en) {
		const json_t *p = json_object_get(en, "profiles");
		int e;

		if (!json_is_string(json_object_get(json_object_get(p, "diff"), "svg")))
			continue;
		e = matrix_profile_svg(p, mdir, NULL);
		if (e == -ENOENT) { /* a lean copy without its folded stacks (results/examples) */
			char gz[PATH_MAX + 96];

			snprintf(gz, sizeof(gz), "%s/%s.gz", mdir,
				 json_str_of(json_object_get(json_object_get(p, "modes"), "tc"),
					     "folded_file", "?"));
			fprintf(stderr, "xdptc matrix: the differential flame graph of %s, %s: not "
					"drawn, its folded stacks are not in %s/profiles%s\n",
				json_str_of(en, "kernel", ""), json_str_of(en, "experiment", ""), mdir,
				access(gz, R_OK) ? "" : " (kept compressed there: gunzip -k "
				"profiles/*.folded.gz, then matrix --report again)");
			continue;
		}
		if (e) {
			fprintf(stderr, "xdptc matrix: the differential flame graph of %s, %s: %s\n",
				json_str_of(en, "kernel", ""), json_str_of(en, "experiment", ""),
				strerror(-e));
			return e;
		}
		n++;
	}
	return n;
}

void matrix_md_flame_ref(const json_t *e, const char *dir, const char *note, FILE *out)
{
	const json_t *p = json_object_get(e, "profiles");
	const json_t *modes = json_object_get(p, "modes");
	const char *svg = json_str_of(json_object_get(p, "diff"), "svg", NULL), *tc;
	char path[PATH_MAX + 64];

	if (!svg)
		return;
	snprintf(path, sizeof(path), "%s/%s", dir ? dir : ".", svg);
	if (!dir || !access(path, R_OK)) {
		fprintf(out, "[`%s`](%s)%s.\n", svg, svg, note);
		return;
	}
	/* no link that leads nowhere: what draws it instead */
	tc = json_str_of(json_object_get(modes, "tc"), "folded_file", "?");
	snprintf(path, sizeof(path), "%s/%s.gz", dir, tc);
	fprintf(out, "`%s`%s, not in this directory: `xdptc matrix --report DIR` draws it from "
		     "`%s` and `%s`%s.\n", svg, note, tc,
		json_str_of(json_object_get(modes, "xdpdrv"), "folded_file", "?"),
		access(path, R_OK) ? "" : " (kept compressed here: `gunzip -k "
		"profiles/*.folded.gz` first)");
}

void matrix_md_flame(const json_t *e, const char *dir, FILE *out)
{
	if (!json_str_of(json_object_get(json_object_get(e, "profiles"), "diff"), "svg", NULL))
		return;
	fprintf(out, "\n%s, %s: differential flame graph ", json_str_of(e, "kernel", ""),
		json_str_of(e, "experiment", ""));
	matrix_md_flame_ref(e, dir, " (sampled: call paths, not counts)", out);
}
