/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_exp_nic.c: the driver matrix's sections of matrix.md (matrix_exp_nic.h). */
#include "matrix_experiments.h"

#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "json_read.h"
#include "matrix_entry.h"
#include "matrix_section.h"

/* Is @exp a row of the driver matrix (one with a NIC model)? */
static bool is_nic_exp(const char *exp)
{
	const struct matrix_exp *x = matrix_exp_find(exp);

	return x && x->nic;
}

/* Is @exp the first experiment with this section (matrix_md_nic) that matrix.md shows:
 * the sections follow the entries' order (analysis/matrix.c, write_md)? */
static bool first_nic_row(const json_t *matrix, const char *exp)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(matrix, "entries"), i, e) {
		const struct matrix_exp *x = matrix_exp_find(json_str_of(e, "experiment", ""));

		if (x && x->md == matrix_md_nic)
			return !strcmp(x->name, exp);
	}
	return false;
}

/* The skbs built at the DUT per packet by @mode of @e ("-" where it did not run):
 * skbs_built_per_pkt less the sender's own skb where the sender's builds one apart. */
static void fmt_built(char *buf, size_t len, const json_t *e, const char *mode)
{
	const json_t *m = matrix_by_mode(json_object_get(e, "modes"), mode);
	double v = json_num_of(m, "skbs_built_per_pkt");

	if (!m || isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v - (json_is_true(json_object_get(e, "sender_skb_apart")) ? 1 : 0));
}

/* Where @mode of @e drops, in words, into @buf ("" where it did not run), from its
 * counts at the DUT: before any skb (none built, the stack never entered), after it (the
 * stack entered once a packet), or the counts' own shortfall said. */
static void fmt_where(char *buf, size_t len, const json_t *e, const char *mode)
{
	const json_t *m = matrix_by_mode(json_object_get(e, "modes"), mode);
	double stack = json_num_of(m, "stack_entries_per_pkt");
	char built[16];

	*buf = '\0';
	if (!m)
		return;
	fmt_built(built, sizeof(built), e, mode);
	if (!strcmp(built, "0.00") && stack < 0.01)
		snprintf(buf, len, "%s: before any skb", mode);
	else if (stack >= 0.99 && strcmp(built, "0.00"))
		snprintf(buf, len, "%s: after the skb is built", mode);
	else
		snprintf(buf, len, "%s: counts disagree (%s skbs built, %.2f stack entries per "
			 "packet: a builder or path the probes miss, docs/counters.md)", mode, built,
			 stack);
}

/* Does @e's driver run XDP natively: its xdp-features' answer, or where the kernel has
 * none (before 6.3: xdp_native null) whether xdpdrv attached and ran? */
static const char *native_words(const json_t *e)
{
	const json_t *n = json_object_get(json_object_get(e, "dut_nic"), "xdp_native");

	if (json_is_boolean(n))
		return json_is_true(n) ? "yes" : "no";
	return matrix_by_mode(json_object_get(e, "modes"), "xdpdrv") ? "yes (it attached)"
								     : "no (refused)";
}

/* One row of "Ask your driver": entry @e of NIC experiment @exp. */
static void driver_row(FILE *out, const json_t *e, const char *exp)
{
	const struct matrix_exp *x = matrix_exp_find(exp); /* a row with .nic */
	const json_t *nic = json_object_get(e, "dut_nic");
	char dx[96], dg[96], bt[16], bg[16], bx[16], wt[160], wg[160], wx[160];

	if (strcmp(json_str_of(e, "status", ""), "ok")) {
		fprintf(out, "| %s | %s | failed: %s |||||\n", x->nic,
			json_str_of(e, "kernel", ""), json_str_of(e, "reason", ""));
		return;
	}
	matrix_fmt_vs_tc(dx, sizeof(dx), e, "xdpdrv");
	matrix_fmt_vs_tc(dg, sizeof(dg), e, "xdpgeneric");
	fmt_built(bt, sizeof(bt), e, "tc");
	fmt_built(bg, sizeof(bg), e, "xdpgeneric");
	fmt_built(bx, sizeof(bx), e, "xdpdrv");
	fmt_where(wt, sizeof(wt), e, "tc");
	fmt_where(wg, sizeof(wg), e, "xdpgeneric");
	fmt_where(wx, sizeof(wx), e, "xdpdrv");
	fprintf(out, "| %s (%s) | %s | %s | %s | %s | %s / %s / %s | %s%s%s%s%s |\n",
		x->nic, json_str_of(nic, "driver", "?"),
		json_str_of(e, "kernel", ""),
		native_words(e), dx, dg, bt, bg, bx, wt, *wg ? "; " : "", wg, *wx ? "; " : "", wx);
}

void matrix_md_nic(FILE *out, const json_t *matrix, const char *exp)
{
	if (first_nic_row(matrix, exp)) {
		fprintf(out, "\n## Ask your driver\n\nPer NIC model (its Linux driver) and guest kernel: "
			     "whether the driver runs XDP natively (its xdp-features, else the attach's "
			     "answer; xdpdrv is refused where not), xdpdrv and xdpgeneric against tc in "
			     "retired guest instructions per packet with their intervals, the skbs built "
			     "at the DUT per packet (the sender's own skb left out), and where each mode "
			     "drops by its counts: before any skb (none built, the stack never entered) or "
			     "after the skb is built (the stack entered once a packet).\n\n"
			     "| NIC model (driver) | kernel | native XDP | xdpdrv vs tc | xdpgeneric vs tc "
			     "| skbs built at the DUT/pkt (tc / xdpgeneric / xdpdrv) | where each mode "
			     "drops |\n|---|---|---|---|---|---|---|\n");
		for (int x = 0; x < matrix_nexps; x++) {
			const json_t *e;
			size_t i;

			if (!is_nic_exp(matrix_exps[x].name))
				continue;
			json_array_foreach(json_object_get(matrix, "entries"), i, e)
				if (!strcmp(json_str_of(e, "experiment", ""), matrix_exps[x].name))
					driver_row(out, e, matrix_exps[x].name);
		}
	}
	matrix_md_section(out, matrix, exp);
}
