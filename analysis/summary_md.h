/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_md.h: a run's summary.md. */
#ifndef XDPTC_SUMMARY_MD_H
#define XDPTC_SUMMARY_MD_H

#include <jansson.h>
#include <stdio.h>

/* summary_render_md - write the markdown summary of @run (which must hold "summary")
 * to @out, with the plots and flame graphs that are in the run's directory @dir
 * embedded and linked (summary_pictures.h; NULL: none, as on a terminal). Returns 0, or
 * -EINVAL when fields are missing. */
int summary_render_md(const json_t *run, const char *dir, FILE *out);

#endif
