/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * page_regime.h: the regime of the every-iteration instruction count, per arm and per
 * window, in runs of the icount engine's plugin (summary.c, summary_notes.c, matrix.md).
 *
 * Under -icount every iteration of a `rep` string instruction counts as an instruction;
 * a page the kernel clears (clear_page_erms: `rep stosb` of 4,096 bytes, each page the
 * buddy allocator hands out under Debian's init_on_alloc) adds 4,096 of them. Whether a
 * packet's path takes a fresh page or a recycled one changes between runs and boots
 * (6.1 veth-xdp-live: xdpdrv's every-iteration count was 3,243 per packet in one timing
 * pass, 843 in its profile window; issue 36), so the every-iteration figures
 * (guest_instructions_per_pkt, window_instructions_per_pkt) follow it; the retired
 * count (a rep string instruction once, as a CPU counts it) hardly moves. The regime is
 * named from the pages cleared per packet, by the plugin's per-function counts:
 * "none" below PAGE_REGIME_SOME pages per packet, "every packet" from PAGE_REGIME_EVERY,
 * "some packets" between.
 */
#ifndef XDPTC_PAGE_REGIME_H
#define XDPTC_PAGE_REGIME_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* Below: no page cleared per packet (the committed matrices' background: 0.006 pages
 * per packet); at or above PAGE_REGIME_EVERY: a page for every packet (they measured
 * 1.00 to 1.14). Between (0.38 to 0.63 measured): a page for some packets. */
#define PAGE_REGIME_SOME 0.1
#define PAGE_REGIME_EVERY 0.9

/* The regime of @pages cleared per packet: "none", "some packets", "every packet"; NULL
 * for NaN (not measured). */
const char *page_regime_name(double pages);

/* Pages cleared per packet in an insn_profiles entry @profile (run.json, matrix.json):
 * the clear_page functions' string iterations times their bytes per iteration
 * (insn_clear_page_bytes), over 4,096; NaN when @profile is NULL. */
double page_regime_profile_pages(const json_t *profile);

/* For each mode of the summary's @modes array of @run: "pages_cleared_per_pkt" and
 * "page_regime" of its arm (from insn_profiles: every valid timing window summed), and,
 * where the trials hold pages_cleared_per_pkt, "page_regime_windows": an object of
 * regime name to the number of valid timing windows in it. Nothing for runs without the
 * plugin's profiles. */
void page_regime_summarize(json_t *modes, const json_t *run);

/*
 * page_regime_sentence - one sentence into @buf (@len bytes) when the arms of summary
 * @modes, or the windows of one arm, ran in different regimes: which, and that the
 * every-iteration figures differ by those pages while the retired count is the one to
 * compare. Returns true when written, false (and @buf empty) when all share one regime
 * or nothing was measured.
 */
bool page_regime_sentence(const json_t *modes, char *buf, size_t len);

/* summary.md's row of @modes' regimes: per arm its regime and pages cleared per packet,
 * and its windows by regime when they ran in more than one; nothing when no arm has a
 * regime. */
void page_regime_row(FILE *out, const json_t *modes);

/* The regimes of tc and xdpdrv in a matrix.json entry @entry (from its insn_profiles)
 * into @buf when not NULL, "every packet / none" ("n/a" for one without a profile);
 * returns true when both are known and differ. */
bool page_regime_entry(const json_t *entry, char *buf, size_t len);

#endif
