/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A run and what others do on the machine meanwhile:
 *  - BPF statistics turned on by someone else (kernel.bpf_stats_enabled=1, or another
 *    process holding a BPF_ENABLE_STATS file descriptor, as bpftop does): the run
 *    detects it (the sysctl at its start and end, the program's run count moving in a
 *    timing trial), says so in summary.md and run.json, leaves the BPF-stats pass cost
 *    uncomputed, and never changes the setting;
 *  - other load on the second CPU: the run counts the timing trials that ran beside it,
 *    records it per trial, and the summary says what that does to the numbers;
 *  - another tool's program put on the run's own DUT while it measures: the next trial
 *    refuses, naming it, and the run ends (exit 1) with the reason in run.json.
 * The test restores kernel.bpf_stats_enabled to what it found. Needs root and two CPUs.
 * Run from the repository root.
 */
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <net/if.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <signal.h>
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

#include "netns.h"
#include "run_helpers.h"
#include "tc_drop.skel.h"
#include "test_main.h"

static const char *xdptc = "./build/xdptc";
static char saved_stats[16] = "";

static void write_sysctl(const char *v)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "w");

	assert_non_null(f);
	fputs(v, f);
	assert_int_equal(fclose(f), 0);
}

static void read_sysctl(char *buf, size_t len)
{
	FILE *f = fopen("/proc/sys/kernel/bpf_stats_enabled", "r");

	assert_non_null(f);
	assert_non_null(fgets(buf, (int)len, f));
	buf[strcspn(buf, "\n")] = '\0';
	fclose(f);
}

/* A short veth run into a new directory; its run.json (loaded) and summary.md (into
 * @md). @extra: more options. Returns its exit status in *@st. */
static json_t *short_run(const char *extra, char *md, size_t mdlen, int *st, char *log,
			 size_t loglen)
{
	char tmpl[] = "/tmp/xdptc-outside-XXXXXX", cmd[1024], path[700];
	json_t *run = NULL;
	char *dir;
	FILE *f;

	assert_non_null(mkdtemp(tmpl));
	snprintf(log, loglen, "%s.log", tmpl);
	snprintf(cmd, sizeof(cmd), "%s run --modes tc,xdpdrv --no-flame --quiet --schedule classic --out %s %s "
		 "2>%s", xdptc, tmpl, extra, log);
	*st = system(cmd);
	dir = find_run_dir(tmpl);
	md[0] = '\0';
	if (dir) {
		snprintf(path, sizeof(path), "%s/run.json", dir);
		assert_run_json_valid(path);
		run = json_load_file(path, 0, NULL);
		snprintf(path, sizeof(path), "%s/summary.md", dir);
		f = fopen(path, "r");
		if (f) {
			size_t n = fread(md, 1, mdlen - 1, f);

			md[n] = '\0';
			fclose(f);
		}
		free(dir);
	}
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
	return run;
}

static int timing_trials(json_t *run, const char *key, int *with)
{
	size_t i;
	json_t *t;
	int n = 0;

	*with = 0;
	json_array_foreach(json_object_get(run, "trials"), i, t) {
		if (strcmp(json_string_value(json_object_get(t, "pass")), "timing"))
			continue;
		n++;
		*with += json_is_true(json_object_get(t, key));
	}
	return n;
}

static void test_bpf_stats_sysctl_set_by_someone_else(void **state)
{
	static char md[65536];
	char log[128], now[16];
	json_t *run;
	int st, n, on;

	(void)state;
	write_sysctl("1");
	run = short_run("--packets 20k --reps 3 --count-reps 1", md, sizeof(md), &st, log,
			sizeof(log));
	read_sysctl(now, sizeof(now));
	write_sysctl(saved_stats);
	assert_string_equal(now, "1"); /* left as someone else set it */
	assert_int_equal(st, 0);
	assert_non_null(run);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(json_object_get(run,
				 "doctor"), "sysctls"), "kernel.bpf_stats_enabled")), 1);
	n = timing_trials(run, "bpf_stats_on", &on);
	printf("# sysctl on: %d of %d timing trials saw the program's run count move\n", on, n);
	assert_true(n > 0 && on > 0);
	assert_non_null(strstr(md, "BPF statistics were on during the timing pass"));
	assert_non_null(strstr(md, "kernel.bpf_stats_enabled=1"));
	assert_null(strstr(md, "BPF statistics off"));
	assert_true(json_is_null(json_object_get(mode_summary(run, "tc"),
						 "observer_bpfstats_pass_pct")));
	json_decref(run);
}

static void test_bpf_stats_held_by_another_process(void **state)
{
	static char md[65536];
	char log[128];
	json_t *run;
	int st, n, on, fd;

	(void)state;
	fd = bpf_enable_stats(BPF_STATS_RUN_TIME); /* as bpftop does */
	assert_true(fd >= 0);
	run = short_run("--packets 20k --reps 3 --count-reps 1", md, sizeof(md), &st, log,
			sizeof(log));
	close(fd);
	assert_int_equal(st, 0);
	assert_non_null(run);
	n = timing_trials(run, "bpf_stats_on", &on);
	printf("# a BPF_ENABLE_STATS fd held: %d of %d timing trials saw the run count move\n", on,
	       n);
	assert_int_equal(on, n);
	assert_non_null(strstr(md, "another process held BPF statistics on"));
	json_decref(run);
}

static void test_other_load_is_counted(void **state)
{
	static char md[65536];
	char log[128];
	json_t *run;
	pid_t busy;
	int st, n, loaded;

	(void)state;
	assert_true(sysconf(_SC_NPROCESSORS_ONLN) >= 2);
	busy = fork();
	assert_true(busy >= 0);
	if (busy == 0) { /* another process keeps CPU 0 busy; the sender is on the last CPU */
		cpu_set_t set;
		volatile unsigned long x = 0;

		CPU_ZERO(&set);
		CPU_SET(0, &set);
		sched_setaffinity(0, sizeof(set), &set);
		alarm(120);
		for (;;)
			x++;
	}
	run = short_run("--packets 100k --reps 4 --count-reps 1 --aa --cpu 1", md, sizeof(md),
			&st, log, sizeof(log));
	kill(busy, SIGKILL);
	waitpid(busy, NULL, 0);
	assert_int_equal(st, 0);
	assert_non_null(run);
	n = timing_trials(run, "other_load", &loaded);
	printf("# another process busy on CPU 0: %d of %d timing trials ran under other load\n",
	       loaded, n);
	assert_true(loaded * 2 >= n);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(run, "summary"),
							    "timing_trials_other_load")),
			 loaded);
	assert_non_null(strstr(md, "**Other load**"));
	assert_non_null(strstr(md, "the paired deltas"));
	json_decref(run);
}

/* Another tool's tcx program on the run's own DUT, put there while it measures. */
static void test_a_program_put_on_the_dut_meanwhile(void **state)
{
	char tmpl[] = "/tmp/xdptc-outside-XXXXXX", cmd[1024], path[700], line[512],
	     prefix[16] = "", dut_ns[40], dut_dev[24];
	struct tc_drop_bpf *skel;
	json_t *run;
	char *dir;
	int fds[2], st, link = -1, saved;
	pid_t pid;
	FILE *in;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	skel = tc_drop_bpf__open();
	assert_non_null(skel);
	skel->rodata->drop_port = 9999; /* takes the very packets xdptc counts */
	bpf_program__set_expected_attach_type(skel->progs.tc_drop, BPF_TCX_INGRESS);
	assert_int_equal(tc_drop_bpf__load(skel), 0);
	assert_int_equal(pipe(fds), 0);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		dup2(fds[1], 2);
		close(fds[0]);
		execl(xdptc, "xdptc", "run", "--schedule", "classic", "--modes", "tc", "--packets", "200k", "--reps", "8",
		      "--count-reps", "1", "--no-flame", "--quiet", "--out", tmpl, (char *)NULL);
		_exit(127);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	while (fgets(line, sizeof(line), in)) {
		char *p = strstr(line, "topology xdptc-");

		printf("#   | %s", line); /* the run's own words, kept for the record */
		if (p && strstr(line, ": up"))
			snprintf(prefix, sizeof(prefix), "%.12s", p + 9);
		if (prefix[0] && strstr(line, "] timing ") && link < 0) {
			snprintf(dut_ns, sizeof(dut_ns), "%s-dut", prefix);
			snprintf(dut_dev, sizeof(dut_dev), "%s-d", prefix);
			assert_int_equal(netns_enter(dut_ns, &saved), 0);
			link = bpf_link_create(bpf_program__fd(skel->progs.tc_drop),
					       (int)if_nametoindex(dut_dev), BPF_TCX_INGRESS, NULL);
			assert_int_equal(netns_return(saved), 0);
			assert_true(link >= 0);
			printf("# another tool's tcx program put on %s\n", dut_dev);
		}
	}
	fclose(in);
	waitpid(pid, &st, 0);
	if (link >= 0)
		close(link);
	tc_drop_bpf__destroy(skel);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	dir = find_run_dir(tmpl);
	assert_non_null(dir); /* the trials measured before are kept, marked incomplete */
	snprintf(path, sizeof(path), "%s/run.json", dir);
	assert_run_json_valid(path);
	run = json_load_file(path, 0, NULL);
	assert_non_null(run);
	printf("# run.json incomplete: %s\n",
	       json_string_value(json_object_get(run, "incomplete")));
	assert_non_null(strstr(json_string_value(json_object_get(run, "incomplete")),
			       "tcx ingress program id"));
	json_decref(run);
	free(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(count_leftovers(prefix), 0);
}

static int setup(void **state)
{
	(void)state;
	if (getenv("XDPTC_BIN"))
		xdptc = getenv("XDPTC_BIN");
	read_sysctl(saved_stats, sizeof(saved_stats));
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (saved_stats[0])
		write_sysctl(saved_stats);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_bpf_stats_sysctl_set_by_someone_else),
		cmocka_unit_test(test_bpf_stats_held_by_another_process),
		cmocka_unit_test(test_other_load_is_counted),
		cmocka_unit_test(test_a_program_put_on_the_dut_meanwhile),
	};

	INTEGRATION_MAIN("test_run_outside", tests, setup, teardown, NULL);
}
