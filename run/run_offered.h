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

/* run_offered_check - over run.json's @trials (those valid and with "offered_pps"), pass
 * by pass: the pass's median offered rate, and every trial of it further from that than
 * @tolerance (a share: 0.05 is 5%) marked "valid": false with its "invalid_reason". Per
 * pass, because the count pass's probes slow the DUT: where the DUT falls behind, loss
 * before the NIC that the DUT's machine cannot see (a host's tap, a switch) lowers what
 * reaches it in that pass alone, by design, not by the generator. Returns
 * {"median_pps_by_pass", "median_pps" (the timing pass's), "tolerance", "trials",
 * "invalid"} (a new reference, for run.json's "offered_rate"), or NULL when no trial has
 * an offered rate. */
json_t *run_offered_check(json_t *trials, double tolerance);

#endif
