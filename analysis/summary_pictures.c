/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_pictures.c: summary.md's plots embedded, its flame graphs linked. */
#include "summary_pictures.h"

#include <limits.h>
#include <stdbool.h>
#include <string.h>
#include <unistd.h>

#include "json_read.h"
#include "summary_facts.h"

/* Is @name (a file of the run) in @dir? */
static bool present(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return !access(path, R_OK);
}

/* The section's heading, once, before its first picture. */
static void heading(const struct render_ctx *rc, bool *said)
{
	if (!*said)
		fprintf(rc->out, "\n## Plots\n");
	*said = true;
}

/* The plots of plots.h that are in the run's directory, as images. */
static void plots(const struct render_ctx *rc, bool *said)
{
	const char *tm = summary_time_metric(rc->run);
	char name[96], alt[192];

	snprintf(name, sizeof(name), "%s.svg", tm);
	snprintf(alt, sizeof(alt), "%s per mode: each timing repetition (dots) and the median "
		 "(bar)", tm);
	const char *const files[3][2] = {
		{ name, alt },
		{ "delta.svg", "each within-run delta with its interval (an A/A arm in grey: the "
			       "noise floor)" },
		{ "counters.svg", "the mechanism counters per packet at the DUT, per mode (count "
				  "pass medians)" },
	};

	for (int i = 0; i < 3; i++) {
		if (!present(rc->dir, files[i][0]))
			continue;
		heading(rc, said);
		fprintf(rc->out, "\n![%s](%s)\n", files[i][1], files[i][0]);
	}
}

/* The flame graphs of run.json's "flamegraphs" that are in the run's directory, as
 * links. */
static void flames(const struct render_ctx *rc, bool *said)
{
	const json_t *fg;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(rc->run, "flamegraphs"), i, fg) {
		const char *svg = json_string_value(json_object_get(fg, "svg"));

		if (!svg || !present(rc->dir, svg))
			continue;
		heading(rc, said);
		fprintf(rc->out, "%s[%s](%s) (%s)", n++ ? ", " : "\nFlame graphs (open one in a "
			"browser: click a frame to zoom; Search highlights a regular expression "
			"and prints its share): ", svg, svg, json_str_of(fg, "mode", "?"));
	}
	if (n)
		fprintf(rc->out, ".\n");
}

void summary_pictures_render(const struct render_ctx *rc)
{
	bool said = false;

	if (!rc->dir)
		return;
	plots(rc, &said);
	flames(rc, &said);
}
