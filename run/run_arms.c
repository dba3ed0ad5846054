/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_arms.c: the arms' names and their order in each repetition (run_arms.h). */
#include "run_arms.h"

#include <stdio.h>

#include "stats.h"

const char *arm_label(const struct run_opts *o, int arm)
{
	static char buf[RUN_MAX_MODES][24];

	if (arm == o->aa_arm) {
		snprintf(buf[arm], sizeof(buf[arm]), "%s-aa", drop_mode_name(o->modes[arm]));
		return buf[arm];
	}
	return drop_mode_name(o->modes[arm]);
}

void shuffle_arms(const struct run_opts *o, int pass, int rep, int *out)
{
	uint64_t s = o->seed ^ ((uint64_t)pass << 40) ^ ((uint64_t)rep << 20);

	for (int i = 0; i < o->nmodes; i++)
		out[i] = i;
	for (int i = o->nmodes - 1; i > 0; i--) {
		int j = (int)(stats_splitmix64(&s) % (uint64_t)(i + 1));
		int tmp = out[i];

		out[i] = out[j];
		out[j] = tmp;
	}
}
