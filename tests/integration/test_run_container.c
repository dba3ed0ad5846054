/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration test of the container topology (issue 27) on this machine, at CI size:
 * - a run of its veth arms (tc, xdpdrv) with the default modes: on a kernel without netkit
 *   (this host's has CONFIG_NETKIT unset) netkit is left out with one sentence in
 *   summary.md and run.json's modes_refused, and the veth arms are measured with their
 *   mechanism (tc: one stack entry per packet; xdpdrv: none); where this kernel has
 *   netkit, its arm must be measured instead, with no stack entry;
 * - netkit named in --modes where it cannot run is refused before anything is made (exit
 *   2): on this kernel when it has none, and a guest kernel before 6.7 under the icount
 *   engine;
 * - a run killed with SIGKILL mid-measurement leaves its namespaces, and the next
 *   `xdptc cleanup` removes them all.
 * The netkit arm itself is measured in an icount guest with netkit by test_run_icount.
 * Needs root. Run from the repository root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "netkit.h"

static const char *xdptc = "./build/xdptc";

#include "run_helpers.h"

static int xdptc_err(const char *args, char *out, size_t len)
{
	return run_xdptc_err(xdptc, args, out, len);
}

static void test_container_run_measures_its_arms(void **state)
{
	char tmpl[] = "/tmp/xdptc-ctest-XXXXXX", path[700], prefix[16], why[256], *dir, *md;
	json_t *run, *tc, *xdp, *nk, *refused;
	int st, has_netkit = netkit_probe(why, sizeof(why)) == 1;

	(void)state;
	st = run_xdptc(xdptc, tmpl, "", "run --topology container --packets 5k --reps 2 "
			"--count-reps 1 --schedule classic --no-flame --quiet", path, sizeof(path));
	run_prefix(path, prefix, sizeof(prefix));
	assert_run_ok(st, path);
	dir = find_run_dir(tmpl);
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	assert_run_json_valid(path);
	run = json_load_file(path, 0, NULL);
	assert_non_null(run);
	assert_string_equal(json_string_value(json_object_get(run, "topology")), "container");
	tc = mode_summary(run, "tc");
	xdp = mode_summary(run, "xdpdrv");
	nk = mode_summary(run, "netkit");
	assert_non_null(tc);
	assert_non_null(xdp);
	printf("# tc stack/pkt %.3f, xdpdrv %.3f; netkit %s\n", num(tc, "stack_entries_per_pkt"),
	       num(xdp, "stack_entries_per_pkt"), has_netkit ? "on this kernel" : why);
	assert_true(fabs(num(tc, "stack_entries_per_pkt") - 1) < 0.01);
	assert_true(num(xdp, "stack_entries_per_pkt") < 0.01);
	refused = json_object_get(run, "modes_refused");
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	md = file_text(path);
	assert_non_null(md);
	if (has_netkit) {
		assert_non_null(nk);
		assert_true(num(nk, "stack_entries_per_pkt") < 0.01);
		assert_int_equal(json_array_size(refused), 0);
	} else {
		/* left out, in one sentence, and the veth arms measured */
		assert_null(nk);
		assert_int_equal(json_array_size(refused), 1);
		assert_string_equal(json_string_value(json_object_get(json_array_get(refused, 0),
								      "mode")), "netkit");
		assert_non_null(strstr(md, "netkit is left out of this run: this kernel has no "
					   "netkit"));
	}
	assert_int_equal(count_leftovers(prefix), 0);
	free(md);
	free(dir);
	json_decref(run);
	snprintf(path, sizeof(path), "rm -rf %s", tmpl);
	assert_int_equal(system(path), 0);
}

static void test_netkit_where_there_is_none_is_refused(void **state)
{
	char out[4096], why[256];

	(void)state;
	/* a guest kernel before 6.7: known from its version, before any boot */
	assert_int_equal(xdptc_err("run --topology container --engine icount --guest-kernel 6.1 "
				   "--modes tc,netkit --out /tmp/xdptc-ctest-none", out,
				   sizeof(out)), 2);
	printf("# %s", out);
	assert_non_null(strstr(out, "guest kernel 6.1 has no netkit"));
	assert_int_not_equal(access("/tmp/xdptc-ctest-none", F_OK), 0);
	/* this kernel, when it has none */
	if (netkit_probe(why, sizeof(why)) == 0) {
		assert_int_equal(xdptc_err("run --topology container --modes tc,netkit --out "
					   "/tmp/xdptc-ctest-none", out, sizeof(out)), 2);
		printf("# %s", out);
		assert_non_null(strstr(out, "this kernel has no netkit"));
	}
	/* netkit on a topology without a netkit pair; another sender */
	assert_int_equal(xdptc_err("run --topology veth --modes tc,netkit", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "--topology container only"));
	assert_int_equal(xdptc_err("run --topology container --sender packet", out, sizeof(out)), 2);
	assert_non_null(strstr(out, "UDP socket"));
}

static void test_killed_container_run_is_cleaned_up(void **state)
{
	char tmpl[] = "/tmp/xdptc-ctest-XXXXXX", log[700], prefix[16], cmd[512], out[8192];
	pid_t run;
	int st, tries;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	snprintf(log, sizeof(log), "%s/stderr.log", tmpl);
	run = fork();
	assert_true(run >= 0);
	if (!run) {
		int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 2);
		execl(xdptc, xdptc, "run", "--topology", "container", "--modes", "tc,xdpdrv",
		      "--packets", "200k", "--reps", "9", "--schedule", "classic", "--no-flame",
		      "--out", tmpl, (char *)NULL);
		_exit(127);
	}
	/* until its first trial runs */
	snprintf(cmd, sizeof(cmd), "grep -q '\\] timing ' %s", log);
	for (tries = 0; tries < 600 && system(cmd); tries++)
		usleep(100000);
	run_prefix(log, prefix, sizeof(prefix));
	kill(run, SIGKILL);
	waitpid(run, &st, 0);
	printf("# killed %s %.1f s after it started\n", prefix, tries / 10.0);
	assert_int_equal(strncmp(prefix, "xdptc-", 6), 0);
	assert_true(count_leftovers(prefix) > 0); /* the namespaces outlived it */
	st = xdptc_err("cleanup", out, sizeof(out));
	printf("# cleanup (exit %d): %s", st, out);
	assert_int_equal(st, 0);
	assert_non_null(strstr(out, prefix));
	assert_int_equal(count_leftovers(prefix), 0);
	snprintf(cmd, sizeof(cmd), "test ! -e /run/xdptc/%s.owner && test ! -e /run/xdptc/%s.kind",
		 prefix, prefix);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpl);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_netkit_where_there_is_none_is_refused),
		cmocka_unit_test(test_container_run_measures_its_arms),
		cmocka_unit_test(test_killed_container_run_is_cleaned_up),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
