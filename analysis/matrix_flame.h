/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_flame.h: the kernel matrix's differential flame graphs (xdpdrv against tc,
 * instructions per packet), drawn from the copies of the folded profiles under the
 * matrix's directory that its entries name (matrix.h, matrix_profiles), so that
 * `xdptc matrix --report` draws them again from matrix.json and profiles/ alone.
 */
#ifndef XDPTC_MATRIX_FLAME_H
#define XDPTC_MATRIX_FLAME_H

#include <jansson.h>
#include <stdio.h>

/* matrix_profile_svg - the differential flame graph of @p (an entry's "profiles": its
 * "modes" tc and xdpdrv with "folded_file" and "per_sample", "period", "period_unit",
 * "left_out" and "diff"."svg", paths under @mdir) to @svg (NULL: the file @mdir/svg);
 * its subtitle gives both sides' samples, their sampling error and their unnamed frames.
 * Returns 0, or -errno (-ENOENT: @p has no such graph). */
int matrix_profile_svg(const json_t *p, const char *mdir, FILE *svg);

/* matrix_redraw_profiles - every entry's differential flame graph of @matrix again, in
 * @mdir. Returns the graphs drawn, or -errno (said on stderr). */
int matrix_redraw_profiles(const json_t *matrix, const char *mdir);

/* matrix_md_flame - matrix.md's line for the differential flame graph of the matrix entry
 * @e (its "kernel", "experiment" and "profiles"."diff"."svg") on @out: a link to it when
 * @dir, the matrix's directory, holds it (or @dir is NULL: not known); else its name,
 * with the folded stacks `xdptc matrix --report DIR` draws it from, and how to unpack
 * them where @dir keeps them only gzip-compressed (NAME.folded.gz: a lean copy, as in
 * results/examples). Writes nothing when @e has no such graph. */
void matrix_md_flame(const json_t *e, const char *dir, FILE *out);

/* matrix_md_flame_ref - the reference alone, for a sentence that names the graph: its link
 * followed by @note and ".", or, where @dir does not hold the graph, its name, @note and
 * how to draw it (as matrix_md_flame says). Writes nothing when @e has no such graph. */
void matrix_md_flame_ref(const json_t *e, const char *dir, const char *note, FILE *out);

#endif
