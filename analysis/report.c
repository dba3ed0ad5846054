/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "report.h"

#include <errno.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>

#include "run.h"
#include "summary.h"

/* The checks that make a parsed JSON document an xdptc run; @r is released on failure. */
static int check_run(json_t *r, const char *file, json_t **run, char *err, size_t errlen)
{
	const char *schema = json_string_value(json_object_get(r, "schema"));
	size_t i;
	json_t *m;

	if (!schema || strcmp(schema, RUN_SCHEMA)) {
		snprintf(err, errlen, "'%s' is not an xdptc run (schema '%s', expected '%s')", file,
			 schema ? schema : "missing", RUN_SCHEMA);
		json_decref(r);
		return -EPROTO;
	}
	if (!json_is_object(json_object_get(r, "settings")) ||
	    !json_is_array(json_object_get(json_object_get(r, "settings"), "modes")) ||
	    !json_is_array(json_object_get(r, "trials")) ||
	    !json_is_object(json_object_get(r, "machine"))) {
		snprintf(err, errlen, "'%s' lacks settings, machine or trials", file);
		json_decref(r);
		return -EPROTO;
	}
	/* at most what `xdptc run` measures: each mode costs a 10,000-resample bootstrap */
	if (json_array_size(json_object_get(json_object_get(r, "settings"), "modes")) > RUN_MAX_MODES) {
		snprintf(err, errlen, "'%s': settings.modes lists more than %d modes", file,
			 RUN_MAX_MODES);
		json_decref(r);
		return -EPROTO;
	}
	/* the summary compares and prints the modes by name */
	json_array_foreach(json_object_get(json_object_get(r, "settings"), "modes"), i, m) {
		if (!json_is_string(m)) {
			snprintf(err, errlen, "'%s': settings.modes[%zu] is not a mode name", file, i);
			json_decref(r);
			return -EPROTO;
		}
	}
	*run = r;
	return 0;
}

int report_load(const char *path, json_t **run, char *err, size_t errlen)
{
	char file[PATH_MAX];
	struct stat st;
	json_error_t jerr;
	json_t *r;

	*run = NULL;
	if (stat(path, &st)) {
		int e = -errno;

		snprintf(err, errlen, "cannot read '%s': %s", path, strerror(-e));
		return e;
	}
	if (S_ISDIR(st.st_mode))
		snprintf(file, sizeof(file), "%s/run.json", path);
	else
		snprintf(file, sizeof(file), "%s", path);
	r = json_load_file(file, JSON_REJECT_DUPLICATES, &jerr);
	if (!r) {
		if (jerr.line < 1 || strstr(jerr.text, "unable to open")) {
			snprintf(err, errlen, "cannot read '%s': %s", file, jerr.text);
			return -ENOENT;
		}
		snprintf(err, errlen, "'%s' is not valid JSON (line %d: %s)", file, jerr.line,
			 jerr.text);
		return -EBADMSG;
	}
	return check_run(r, file, run, err, errlen);
}

int report_parse(const char *buf, size_t len, const char *name, json_t **run, char *err,
		 size_t errlen)
{
	json_error_t jerr;
	json_t *r;

	*run = NULL;
	r = json_loadb(buf, len, JSON_REJECT_DUPLICATES, &jerr);
	if (!r) {
		snprintf(err, errlen, "'%s' is not valid JSON (line %d: %s)", name, jerr.line,
			 jerr.text);
		return -EBADMSG;
	}
	return check_run(r, name, run, err, errlen);
}

/* The CSV columns: trial fields in this order. */
static const char *const csv_columns[] = {
	"seq", "pass", "rep", "mode", "kernel_mode", "valid", "sent", "pkts_at_dut", "dropped",
	"passed", "lost_before_dut", "unexplained_loss", "wall_ns", "pps", "cpu_ns_per_pkt",
	"sender_cpu_ns", "softirq_thread_cpu_ns", "guest_vcpu_ns", "cpus_busy_ns", "cycles_per_pkt",
	"instructions_per_pkt", "stack_entries", "skbs_freed", "skbs_built", "counters_backend",
	"bpf_ns_per_run", "bpf_run_cnt", NULL,
};

static void csv_value(FILE *out, const json_t *v)
{
	if (json_is_integer(v))
		fprintf(out, "%lld", json_integer_value(v));
	else if (json_is_real(v))
		fprintf(out, "%.4f", json_real_value(v));
	else if (json_is_true(v))
		fputs("true", out);
	else if (json_is_false(v))
		fputs("false", out);
	else if (json_is_string(v)) {
		const char *s = json_string_value(v);

		if (strpbrk(s, ",\"\n")) {
			fputc('"', out);
			for (; *s; s++) {
				if (*s == '"')
					fputc('"', out);
				fputc(*s, out);
			}
			fputc('"', out);
		} else {
			fputs(s, out);
		}
	}
}

int report_csv(const json_t *run, FILE *out)
{
	size_t i;
	json_t *t;

	for (int c = 0; csv_columns[c]; c++)
		fprintf(out, "%s%s", c ? "," : "", csv_columns[c]);
	fputc('\n', out);
	json_array_foreach(json_object_get(run, "trials"), i, t) {
		for (int c = 0; csv_columns[c]; c++) {
			if (c)
				fputc(',', out);
			csv_value(out, json_object_get(t, csv_columns[c]));
		}
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

static const json_t *find_delta(const json_t *run, const json_t *d)
{
	size_t i;
	json_t *x;

	json_array_foreach(json_object_get(json_object_get(run, "summary"), "deltas"), i, x) {
		if (json_equal(json_object_get(x, "metric"), json_object_get(d, "metric")) &&
		    json_equal(json_object_get(x, "a"), json_object_get(d, "a")) &&
		    json_equal(json_object_get(x, "b"), json_object_get(d, "b")))
			return x;
	}
	return NULL;
}

static void delta_cell(FILE *out, const json_t *d)
{
	const json_t *lo = json_object_get(d, "ci95_lo");
	int pr;

	if (!d || !json_is_number(lo)) {
		fprintf(out, " n/a |");
		return;
	}
	/* two decimals when the interval is narrower than 1 point (the icount engine) */
	pr = json_number_value(json_object_get(d, "ci95_hi")) - json_number_value(lo) < 0.01 ? 2 : 1;
	fprintf(out, " %+.*f%% [%+.*f%%, %+.*f%%] %s |",
		pr, 100 * json_number_value(json_object_get(d, "rel_delta")),
		pr, 100 * json_number_value(lo),
		pr, 100 * json_number_value(json_object_get(d, "ci95_hi")),
		json_is_true(json_object_get(d, "aa"))	  ? "A/A"
		: json_is_true(json_object_get(d, "real")) ? "real"
		: json_integer_value(json_object_get(d, "pairs")) < SUMMARY_MIN_PAIRS_REAL
			? "too few pairs"
			: "noise");
}

static const char *str_of(const json_t *o, const char *k)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : "?";
}

int report_compare(const json_t *a, const char *name_a, const json_t *b, const char *name_b,
		   FILE *out)
{
	const json_t *runs[2] = { a, b };
	const char *names[2] = { name_a, name_b };
	size_t i;
	json_t *d;
	int shared = 0;

	fprintf(out, "# Within-run deltas of two runs\n\n");
	for (int r = 0; r < 2; r++) {
		const json_t *m = json_object_get(runs[r], "machine");
		const json_t *g = json_object_get(runs[r], "guest");

		fprintf(out, "- %s: %s topology, %s; %s, kernel %s%s%s%s\n", names[r],
			str_of(runs[r], "topology"), str_of(runs[r], "created_utc"),
			str_of(m, "cpu_model"), str_of(m, "kernel_release"),
			g ? "; guest kernel " : "", g ? str_of(g, "kernel_release") : "",
			g ? (json_is_true(json_object_get(g, "emulated_time")) ? " (TCG)" : "") : "");
	}
	fprintf(out, "\n| metric | A | B | %s | %s |\n|---|---|---|---|---|\n", names[0], names[1]);
	json_array_foreach(json_object_get(json_object_get(a, "summary"), "deltas"), i, d) {
		const json_t *other = find_delta(b, d);

		fprintf(out, "| %s | %s | %s |", str_of(d, "metric"), str_of(d, "a"), str_of(d, "b"));
		delta_cell(out, d);
		delta_cell(out, other);
		fputc('\n', out);
		shared += other != NULL;
	}
	json_array_foreach(json_object_get(json_object_get(b, "summary"), "deltas"), i, d) {
		if (find_delta(a, d))
			continue;
		fprintf(out, "| %s | %s | %s | n/a |", str_of(d, "metric"), str_of(d, "a"),
			str_of(d, "b"));
		delta_cell(out, d);
		fputc('\n', out);
	}
	fprintf(out, "\nOnly within-run deltas (B against A, each with its own run's 95%% interval) "
		     "are put side by side. Absolute figures (ns, cycles per packet) from different "
		     "runs, machines or topologies are not comparable and are not shown.\n");
	return shared ? 0 : -EPROTO;
}
