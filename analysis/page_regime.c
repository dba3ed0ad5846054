/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* page_regime.c: the every-iteration count's page-clearing regime (page_regime.h). */
#include "page_regime.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "insn_window.h"
#include "json_read.h"
#include "matrix_entry.h"

const char *page_regime_name(double pages)
{
	if (isnan(pages))
		return NULL;
	return pages < PAGE_REGIME_SOME ? "none" : pages < PAGE_REGIME_EVERY ? "some packets"
									   : "every packet";
}

double page_regime_profile_pages(const json_t *profile)
{
	const json_t *f;
	double pages = 0;
	size_t i;

	if (!profile)
		return NAN;
	json_array_foreach(json_object_get(profile, "functions"), i, f) {
		unsigned int b = insn_clear_page_bytes(json_str_of(f, "name", ""));
		double it = json_num_of(f, "insns_per_pkt") - json_num_of(f, "retired_per_pkt");

		if (b && it > 0)
			pages += it * b / 4096.0;
	}
	return pages;
}

/* The insn_profiles entry of @mode in @run, or NULL. */
static const json_t *profile_of(const json_t *run, const char *mode)
{
	const json_t *p;
	size_t i;

	json_array_foreach(json_object_get(run, "insn_profiles"), i, p)
		if (!strcmp(json_str_of(p, "mode", ""), mode))
			return p;
	return NULL;
}

/* The regimes of @mode's valid timing windows in @run: name to count (NULL: none has
 * pages_cleared_per_pkt). A new reference. */
static json_t *window_regimes(const json_t *run, const char *mode)
{
	json_t *w = json_object();
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(run, "trials"), i, t) {
		const char *r;

		if (strcmp(json_str_of(t, "pass", ""), "timing") || strcmp(json_str_of(t, "mode", ""), mode) ||
		    !json_is_true(json_object_get(t, "valid")) ||
		    !(r = page_regime_name(json_num_of(t, "pages_cleared_per_pkt"))))
			continue;
		json_object_set_new(w, r, json_integer(json_integer_value(json_object_get(w, r)) + 1));
	}
	if (!json_object_size(w)) {
		json_decref(w);
		return NULL;
	}
	return w;
}

void page_regime_summarize(json_t *modes, const json_t *run)
{
	json_t *m;
	size_t i;

	if (!json_array_size(json_object_get(run, "insn_profiles")))
		return;
	json_array_foreach(modes, i, m) {
		const char *mode = json_str_of(m, "mode", "");
		double pages = page_regime_profile_pages(profile_of(run, mode));
		json_t *w = window_regimes(run, mode);

		if (isnan(pages) && !w)
			continue;
		json_object_set_new(m, "pages_cleared_per_pkt", isnan(pages) ? json_null() : json_real(pages));
		json_object_set_new(m, "page_regime", isnan(pages) ? json_null()
								  : json_string(page_regime_name(pages)));
		if (w)
			json_object_set_new(m, "page_regime_windows", w);
	}
}

/* "a page for every packet" and the like, for @regime. */
static const char *phrase(const char *regime)
{
	return !strcmp(regime, "none") ? "no page" : !strcmp(regime, "some packets")
		? "a page for some packets" : "a page for every packet";
}

/* The arms' regimes into @buf at @n: "tc cleared ..., xdpdrv ...". Returns the new end. */
static size_t arms_text(const json_t *modes, char *buf, size_t len, size_t n)
{
	const json_t *m;
	size_t i, k = 0;

	json_array_foreach(modes, i, m) {
		const char *r = json_str_of(m, "page_regime", "");

		if (!*r || n >= len)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "%s%s cleared %s (%.2f pages per packet)",
				      k++ ? ", " : "", json_str_of(m, "mode", ""), phrase(r),
				      json_num_of(m, "pages_cleared_per_pkt"));
	}
	return n < len ? n : len - 1;
}

/* The arms whose windows ran in more than one regime into @buf at @n; *@any is set when
 * there is one. Returns the new end. */
static size_t windows_text(const json_t *modes, char *buf, size_t len, size_t n, bool *any)
{
	const json_t *m;
	size_t i;

	json_array_foreach(modes, i, m) {
		const json_t *w = json_object_get(m, "page_regime_windows"), *c;
		const char *r;
		int k = 0;

		if (json_object_size(w) < 2 || n >= len)
			continue;
		n += (size_t)snprintf(buf + n, len - n, "; %s's timing windows ran in %zu regimes (",
				      json_str_of(m, "mode", ""), json_object_size(w));
		json_object_foreach((json_t *)w, r, c)
			if (n < len)
				n += (size_t)snprintf(buf + n, len - n, "%s%lld with %s", k++ ? ", " : "",
						      json_integer_value(c), phrase(r));
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, ")");
		*any = true;
	}
	return n < len ? n : len - 1;
}

bool page_regime_sentence(const json_t *modes, char *buf, size_t len)
{
	const char *first = NULL;
	bool differ = false, windows = false;
	const json_t *m;
	size_t i, n;

	buf[0] = '\0';
	json_array_foreach(modes, i, m) {
		const char *r = json_str_of(m, "page_regime", "");

		if (!*r)
			continue;
		differ |= first && strcmp(first, r);
		first = first ? first : r;
	}
	n = (size_t)snprintf(buf, len, "**Page clearing**: ");
	n = arms_text(modes, buf, len, n);
	n = windows_text(modes, buf, len, n, &windows);
	if (!differ && !windows) {
		buf[0] = '\0';
		return false;
	}
	snprintf(buf + n, len - n, ": the arms%s ran in different regimes, and each page "
				   "cleared adds 4,096 rep iterations to the every-iteration "
				   "counts (guest_instructions_per_pkt, window_instructions_per_pkt) "
				   "and, with the fresh page's allocation, perhaps retired "
				   "instructions too (not settled: docs/engines.md); compare figures "
				   "of windows in one regime, and "
				   "the retired count before the every-iteration one, which moves "
				   "more.",
		 windows ? " or their windows" : "");
	return true;
}

void page_regime_row(FILE *out, const json_t *modes)
{
	const json_t *m;
	size_t i;
	bool any = false;

	json_array_foreach(modes, i, m)
		any |= json_is_string(json_object_get(m, "page_regime"));
	if (!any)
		return;
	fprintf(out, "| page clearing regime (pages cleared per packet; windows by regime) |");
	json_array_foreach(modes, i, m) {
		const json_t *w = json_object_get(m, "page_regime_windows"), *c;
		const char *r;
		int k = 0;

		if (!json_is_string(json_object_get(m, "page_regime"))) {
			fprintf(out, " n/a |");
			continue;
		}
		fprintf(out, " %s (%.2f", json_str_of(m, "page_regime", ""),
			json_num_of(m, "pages_cleared_per_pkt"));
		if (json_object_size(w) > 1) /* the windows of one arm in different regimes */
			json_object_foreach((json_t *)w, r, c)
				fprintf(out, "%s%lld %s", k++ ? ", " : "; windows: ", json_integer_value(c), r);
		fprintf(out, ") |");
	}
	fprintf(out, "\n");
}

bool page_regime_entry(const json_t *entry, char *buf, size_t len)
{
	const json_t *ips = json_object_get(entry, "insn_profiles");
	const char *a = page_regime_name(page_regime_profile_pages(matrix_by_mode(ips, "tc")));
	const char *b = page_regime_name(page_regime_profile_pages(matrix_by_mode(ips, "xdpdrv")));

	if (buf)
		snprintf(buf, len, "%s / %s", a ? a : "n/a", b ? b : "n/a");
	return a && b && strcmp(a, b);
}
