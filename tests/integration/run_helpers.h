/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_helpers.h: what the `xdptc run` integration tests share: the topology prefix a
 * run announced, what is left of it, its run directory and its run.json summaries.
 * Include after <cmocka.h>, <jansson.h>, <dirent.h>, <math.h>, <stdio.h>, <string.h>,
 * <stdlib.h>, <sys/wait.h>.
 */
#ifndef XDPTC_TEST_RUN_HELPERS_H
#define XDPTC_TEST_RUN_HELPERS_H

/* The topology prefix a run announced on stderr ("veth topology xdptc-XXXXXX: up"),
 * read from the file @log; "" when it said none. */
static inline void run_prefix(const char *log, char *prefix, size_t len)
{
	FILE *f = fopen(log, "r");
	char line[512];

	prefix[0] = '\0';
	while (f && fgets(line, sizeof(line), f)) {
		char *p = strstr(line, "topology xdptc-");

		if (p && strstr(line, ": up")) {
			snprintf(prefix, len, "%.12s", p + 9);
			break;
		}
	}
	if (f)
		fclose(f);
}

/* run_xdptc - make the directory @tmpl (a mkdtemp template), run `@env @bin @args --out
 * @tmpl 2>@tmpl/stderr.log` through the shell and return system()'s status; @log (of
 * @loglen bytes) gets the stderr file's path. @env may be "" (no variables). */
static inline int run_xdptc(const char *bin, char *tmpl, const char *env, const char *args,
			    char *log, size_t loglen)
{
	char cmd[1024];

	assert_non_null(mkdtemp(tmpl));
	snprintf(log, loglen, "%s/stderr.log", tmpl);
	snprintf(cmd, sizeof(cmd), "%s %s %s --out %s 2>%s", env, bin, args, tmpl, log);
	return system(cmd);
}

/* run_xdptc_err - `@bin @args` with its stderr (at most @len - 1 bytes) into @out and
 * stdout thrown away; returns its exit status (-1: killed by a signal). */
static inline int run_xdptc_err(const char *bin, const char *args, char *out, size_t len)
{
	char cmd[2048];
	size_t n;
	FILE *p;
	int st;

	snprintf(cmd, sizeof(cmd), "%s %s 2>&1 >/dev/null", bin, args);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(out, 1, len - 1, p);
	out[n] = '\0';
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* A run's exit status @st must be 0; when it is not, the end of its stderr @log is shown
 * first. */
static inline void assert_run_ok(int st, const char *log)
{
	if (!WIFEXITED(st) || WEXITSTATUS(st)) {
		char cmd[600];

		snprintf(cmd, sizeof(cmd), "tail -n 30 %s", log);
		assert_int_equal(system(cmd), 0);
	}
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
}

/* The run.json at @path must hold to docs/run.schema.json (tests/validate-run-json.sh). */
static inline void assert_run_json_valid(const char *path)
{
	char cmd[700];

	snprintf(cmd, sizeof(cmd), "sh tests/validate-run-json.sh '%s'", path);
	assert_int_equal(system(cmd), 0);
}

/* Namespaces and links whose names start with @prefix right now. */
static inline int count_leftovers(const char *prefix)
{
	char cmd[256];
	FILE *p;
	int n = -1;

	snprintf(cmd, sizeof(cmd),
		 "{ ip netns list; ip -o link show; } 2>/dev/null | grep -c '%s'", prefix);
	p = popen(cmd, "r");
	if (p) {
		if (fscanf(p, "%d", &n) != 1)
			n = -1;
		pclose(p);
	}
	return n;
}

/* The one run directory under @parent (NULL when there is none); files are passed over. */
static inline char *find_run_dir(const char *parent)
{
	DIR *d = opendir(parent);
	struct dirent *de;
	char *found = NULL;

	while (d && (de = readdir(d))) {
		if (de->d_name[0] == '.' || (de->d_type != DT_DIR && de->d_type != DT_UNKNOWN))
			continue; /* a run directory, not the stderr log beside it */
		if (asprintf(&found, "%s/%s", parent, de->d_name) < 0)
			found = NULL;
		break;
	}
	if (d)
		closedir(d);
	return found;
}

/* The run.json of the one run directory under @parent, checked against the schema and
 * loaded (the test fails when there is none, or it does not hold); its path into @path. */
static inline json_t *load_run_json(const char *parent, char *path, size_t len)
{
	char *dir = find_run_dir(parent);
	json_error_t jerr;
	json_t *run;

	assert_non_null(dir);
	snprintf(path, len, "%s/run.json", dir);
	free(dir);
	assert_run_json_valid(path);
	run = json_load_file(path, 0, &jerr);
	if (!run)
		fail_msg("%s: %s", path, jerr.text);
	return run;
}

static inline json_t *mode_summary(json_t *run, const char *mode)
{
	size_t i;
	json_t *m;

	json_array_foreach(json_object_get(json_object_get(run, "summary"), "modes"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "mode")), mode))
			return m;
	return NULL;
}

static inline double num(json_t *o, const char *k)
{
	json_t *v = json_object_get(o, k);

	return json_is_number(v) ? json_number_value(v) : NAN;
}

/* file_text - the whole of file @path, NUL-terminated (the caller frees it), or NULL. */
static inline char *file_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;

	if (!f)
		return NULL;
	if (!fseek(f, 0, SEEK_END) && ftell(f) >= 0) {
		len = (size_t)ftell(f);
		rewind(f);
		buf = malloc(len + 1);
		if (buf && fread(buf, 1, len, f) != len) {
			free(buf);
			buf = NULL;
		}
		if (buf)
			buf[len] = '\0';
	}
	fclose(f);
	return buf;
}

/* assert_trials_valid - every trial of @run valid (the failing one named with its
 * reason); returns how many there were. */
static inline int assert_trials_valid(json_t *run)
{
	json_t *t;
	size_t i;

	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (!json_is_true(json_object_get(t, "valid")))
			fail_msg("trial %zu (%s, %s) is invalid: %s", i,
				 json_string_value(json_object_get(t, "mode")),
				 json_string_value(json_object_get(t, "pass")),
				 json_string_value(json_object_get(t, "invalid_reason")));
	return (int)json_array_size(json_object_get(run, "trials"));
}

/* finish_run_test - the end of a run's test: nothing of topology @prefix left, @run
 * released, the temporary directory @tmpl removed. */
static inline void finish_run_test(const char *prefix, json_t *run, const char *tmpl)
{
	char cmd[600];

	assert_int_equal(count_leftovers(prefix), 0);
	json_decref(run);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	assert_int_equal(system(cmd), 0);
}

#endif
