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
	const json_t *ip = json_object_get(run, "insn_profiles");

	return json_is_array(ip) ? json_deep_copy(ip) : NULL;
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

/* One mode's figure of a function: exact, or not among the rows its run.json kept
 * (then at most @bound, the smallest every-iteration figure kept: rows are kept in
 * that order, and a function's retired figure is never above its every-iteration one). */
struct fval {
	double retired, insns, bound;
	bool kept;
};

/* Function @name's figures in profile @p. A profile that cut nothing (no "[other
 * functions]" row) lists every function counted: one absent from it ran 0. */
static struct fval func_of(const json_t *p, const char *name)
{
	struct fval v = { 0, 0, INFINITY, false };
	bool cut = false;
	const json_t *f;
	size_t i;

	json_array_foreach(json_object_get(p, "functions"), i, f) {
		const char *n = json_str_of(f, "name", "");
		double in = json_num_of(f, "insns_per_pkt");

		if (!strcmp(n, "[other functions]")) {
			cut = true;
			continue;
		}
		if (!isnan(in) && in < v.bound)
			v.bound = in;
		if (!strcmp(n, name)) {
			v.retired = json_num_of(f, "retired_per_pkt");
			v.insns = in;
			v.kept = true;
		}
	}
	if (!v.kept && !cut)
		v.kept = true; /* every function is listed: this one ran none */
	if (!v.kept && isinf(v.bound)) /* no row kept: at most the mode's total */
		v.bound = json_num_of(p, "insns_per_pkt");
	return v;
}

/* The retired instructions per packet of profile @p's rows whose name begins with
 * @prefix and ends with @suffix (NULL: equals @prefix), "%.1f" into @buf; when no row
 * matches, "≤ B" (B: the smallest row kept) or, in a profile that cut nothing, 0.0;
 * "n/a" without a profile. */
static const char *rows_of(char *buf, size_t len, const json_t *p, const char *prefix,
			   const char *suffix)
{
	const json_t *f;
	double sum = 0;
	bool any = false;
	size_t i;

	json_array_foreach(json_object_get(p, "functions"), i, f) {
		const char *n = json_str_of(f, "name", "");
		size_t ln = strlen(n), ls = suffix ? strlen(suffix) : 0;

		if (suffix ? strncmp(n, prefix, strlen(prefix)) || ln < ls ||
				     strcmp(n + ln - ls, suffix)
			   : strcmp(n, prefix))
			continue;
		sum += json_num_of(f, "retired_per_pkt");
		any = true;
	}
	if (any)
		snprintf(buf, len, "%.1f", sum);
	else if (!p)
		snprintf(buf, len, "n/a");
	else {
		struct fval v = func_of(p, ""); /* a name no row has */

		if (v.kept) /* every function listed */
			snprintf(buf, len, "0.0");
		else /* the largest rows are kept: at most the smallest of them */
			snprintf(buf, len, "≤ %.1f", v.bound);
	}
	return buf;
}

/* One row of an experiment's table; returns whether tc and xdpdrv ran in different
 * page-clearing regimes. */
static bool md_table_row(FILE *out, const json_t *e)
{
	const json_t *tc = matrix_by_mode(json_object_get(e, "modes"), "tc"),
		     *x = matrix_by_mode(json_object_get(e, "modes"), "xdpdrv");
	const json_t *ips = json_object_get(e, "insn_profiles");
	const json_t *ptc = matrix_by_mode(ips, "tc"), *px = matrix_by_mode(ips, "xdpdrv");
	char dx[96], dg[96], dt[96], every[32], prog[4][24], reg[64];
	bool differ = page_regime_entry(e, reg, sizeof(reg));

	matrix_fmt_delta(dx, sizeof(dx), matrix_entry_delta(e, "xdpdrv", RETIRED));
	matrix_fmt_delta(dg, sizeof(dg), matrix_entry_delta(e, "xdpgeneric", RETIRED));
	matrix_fmt_delta(dt, sizeof(dt), matrix_entry_delta(e, "tcx", RETIRED));
	fmt_ratio(every, sizeof(every), json_num_of(tc, "window_instructions_per_pkt"),
		  json_num_of(x, "window_instructions_per_pkt"));
	fprintf(out, "| %s (%s) | %.1f | %.1f | %s | %s | %s | %.1f | %.1f | %s%s | %.1f / %.1f "
		     "| %s | %s / %s | %s / %s |\n",
		json_str_of(e, "kernel", ""), json_str_of(e, "guest_kernel", ""), json_num_of(tc, RETIRED), json_num_of(x, RETIRED), dx,
		dg, dt, json_num_of(tc, "window_instructions_per_pkt"),
		json_num_of(x, "window_instructions_per_pkt"), every, differ ? " (regimes differ)" : "",
		json_num_of(tc, "string_iterations_per_pkt"), json_num_of(x, "string_iterations_per_pkt"), reg,
		rows_of(prog[0], 24, ptc, "bpf_prog_", "_tc_drop"),
		rows_of(prog[1], 24, px, "bpf_prog_", "_xdp_drop"),
		rows_of(prog[2], 24, ptc, "bpf_dispatcher_xdp", NULL),
		rows_of(prog[3], 24, px, "bpf_dispatcher_xdp", NULL));
	return differ;
}

/* Entry @e's modes beyond the table's columns (the container's netkit), one line each:
 * retired per packet, the delta against tc, the drop program's own rows. */
static void md_more_modes(FILE *out, const json_t *e)
{
	static const char *const cols[] = { "tc", "xdpdrv", "xdpgeneric", "tcx" };
	const json_t *m, *ips = json_object_get(e, "insn_profiles");
	size_t i;

	json_array_foreach(json_object_get(e, "modes"), i, m) {
		const char *name = json_str_of(m, "mode", "");
		char d[96], prog[24], suffix[48];
		bool col = false;

		for (size_t k = 0; k < sizeof(cols) / sizeof(cols[0]); k++)
			col = col || !strcmp(name, cols[k]);
		if (col || !*name)
			continue;
		matrix_fmt_delta(d, sizeof(d), matrix_entry_delta(e, name, RETIRED));
		snprintf(suffix, sizeof(suffix), "_%s_drop", name);
		fprintf(out, "\n%s (%s), %s: %.1f retired instructions per packet, %s vs tc, "
			     "retired %s; its drop program's own rows %s retired per packet.\n",
			json_str_of(e, "kernel", ""), json_str_of(e, "guest_kernel", ""), name,
			json_num_of(m, RETIRED), name, d,
			rows_of(prog, sizeof(prog), matrix_by_mode(ips, name), "bpf_prog_", suffix));
	}
}

struct fdiff {
	const char *name, *where;
	struct fval a, b;
	double least; /* the smallest the retired difference can be, in magnitude */
};

/* The interval of @b - @a in one convention (@insns: every iteration): [*lo, *hi]. */
static void diff_range(const struct fdiff *d, bool insns, double *lo, double *hi)
{
	double a = insns ? d->a.insns : d->a.retired, b = insns ? d->b.insns : d->b.retired;

	*lo = (d->b.kept ? b : 0) - (d->a.kept ? a : d->a.bound);
	*hi = (d->b.kept ? b : d->b.bound) - (d->a.kept ? a : 0);
}

static int by_diff(const void *x, const void *y)
{
	const struct fdiff *a = x, *b = y;

	if (a->least != b->least)
		return a->least > b->least ? -1 : 1;
	return strcmp(a->name, b->name);
}

/* Add @p's functions to @v (unique by name; @v holds @max), with their figures in @pa
 * and @pb. Returns the new count. */
static int collect(struct fdiff *v, int n, int max, const json_t *p, const json_t *pa,
		   const json_t *pb)
{
	const json_t *f;
	size_t i;

	json_array_foreach(json_object_get(p, "functions"), i, f) {
		const char *name = json_str_of(f, "name", "");
		double lo, hi;
		int k;

		for (k = 0; k < n && strcmp(v[k].name, name); k++)
			;
		if (k < n || n == max || !strcmp(name, "[other functions]"))
			continue;
		v[n].name = name;
		v[n].where = json_str_of(f, "where", "");
		v[n].a = func_of(pa, name);
		v[n].b = func_of(pb, name);
		diff_range(&v[n], false, &lo, &hi);
		v[n].least = lo > 0 ? lo : hi < 0 ? -hi : 0;
		n++;
	}
	return n;
}

/* A figure: exact ("%.1f"), or the bound of one not kept ("≤ %.1f"). */
static const char *fig(char *buf, size_t len, const struct fval *v, bool insns)
{
	if (v->kept)
		snprintf(buf, len, "%.1f", insns ? v->insns : v->retired);
	else
		snprintf(buf, len, "≤ %.1f", v->bound);
	return buf;
}

/* A difference: exact ("%+.1f"), or its interval ("%+.1f to %+.1f"). */
static const char *dfig(char *buf, size_t len, const struct fdiff *d, bool insns)
{
	double lo, hi;

	diff_range(d, insns, &lo, &hi);
	if (d->a.kept && d->b.kept)
		snprintf(buf, len, "%+.1f", lo);
	else
		snprintf(buf, len, "%+.1f to %+.1f", lo, hi);
	return buf;
}

/* The retired instructions per packet profile @p did not keep ("[other functions]"). */
static double other_of(const json_t *p)
{
	const json_t *f;
	size_t i;

	json_array_foreach(json_object_get(p, "functions"), i, f)
		if (!strcmp(json_str_of(f, "name", ""), "[other functions]"))
			return json_num_of(f, "retired_per_pkt");
	return 0;
}

/* The functions of entry @e that differ most between mode @b and tc, from both modes'
 * rows as their run.json stores them (a function only one mode kept: the other's
 * figure bounded by its smallest row kept, the difference an interval). */
static void md_pair(FILE *out, const json_t *e, const char *b, int rows)
{
	const json_t *ips = json_object_get(e, "insn_profiles");
	const json_t *pa = matrix_by_mode(ips, "tc"), *pb = matrix_by_mode(ips, b);
	int max = (int)(json_array_size(json_object_get(pa, "functions")) +
			json_array_size(json_object_get(pb, "functions")));
	struct fdiff *v;
	int n, i;

	if (!pa || !pb || !(v = calloc((size_t)max + 1, sizeof(*v))))
		return;
	n = collect(v, 0, max, pa, pa, pb);
	n = collect(v, n, max, pb, pa, pb);
	qsort(v, (size_t)n, sizeof(v[0]), by_diff);
	fprintf(out, "\n### %s, %s (guest %s): %s against tc\n\n"
		     "Over %lld and %lld timing windows (tc, %s): %.1f and %.1f retired instructions "
		     "per packet (%.1f and %.1f every iteration), of which the guest's background "
		     "(idle, timer ticks, RCU) %.1f and %.1f; the functions below and the rest add "
		     "up to these totals. Each figure is the run's own row for that mode (its "
		     "run.json keeps each mode's largest functions); \"≤\" marks a function that "
		     "mode did not keep, at most its smallest kept row, and its difference is then "
		     "the range it can take.\n\n"
		     "| function | where | tc, retired | %s, retired | difference | tc, every "
		     "iteration | %s, every iteration | difference |\n"
		     "|---|---|---|---|---|---|---|---|\n",
		json_str_of(e, "kernel", ""), json_str_of(e, "experiment", ""), json_str_of(e, "guest_kernel", ""), b,
		json_integer_value(json_object_get(pa, "windows")),
		json_integer_value(json_object_get(pb, "windows")), b, json_num_of(pa, "retired_per_pkt"),
		json_num_of(pb, "retired_per_pkt"), json_num_of(pa, "insns_per_pkt"), json_num_of(pb, "insns_per_pkt"),
		json_num_of(pa, "background_retired_per_pkt"), json_num_of(pb, "background_retired_per_pkt"), b, b);
	for (i = 0; i < n && i < rows && v[i].least >= MATRIX_INSN_DIFF_MIN; i++) {
		char c[6][48];

		fprintf(out, "| `%s` | %s | %s | %s | %s | %s | %s | %s |\n", v[i].name, v[i].where,
			fig(c[0], 48, &v[i].a, false), fig(c[1], 48, &v[i].b, false),
			dfig(c[2], 48, &v[i], false), fig(c[3], 48, &v[i].a, true),
			fig(c[4], 48, &v[i].b, true), dfig(c[5], 48, &v[i], true));
	}
	if (i < n && v[i].least < MATRIX_INSN_DIFF_MIN)
		fprintf(out, "\nNo other function of either mode's stored rows differs by %.2f "
			     "or more retired instructions per packet; the functions neither kept "
			     "(`[other functions]`) add up to %.1f (tc) and %.1f (%s).\n",
			MATRIX_INSN_DIFF_MIN, other_of(pa), other_of(pb), b);
	free(v);
}

/* Entry @e's tables: every mode it profiled against tc, xdpdrv, xdpgeneric and tcx
 * first, then the others (netkit) in the run's order. */
static void md_pairs(FILE *out, const json_t *e, int rows)
{
	static const char *const first[] = { "xdpdrv", "xdpgeneric", "tcx" };
	const json_t *ips = json_object_get(e, "insn_profiles"), *p;
	size_t k;

	for (size_t j = 0; j < sizeof(first) / sizeof(first[0]); j++)
		if (matrix_by_mode(ips, first[j]))
			md_pair(out, e, first[j], rows);
	json_array_foreach(ips, k, p) {
		const char *m = json_str_of(p, "mode", "");
		bool listed = !strcmp(m, "tc");

		for (size_t j = 0; j < sizeof(first) / sizeof(first[0]); j++)
			listed = listed || !strcmp(m, first[j]);
		if (!listed)
			md_pair(out, e, m, rows);
	}
}

void matrix_md_insns(const json_t *matrix, FILE *out, int rows)
{
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
		     "`movsq`). The drop program's column is its own JIT-ed rows "
		     "(`bpf_prog_<tag>_tc_drop`, `bpf_prog_<tag>_xdp_drop`), exact, the program "
		     "running once per packet at the DUT; `bpf_dispatcher_xdp` is XDP's way in "
		     "(with the XDP-live sender also its own XDP program's). The BPF-stats "
		     "column above is the statistics pass's run time per run, with the "
		     "statistics' own clock reads in it.\n");
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
			     "xdpdrv) | pages cleared (tc / xdpdrv) | drop program, exact retired/pkt "
			     "(tc / xdpdrv) | `bpf_dispatcher_xdp`, retired/pkt (tc / xdpdrv) |\n"
			     "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n", exp);
		differ = 0;
		json_array_foreach(json_object_get(matrix, "entries"), j, f)
			if (!strcmp(json_str_of(f, "experiment", ""), exp) &&
			    json_array_size(json_object_get(f, "insn_profiles")))
				differ += md_table_row(out, f);
		if (differ)
			fprintf(out, "\nIn %d row%s tc and xdpdrv ran in different page-clearing "
				     "regimes (the column pages cleared: a page cleared for none, some "
				     "or every packet, from the plugin's clear_page counts): each page "
				     "adds 4,096 rep iterations to the every-iteration count, so their "
				     "every-iteration delta counts those iterations, and moves where "
				     "the regime changes between runs; compare the retired delta.\n", differ, differ == 1 ? "" : "s");
		json_array_foreach(json_object_get(matrix, "entries"), j, f)
			if (!strcmp(json_str_of(f, "experiment", ""), exp) &&
			    json_array_size(json_object_get(f, "insn_profiles")))
				md_more_modes(out, f);
	}
	fprintf(out, "\n## Where the instructions go, exactly\n\nPer kernel and experiment, "
		     "for each mode against tc: the functions whose retired instructions per "
		     "packet differ most, summed over every valid timing window (the plugin "
		     "attributes each instruction to its function by the guest's own kallsyms: "
		     "kernel, module, BPF program, or user space). These are counts, not samples; "
		     "the sampled flame graphs show call paths only.\n");
	json_array_foreach(json_object_get(matrix, "entries"), i, e)
		md_pairs(out, e, rows);
}
