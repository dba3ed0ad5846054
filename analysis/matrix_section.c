/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_section.c: the generic section of matrix.md (matrix_section.h). */
#include "matrix_section.h"

#include <math.h>
#include <string.h>

#include "json_read.h"
#include "matrix_entry.h"

/* "A / B" of a per-packet count for tc and xdpdrv, "n/a" where unknown. */
static void fmt_pair(char *buf, size_t len, const json_t *tc, const json_t *xdp, const char *k,
		     int decimals)
{
	double a = json_num_of(tc, k), b = json_num_of(xdp, k);
	char sa[32] = "n/a", sb[32] = "n/a";

	if (!isnan(a))
		snprintf(sa, sizeof(sa), "%.*f", decimals, a);
	if (!isnan(b))
		snprintf(sb, sizeof(sb), "%.*f", decimals, b);
	snprintf(buf, len, "%s / %s", sa, sb);
}

/* One row: a kernel's entry @e of the experiment. */
static void md_row(FILE *out, const json_t *e)
{
	const json_t *tc = matrix_by_mode(json_object_get(e, "modes"), "tc");
	const json_t *xdp = matrix_by_mode(json_object_get(e, "modes"), "xdpdrv");
	const char *tm = matrix_entry_metric(e);
	char dx[96], dg[96], dt[96], built[64], stack[64], freed[64], bpf[64];

	if (strcmp(json_str_of(e, "status", ""), "ok")) {
		fprintf(out, "| %s | failed: %s |||||||||\n", json_str_of(e, "kernel", ""), json_str_of(e, "reason", ""));
		return;
	}
	matrix_fmt_vs_tc(dx, sizeof(dx), e, "xdpdrv");
	matrix_fmt_vs_tc(dg, sizeof(dg), e, "xdpgeneric");
	matrix_fmt_vs_tc(dt, sizeof(dt), e, "tcx");
	fmt_pair(built, sizeof(built), tc, xdp, "skbs_built_per_pkt", 2);
	fmt_pair(stack, sizeof(stack), tc, xdp, "stack_entries_per_pkt", 2);
	fmt_pair(freed, sizeof(freed), tc, xdp, "skbs_freed_per_pkt", 2);
	fmt_pair(bpf, sizeof(bpf), tc, xdp, "bpf_ns_per_run", 0);
	fprintf(out, "| %s (%s) | %.1f | %.1f | %s | %s | %s | %s | %s | %s | %s |\n",
		json_str_of(e, "kernel", ""), json_str_of(e, "guest_kernel", ""), json_num_of(tc, tm), json_num_of(xdp, tm), dx, dg, dt,
		built, stack, freed, bpf);
}

void matrix_md_section(FILE *out, const json_t *matrix, const char *exp)
{
	const json_t *f;
	size_t j;

	fprintf(out, "\n## %s\n\n| kernel (guest release) | tc instructions/pkt | xdpdrv "
		     "instructions/pkt | xdpdrv vs tc | xdpgeneric vs tc | tcx vs tc | "
		     "skbs built/pkt (tc / xdpdrv) | stack entries/pkt | skbs freed/pkt | BPF-stats "
		     "ns/run (its clock reads included) |\n|---|---|---|---|---|---|---|---|---|---|\n", exp);
	json_array_foreach(json_object_get(matrix, "entries"), j, f)
		if (!strcmp(json_str_of(f, "experiment", ""), exp))
			md_row(out, f);
}
