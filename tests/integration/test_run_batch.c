/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration test of --batch (packets per send call of the udp and packet senders) on
 * this machine: a veth run at CI size with --batch 7, its system calls traced by strace,
 * must send with sendmmsg calls of at most 7 messages, some of exactly 7 (the default
 * sends 64 a call), every trial valid, and run.json's settings must say batch 7. --batch
 * with a sender that does not take it (xdp-live, the tap's) is refused with exit 2
 * before anything is made.
 * Needs root and strace. Run from the repository root.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

static const char *xdptc = "./build/xdptc";

#include "run_helpers.h"

static void test_batch_refused_where_the_sender_has_none(void **state)
{
	char out[4096];

	(void)state;
	assert_int_equal(run_xdptc_err(xdptc, "run --topology veth --sender xdp-live --batch 8",
				       out, sizeof(out)), 2);
	printf("# %s", out);
	assert_non_null(strstr(out, "--batch applies to --sender udp and packet only"));
	assert_int_equal(run_xdptc_err(xdptc, "run --topology tap --batch 8", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "(this run's sender: tap)"));
	assert_int_equal(run_xdptc_err(xdptc, "run --batch 0", out, sizeof(out)), 2);
	assert_int_equal(run_xdptc_err(xdptc, "run --batch 1025", out, sizeof(out)), 2);
}

static void test_batch_sets_the_senders_calls(void **state)
{
	char tmpl[] = "/tmp/xdptc-btest-XXXXXX", path[700], env[800], prefix[16];
	static char line[65536]; /* a call with its messages on one line */
	long calls = 0, full = 0, most = 0;
	json_t *run;
	FILE *f;
	int st;

	(void)state;
	/* the trace goes beside the run's directory, under the same temporary parent */
	snprintf(env, sizeof(env), "strace -f -qq -s 0 -e trace=sendmmsg -o /tmp/xdptc-btrace.%d",
		 (int)getpid());
	st = run_xdptc(xdptc, tmpl, env, "run --topology veth --modes tc,xdpdrv --packets 2000 "
		       "--reps 2 --count-reps 1 --schedule classic --no-flame --quiet --batch 7",
		       path, sizeof(path));
	run_prefix(path, prefix, sizeof(prefix));
	assert_run_ok(st, path);
	snprintf(path, sizeof(path), "/tmp/xdptc-btrace.%d", (int)getpid());
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		const char *eq = strstr(line, "sendmmsg(") ? strrchr(line, '=') : NULL;
		long n;

		if (!eq || sscanf(eq, "= %ld", &n) != 1 || n < 0)
			continue;
		calls++;
		full += n == 7;
		most = n > most ? n : most;
	}
	fclose(f);
	unlink(path);
	printf("# %ld sendmmsg calls, %ld of 7 messages, the most in one: %ld\n", calls, full,
	       most);
	assert_true(calls > 0);
	assert_int_equal(most, 7);
	assert_true(full > 0);
	run = load_run_json(tmpl, path, sizeof(path));
	assert_non_null(run);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(run, "settings"),
							    "batch")), 7);
	assert_trials_valid(run);
	finish_run_test(prefix, run, tmpl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_batch_refused_where_the_sender_has_none),
		cmocka_unit_test(test_batch_sets_the_senders_calls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
