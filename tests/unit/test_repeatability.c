/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * xdptc repeatability's counting (analysis/repeatability.h) on synthetic runs whose
 * figures are known: four alternating runs of tc and xdpdrv in 6 segments of 4 blocks,
 * each segment's ratio off by -1, 0 or +1% (a spread the next-run interval takes in),
 * the runs' true deltas +8%, +8.1%, +30%, +30%: the second and fourth lie inside the
 * previous run's next-run interval, the third does not; the counts are the rows'; a run
 * of another machine is named; a run without the arm is refused.
 */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "repeatability.h"

static json_t *windows(const double *y, int n)
{
	json_t *w = json_pack("{s:[], s:[], s:[], s:[]}", "start_ms", "pkts", "cpu_ns", "valid");

	for (int i = 0; i < n; i++) {
		json_array_append_new(json_object_get(w, "pkts"), json_integer(1000));
		json_array_append_new(json_object_get(w, "cpu_ns"), json_real(1000 * y[i]));
		json_array_append_new(json_object_get(w, "valid"), json_true());
	}
	return w;
}

/* A run whose xdpdrv windows are tc's times exp(@mu + segment effect + a small
 * alternating wobble), on CPU @cpu. */
static json_t *run_of(double mu, const char *cpu)
{
	json_t *trials = json_array();

	for (int b = 0; b < 24; b++) {
		double t[8], x[8], u = 0.01 * (b / 4 % 3 - 1);

		for (int i = 0; i < 8; i++) {
			t[i] = 1 + 0.1 * ((b * 8 + i) % 5);
			x[i] = t[i] * exp(mu + u + 0.002 * ((i + b) % 3 - 1));
		}
		for (int k = 0; k < 2; k++)
			json_array_append_new(trials, json_pack(
				"{s:s, s:s, s:i, s:i, s:b, s:f, s:o}", "pass", "timing", "mode",
				k ? "xdpdrv" : "tc", "rep", b, "segment", b / 4, "valid", 1,
				"cpu_ns_per_pkt", 1000.0, "windows", windows(k ? x : t, 8)));
	}
	return json_pack("{s:s, s:s, s:s, s:{s:s, s:i, s:s}, s:{s:[s,s], s:i}, s:o}", "topology",
			 "veth", "created_utc", "2026-12-03T10:00:00Z", "time_metric",
			 "cpu_ns_per_pkt", "machine", "cpu_model", cpu, "cpus", 2, "kernel_release",
			 "6.18.44", "settings", "modes", "tc", "xdpdrv", "seed", 1, "trials", trials);
}

static void test_counts(void **state)
{
	const double mu[4] = { log(1.08), log(1.081), log(1.30), log(1.30) };
	const char *names[4] = { "r1", "r2", "r3", "r4" };
	json_t *runs[4], *rep;
	char err[256];
	int next = 0, within = 0;
	static const char *const expect[4] = { NULL, "yes", "no", "yes" };

	(void)state;
	for (int i = 0; i < 4; i++)
		runs[i] = run_of(mu[i], "Intel Xeon");
	rep = repeatability_compute(runs, names, 4, "xdpdrv", err, sizeof(err));
	assert_non_null(rep);
	for (int i = 1; i < 4; i++) {
		const json_t *p = json_array_get(json_object_get(rep, "runs"), (size_t)i - 1);
		const json_t *r = json_array_get(json_object_get(rep, "runs"), (size_t)i);
		double x = json_number_value(json_object_get(r, "rel_delta"));
		bool in = json_number_value(json_object_get(p, "next_run_lo")) <= x &&
			  x <= json_number_value(json_object_get(p, "next_run_hi"));

		assert_true(fabs(x - exp(mu[i]) + 1) < 0.005);
		assert_true(json_number_value(json_object_get(r, "segments")) == 6);
		assert_string_equal(in ? "yes" : "no", expect[i]);
		next += in;
		within += json_number_value(json_object_get(p, "ci95_lo")) <= x &&
			  x <= json_number_value(json_object_get(p, "ci95_hi"));
	}
	assert_int_equal(json_integer_value(json_object_get(rep, "checked")), 3);
	assert_int_equal(json_integer_value(json_object_get(rep, "inside_next_run")), next);
	assert_int_equal(next, 2);
	assert_int_equal(json_integer_value(json_object_get(rep, "inside_within_run")), within);
	assert_true(json_is_true(json_object_get(rep, "same_machine")));
	assert_string_equal(json_string_value(json_object_get(json_object_get(rep, "machine"),
							      "cpu_model")), "Intel Xeon");
	json_decref(rep);
	json_decref(runs[3]);
	runs[3] = run_of(mu[3], "AMD EPYC");
	rep = repeatability_compute(runs, names, 4, "xdpdrv", err, sizeof(err));
	assert_false(json_is_true(json_object_get(rep, "same_machine")));
	json_decref(rep);
	assert_null(repeatability_compute(runs, names, 4, "tcx", err, sizeof(err)));
	assert_non_null(strstr(err, "r1: no delta of tcx"));
	for (int i = 0; i < 4; i++)
		json_decref(runs[i]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
