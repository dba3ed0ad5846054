/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of the metric table (analysis/metrics.c) against real runs: every trial
 * field it names is in the trials of the committed example runs, every median it asks
 * for is in their summaries as computed now, every labelled row is in summary.md, the
 * CSV's header is its CSV rows in order; docs/metrics.md holds the generated table.
 * Run from the source tree's top (make check does).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "metrics.h"
#include "run_json.h"
#include "trial.h"
#include "report.h"
#include "summary.h"
#include "summary_facts.h"
#include "summary_md.h"

/* committed runs: veth with a rate search, virtio, veth without one, veth in the icount
 * engine with its instruction-counting plugin */
static const char *const runs[] = {
	"results/examples/20261130T154026Z-veth",
	"results/examples/20261130T124624Z-virtio",
	"results/examples/20261130T123851Z-veth",
	"results/examples/20261201T204616Z-veth-icount",
	"results/examples/20261202T144141Z-dev", /* traffic from outside: offered, rx_path_ns */
};
#define NRUNS (sizeof(runs) / sizeof(runs[0]))

static json_t *load(const char *dir)
{
	char err[600];
	json_t *run = NULL;

	if (report_load(dir, &run, err, sizeof(err)))
		fail_msg("%s (run from the source tree's top)", err);
	json_object_set_new(run, "summary", summary_compute(run));
	return run;
}

/* every trial field of the table is in the trials of some example run (guest_vcpu_ns
 * in a virtio run's only) */
static void test_trial_fields_exist(void **state)
{
	json_t *loaded[NRUNS];
	int checked = 0;

	(void)state;
	for (size_t r = 0; r < NRUNS; r++) {
		loaded[r] = load(runs[r]);
		assert_true(json_array_size(json_object_get(loaded[r], "trials")) > 5);
	}
	for (const struct metric *x = metrics; x->name; x++) {
		bool seen = false;

		if (!(x->flags & METRIC_CSV))
			continue;
		for (size_t r = 0; r < NRUNS; r++) {
			size_t i;
			json_t *t;

			json_array_foreach(json_object_get(loaded[r], "trials"), i, t)
				seen |= json_object_get(t, x->name) != NULL;
		}
		if (!seen)
			fail_msg("no trial of the example runs has %s", x->name);
		checked++;
	}
	for (size_t r = 0; r < NRUNS; r++)
		json_decref(loaded[r]);
	printf("# %d trial fields found in the example runs' trials\n", checked);
	assert_true(checked > 20);
}

/* Did the icount engine's plugin count @run (a trial with its retired count)? */
static bool run_has_plugin(const json_t *run)
{
	size_t i;
	json_t *t;

	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (json_object_get(t, "retired_instructions_per_pkt"))
			return true;
	return false;
}

static void test_medians_and_rows_exist(void **state)
{
	int medians = 0, rows = 0;

	(void)state;
	for (size_t r = 0; r < NRUNS; r++) {
		json_t *run = load(runs[r]);
		const json_t *m = json_array_get(json_object_get(json_object_get(run, "summary"),
								 "modes"), 0);
		char *md = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&md, &len);

		assert_int_equal(summary_render_md(run, NULL, f), 0);
		fclose(f);
		for (const struct metric *x = metrics; x->name; x++) {
			const char *key = x->flags & METRIC_TIME ? summary_time_metric(run) : x->name;

			if ((x->flags & METRIC_MEDIAN) && !(x->flags & METRIC_PERF)) {
				if (!json_object_get(m, key))
					fail_msg("the summary of %s lacks %s", runs[r], key);
				medians++;
			}
			if ((x->flags & METRIC_INSNS) && !run_has_plugin(run))
				continue; /* the plugin's rows: in its runs only */
			if (x->label && (!(x->flags & METRIC_RATE) || json_object_get(run, "max_rate"))) {
				if (!strstr(md, x->label))
					fail_msg("summary.md of %s lacks the row '%s'", runs[r], x->label);
				rows++;
			}
		}
		free(md);
		json_decref(run);
	}
	printf("# %d medians and %d rows found\n", medians, rows);
	assert_true(medians > 15 && rows > 20);
}

static void test_csv_header_is_the_table(void **state)
{
	json_t *run = load(runs[2]);
	char *csv = NULL, want[2048] = "";
	size_t len = 0;
	FILE *f = open_memstream(&csv, &len);

	(void)state;
	assert_int_equal(report_csv(run, f), 0);
	fclose(f);
	for (const struct metric *x = metrics; x->name; x++)
		if (x->flags & METRIC_CSV)
			snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s",
				 want[0] ? "," : "", x->name);
	assert_memory_equal(csv, want, strlen(want));
	free(csv);
	json_decref(run);
}

static void test_docs_hold_the_table(void **state)
{
	char *gen = NULL, *doc;
	size_t len = 0;
	FILE *f = open_memstream(&gen, &len);
	long n;

	(void)state;
	metrics_doc_md(f);
	fclose(f);
	f = fopen("docs/metrics.md", "r");
	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	doc = calloc(1, (size_t)n + 1);
	assert_int_equal(fread(doc, 1, (size_t)n, f), (size_t)n);
	fclose(f);
	if (!strstr(doc, gen))
		fail_msg("docs/metrics.md is not what `build/xdptc help --metrics` prints; "
			 "`make docs` writes it in");
	free(doc);
	free(gen);
}

/* trial_json writes each plain field of the table from the right member of the result */
static void test_trial_fields_from_the_result(void **state)
{
	static const struct { const char *key; long long v; } want[] = {
		{ "sent", 1001 }, { "dropped", 1002 }, { "passed", 1003 },
		{ "dut_rx_packets", 1004 }, { "dut_rx_dropped", 1005 }, { "snd_tx_dropped", 1006 },
		{ "lost_before_dut", 1007 }, { "pkts_at_dut", 1008 }, { "unexplained_loss", -9 },
		{ "wall_ns", 1010 }, { "sender_cpu_ns", 1011 }, { "softirq_thread_cpu_ns", 1012 },
		{ "cpus_busy_ns", 1013 },
	};
	struct trial_result r = {
		.pass = PASS_TIMING, .sent = 1001, .dropped = 1002, .passed = 1003,
		.dut_rx_packets = 1004, .dut_rx_dropped = 1005, .snd_tx_dropped = 1006,
		.lost_before_dut = 1007, .pkts_at_dut = 1008, .unexplained = -9, .wall_ns = 1010,
		.sender_cpu_ns = 1011, .softirq_cpu_ns = 1012, .cpus_busy_ns = 1013, .valid = true,
		.cpu_ns_per_pkt = 900.5,
	};
	struct skb_counters_plan plan = { 0 };
	json_t *t = trial_json(&r, "tc", 0, 0, &plan, "cpu_ns_per_pkt");
	int n = 0;

	(void)state;
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		if (json_integer_value(json_object_get(t, want[i].key)) != want[i].v)
			fail_msg("trial_json: %s is %lld, not %lld", want[i].key,
				 json_integer_value(json_object_get(t, want[i].key)), want[i].v);
	}
	for (const struct metric *x = metrics; x->name; x++)
		n += x->from_trial != METRIC_FROM_NONE;
	assert_int_equal(n, (int)(sizeof(want) / sizeof(want[0])));
	assert_true(json_real_value(json_object_get(t, "cpu_ns_per_pkt")) == 900.5);
	json_decref(t);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_trial_fields_exist),
		cmocka_unit_test(test_medians_and_rows_exist),
		cmocka_unit_test(test_csv_header_is_the_table),
		cmocka_unit_test(test_docs_hold_the_table),
		cmocka_unit_test(test_trial_fields_from_the_result),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
