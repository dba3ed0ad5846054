/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_exp_container.c: the container experiment's section of matrix.md
 * (matrix_exp_container.h). */
#include "matrix_exp_container.h"

#include <math.h>
#include <string.h>

#include "json_read.h"
#include "matrix_entry.h"

/* One row: every arm against tc, and why (the mechanism counts of tc, xdpdrv and
 * netkit). */
static void md_container_row(FILE *out, const json_t *e)
{
	const json_t *tc = matrix_by_mode(json_object_get(e, "modes"), "tc");
	const json_t *xdp = matrix_by_mode(json_object_get(e, "modes"), "xdpdrv");
	const json_t *nk = matrix_by_mode(json_object_get(e, "modes"), "netkit");
	const char *tm = matrix_entry_metric(e);
	char dx[96], dt[96], dn[96], c[3][64];
	static const char *const counts[] = { "stack_entries_per_pkt", "skbs_built_per_pkt",
					      "skbs_freed_per_pkt" };

	if (strcmp(json_str_of(e, "status", ""), "ok")) {
		fprintf(out, "| %s | failed: %s ||||||||\n", json_str_of(e, "kernel", ""), json_str_of(e, "reason", ""));
		return;
	}
	matrix_fmt_vs_tc(dx, sizeof(dx), e, "xdpdrv");
	matrix_fmt_vs_tc(dt, sizeof(dt), e, "tcx");
	matrix_fmt_vs_tc(dn, sizeof(dn), e, "netkit");
	for (int i = 0; i < 3; i++) {
		double a = json_num_of(tc, counts[i]), b = json_num_of(xdp, counts[i]), n = json_num_of(nk, counts[i]);

		if (isnan(a) && isnan(b) && isnan(n))
			snprintf(c[i], sizeof(c[i]), "n/a");
		else
			snprintf(c[i], sizeof(c[i]), "%.2f / %.2f / %.2f", a, b, n);
	}
	fprintf(out, "| %s (%s) | %.1f | %.1f | %s | %s | %s | %s | %s | %s |\n",
		json_str_of(e, "kernel", ""), json_str_of(e, "guest_kernel", ""), json_num_of(tc, tm),
		json_num_of(nk, tm), dx, dt, dn, c[0], c[1], c[2]);
}

void matrix_md_container(FILE *out, const json_t *matrix, const char *exp)
{
	const json_t *f;
	size_t j;

	fprintf(out, "\n## container: where to drop a container's packets\n\n"
		     "The container's UDP socket sends through a veth pair (tc, tcx, "
		     "xdpdrv on the host side's veth) and a netkit pair (the netkit "
		     "program as BPF_NETKIT_PEER, on what the container transmits), "
		     "every arm in one run.\n\n| kernel (guest release) | tc "
		     "instructions/pkt | netkit instructions/pkt | xdpdrv vs tc | tcx vs "
		     "tc | netkit vs tc | stack entries/pkt (tc / xdpdrv / netkit) | "
		     "skbs built/pkt | skbs freed/pkt |\n|---|---|---|---|---|---|---|---|---|\n");
	json_array_foreach(json_object_get(matrix, "entries"), j, f)
		if (!strcmp(json_str_of(f, "experiment", ""), exp))
			md_container_row(out, f);
}
