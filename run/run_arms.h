/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_arms.h: a run's arms: what each is called in run.json, and their seeded order. */
#ifndef XDPTC_RUN_ARMS_H
#define XDPTC_RUN_ARMS_H

#include "run_opts.h"

/* arm_label - the name arm @arm goes by in run.json: its mode, or "MODE-aa" for the A/A
 * twin (a static buffer per arm). */
const char *arm_label(const struct run_opts *o, int arm);

/* shuffle_arms - the order of the arms in repetition @rep of @pass (any int: the rate
 * search uses PASS_NR + 1): a Fisher-Yates shuffle seeded by the run's seed. */
void shuffle_arms(const struct run_opts *o, int pass, int rep, int *out);

#endif
