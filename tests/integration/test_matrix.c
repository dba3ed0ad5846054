/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration test of the kernel matrix (issue 18) at CI size, two guests side by side:
 * `xdptc matrix` on one guest kernel that exists (6.1) and one that Debian's archive does
 * not have (0.99), and, at the same time, the same 6.1 cell as a job of its own.
 * - The kernel that cannot be fetched is recorded in matrix.json with the resolver's
 *   reason, each of its experiments too, the matrix goes on and exits 1.
 * - 6.1 is resolved to a package, version and suite; tcx is left out of it (Linux 6.1
 *   has none) and said so, before measuring.
 * - The experiment asked for (--experiments: veth with the udp sender; veth-xdp-live is
 *   test_run_icount's engine on another topology, virtio test_run_virtio's) holds
 *   per-mode summaries in a run's shape: guest_instructions_per_pkt for tc and xdpdrv,
 *   and the mechanism counts (tc enters the stack once per packet, native XDP never);
 *   the container experiment is left out of 6.1 (no netkit) before measuring, and said.
 * - It carries a folded instruction profile per mode whose samples add up, per packet,
 *   to the same order as the instructions per packet measured (the profile covers the
 *   window), and a differential profile of xdpdrv against tc.
 * - matrix.md names both kernels; nothing of the guests is left.
 * Then the cells as separate jobs (issue 28): `xdptc matrix --list` names them, the 6.1
 * cell that ran beside the matrix and the 0.99 cell (which fails at once) are merged by
 * `--merge` into a matrix.json with both, whose xdpdrv-vs-tc delta (retired
 * instructions) equals the one-machine matrix's within the icount engine's A/A noise; the
 * merge refuses mixed qemu versions, mixed settings and a cell given twice with different
 * results (exit 2, one sentence each). (Four guests in two rounds until 2026-12-03: the
 * rounds cost 85 to 150 s each on a 2-CPU host, and the second measured nothing the
 * first had not.)
 * Needs root, qemu and Debian's archive. Run from the repository root.
 */
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
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

/* The settings of every run of this test's matrices, the one-machine one and the cells */
#define MATRIX_CI_SETTINGS "--packets 2k --reps 2 --count-reps 1 --profile-packets 8k"

/* The one-machine matrix's matrix.json and directory, for the cells' test to compare,
 * and the directory of the cell that ran beside it (cell-1, its exit status in
 * cell-1.rc, its stderr in cell-1.log) */
static json_t *one_machine;
static char one_machine_tmp[64];
static char cells_tmp[] = "/tmp/xdptc-ctest-XXXXXX";

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
		/* this test's profile pass: 8k packets, a sample every 50,000 instructions;
		 * XDP-live's xdpdrv, the fewest instructions per packet (about 860), gives
		 * about 130 samples */
		assert_true(num(pm, "samples") > 100);
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
	char tmpl[] = "/tmp/xdptc-mtest-XXXXXX", path[700], cmd[1600];
	json_error_t jerr;
	json_t *m, *k, *e;
	char *dir, *md;
	int st;

	(void)state;
	assert_non_null(mkdtemp(cells_tmp));
	assert_non_null(mkdtemp(tmpl));
	/* the matrix, and beside it its 6.1 cell as a job engine runs it (a job of its own,
	 * its own boot) */
	snprintf(path, sizeof(path), "%s/stderr.log", tmpl);
	snprintf(cmd, sizeof(cmd), "{ %s matrix --cell 6.1:veth-udp --out %s/cell-1 --modes tc,tcx,xdpdrv "
		 MATRIX_CI_SETTINGS " 2>%s/cell-1.log; echo $? >%s/cell-1.rc; } & "
		 "%s matrix --kernels 6.1,0.99 --modes tc,tcx,xdpdrv --experiments veth-udp,container "
		 MATRIX_CI_SETTINGS " --out %s 2>%s; st=$?; wait; exit $st",
		 xdptc, cells_tmp, cells_tmp, cells_tmp, xdptc, tmpl, path);
	st = system(cmd);
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
	for (int x = 0; x < 1; x++) {
		static const char *const exps[] = { "veth-udp" };
		json_t *tc, *xdp;

		e = entry(m, "6.1", exps[x]);
		if (strcmp(json_string_value(json_object_get(e, "status")), "ok"))
			fail_msg("6.1 %s: %s", exps[x], json_string_value(json_object_get(e, "reason")));
		tc = mode_of(e, "tc");
		xdp = mode_of(e, "xdpdrv");
		printf("# 6.1 %-13s tc %.0f, xdpdrv %.0f retired instructions/pkt (%.0f, %.0f every "
		       "iteration); stack/pkt %.2f, %.2f; built/pkt %.2f, %.2f\n", exps[x],
		       num(tc, "retired_instructions_per_pkt"), num(xdp, "retired_instructions_per_pkt"),
		       num(tc, "guest_instructions_per_pkt"),
		       num(xdp, "guest_instructions_per_pkt"), num(tc, "stack_entries_per_pkt"),
		       num(xdp, "stack_entries_per_pkt"), num(tc, "skbs_built_per_pkt"),
		       num(xdp, "skbs_built_per_pkt"));
		assert_true(num(tc, "retired_instructions_per_pkt") > 100);
		assert_true(num(xdp, "retired_instructions_per_pkt") > 100);
		assert_true(num(tc, "stack_entries_per_pkt") >= 0.99);
		assert_true(num(xdp, "stack_entries_per_pkt") <= 0.01);
		check_profiles(e, dir, md);
	}
	/* 6.1's row in the experiment's table, and again in the plugin's table */
	snprintf(path, sizeof(path), "grep -c '^| 6.1 (6.1' %s/matrix.md | grep -qx 2 && "
		 "grep -q '^| 0.99 | failed' %s/matrix.md", dir, dir);
	assert_int_equal(system(path), 0);
	assert_int_equal(count_leftovers("xdptc-"), 0);
	assert_int_not_equal(system("pgrep -f '[q]emu-system-x86_64 -name xdptc-' >/dev/null"), 0);
	one_machine = m; /* for the cells' test */
	free(md);
	free(dir);
	snprintf(one_machine_tmp, sizeof(one_machine_tmp), "%s", tmpl);
}

/* xdpdrv's delta against tc in @kernel's @exp of @m: the plugin's retired count (a rep
 * string instruction once), which repeats; the every-iteration count moves with the
 * per-packet page clearing (6.1 veth-xdp-live: -52.9% in one run, -87.5% in another,
 * issue 36). */
static double xdpdrv_delta(json_t *m, const char *kernel, const char *exp)
{
	json_t *e = entry(m, kernel, exp), *d;
	size_t i;

	json_array_foreach(json_object_get(e, "deltas"), i, d)
		if (!strcmp(json_string_value(json_object_get(d, "b")), "xdpdrv") &&
		    !strcmp(json_string_value(json_object_get(d, "metric")), "retired_instructions_per_pkt"))
			return num(d, "rel_delta");
	fail_msg("%s %s: no xdpdrv delta", kernel, exp);
	return NAN;
}

/* Did any arm of @kernel's @exp in @m run its timing windows in more than one
 * page-clearing regime (summary.modes[].page_regime_windows)? A window that cleared a
 * page per packet where the others did not moves the retired count too (allocating
 * fresh pages retires instructions: 6.1 veth-xdp-live xdpdrv 711.75 against 2625.9 in
 * two windows of one run here), and with 2 repetitions the median with it. */
static bool regime_flipped(json_t *m, const char *kernel, const char *exp)
{
	json_t *e = entry(m, kernel, exp), *mode;
	size_t i;

	json_array_foreach(json_object_get(e, "modes"), i, mode)
		if (json_object_size(json_object_get(mode, "page_regime_windows")) > 1)
			return true;
	return false;
}

/* Did a timing window of @exp on @kernel see the icount clock advance more than 1% past
 * the plugin's own every-iteration count (window_instructions_per_pkt_max against
 * guest_instructions_per_pkt_max)? Seen twice on 3 December (test_matrix under load and
 * in a quiet clean-clone make test: one xdpdrv window of 6.1 veth-udp at 13591 clock and
 * 8288 retired against 12628 every iteration, its twin window 12632 and 7331): in such a
 * window the retired count took the unexplained instructions too, so two boots' retired
 * deltas are not compared. Not yet explained; the run does not flag it yet. */
static bool clock_outran_plugin(json_t *m, const char *kernel, const char *exp)
{
	json_t *e = entry(m, kernel, exp), *mode;
	size_t i;

	json_array_foreach(json_object_get(e, "modes"), i, mode)
		if (num(mode, "window_instructions_per_pkt_max") >
		    1.01 * num(mode, "guest_instructions_per_pkt_max"))
			return true;
	return false;
}

static int xdptc_err(const char *args, char *out, size_t len)
{
	return run_xdptc_err(xdptc, args, out, len);
}

/* Edit @dir/cell.json's key @k (in "settings" when @in_settings) to the JSON text @v. */
static void cell_edit(const char *dir, const char *k, bool in_settings, const char *v)
{
	char path[1024];
	json_t *c, *o;

	snprintf(path, sizeof(path), "%s/cell.json", dir);
	c = json_load_file(path, 0, NULL);
	assert_non_null(c);
	o = in_settings ? json_object_get(c, "settings") : c;
	json_object_set_new(o, k, json_loads(v, JSON_DECODE_ANY, NULL));
	assert_int_equal(json_dump_file(c, path, JSON_INDENT(2)), 0);
	json_decref(c);
}

static void test_cells_run_apart_and_merge(void **state)
{
	char *tmpl = cells_tmp, cmd[2048], out[4096], path[1024];
	json_t *merged, *e;
	char *dir;
	int st;

	(void)state;
	assert_non_null(one_machine);
	/* the cells, as a job engine gets them */
	snprintf(cmd, sizeof(cmd), "%s matrix --list --kernels 6.1,0.99 --experiments "
		 "veth-udp,veth-xdp-live 2>/dev/null | tr '\\n' ' '", xdptc);
	{
		FILE *p = popen(cmd, "r");

		assert_non_null(p);
		out[fread(out, 1, sizeof(out) - 1, p)] = '\0';
		pclose(p);
	}
	printf("# cells: %s\n", out);
	assert_string_equal(out, "6.1:veth-udp 6.1:veth-xdp-live 0.99:veth-udp 0.99:veth-xdp-live ");
	/* the 6.1 cell ran beside the one-machine matrix; the 0.99 one fails at its fetch */
	snprintf(cmd, sizeof(cmd), "tail -n 3 %s/cell-1.log | sed 's/^/# /'; grep -qx 0 %s/cell-1.rc",
		 tmpl, tmpl);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "%s matrix --cell 0.99:veth-udp --out %s/cell-2 --modes tc,tcx,xdpdrv "
		 MATRIX_CI_SETTINGS " 2>%s/cell-2.log", xdptc, tmpl, tmpl);
	st = system(cmd);
	assert_int_equal(WEXITSTATUS(st), 1);
	snprintf(cmd, sizeof(cmd), "matrix --merge --out %s/merged %s/cell-1 %s/cell-2", tmpl, tmpl, tmpl);
	assert_int_equal(xdptc_err(cmd, out, sizeof(out)), 1); /* a kernel failed */
	printf("# %s", out);
	snprintf(path, sizeof(path), "%s/merged", tmpl);
	dir = find_run_dir(path);
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/matrix.json", dir);
	merged = json_load_file(path, 0, NULL);
	assert_non_null(merged);
	assert_int_equal(json_array_size(json_object_get(merged, "entries")), 2);
	assert_string_equal(json_string_value(json_object_get(entry(merged, "0.99", "veth-udp"),
							      "status")), "failed");
	e = entry(merged, "6.1", "veth-udp");
	assert_string_equal(json_string_value(json_object_get(e, "status")), "ok");
	assert_true(num(mode_of(e, "tc"), "stack_entries_per_pkt") >= 0.99);
	assert_true(num(mode_of(e, "xdpdrv"), "stack_entries_per_pkt") <= 0.01);
	{
		double a = xdpdrv_delta(one_machine, "6.1", "veth-udp");
		double b = xdpdrv_delta(merged, "6.1", "veth-udp");

		/* the icount engine's A/A noise between boots: a few hundredths of a point
		 * (docs/matrix.md, "Between boots"); 0.5 point is far above it and far below
		 * the effect (+18%) */
		printf("# 6.1 veth-udp: xdpdrv vs tc, retired, %+.3f%% one machine, %+.3f%% its cell "
		       "as a job\n", 100 * a, 100 * b);
		if (regime_flipped(one_machine, "6.1", "veth-udp") ||
		    regime_flipped(merged, "6.1", "veth-udp"))
			/* the runs measured different work, and said so (page_regime_windows):
			 * the merge carried each cell's figures as they were */
			printf("# 6.1 veth-udp: a window in another page-clearing regime; the two runs "
			       "are not compared\n");
		else if (clock_outran_plugin(one_machine, "6.1", "veth-udp") ||
			 clock_outran_plugin(merged, "6.1", "veth-udp"))
			printf("# 6.1 veth-udp: a window whose icount clock ran more than 1%% past the "
			       "plugin's every-iteration count; the two runs are not compared\n");
		else
			assert_true(fabs(a - b) < 0.005);
	}
	snprintf(path, sizeof(path), "%s/matrix.md", dir);
	assert_int_equal(access(path, R_OK), 0);

	/* cells that do not belong together: one sentence each, exit 2 */
	snprintf(cmd, sizeof(cmd), "cp -a %s/cell-2 %s/q && cp -a %s/cell-2 %s/s && cp -a %s/cell-1 %s/d",
		 tmpl, tmpl, tmpl, tmpl, tmpl, tmpl);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/q", tmpl);
	cell_edit(path, "qemu", false, "\"QEMU emulator version 9.9.9\"");
	snprintf(cmd, sizeof(cmd), "matrix --merge --out %s/no %s/cell-1 %s/q", tmpl, tmpl, tmpl);
	assert_int_equal(xdptc_err(cmd, out, sizeof(out)), 2);
	printf("# %s", out);
	assert_non_null(strstr(out, "different qemu versions"));
	snprintf(path, sizeof(path), "%s/s", tmpl);
	cell_edit(path, "reps", true, "3");
	snprintf(cmd, sizeof(cmd), "matrix --merge --out %s/no %s/cell-1 %s/s", tmpl, tmpl, tmpl);
	assert_int_equal(xdptc_err(cmd, out, sizeof(out)), 2);
	printf("# %s", out);
	assert_non_null(strstr(out, "different settings: reps 2 and 3"));
	/* the same cell twice: taken once when its results are the same, refused when not */
	snprintf(cmd, sizeof(cmd), "matrix --merge --out %s/twice %s/cell-1 %s/d", tmpl, tmpl, tmpl);
	assert_int_equal(xdptc_err(cmd, out, sizeof(out)), 0);
	assert_non_null(strstr(out, "with the same results: taken once"));
	snprintf(cmd, sizeof(cmd), "f=$(ls -d %s/d/*/)run.json && python3 -c \"import json,sys; "
		 "p=sys.argv[1]; r=json.load(open(p)); d=[x for x in r['summary']['deltas'] if "
		 "x['metric']=='retired_instructions_per_pkt'][0]; "
		 "d['rel_delta']+=0.01; json.dump(r,open(p,'w'))\" $f", tmpl);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "matrix --merge --out %s/no %s/cell-1 %s/d", tmpl, tmpl, tmpl);
	assert_int_equal(xdptc_err(cmd, out, sizeof(out)), 2);
	printf("# %s", out);
	assert_non_null(strstr(out, "is given twice with different results"));
	snprintf(path, sizeof(path), "test ! -e %s/no", tmpl);
	assert_int_equal(system(path), 0); /* nothing made for a refused merge */
	assert_int_equal(count_leftovers("xdptc-"), 0);

	json_decref(merged);
	json_decref(one_machine);
	free(dir);
	snprintf(cmd, sizeof(cmd), "rm -rf %s %s", tmpl, one_machine_tmp);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_matrix_one_kernel_and_one_that_cannot_be_fetched),
		cmocka_unit_test(test_cells_run_apart_and_merge),
	};

	INTEGRATION_MAIN("test_matrix", tests, NULL, NULL, &xdptc);
}
