/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_offered.h: with traffic from outside (the dev topology), every trial measures the
 * rate it was offered (its "offered_pps": what the NIC took in over the window). A
 * generator that sped up or slowed down must not pass as a mode's effect: a trial whose
 * offered rate is further than a stated share from the run's median is made invalid,
 * with that reason.
 */
#ifndef XDPTC_RUN_OFFERED_H
#define XDPTC_RUN_OFFERED_H

#include <jansson.h>

/* run_offered_check - over run.json's @trials (the timing, count, bpfstats and profile
 * passes' trials that are valid and have "offered_pps"): the median offered rate, and
 * every trial further from it than @tolerance (a share: 0.05 is 5%) marked
 * "valid": false with its "invalid_reason". Writes {"median_pps", "tolerance",
 * "trials", "invalid"} and returns it (a new reference, for run.json's
 * "offered_rate"), or NULL when no trial has an offered rate. */
json_t *run_offered_check(json_t *trials, double tolerance);

#endif
