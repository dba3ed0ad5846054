/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration test of the kernel matrix (issue 18) at CI size: `xdptc matrix` on one
 * guest kernel that exists (6.1) and one that Debian's archive does not have (0.99),
 * two runs side by side (-j 2).
 * - The kernel that cannot be fetched is recorded in matrix.json with the resolver's
 *   reason, each of its experiments too, the matrix goes on and exits 1.
 * - 6.1 is resolved to a package, version and suite; tcx is left out of it (Linux 6.1
 *   has none) and said so, before measuring.
 * - Each of its three experiments (veth with the udp and the xdp-live senders, virtio)
 *   holds per-mode summaries in a run's shape: guest_instructions_per_pkt for tc and
 *   xdpdrv, and the mechanism counts (veth: tc enters the stack once per packet, native
 *   XDP never; virtio: tc builds an skb per packet, native XDP none).
 * - The veth experiments carry a folded instruction profile per mode whose samples add
 *   up, per packet, to the same order as the instructions per packet measured (the
 *   profile covers the window), and a differential profile of xdpdrv against tc.
 * - matrix.md names both kernels; nothing of the guests is left.
 * Needs root, qemu and Debian's archive. Run from the repository root.
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
#include "test_main.h"

/* The entry of @kernel's @experiment in matrix.json @m. */
static json_t *entry(json_t *m, const char *kernel, const char *experiment)
{
	json_t *e;
	size_t i;

	json_array_foreach(json_object_get(m, "entries"), i, e)
		if (!strcmp(json_string_value(json_object_get(e, "kernel")), kernel) &&
		    !strcmp(json_string_value(json_object_get(e, "experiment")), experiment))
			return e;
	fail_msg("no entry for %s %s", kernel, experiment);
	return NULL;
}

static json_t *mode_of(json_t *e, const char *mode)
{
	json_t *m;
	size_t i;

	json_array_foreach(json_object_get(e, "modes"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "mode")), mode))
			return m;
	fail_msg("no mode %s", mode);
	return NULL;
}

/* The veth experiment @e: its profile per mode adds up per packet to about what the
 * timing pass measured, and xdpdrv against tc is drawn. */
static void check_profiles(json_t *e, const char *dir, const char *md)
{
	size_t regimes = 0;
	json_t *p = json_object_get(e, "profiles"), *modes = json_object_get(p, "modes");
	const char *svg = json_string_value(json_object_get(json_object_get(p, "diff"), "svg"));
	char path[1024];

	assert_non_null(p);
	assert_true(num(p, "period") > 0);
	for (int k = 0; k < 2; k++) {
		const char *mode = k ? "xdpdrv" : "tc";
		json_t *pm = json_object_get(modes, mode);
		double sampled = num(pm, "sampled_per_pkt");
		double measured = num(mode_of(e, mode), "guest_instructions_per_pkt");
		double window = num(pm, "window_per_pkt");

		assert_non_null(pm);
		{ /* the folded stacks, beside matrix.json */
			char f[1024], cmd[1200];

			snprintf(f, sizeof(f), "%s/%s", dir,
				 json_string_value(json_object_get(pm, "folded_file")));
			snprintf(cmd, sizeof(cmd), "test \"$(grep -c . '%s')\" -gt 0", f);
			assert_true(num(pm, "stacks") > 0);
			assert_int_equal(system(cmd), 0);
		}
		printf("# %s %s: %.0f samples, %.0f instructions/pkt at face value, %.0f in the "
		       "profile's window, %.0f in the timing pass, %.2f per sample\n",
		       json_string_value(json_object_get(e, "experiment")), mode, num(pm, "samples"),
		       sampled, window, measured, num(pm, "per_sample"));
		/* the profile covers its own window: at face value its samples hold what that
		 * window measured, up to the sampling noise (three standard deviations of a
		 * Poisson count: 16% at 340 samples) and the other CPU work that -a sees (the
		 * agent, perf's own: not more than a few times); and the scale given to a sample
		 * is what makes the samples add up to the timing pass's measurement */
		/* the matrix's profile pass: 20k packets, a sample every 50,000 instructions;
		 * XDP-live's xdpdrv, the fewest instructions per packet (about 860), gives
		 * about 340 samples */
		assert_true(num(pm, "samples") > 250);
		assert_true(window > 0);
		assert_true(sampled > (1 - 3 / sqrt(num(pm, "samples"))) * window &&
			    sampled < 8 * window);
		assert_true(fabs(num(pm, "per_sample") * num(pm, "samples") / measured - 1) < 1e-9);
		assert_true(fabs(num(pm, "measured_per_pkt") / measured - 1) < 1e-9);
		/* a profile window far from its timing pass (another regime) is said */
		if (window / measured > 1.5 || measured / window > 1.5)
			regimes++;
	}
	if (md) {
		size_t notes = 0;

		for (const char *q = md; (q = strstr(q, "profile window measured")); q++)
			notes++;
		printf("# %zu profile(s) in another regime than their timing pass, %zu said\n",
		       regimes, notes);
		assert_true(notes >= regimes);
	}
	assert_non_null(svg);
	snprintf(path, sizeof(path), "%s/%s", dir, svg);
	assert_int_equal(access(path, R_OK), 0);
	assert_true(json_array_size(json_object_get(json_object_get(p, "diff"), "top_functions")) > 0);
}

static void test_matrix_one_kernel_and_one_that_cannot_be_fetched(void **state)
{
	char tmpl[] = "/tmp/xdptc-mtest-XXXXXX", path[700], cmd[800];
	json_error_t jerr;
	json_t *m, *k, *e;
	char *dir, *md;
	int st;

	(void)state;
	st = run_xdptc(xdptc, tmpl, "", "matrix --kernels 6.1,0.99 --modes tc,tcx,xdpdrv "
			"--packets 2k --reps 2 --count-reps 1 -j 2", path, sizeof(path));
	snprintf(cmd, sizeof(cmd), "grep '^xdptc matrix' %s | sed 's/^/# /'", path);
	assert_int_equal(system(cmd), 0);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1); /* one kernel failed, the rest was measured */
	dir = find_run_dir(tmpl);
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/matrix.json", dir);
	m = json_load_file(path, 0, &jerr);
	if (!m)
		fail_msg("%s: %s", path, jerr.text);
	assert_string_equal(json_string_value(json_object_get(m, "schema")), "xdptc.matrix/1");

	k = json_array_get(json_object_get(m, "kernels"), 1);
	printf("# 0.99: %s\n", json_string_value(json_object_get(k, "reason")));
	assert_string_equal(json_string_value(json_object_get(k, "status")), "failed");
	assert_non_null(strstr(json_string_value(json_object_get(k, "reason")),
			       "no Debian kernel matches '0.99'"));
	e = entry(m, "0.99", "veth-udp");
	assert_string_equal(json_string_value(json_object_get(e, "status")), "failed");

	k = json_array_get(json_object_get(m, "kernels"), 0);
	assert_string_equal(json_string_value(json_object_get(k, "status")), "ok");
	assert_string_equal(json_string_value(json_object_get(k, "modes")), "tc,xdpdrv");
	assert_non_null(strstr(json_string_value(json_object_get(k, "tcx_reason")), "6.6"));
	assert_int_equal(strncmp(json_string_value(json_object_get(k, "release")), "6.1.", 4), 0);
	/* the container experiment left out before measuring: 6.1 has no netkit (6.7) */
	printf("# 6.1 left out: %s\n", json_string_value(json_object_get(k, "experiments_left_out")));
	assert_non_null(strstr(json_string_value(json_object_get(k, "experiments_left_out")),
			       "container (Linux 6.1 has no netkit; it came in 6.7)"));

	snprintf(path, sizeof(path), "%s/matrix.md", dir);
	md = file_text(path);
	assert_non_null(md);
	assert_non_null(strstr(md, "container (Linux 6.1 has no netkit; it came in 6.7)"));
	for (int x = 0; x < 3; x++) {
		static const char *const exps[] = { "veth-udp", "veth-xdp-live", "virtio" };
		json_t *tc, *xdp;

		e = entry(m, "6.1", exps[x]);
		if (strcmp(json_string_value(json_object_get(e, "status")), "ok"))
			fail_msg("6.1 %s: %s", exps[x], json_string_value(json_object_get(e, "reason")));
		tc = mode_of(e, "tc");
		xdp = mode_of(e, "xdpdrv");
		printf("# 6.1 %-13s tc %.0f, xdpdrv %.0f instructions/pkt; stack/pkt %.2f, %.2f; "
		       "built/pkt %.2f, %.2f\n", exps[x], num(tc, "guest_instructions_per_pkt"),
		       num(xdp, "guest_instructions_per_pkt"), num(tc, "stack_entries_per_pkt"),
		       num(xdp, "stack_entries_per_pkt"), num(tc, "skbs_built_per_pkt"),
		       num(xdp, "skbs_built_per_pkt"));
		assert_true(num(tc, "guest_instructions_per_pkt") > 100);
		assert_true(num(xdp, "guest_instructions_per_pkt") > 100);
		assert_true(num(tc, "stack_entries_per_pkt") >= 0.99);
		assert_true(num(xdp, "stack_entries_per_pkt") <= 0.01);
		if (x == 2) {
			assert_true(num(tc, "skbs_built_per_pkt") >= 0.99);
			assert_true(num(xdp, "skbs_built_per_pkt") <= 0.01);
		} else {
			check_profiles(e, dir, md);
		}
	}
	/* 6.1's row in each experiment's table, and again in each of the plugin's tables */
	snprintf(path, sizeof(path), "grep -c '^| 6.1 (6.1' %s/matrix.md | grep -qx 6 && "
		 "grep -q '^| 0.99 | failed' %s/matrix.md", dir, dir);
	assert_int_equal(system(path), 0);
	assert_int_equal(count_leftovers("xdptc-"), 0);
	assert_int_not_equal(system("pgrep -f '[q]emu-system-x86_64 -name xdptc-' >/dev/null"), 0);
	json_decref(m);
	free(md);
	free(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_one_kernel_and_one_that_cannot_be_fetched),
	};

	INTEGRATION_MAIN("test_matrix", tests, NULL, NULL, &xdptc);
}
