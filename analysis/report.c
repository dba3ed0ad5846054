/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "json_read.h"
#include "metrics.h"
#include "page_html.h"
#include "summary_facts.h"
#include "summary_md.h"
#include "summary_words.h"

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
	/* at most the arms `xdptc run` measures */
	if (json_array_size(json_object_get(json_object_get(r, "settings"), "modes")) > REPORT_MAX_ARMS) {
		snprintf(err, errlen, "'%s': settings.modes lists more than %d modes", file,
			 REPORT_MAX_ARMS);
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
		char sweep[PATH_MAX + 16];

		snprintf(sweep, sizeof(sweep), "%s/sweep.md", path);
		if (S_ISDIR(st.st_mode) && !stat(sweep, &st)) {
			snprintf(err, errlen, "'%s' is a sweep: its runs are the directories its "
					      "sweep.md names", path);
			return -ENOENT;
		}
		if (jerr.line < 1 || strstr(jerr.text, "unable to open")) {
			snprintf(err, errlen, "cannot read '%s': %s", file, strerror(ENOENT));
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

/* The columns after the metric table's: each perf event's metric, and ipc for runs
 * with perf stat. */
static int extra_columns(const json_t *run, const char **cols, int max)
{
	int n = summary_perf_metrics(run, cols, max - 1);

	if (json_is_array(json_object_get(json_object_get(run, "settings"), "perf_events")))
		cols[n++] = "ipc";
	return n;
}

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
	const char *extra[24];
	int nx = extra_columns(run, extra, 24);
	size_t i;
	json_t *t;

	/* the trial fields of the metric table, in its order, then the run's own */
	for (int c = 0; metrics[c].name; c++)
		if (metrics[c].flags & METRIC_CSV)
			fprintf(out, "%s%s", c ? "," : "", summary_metric_key(&metrics[c], run));
	for (int c = 0; c < nx; c++)
		fprintf(out, ",%s", extra[c]);
	fputc('\n', out);
	json_array_foreach(json_object_get(run, "trials"), i, t) {
		for (int c = 0; metrics[c].name; c++) {
			if (!(metrics[c].flags & METRIC_CSV))
				continue;
			if (c)
				fputc(',', out);
			csv_value(out, json_object_get(t, summary_metric_key(&metrics[c], run)));
		}
		for (int c = 0; c < nx; c++) {
			fputc(',', out);
			csv_value(out, json_object_get(t, extra[c]));
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
	double l = json_number_value(lo), h = json_number_value(json_object_get(d, "ci95_hi"));
	json_int_t pairs = json_integer_value(json_object_get(d, "pairs"));
	int pr;

	if (!d || !json_is_number(json_object_get(d, "rel_delta"))) {
		fprintf(out, " n/a |");
		return;
	}
	/* as summary.md prints it: more decimals for a narrow interval (the icount engine) */
	pr = json_is_number(lo) ? summary_pct_decimals(l, h) : 1;
	fprintf(out, " %+.*f%%", pr, 100 * json_number_value(json_object_get(d, "rel_delta")));
	if (json_is_number(lo))
		fprintf(out, " [%+.*f%%, %+.*f%%] (%.1f%%)", pr, 100 * l, pr, 100 * h,
			100 * json_number_value(json_object_get(d, "ci_coverage")));
	fprintf(out, ", %lld pairs, %s |", (long long)pairs,
		json_is_true(json_object_get(d, "aa_systematic")) ? "A/A, systematic"
		: json_is_true(json_object_get(d, "aa"))	   ? "A/A"
		: json_is_true(json_object_get(d, "real"))	   ? "real"
		: !json_is_number(lo)				   ? "too few pairs to call"
								   : "not distinguishable from noise");
}

/* One setting of a run, in words, into @buf ("" when it has none). */
static const char *setting_of(const json_t *run, const char *key, char *buf, size_t len)
{
	const json_t *set = json_object_get(run, "settings"), *v;

	buf[0] = '\0';
	if (!strcmp(key, "topology"))
		snprintf(buf, len, "%s", json_str_of(run, "topology", "?"));
	else if (!strcmp(key, "engine"))
		snprintf(buf, len, "%s", summary_engine(run));
	else if (!strcmp(key, "time metric"))
		snprintf(buf, len, "%s", summary_time_metric(run));
	else if (!strcmp(key, "machine"))
		snprintf(buf, len, "%s, kernel %s",
			 json_str_of(json_object_get(run, "machine"), "cpu_model", "?"),
			 json_str_of(json_object_get(run, "machine"), "kernel_release", "?"));
	else if (!strcmp(key, "guest kernel")) {
		const json_t *g = json_object_get(run, "guest"), *e = json_object_get(run, "engine");

		if (g || !strcmp(summary_engine(run), "icount"))
			snprintf(buf, len, "%s%s", g ? json_str_of(g, "kernel_release", "?") : json_str_of(e, "guest_kernel", "?"),
				 g && json_is_true(json_object_get(g, "emulated_time")) ? " (TCG)" : "");
	} else if (!strcmp(key, "DUT NIC")) { /* the nic topology's (--nic; default virtio-net) */
		const json_t *n = json_object_get(run, "dut_nic");

		if (n)
			snprintf(buf, len, "%s (driver %s)",
				 json_str_of(json_object_get(run, "settings"), "nic", "virtio-net"),
				 json_str_of(n, "driver", "?"));
	} else if (!strcmp(key, "invalid timing trials")) {
		long long n = 0;
		size_t i;
		json_t *t;

		json_array_foreach(json_object_get(run, "trials"), i, t)
			n += !strcmp(json_str_of(t, "pass", "?"), "timing") &&
			     !json_is_true(json_object_get(t, "valid"));
		snprintf(buf, len, "%lld", n);
	} else if ((v = json_object_get(set, key))) {
		char *d = json_dumps(v, JSON_ENCODE_ANY | JSON_COMPACT);

		snprintf(buf, len, "%s", d ? d : "?");
		free(d);
		if (json_is_string(v))
			snprintf(buf, len, "%s", json_string_value(v));
	}
	return buf;
}

static const char *unset_is_off(const char *v)
{
	return !v[0] || !strcmp(v, "null") ? "false" : v;
}

static const char *const compare_settings[] = {
	"topology", "engine", "time metric", "sender", "guest kernel", "DUT NIC", "machine", "modes",
	"packets", "reps", "frame_len", "rate_pps", "threaded_napi", "napi_cpu",
	"invalid timing trials", NULL,
};

int report_compare(const json_t *a, const char *name_a, const json_t *b, const char *name_b,
		   bool mixed, FILE *out, char *why, size_t whylen)
{
	const json_t *runs[2] = { a, b };
	const char *names[2] = { name_a, name_b };
	static const char *const hard[] = { "topology", "engine", "time metric" };
	size_t i;
	json_t *d;
	int shared = 0, diff = 0;

	why[0] = '\0';
	/* deltas of different experiments are not one row's: refused unless asked for */
	for (size_t h = 0; h < sizeof(hard) / sizeof(hard[0]) && !mixed; h++) {
		char x[256], y[256];

		if (strcmp(setting_of(a, hard[h], x, sizeof(x)), setting_of(b, hard[h], y, sizeof(y)))) {
			snprintf(why, whylen, "the runs differ in %s (%s: %s; %s: %s), so their deltas "
					      "measure different things and are not put in one row; "
					      "--mixed shows them anyway", hard[h], name_a, x, name_b, y);
			return -EINVAL;
		}
	}
	fprintf(out, "# Within-run deltas of two runs\n\n");
	for (int r = 0; r < 2; r++)
		fprintf(out, "- %s: %s, %s topology, %s engine, %s\n", names[r],
			json_str_of(runs[r], "created_utc", "?"), json_str_of(runs[r], "topology", "?"),
			summary_engine(runs[r]),
			summary_time_metric(runs[r]));
	fprintf(out, "\n| setting | %s | %s |\n|---|---|---|\n", names[0], names[1]);
	for (int k = 0; compare_settings[k]; k++) {
		char x[256], y[256];

		bool differs;

		setting_of(a, compare_settings[k], x, sizeof(x));
		setting_of(b, compare_settings[k], y, sizeof(y));
		/* a setting a run does not record is its default: off */
		differs = strcmp(unset_is_off(x), unset_is_off(y)) != 0;
		fprintf(out, "| %s%s | %s | %s |\n", compare_settings[k], differs ? " (differs)" : "",
			x[0] ? x : "-", y[0] ? y : "-");
		diff += differs;
	}
	fprintf(out, "\n| metric | A | B | %s | %s |\n|---|---|---|---|---|\n", names[0], names[1]);
	json_array_foreach(json_object_get(json_object_get(a, "summary"), "deltas"), i, d) {
		const json_t *other = find_delta(b, d);

		fprintf(out, "| %s | %s | %s |", json_str_of(d, "metric", "?"), json_str_of(d, "a", "?"), json_str_of(d, "b", "?"));
		delta_cell(out, d);
		delta_cell(out, other);
		fputc('\n', out);
		shared += other != NULL;
	}
	json_array_foreach(json_object_get(json_object_get(b, "summary"), "deltas"), i, d) {
		if (find_delta(a, d))
			continue;
		fprintf(out, "| %s | %s | %s | n/a |", json_str_of(d, "metric", "?"), json_str_of(d, "a", "?"),
			json_str_of(d, "b", "?"));
		delta_cell(out, d);
		fputc('\n', out);
	}
	fprintf(out, "\nOnly within-run deltas (B against A, each with its own run's interval, its "
		     "coverage, pairs and verdict) are put side by side; %d setting%s differ%s "
		     "(above). Absolute figures (ns, cycles per packet) from different runs, "
		     "machines or topologies are not comparable and are not shown.\n", diff,
		diff == 1 ? "" : "s", diff == 1 ? "s" : "");
	if (!shared)
		snprintf(why, whylen, "the two runs compare no pair of modes in common, so no row "
				      "holds both");
	return shared ? 0 : -EPROTO;
}

int report_print(const json_t *run, FILE *out)
{
	int e = summary_render_md(run, NULL, out);

	if (!e && json_array_size(json_object_get(json_object_get(run, "summary"), "deltas"))) {
		fprintf(out, "\n");
		summary_headline(run, out);
	}
	fflush(out); /* before the lines that follow on stderr */
	return e;
}

int report_write(const json_t *run, const char *dir, const char *json_path, int quiet,
		 char *err, size_t errlen)
{
	char path[PATH_MAX + 32];
	FILE *f;
	int e;

	if (json_path) {
		snprintf(path, sizeof(path), "%s.tmp", json_path);
		if (json_dump_file(run, path, JSON_INDENT(2) | JSON_REAL_PRECISION(17)) ||
		    rename(path, json_path)) {
			e = errno ? -errno : -EIO;
			snprintf(err, errlen, "cannot write %s: %s", json_path, strerror(-e));
			unlink(path);
			return e;
		}
	}
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	f = fopen(path, "w");
	if (!f || summary_render_md(run, dir, f)) {
		e = f ? -EINVAL : -errno;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-e));
		if (f)
			fclose(f);
		return e;
	}
	if (fclose(f)) {
		e = -errno;
		snprintf(err, errlen, "cannot write %s: %s", path, strerror(-e));
		return e;
	}
	e = page_html_write(dir, "summary.md", &(struct page_facts){
		.heading = { "Settings", "Machine and kernel", "Engine", "Guest" },
		.obj = { json_object_get(run, "settings"), json_object_get(run, "machine"),
			 json_object_get(run, "engine"), json_object_get(run, "guest") },
		.n = 4 }, err, errlen);
	if (e)
		return e;
	return quiet ? 0 : report_print(run, stdout);
}
