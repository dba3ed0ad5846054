/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test_install_deb.c: xdptc as a person installs it (issue 40). `make deb` builds the
 * package (debian/, dpkg-buildpackage -b, scripts/build-deb.sh), lintian checks it (no
 * error) while `apt-get install ./build/deb/xdptc_*.deb` installs it; then, from a
 * temporary directory outside the checkout and with a PATH without /usr/local, the
 * installed /usr/bin/xdptc runs `doctor` (its veth check needs the installed topology
 * scripts), `man xdptc` renders the installed manual page, and a short `run --topology
 * veth` writes a run whose run.json holds tc and xdpdrv. The package is purged and every
 * path it held is as before: absent, or there before it came (a directory others share).
 * The package is purged by the group's teardown too, when a step fails; an xdptc
 * package installed before the test makes it fail without touching that package.
 */
#include <dirent.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "run_helpers.h"
#include "test_main.h"

/* what the installed tool runs with: Debian's own PATH, so that an xdptc that `make
 * install` put in /usr/local is not the one tested; and apt's lock waited for (another
 * session may be installing) */
#define SYS_PATH "PATH=/usr/sbin:/usr/bin:/sbin:/bin"
#define RUN_LOCK "/run/lock/xdptc-run.lock"
#define APT "DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=300"

static char tmp[] = "/tmp/xdptc-test-install.XXXXXX";
static int we_installed; /* the package is ours to purge */
static int lintian_started; /* lintian runs in the background: waited for */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* @cmd through the shell; its exit status (-1: killed by a signal). */
static int sh(const char *cmd)
{
	int st = system(cmd);

	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* The shell command @cmd's exit status @st must be 0; else its output file @log's end is
 * shown first. */
static void must_ok(int st, const char *cmd, const char *log)
{
	char show[PATH_MAX + 32];

	if (st) {
		snprintf(show, sizeof(show), "tail -n 30 '%s'", log);
		sh(show);
		fail_msg("'%s' exited with %d", cmd, st);
	}
}

/* The shell command @cmd must exit 0 (must_ok). */
static void must(const char *cmd, const char *log)
{
	must_ok(sh(cmd), cmd, log);
}

static int package_installed(void)
{
	return !sh("dpkg-query -W -f='${Status}' xdptc 2>/dev/null | grep -q 'ok installed'");
}

static int setup(void **state)
{
	(void)state;
	if (package_installed()) {
		fprintf(stderr, "test_install_deb: an xdptc package is installed already: the test "
				"would replace it; purge it first (apt-get purge xdptc)\n");
		return -1;
	}
	return mkdtemp(tmp) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 32];

	(void)state;
	if (lintian_started) { /* its files are in tmp: let it end first (a minute at most) */
		snprintf(cmd, sizeof(cmd), "i=0; while [ ! -s '%s/lintian.rc' ] && [ $i -lt 300 ]; "
			 "do sleep 0.2; i=$((i+1)); done", tmp);
		sh(cmd);
	}
	if (we_installed && package_installed() &&
	    sh(APT " purge xdptc >/dev/null 2>&1"))
		fprintf(stderr, "test_install_deb: apt-get purge xdptc failed\n");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	return sh(cmd) ? -1 : 0;
}

/* The .deb `make deb` printed (its last line of output in @out). */
static void deb_path(const char *out, char *deb, size_t len)
{
	FILE *f = fopen(out, "r");
	char line[PATH_MAX];

	deb[0] = '\0';
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, ".deb")) /* apt takes a file for a package name without a / */
			snprintf(deb, len, "%s%.*s", line[0] == '/' ? "" : "./",
				 (int)strcspn(line, "\n"), line);
	if (f)
		fclose(f);
	if (!*deb || access(deb, R_OK))
		fail_msg("make deb named no .deb it built ('%s')", deb);
}

/* The seconds from @t0 (now_s) to when the run got the run lock (run.start, wall-clock
 * time, taken against the wall clock's now and the monotonic one's). */
static double lock_wait(double t0)
{
	char path[PATH_MAX];
	double started = 0;
	struct timespec wall;
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.start", tmp);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lf", &started), 1);
	fclose(f);
	clock_gettime(CLOCK_REALTIME, &wall);
	return started - ((double)wall.tv_sec + (double)wall.tv_nsec / 1e9 - (now_s() - t0));
}

/* doctor, from @dir, with the installed topology scripts: its veth check passes */
static void installed_doctor(const char *dir)
{
	char cmd[PATH_MAX * 2], path[PATH_MAX + 16];
	json_error_t jerr;
	json_t *r, *it;
	size_t i;
	int found = 0;

	snprintf(path, sizeof(path), "%s/doctor.json", tmp);
	snprintf(cmd, sizeof(cmd), "cd '%s' && " SYS_PATH " xdptc doctor --json >'%s' 2>'%s/doctor.err'",
		 dir, path, tmp);
	must(cmd, path);
	r = json_load_file(path, 0, &jerr);
	if (!r)
		fail_msg("%s: %s", path, jerr.text);
	json_array_foreach(json_object_get(r, "items"), i, it)
		if (!strcmp(json_string_value(json_object_get(it, "name")), "xdp_native_veth")) {
			found = 1;
			if (!json_is_true(json_object_get(it, "ok")))
				fail_msg("doctor's veth check: %s",
					 json_string_value(json_object_get(it, "detail")));
		}
	assert_true(found);
	json_decref(r);
}

/* Every path the package held (@files, dpkg -L) is as it was before it came (@before:
 * those that existed then): absent, or there still. Returns how many are not. */
static int left_behind(const char *files, const char *before)
{
	char cmd[PATH_MAX * 3];

	snprintf(cmd, sizeof(cmd),
		 "n=0; while read -r f; do [ \"$f\" = /. ] && continue; "
		 "if grep -qxF \"$f\" '%s'; then [ -e \"$f\" ] || { echo \"gone: $f\"; n=$((n+1)); }; "
		 "elif [ -e \"$f\" ]; then echo \"left: $f\"; n=$((n+1)); fi; done < '%s'; exit $n",
		 before, files);
	return sh(cmd);
}

static void test_installed_tool(void **state)
{
	char cmd[PATH_MAX * 3], deb[PATH_MAX], p[PATH_MAX], work[PATH_MAX], out[PATH_MAX],
		log[PATH_MAX], files[PATH_MAX], before[PATH_MAX];
	double t0 = now_s(), t;
	json_t *run;
	int lint;

	(void)state;
	snprintf(p, sizeof(p), "%s/deb.log", tmp);
	snprintf(cmd, sizeof(cmd), "make -s deb >'%s' 2>&1", p);
	must(cmd, p);
	deb_path(p, deb, sizeof(deb));
	printf("# make deb: %.1f s (%s)\n", now_s() - t0, deb);
	/* lintian reads the .deb meanwhile (it takes a while): no error */
	snprintf(cmd, sizeof(cmd), "lintian --fail-on error '%s' >'%s/lintian.txt' 2>&1; "
		 "echo $? >'%s/lintian.rc' &", deb, tmp, tmp);
	assert_int_equal(sh(cmd), 0);
	lintian_started = 1;

	/* what the package will hold, and which of it exists before it comes */
	snprintf(before, sizeof(before), "%s/before.txt", tmp);
	snprintf(cmd, sizeof(cmd), "dpkg-deb -c '%s' | awk '{print $6}' | sed 's,^\\.,,; s,/$,,' | "
		 "while read -r f; do [ -n \"$f\" ] && [ -e \"$f\" ] && echo \"$f\"; done >'%s'; :",
		 deb, before);
	assert_int_equal(sh(cmd), 0);
	t = now_s();
	snprintf(log, sizeof(log), "%s/apt.log", tmp);
	we_installed = 1;
	snprintf(cmd, sizeof(cmd), APT " install --no-install-recommends '%s' >'%s' 2>&1", deb, log);
	must(cmd, log);
	assert_true(package_installed());
	printf("# apt-get install %s: %.1f s\n", deb, now_s() - t);
	snprintf(files, sizeof(files), "%s/files.txt", tmp);
	snprintf(cmd, sizeof(cmd), "dpkg -L xdptc >'%s'", files);
	assert_int_equal(sh(cmd), 0);
	assert_int_equal(sh(SYS_PATH " sh -c '[ \"$(command -v xdptc)\" = /usr/bin/xdptc ]'"), 0);

	/* from a directory outside the checkout */
	snprintf(work, sizeof(work), "%s/work", tmp);
	snprintf(cmd, sizeof(cmd), "mkdir '%s'", work);
	assert_int_equal(sh(cmd), 0);
	t = now_s();
	installed_doctor(work);
	printf("# xdptc doctor: %.1f s\n", now_s() - t);
	snprintf(p, sizeof(p), "%s/man.txt", tmp);
	snprintf(cmd, sizeof(cmd), "cd '%s' && " SYS_PATH " man -P cat xdptc 2>&1 | head -n 20 >'%s' && "
		 "grep -q 'xdptc' '%s' && grep -q 'SYNOPSIS' '%s'", work, p, p, p);
	must(cmd, p);

	/* a short run: the installed scripts build the veth pair */
	t = now_s();
	snprintf(out, sizeof(out), "%s/out", tmp);
	snprintf(log, sizeof(log), "%s/run.log", tmp);
	/* on a machine others measure on too, a run refuses to start beside another: the
	 * run lock is waited for and handed to the run, as `make repeatability` does */
	snprintf(cmd, sizeof(cmd), "cd '%s' && ( flock -w 900 -x 9 && date +%%s.%%N >../run.start && "
		 SYS_PATH " xdptc run "
		 "--topology veth --packets 5k --reps 2 --count-reps 1 --modes tc,xdpdrv --schedule "
		 "classic --no-flame --out '%s' --held-lock 9 >/dev/null 2>'%s' ) 9>>%s", work, out, log,
		 RUN_LOCK);
	must(cmd, log);
	printf("# xdptc run --topology veth: %.1f s, %.1f s of it waiting for the run lock\n",
	       now_s() - t, lock_wait(t));
	run = load_run_json(out, p, sizeof(p));
	assert_non_null(mode_summary(run, "tc"));
	assert_non_null(mode_summary(run, "xdpdrv"));
	json_decref(run);
	snprintf(cmd, sizeof(cmd), "[ -z \"$(ls -A '%s')\" ]", work); /* all went to --out */
	assert_int_equal(sh(cmd), 0);

	/* purge: nothing of it left */
	t = now_s();
	snprintf(log, sizeof(log), "%s/purge.log", tmp);
	snprintf(cmd, sizeof(cmd), APT " purge xdptc >'%s' 2>&1", log);
	must(cmd, log);
	assert_false(package_installed());
	we_installed = 0;
	printf("# apt-get purge xdptc: %.1f s\n", now_s() - t);
	assert_int_equal(left_behind(files, before), 0);

	/* lintian's verdict */
	snprintf(cmd, sizeof(cmd), "while [ ! -s '%s/lintian.rc' ]; do sleep 0.2; done; "
		 "cat '%s/lintian.txt'; exit \"$(cat '%s/lintian.rc')\"", tmp, tmp, tmp);
	lint = sh(cmd);
	assert_int_equal(lint, 0);
	printf("# test_install_deb: %.1f s in all\n", now_s() - t0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_installed_tool),
	};

	INTEGRATION_MAIN("test_install_deb", tests, setup, teardown, NULL);
}
