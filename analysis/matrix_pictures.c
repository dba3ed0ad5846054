/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_pictures.c: matrix.md's delta plots embedded (matrix_pictures.h). */
#include "matrix_pictures.h"

#include <limits.h>
#include <stdbool.h>
#include <unistd.h>

#include "matrix_experiments.h"

/* @name with the text @alt as an image, when @dir holds it; the heading before the
 * first. */
static void picture(const char *dir, const char *name, const char *alt, bool *said,
		    FILE *out)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (access(path, R_OK))
		return;
	if (!*said)
		fprintf(out, "\n## Plots\n");
	*said = true;
	fprintf(out, "\n![%s](%s)\n", alt, name);
}

void matrix_md_pictures(const char *dir, FILE *out)
{
	char name[96], alt[160];
	bool said = false;

	picture(dir, "matrix-delta.svg", "xdpdrv against tc per guest kernel, each icount "
		"experiment, with its interval", &said, out);
	picture(dir, "matrix-delta-retired.svg", "xdpdrv against tc per guest kernel, each "
		"icount experiment, retired instructions (the plugin), with its interval",
		&said, out);
	for (int x = 0; x < matrix_nexps; x++) {
		if (matrix_exps[x].engine != MATRIX_ICOUNT)
			continue;
		snprintf(name, sizeof(name), "matrix-delta-%s.svg", matrix_exps[x].name);
		snprintf(alt, sizeof(alt), "%s: each mode against tc per guest kernel, with its "
			 "interval", matrix_exps[x].name);
		picture(dir, name, alt, &said, out);
	}
}
