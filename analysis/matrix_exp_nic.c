/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_exp_nic.c: the driver matrix's sections of matrix.md (matrix_exp_nic.h). */
#include "matrix_experiments.h"

#include <string.h>

#include "json_read.h"
#include "matrix_drivers.h"
#include "matrix_section.h"

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

void matrix_md_nic(FILE *out, const json_t *matrix, const char *exp)
{
	if (first_nic_row(matrix, exp)) {
		fprintf(out, "\n## Ask your driver\n\nPer NIC model (its Linux driver) and guest kernel: "
			     "whether the driver runs XDP natively (its xdp-features, else the attach's "
			     "answer; xdpdrv is refused where not), xdpdrv and xdpgeneric against tc in "
			     "retired guest instructions per packet with their intervals, the skbs built "
			     "at the DUT per packet (the sender's own skb left out), and, from each mode's "
			     "exact per-function table (a function counted from %.0f retired instructions "
			     "per packet on), the kernel function that built the DUT's skb, one that "
			     "copied it again where tc's path has none, and the function the frame was "
			     "dropped in (`xdptc matrix --table-drivers DIR` prints this table).\n\n",
			MATRIX_DRIVERS_MIN_RETIRED);
		matrix_write_drivers(matrix, out);
	}
	matrix_md_section(out, matrix, exp);
}
