/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_notes.h: the parts of summary.md after its table (summary_notes.c). */
#ifndef XDPTC_SUMMARY_NOTES_H
#define XDPTC_SUMMARY_NOTES_H

#include "summary_words.h"

/* summary_notes_render - the notes under the table: loss before the DUT, saturation, the
 * rate search's edges, conservation. */
void summary_notes_render(const struct render_ctx *rc);

/* summary_cross_check_render - each count by every counter backend (--cross-check). */
void summary_cross_check_render(const struct render_ctx *rc);

/* summary_deltas_render - each mode's delta against the baseline with its interval and
 * verdict, the noise floor, the alternating pass's schedule. */
void summary_deltas_render(const struct render_ctx *rc);

/* summary_footer_render - a negative cost explained, and what the numbers do not say. */
void summary_footer_render(const struct render_ctx *rc);

#endif
