/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fuzz_run_json.c: libFuzzer target for what `xdptc report` and `xdptc compare` do
 * with a run.json: report_parse (the in-memory twin of report_load: jansson's parser
 * and the schema checks), then, for a document that passes, summary_compute,
 * report_csv, summary_render_md and report_compare, all writing to /dev/null. None of
 * them may crash, leak or read out of bounds whatever the file holds.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "report.h"
#include "summary.h"
#include "summary_md.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static FILE *sink;
	char err[600];
	json_t *run;

	if (!sink && !(sink = fopen("/dev/null", "w")))
		abort();
	if (report_parse((const char *)data, size, "run.json", &run, err, sizeof(err)))
		return 0;
	/* as cmd_report: the summary computed again from the trials, then CSV and markdown */
	json_object_set_new(run, "summary", summary_compute(run));
	report_csv(run, sink);
	summary_render_md(run, NULL, sink);
	/* as cmd_compare, the run against itself */
	report_compare(run, "A", run, "B", 0, sink, err, sizeof(err));
	json_decref(run);
	return 0;
}
