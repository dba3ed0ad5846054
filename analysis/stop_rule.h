/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * stop_rule.h: when the alternating timing pass has measured enough (docs/method.md,
 * "Stopping on what was measured"): every compared interval of the time metric, as the
 * summary computes it from the windows so far (window_delta.h), at or under its target:
 * the A/A arm's half-width at or under --target, every other arm's (against the
 * baseline) at or under STOP_ARM_FACTOR times it. The run looks only at segment
 * boundaries, never before its planned segments, and stops there or when the budget
 * ends; test_stop_rule checks the coverage that this leaves by simulation.
 */
#ifndef XDPTC_ANALYSIS_STOP_RULE_H
#define XDPTC_ANALYSIS_STOP_RULE_H

#include <jansson.h>
#include <stdbool.h>

#include "report.h" /* REPORT_MAX_ARMS */

#define STOP_ARM_FACTOR 2.0 /* an arm's half-width target: this x the A/A arm's */

struct stop_check {
	int narms;                          /* arms compared (all but the baseline) */
	char arm[REPORT_MAX_ARMS][64];      /* their labels */
	bool aa[REPORT_MAX_ARMS];           /* the A/A arm (against its own mode) */
	double halfwidth[REPORT_MAX_ARMS];  /* (hi - lo) / 2, relative; NaN: no interval */
	double target[REPORT_MAX_ARMS];     /* relative */
	bool met;                           /* every half-width at or under its target */
};

/*
 * stop_rule_check - whether @run's timing windows so far meet the targets (above) for
 * its time metric @metric, with the A/A target @target (relative: 0.005 = 0.5%), into
 * @out. The baseline is tc when measured, else the first mode (as the summary's).
 * Returns 0, or -EINVAL when @run has no modes.
 */
int stop_rule_check(const json_t *run, const char *metric, double target,
		    struct stop_check *out);

/* stop_check_json - @c as run.json's "stop" object's "halfwidths": per arm its label,
 * half-width (null: none yet), target. New reference. */
json_t *stop_check_json(const struct stop_check *c);

#endif
