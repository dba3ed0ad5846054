/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_insns.c: the matrix's exact instruction figures (matrix_insns.h). */
#include "matrix_insns.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_read.h"
#include "matrix_entry.h"
#include "page_regime.h"

#define RETIRED "retired_instructions_per_pkt"


json_t *matrix_insn_profiles(const json_t *run)
{
	const json_t *ip = json_object_get(run, "insn_profiles"), *p;
	json_t *out;
	size_t i;

	if (!json_is_array(ip))
		return NULL;
	out = json_array();
	json_array_foreach(ip, i, p) {
		json_t *q = json_deep_copy(p), *fs = json_array(), *f;
		double oi = 0, orr = 0;
		bool cut = false;
		size_t k;

		json_array_foreach(json_object_get(p, "functions"), k, f) {
			if (k < MATRIX_INSN_FUNCS && strcmp(json_str_of(f, "name", ""), "[other functions]")) {
				json_array_append(fs, f);
				continue;
			}
			oi += json_num_of(f, "insns_per_pkt");
			orr += json_num_of(f, "retired_per_pkt");
			cut = true;
		}
		if (cut)
			json_array_append_new(fs, json_pack("{s:s, s:s, s:b, s:f, s:f}", "name",
							    "[other functions]", "where", "various",
							    "background", 0, "insns_per_pkt", oi,
							    "retired_per_pkt", orr));
		json_object_set_new(q, "functions", fs);
		json_array_append_new(out, q);
	}
	return out;
}

bool matrix_has_insns(const json_t *matrix)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(matrix, "entries"), i, e)
		if (json_array_size(json_object_get(e, "insn_profiles")))
			return true;
	return false;
}

/* The relative difference of two medians, "+x.x%", or "n/a". */
static void fmt_ratio(char *buf, size_t len, double a, double b)
{
	if (isnan(a) || isnan(b) || a <= 0)
		snprintf(buf, len, "n/a");
	else
		snprintf(buf, len, "%+.1f%%", 100 * (b / a - 1));
}

static bool md_table_row(FILE *out, const json_t *e)
{
	const json_t *tc = matrix_by_mode(json_object_get(e, "modes"), "tc"),
		     *x = matrix_by_mode(json_object_get(e, "modes"), "xdpdrv");
	char dx[96], dg[96], dt[96], every[32], reg[64];
	bool differ = page_regime_entry(e, reg, sizeof(reg));

	matrix_fmt_delta(dx, sizeof(dx), matrix_entry_delta(e, "xdpdrv", RETIRED));
	matrix_fmt_delta(dg, sizeof(dg), matrix_entry_delta(e, "xdpgeneric", RETIRED));
	matrix_fmt_delta(dt, sizeof(dt), matrix_entry_delta(e, "tcx", RETIRED));
	fmt_ratio(every, sizeof(every), json_num_of(tc, "window_instructions_per_pkt"),
		  json_num_of(x, "window_instructions_per_pkt"));
	fprintf(out, "| %s (%s) | %.1f | %.1f | %s | %s | %s | %.1f | %.1f | %s%s | %.1f / %.1f | %s |\n",
		json_str_of(e, "kernel", ""), json_str_of(e, "guest_kernel", ""), json_num_of(tc, RETIRED), json_num_of(x, RETIRED), dx,
		dg, dt, json_num_of(tc, "window_instructions_per_pkt"),
		json_num_of(x, "window_instructions_per_pkt"), every, differ ? " (regimes differ)" : "",
		json_num_of(tc, "string_iterations_per_pkt"), json_num_of(x, "string_iterations_per_pkt"), reg);
	return differ;
}

/* One function's figures in profile @p, by name (0 when not among those kept). */
static void func_of(const json_t *p, const char *name, double *insns, double *retired)
{
	const json_t *f;
	size_t i;

	*insns = *retired = 0;
	json_array_foreach(json_object_get(p, "functions"), i, f)
		if (!strcmp(json_str_of(f, "name", ""), name)) {
			*insns = json_num_of(f, "insns_per_pkt");
			*retired = json_num_of(f, "retired_per_pkt");
			return;
		}
}

struct fdiff {
	const char *name, *where;
	double ra, rb, ia, ib;
};

static int by_diff(const void *x, const void *y)
{
	const struct fdiff *a = x, *b = y;
	double da = fabs(a->rb - a->ra) + 1e-9 * fabs(a->ib - a->ia);
	double db = fabs(b->rb - b->ra) + 1e-9 * fabs(b->ib - b->ia);

	return da > db ? -1 : da < db;
}

/* Add @p's functions to @v (unique by name), with their figures in @pa and @pb. */
static int collect(struct fdiff *v, int n, int max, const json_t *p, const json_t *pa,
		   const json_t *pb)
{
	const json_t *f;
	size_t i;

	json_array_foreach(json_object_get(p, "functions"), i, f) {
		const char *name = json_str_of(f, "name", "");
		int k;

		for (k = 0; k < n && strcmp(v[k].name, name); k++)
			;
		if (k < n || n == max || !strcmp(name, "[other functions]"))
			continue;
		v[n].name = name;
		v[n].where = json_str_of(f, "where", "");
		func_of(pa, name, &v[n].ia, &v[n].ra);
		func_of(pb, name, &v[n].ib, &v[n].rb);
		n++;
	}
	return n;
}

/* The functions of entry @e that differ most between mode @b and tc. */
static void md_pair(FILE *out, const json_t *e, const char *b, int rows)
{
	const json_t *ips = json_object_get(e, "insn_profiles");
	const json_t *pa = matrix_by_mode(ips, "tc"), *pb = matrix_by_mode(ips, b);
	struct fdiff v[256];
	int n;

	if (!pa || !pb)
		return;
	n = collect(v, 0, 256, pa, pa, pb);
	n = collect(v, n, 256, pb, pa, pb);
	qsort(v, (size_t)n, sizeof(v[0]), by_diff);
	fprintf(out, "\n### %s, %s (guest %s): %s against tc\n\n"
		     "Over %lld and %lld timing windows (tc, %s): %.1f and %.1f retired instructions "
		     "per packet (%.1f and %.1f every iteration), of which the guest's background "
		     "(idle, timer ticks, RCU) %.1f and %.1f; the functions below and the rest add "
		     "up to these totals.\n\n"
		     "| function | where | tc, retired | %s, retired | difference | tc, every "
		     "iteration | %s, every iteration | difference |\n"
		     "|---|---|---|---|---|---|---|---|\n",
		json_str_of(e, "kernel", ""), json_str_of(e, "experiment", ""), json_str_of(e, "guest_kernel", ""), b,
		json_integer_value(json_object_get(pa, "windows")),
		json_integer_value(json_object_get(pb, "windows")), b, json_num_of(pa, "retired_per_pkt"),
		json_num_of(pb, "retired_per_pkt"), json_num_of(pa, "insns_per_pkt"), json_num_of(pb, "insns_per_pkt"),
		json_num_of(pa, "background_retired_per_pkt"), json_num_of(pb, "background_retired_per_pkt"), b, b);
	for (int i = 0; i < n && i < rows; i++)
		fprintf(out, "| `%s` | %s | %.1f | %.1f | %+.1f | %.1f | %.1f | %+.1f |\n",
			v[i].name, v[i].where, v[i].ra, v[i].rb, v[i].rb - v[i].ra, v[i].ia,
			v[i].ib, v[i].ib - v[i].ia);
}

void matrix_md_insns(const json_t *matrix, FILE *out, int rows)
{
	static const char *const pairs[] = { "xdpdrv", "xdpgeneric", "tcx" };
	const json_t *e;
	size_t i;
	char seen[16][64];
	int nseen = 0, differ;

	if (!matrix_has_insns(matrix))
		return;
	fprintf(out, "\n## Instructions as a CPU counts them (the plugin)\n\nThe icount "
		     "engine's instruction-counting plugin counts every guest instruction between "
		     "two markers around each timing window, in two conventions: retired (a rep "
		     "string instruction once, as a CPU's retired-instruction counter counts it: "
		     "comparable with a PMU's `instructions`) and every iteration (each iteration "
		     "of a rep string instruction one, as the icount clock counts). The string "
		     "iterations are the difference: the further iterations of `rep` string "
		     "instructions (a byte each for `stosb` and `movsb`, 8 for `stosq` and "
		     "`movsq`).\n");
	json_array_foreach(json_object_get(matrix, "entries"), i, e) {
		const char *exp = json_str_of(e, "experiment", "");
		const json_t *f;
		size_t j;
		int k;

		if (!json_array_size(json_object_get(e, "insn_profiles")))
			continue;
		for (k = 0; k < nseen && strcmp(seen[k], exp); k++)
			;
		if (k < nseen || nseen == 16)
			continue;
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", exp);
		fprintf(out, "\n### %s\n\n| kernel (guest release) | tc retired/pkt | xdpdrv "
			     "retired/pkt | xdpdrv vs tc, retired | xdpgeneric vs tc, retired | tcx "
			     "vs tc, retired | tc every iteration/pkt | xdpdrv every iteration/pkt | "
			     "xdpdrv vs tc, every iteration (medians) | string iterations/pkt (tc / "
			     "xdpdrv) | pages cleared (tc / xdpdrv) |\n"
			     "|---|---|---|---|---|---|---|---|---|---|---|\n", exp);
		differ = 0;
		json_array_foreach(json_object_get(matrix, "entries"), j, f)
			if (!strcmp(json_str_of(f, "experiment", ""), exp) &&
			    json_array_size(json_object_get(f, "insn_profiles")))
				differ += md_table_row(out, f);
		if (differ)
			fprintf(out, "\nIn %d row%s tc and xdpdrv ran in different page-clearing "
				     "regimes (the last column: a page cleared for none, some or every "
				     "packet, from the plugin's clear_page counts): each page adds 4,096 "
				     "rep iterations to the every-iteration count, so their "
				     "every-iteration delta counts those iterations, and moves where "
				     "the regime changes between runs; compare the retired delta.\n", differ, differ == 1 ? "" : "s");
	}
	fprintf(out, "\n## Where the instructions go, exactly\n\nPer kernel and experiment, "
		     "for each mode against tc: the functions whose retired instructions per "
		     "packet differ most, summed over every valid timing window (the plugin "
		     "attributes each instruction to its function by the guest's own kallsyms: "
		     "kernel, module, BPF program, or user space). These are counts, not samples; "
		     "the sampled flame graphs show call paths only.\n");
	json_array_foreach(json_object_get(matrix, "entries"), i, e)
		for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++)
			md_pair(out, e, pairs[k], rows);
}
