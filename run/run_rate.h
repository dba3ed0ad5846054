/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_rate.h: a run's rate search, after its passes (--find-max-rate). */
#ifndef XDPTC_RUN_RATE_H
#define XDPTC_RUN_RATE_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "run_opts.h"

struct trial_env;

/* run_rate_searches - each mode's max_drop_pps, checked, appended to @run as "max_rate".
 * @remote: the DUT is a guest. @napi_pids: the DUT's NAPI threads (threaded NAPI), whose
 * scheduling stalls are told apart from the DUT's own loss. Returns 0, -EINTR when
 * stopped, or -errno with a sentence in @why. */
int run_rate_searches(const struct run_opts *o, struct trial_env *env, bool remote,
		      const pid_t *napi_pids, int n_napi, json_t *run, char *why, size_t whylen);

#endif
