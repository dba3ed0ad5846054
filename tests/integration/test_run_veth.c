/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration tests of `xdptc run` on the veth topology: a short real run whose
 * run.json must show the mechanism (tc enters the stack once per packet, xdpdrv
 * almost never; every packet's skb is freed; packets conserved), and a run
 * interrupted with SIGINT that must leave nothing behind.
 * Needs root. Run from the repository root.
 */
#include <errno.h>
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
#include <time.h>
#include <unistd.h>
#include <dirent.h>
#include <fcntl.h>
#include <linux/perf_event.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <cmocka.h>

static const char *xdptc = "./build/xdptc";

#include "flame_render.h"
#include "sender.h"
#include "run_helpers.h"
#include "test_main.h"

/* A complete SVG document: an XML prolog or <svg> at the start, </svg> at the end. */
static bool is_svg(const char *path)
{
	char buf[1 << 16];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	if (!feof(f)) { /* large: read the tail */
		fseek(f, -64, SEEK_END);
		n = fread(buf + 100, 1, 63, f);
		buf[100 + n] = '\0';
		fclose(f);
		return strstr(buf + 100, "</svg>") != NULL;
	}
	fclose(f);
	return (!strncmp(buf, "<?xml", 5) || strstr(buf, "<svg")) && strstr(buf, "</svg>");
}

/* A PNG file: its 8-byte signature. */
static bool is_png(const char *path)
{
	static const unsigned char sig[8] = { 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n' };
	unsigned char buf[8];
	FILE *f = fopen(path, "rb");
	bool ok = f && fread(buf, 1, 8, f) == 8 && !memcmp(buf, sig, 8);

	if (f)
		fclose(f);
	return ok;
}

static void test_short_run_shows_the_mechanism(void **state)
{
	char tmpl[] = "/tmp/xdptc-test-XXXXXX", cmd[512], path[600], prefix[16];
	const double packets = 50000;
	json_t *run, *tc, *xdp;
	char *dir;
	int st;

	(void)state;
	st = run_xdptc(xdptc, tmpl, "", "run --packets 50k --reps 2 --count-reps 2 --modes tc,xdpdrv --schedule classic "
					"--seed 7 --quiet", path, sizeof(path));
	assert_run_ok(st, path);
	run_prefix(path, prefix, sizeof(prefix));
	assert_int_equal(strncmp(prefix, "xdptc-", 6), 0);
	unlink(path);
	run = load_run_json(tmpl, path, sizeof(path));
	dir = strdup(path);
	assert_non_null(dir);
	dir[strlen(dir) - strlen("/run.json")] = '\0';
	assert_string_equal(json_string_value(json_object_get(run, "schema")), "xdptc.run/1");
	/* 2 modes x (2 timing + 2 count + 2 bpfstats repetitions) + one profile trial each */
	assert_int_equal(json_array_size(json_object_get(run, "trials")), 2 * 2 * 3 + 2);
	tc = mode_summary(run, "tc");
	xdp = mode_summary(run, "xdpdrv");
	assert_non_null(tc);
	assert_non_null(xdp);
	printf("# tc: pkts_at_dut %.0f stack/pkt %.4f freed/pkt %.4f cpu_ns/pkt %.1f bpf_ns %.1f\n",
	       num(tc, "pkts_at_dut"), num(tc, "stack_entries_per_pkt"),
	       num(tc, "skbs_freed_per_pkt"), num(tc, "cpu_ns_per_pkt"), num(tc, "bpf_ns_per_run"));
	printf("# xdpdrv: pkts_at_dut %.0f stack/pkt %.4f freed/pkt %.4f cpu_ns/pkt %.1f bpf_ns %.1f\n",
	       num(xdp, "pkts_at_dut"), num(xdp, "stack_entries_per_pkt"),
	       num(xdp, "skbs_freed_per_pkt"), num(xdp, "cpu_ns_per_pkt"),
	       num(xdp, "bpf_ns_per_run"));
	/* packets conserved: every packet sent reached the program */
	assert_true(fabs(num(tc, "pkts_at_dut") - packets) <= packets * 0.001);
	assert_true(fabs(num(xdp, "pkts_at_dut") - packets) <= packets * 0.001);
	assert_int_equal((int)num(tc, "invalid_timing_trials"), 0);
	assert_int_equal((int)num(xdp, "invalid_timing_trials"), 0);
	/* the mechanism */
	assert_true(num(tc, "stack_entries_per_pkt") >= 0.99);
	assert_true(num(xdp, "stack_entries_per_pkt") <= 0.01);
	assert_true(num(tc, "skbs_freed_per_pkt") >= 0.99);
	assert_true(num(xdp, "skbs_freed_per_pkt") >= 0.99);
	/* time was measured for both, BPF run time in its own pass */
	assert_true(num(tc, "cpu_ns_per_pkt") > 0);
	assert_true(num(xdp, "cpu_ns_per_pkt") > 0);
	assert_true(num(tc, "bpf_ns_per_run") > 0);
	assert_true(num(xdp, "bpf_ns_per_run") > 0);
	/* unmeasurable metrics are null with a reason, never 0 */
	if (!json_is_true(json_object_get(json_object_get(json_object_get(run, "capabilities"),
							  "pmu"), "available"))) {
		assert_true(json_is_null(json_object_get(tc, "cycles_per_pkt")));
		assert_non_null(json_string_value(json_object_get(tc, "cycles_per_pkt_reason")));
	}
	if (json_is_null(json_object_get(tc, "skbs_built")))
		assert_non_null(json_string_value(json_object_get(tc, "skbs_built_reason")));
	/* the delta of xdpdrv against tc is there */
	assert_string_equal(json_string_value(json_object_get(
				    json_array_get(json_object_get(json_object_get(run, "summary"),
								   "deltas"), 0), "b")),
			    "xdpdrv");
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	assert_int_equal(access(path, R_OK), 0);
	/* the pictures: gnuplot's SVG and PNG files, and a flame graph per mode */
	{
		static const char *const svgs[] = { "cpu_ns_per_pkt.svg", "delta.svg", "counters.svg",
						    "flame-tc.svg", "flame-xdpdrv.svg", NULL };
		static const char *const pngs[] = { "cpu_ns_per_pkt.png", "delta.png", "counters.png",
						    NULL };

		for (int i = 0; svgs[i]; i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, svgs[i]);
			assert_true(is_svg(path));
		}
		for (int i = 0; pngs[i]; i++) {
			snprintf(path, sizeof(path), "%s/%s", dir, pngs[i]);
			assert_true(is_png(path));
		}
		assert_int_equal(json_array_size(json_object_get(run, "flamegraphs")), 2);
		/* each profile window sized from the timing pass (50k packets would give a few
		 * hundred samples) for FLAME_MIN_SAMPLES and half again: docs/flamegraphs.md */
		for (size_t i = 0; i < 2; i++) {
			json_t *fg = json_array_get(json_object_get(run, "flamegraphs"), i);
			const char *from = json_string_value(json_object_get(fg, "window_from"));

			printf("# flame graph of %s: %.0f samples over %.0f packets (%s)\n",
			       json_string_value(json_object_get(fg, "mode")), num(fg, "samples"),
			       num(fg, "pkts_at_dut"), from ? from : "?");
			assert_non_null(from);
			assert_non_null(strstr(from, "sized from the timing pass"));
			assert_true(num(fg, "samples") >= FLAME_MIN_SAMPLES);
			assert_non_null(json_object_get(fg, "unnamed"));
		}
	}
	json_decref(run);
	/* report rebuilds summary.md byte for byte from run.json */
	snprintf(cmd, sizeof(cmd), "cp %s/summary.md %s/summary.orig && %s report %s --quiet && "
				   "cmp %s/summary.md %s/summary.orig", dir, dir, xdptc, dir, dir, dir);
	assert_int_equal(system(cmd), 0);
	/* compare shows deltas only and refuses absolute figures */
	{
		char out[8192] = "";
		FILE *p;

		snprintf(cmd, sizeof(cmd), "%s compare %s %s 2>&1", xdptc, dir, dir);
		p = popen(cmd, "r");
		assert_non_null(p);
		if (!fread(out, 1, sizeof(out) - 1, p))
			out[0] = '\0';
		assert_int_equal(WEXITSTATUS(pclose(p)), 0);
		assert_non_null(strstr(out, "| cpu_ns_per_pkt | tc | xdpdrv |"));
		assert_non_null(strstr(out, "not comparable"));
		assert_null(strstr(out, "ns/pkt"));
		snprintf(cmd, sizeof(cmd), "%s compare --absolute %s %s >/dev/null 2>&1", xdptc, dir, dir);
		st = system(cmd);
		assert_int_equal(WEXITSTATUS(st), 2);
	}
	/* a corrupt run.json is refused with the reason */
	snprintf(cmd, sizeof(cmd), "echo '{\"schema\": ' > %s/run.json && %s report %s >/dev/null 2>&1",
		 dir, xdptc, dir);
	st = system(cmd);
	assert_int_equal(WEXITSTATUS(st), 2);
	assert_int_equal(count_leftovers(prefix), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
	free(dir);
}

/* The alternating timing pass (issue 23): the noise measured first and the schedule
 * chosen from it, one sender for the pass, every window conserved on its own, the
 * windows of each block summed into its trial, and the time metric's delta computed over
 * blocks of window pairs. */
static void test_alternating_windows(void **state)
{
	char tmpl[] = "/tmp/xdptc-test-XXXXXX", cmd[700], path[600], prefix[16];
	json_t *run, *ts, *nz, *t, *d;
	long long wp, rounds, per_visit, blocks, st_blocks, timing = 0;
	size_t i;
	int st;

	(void)state;
	st = run_xdptc(xdptc, tmpl, "", "run --aa --modes tc,xdpdrv --reps 6 --timing-budget 4 "
		       "--count-reps 1 --no-flame --seed 11 --quiet", path, sizeof(path));
	assert_run_ok(st, path);
	run_prefix(path, prefix, sizeof(prefix));
	unlink(path);
	run = load_run_json(tmpl, path, sizeof(path));
	ts = json_object_get(run, "timing_schedule");
	nz = json_object_get(ts, "noise");
	assert_string_equal(json_string_value(json_object_get(ts, "schedule")), "alternating");
	/* the noise: back-to-back windows of the baseline arm, the spread by lag, the visits'
	 * overhead of every arm */
	assert_string_equal(json_string_value(json_object_get(nz, "mode")), "tc");
	assert_true(num(nz, "slots") >= 48);
	assert_true(json_array_size(json_object_get(nz, "lengths")) >= 1);
	assert_true(json_array_size(json_object_get(json_array_get(json_object_get(nz, "lengths"), 0),
						    "pair_sd_by_lag")) >= 8);
	assert_int_equal(json_array_size(json_object_get(nz, "visit_overhead_ms_by_arm")), 3);
	wp = (long long)num(ts, "window_packets");
	rounds = (long long)num(ts, "rounds_per_block");
	per_visit = (long long)num(ts, "windows_per_visit");
	blocks = (long long)num(ts, "blocks");
	printf("# schedule: windows of %.1f ms (%lld packets), %lld per attach, %lld blocks of "
	       "%lld rounds; noise: %.0f slots, pair spread %.2f%%\n", num(ts, "window_ms"), wp,
	       per_visit, blocks, rounds, num(nz, "slots"), 100 * num(ts, "pair_sd"));
	assert_true(wp >= 100);
	/* 6 blocks planned in the default 6 segments, the topology built anew before each;
	 * the stopping rule may add segments of one block while the budget holds */
	assert_int_equal(blocks, 6);
	assert_int_equal((long long)num(ts, "segments"), 6);
	assert_true(json_is_true(json_object_get(ts, "rebuilt_per_segment")));
	st_blocks = (long long)num(json_object_get(ts, "stop"), "blocks");
	printf("# stop: %s after %lld blocks\n", json_string_value(json_object_get(
	       json_object_get(ts, "stop"), "reason")), st_blocks);
	assert_true(st_blocks >= blocks);
	blocks = st_blocks;
	assert_true(rounds >= 2 && rounds % 2 == 0);
	json_array_foreach(json_object_get(run, "trials"), i, t) {
		json_t *w = json_object_get(t, "windows");
		double pkts = 0;

		if (strcmp(json_string_value(json_object_get(t, "pass")), "timing"))
			continue;
		timing++;
		/* every window: conserved, all its packets decided by the program (fewer
		 * rounds in the last blocks when the budget ran short) */
		if (json_is_true(json_object_get(ts, "rounds_cut")))
			assert_true((long long)json_array_size(json_object_get(w, "pkts")) <=
				    rounds * per_visit);
		else
			assert_int_equal(json_array_size(json_object_get(w, "pkts")), rounds * per_visit);
		for (size_t k = 0; k < json_array_size(json_object_get(w, "pkts")); k++) {
			assert_true(json_is_true(json_array_get(json_object_get(w, "valid"), k)));
			assert_int_equal(json_integer_value(json_array_get(json_object_get(w, "pkts"),
									     k)), wp);
			pkts += (double)wp;
			assert_true(json_number_value(json_array_get(json_object_get(w, "cpu_ns"), k)) > 0);
		}
		/* the trial is its windows' sum */
		assert_true(json_is_true(json_object_get(t, "valid")));
		/* one block per segment here: its segment is its block */
		assert_int_equal((long long)num(t, "segment"), (long long)num(t, "rep"));
		assert_true(num(t, "pkts_at_dut") == pkts);
		assert_true(num(t, "sent") == pkts);
		assert_true(num(t, "dropped") == pkts);
	}
	assert_int_equal(timing, blocks * 3);
	/* the time metric's deltas: over blocks of window pairs, with the independent
	 * interval beside them */
	json_array_foreach(json_object_get(json_object_get(run, "summary"), "deltas"), i, d) {
		if (strcmp(json_string_value(json_object_get(d, "metric")), "cpu_ns_per_pkt"))
			continue;
		printf("# %s vs %s: %+.2f%% [%+.2f%%, %+.2f%%], as if independent [%+.2f%%, %+.2f%%], "
		       "pairs' lag-1 autocorrelation %.2f\n", json_string_value(json_object_get(d, "b")),
		       json_string_value(json_object_get(d, "a")), 100 * num(d, "rel_delta"),
		       100 * num(d, "ci95_lo"), 100 * num(d, "ci95_hi"),
		       100 * num(d, "independent_ci95_lo"), 100 * num(d, "independent_ci95_hi"),
		       num(d, "pair_autocorrelation"));
		assert_int_equal((long long)num(d, "blocks"), blocks);
		if (!json_is_true(json_object_get(ts, "rounds_cut")))
			assert_int_equal((long long)num(d, "pairs"), blocks * rounds * per_visit);
		assert_true(num(d, "ci95_lo") < num(d, "rel_delta") &&
			    num(d, "rel_delta") < num(d, "ci95_hi"));
		assert_true(json_is_number(json_object_get(d, "independent_ci95_lo")));
		assert_true(num(d, "ci_coverage") >= 0.95);
		/* the segments' spread and the next run's interval, around the estimate */
		assert_int_equal((long long)num(d, "segments"), blocks);
		assert_true(num(d, "next_run_lo") < num(d, "rel_delta") &&
			    num(d, "rel_delta") < num(d, "next_run_hi"));
	}
	/* the kept programs and the clsact qdisc went with the run: nothing of it is left */
	assert_int_equal(count_leftovers(prefix), 0);
	json_decref(run);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
}

static void test_sigint_cleans_up(void **state)
{
	char tmpl[] = "/tmp/xdptc-test-XXXXXX", out[64], log[64], prefix[16];
	int st;
	pid_t pid;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	snprintf(log, sizeof(log), "%s.log", tmpl);
	pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		int fd = open("/dev/null", O_WRONLY);
		int err = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);

		dup2(fd, 1);
		dup2(err, 2);
		execl(xdptc, "xdptc", "run", "--schedule", "classic", "--packets", "5M", "--reps", "5", "--out", tmpl,
		      (char *)NULL);
		_exit(127);
	}
	sleep(3); /* inside the first trials */
	/* a second run refuses while this one measures */
	{
		char cmd[256], out[512] = "";
		FILE *p;
		int st2;

		snprintf(cmd, sizeof(cmd), "%s run --packets 10k --reps 2 --schedule classic --out %s 2>&1", xdptc, tmpl);
		p = popen(cmd, "r");
		assert_non_null(p);
		if (!fread(out, 1, sizeof(out) - 1, p))
			out[0] = '\0';
		st2 = pclose(p);
		assert_int_equal(WEXITSTATUS(st2), 1);
		assert_non_null(strstr(out, "another xdptc run"));
	}
	assert_int_equal(kill(pid, SIGINT), 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 130);
	run_prefix(log, prefix, sizeof(prefix));
	unlink(log);
	assert_int_equal(strncmp(prefix, "xdptc-", 6), 0);
	assert_int_equal(count_leftovers(prefix), 0);
	assert_null(find_run_dir(tmpl)); /* no half-written results */
	snprintf(out, sizeof(out), "rm -rf %s", tmpl);
	assert_int_equal(system(out), 0);
}

static void test_unwritable_out_fails_before_measuring(void **state)
{
	char cmd[256], out[512] = "";
	struct timespec a, b;
	FILE *p;
	int st;

	(void)state;
	clock_gettime(CLOCK_MONOTONIC, &a);
	snprintf(cmd, sizeof(cmd), "%s run --out /proc/xdptc-nope 2>&1", xdptc);
	p = popen(cmd, "r");
	assert_non_null(p);
	if (!fread(out, 1, sizeof(out) - 1, p))
		out[0] = '\0';
	st = pclose(p);
	clock_gettime(CLOCK_MONOTONIC, &b);
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_non_null(strstr(out, "cannot create a results directory"));
	assert_true(b.tv_sec - a.tv_sec < 5); /* refused at once, nothing measured */
	assert_null(strstr(out, "topology"));
}

/* A count no backend can give is null with its reason in run.json, never 0. */
static void test_unavailable_counts_are_null_not_zero(void **state)
{
	char tmpl[] = "/tmp/xdptc-test-XXXXXX", cmd[512], path[600];
	json_t *run, *tc, *t;
	size_t i, count_trials = 0;
	int st;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	snprintf(cmd, sizeof(cmd), "XDPTC_COUNTERS_DISABLE=kprobe,fentry,tracepoint %s run "
				   "--packets 10k --reps 2 --count-reps 2 --modes tc --schedule classic "
				   "--out %s --quiet "
				   "2>/dev/null",
		 xdptc, tmpl);
	st = system(cmd);
	assert_int_equal(WEXITSTATUS(st), 0);
	run = load_run_json(tmpl, path, sizeof(path));
	tc = mode_summary(run, "tc");
	for (int k = 0; k < 3; k++) {
		static const char *const names[] = { "stack_entries", "skbs_freed", "skbs_built" };
		char rk[64];

		assert_true(json_is_null(json_object_get(tc, names[k])));
		snprintf(rk, sizeof(rk), "%s_reason", names[k]);
		printf("# %s: %s\n", rk, json_string_value(json_object_get(tc, rk)));
		assert_non_null(strstr(json_string_value(json_object_get(tc, rk)), "disabled"));
	}
	json_array_foreach(json_object_get(run, "trials"), i, t) {
		if (strcmp(json_string_value(json_object_get(t, "pass")), "count"))
			continue;
		count_trials++;
		assert_true(json_is_null(json_object_get(t, "stack_entries")));
		assert_true(json_is_null(json_object_get(t, "skbs_freed")));
		assert_true(json_is_null(json_object_get(t, "skbs_built")));
		assert_true(num(t, "pkts_at_dut") > 0); /* the trial itself ran */
	}
	assert_int_equal(count_trials, 2);
	json_decref(run);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
}

/* `xdptc doctor --json` answers every item with yes/no and a reason, and what it says
 * about the PMU and kprobes matches what this test finds by itself. */
static void test_doctor_reports_reasons(void **state)
{
	char cmd[256];
	FILE *p;
	json_t *r, *it;
	json_error_t jerr;
	size_t i;
	int seen = 0;
	bool kprobe_pmu = access("/sys/bus/event_source/devices/kprobe/type", F_OK) == 0;
	struct perf_event_attr attr = { .size = sizeof(attr), .type = PERF_TYPE_HARDWARE,
					.config = PERF_COUNT_HW_CPU_CYCLES };
	int pfd = (int)syscall(SYS_perf_event_open, &attr, -1, 0, -1, 0);

	(void)state;
	if (pfd >= 0)
		close(pfd);
	snprintf(cmd, sizeof(cmd), "%s doctor --json", xdptc);
	p = popen(cmd, "r");
	assert_non_null(p);
	r = json_loadf(p, 0, &jerr);
	assert_int_equal(pclose(p), 0);
	assert_non_null(r);
	json_array_foreach(json_object_get(r, "items"), i, it) {
		const char *name = json_string_value(json_object_get(it, "name"));
		const char *detail = json_string_value(json_object_get(it, "detail"));
		bool ok = json_is_true(json_object_get(it, "ok"));

		assert_true(json_is_boolean(json_object_get(it, "ok")));
		assert_non_null(detail);
		assert_true(strlen(detail) > 0);
		printf("# %-3s %-16s %.100s\n", ok ? "yes" : "no", name, detail);
		if (!strcmp(name, "pmu")) {
			assert_int_equal(ok, pfd >= 0);
			seen++;
		} else if (!strcmp(name, "kprobes")) {
			if (!kprobe_pmu)
				assert_false(ok);
			seen++;
		} else if (!strcmp(name, "tracepoints") || !strcmp(name, "xdp_native_veth") ||
			   !strcmp(name, "btf") || !strcmp(name, "bpf_syscall")) {
			assert_true(ok); /* what this suite cannot run without */
			seen++;
		} else if (!strcmp(name, "fentry") || !strcmp(name, "kvm") || !strcmp(name, "tcx") ||
			   !strcmp(name, "bpf_stats") || !strcmp(name, "qemu")) {
			seen++;
		}
	}
	assert_int_equal(seen, 11);
	assert_non_null(json_object_get(json_object_get(r, "packages"), "libbpf (linked)"));
	json_decref(r);
	assert_int_equal(count_leftovers("xdptc-d"), 0); /* its own veth pair is gone */
}

/* A sweep over senders writes one CSV row per mode and sender, with the mechanism of
 * each regime: xdpdrv frees two skbs per packet with a socket sender, none with XDP
 * live frames. Where the kernel refuses XDP on live frames (sender_xdp_live_probe), the
 * sweep leaves xdp-live out, says so, and runs the udp sender alone. */
static void test_sweep_over_senders(void **state)
{
	char tmpl[] = "/tmp/xdptc-test-XXXXXX", cmd[512], line[1024], why[256] = "";
	int st, rows = 0, udp_ok = 0, live_ok = 0;
	int live = sender_xdp_live_probe(why, sizeof(why)) == 1;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(tmpl));
	snprintf(cmd, sizeof(cmd), "%s sweep --over sender --values udp,xdp-live --schedule classic --packets 20k "
				   "--reps 2 --count-reps 1 --no-flame --out %s >/dev/null 2>%s/sweep.log",
		 xdptc, tmpl, tmpl);
	st = system(cmd);
	assert_int_equal(WEXITSTATUS(st), 0);
	snprintf(cmd, sizeof(cmd), "grep -q 'xdp-live left out: this kernel refuses XDP on live "
		 "frames' %s/sweep.log", tmpl);
	assert_int_equal(!system(cmd), !live);
	if (!live)
		printf("# xdp-live left out of the sweep: %s\n", why);
	snprintf(cmd, sizeof(cmd), "cat %s/*-sweep-sender/sweep.csv", tmpl);
	f = popen(cmd, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		char sender[32], mode[32];
		double freed;

		/* sender,frame_len,sender,mode,cpu,stack,freed,... */
		if (sscanf(line, "%31[^,],%*d,%*[^,],%31[^,],%*f,%*f,%lf", sender, mode, &freed) != 3)
			continue;
		rows++;
		printf("# %s %s skbs_freed/pkt %.3f\n", sender, mode, freed);
		if (!strcmp(sender, "udp") && !strcmp(mode, "xdpdrv"))
			udp_ok = freed > 1.9;
		if (!strcmp(sender, "xdp-live") && !strcmp(mode, "xdpdrv"))
			live_ok = freed < 0.01;
	}
	pclose(f);
	assert_int_equal(rows, live ? 4 : 2);
	assert_true(udp_ok);
	assert_true(live_ok || !live);
	snprintf(cmd, sizeof(cmd), "test -s %s/*-sweep-sender/sweep.svg && rm -rf %s", tmpl, tmpl);
	assert_int_equal(system(cmd), 0);
}

/* `xdptc run --sender xdp-live --find-max-rate @args` into @tmpl/@tag; its run.json. */
static json_t *run_rate_search(const char *tmpl, const char *tag, const char *args)
{
	char cmd[700], path[700];
	json_error_t jerr;
	json_t *run;
	char *dir;
	int st;

	snprintf(cmd, sizeof(cmd), "%s run --sender xdp-live --find-max-rate --schedule classic %s --packets 100k "
				   "--reps 2 --count-reps 1 --no-flame --out %s/%s --quiet 2>%s/%s.log",
		 xdptc, args, tmpl, tag, tmpl, tag);
	snprintf(path, sizeof(path), "%s/%s.log", tmpl, tag);
	st = system(cmd);
	assert_run_ok(st, path);
	snprintf(path, sizeof(path), "%s/%s", tmpl, tag);
	dir = find_run_dir(path);
	assert_non_null(dir);
	snprintf(path, sizeof(path), "%s/run.json", dir);
	free(dir);
	assert_run_json_valid(path);
	run = json_load_file(path, 0, &jerr);
	assert_non_null(run);
	return run;
}

/* The rate search, both regimes, on a real veth pair with the xdp-live sender.
 * DUT on the sender's CPU (--napi-cpu sender): every one of the 20 interleaved unpaced
 * trials per mode lossless (counted, not assumed), the median inside the range and its
 * interval, and xdpdrv's saturation rate above tc's (no skb, no stack).
 * DUT on a CPU of its own (--threaded-napi): the NAPI thread's waits are measured for
 * every step (the thread is woken, so some wait is recorded), and a step marked stalled
 * lost packets. */
static void test_rate_search_regimes(void **state)
{
	char tmpl[] = "/tmp/xdptc-test-XXXXXX", cmd[600], why[256] = "", out[4096];
	json_t *run, *x;
	double sat[2] = { 0, 0 };
	size_t i;

	(void)state;
	/* a kernel that refuses XDP on live frames: the run refuses the xdp-live sender
	 * before it makes anything (exit 1, the kernel's words), and there is no rate search
	 * of this regime to test here */
	if (sender_xdp_live_probe(why, sizeof(why)) != 1) {
		assert_int_equal(run_xdptc_err(xdptc, "run --sender xdp-live --find-max-rate",
					       out, sizeof(out)), 1);
		printf("# %s", out);
		assert_non_null(strstr(out, "--sender xdp-live: this kernel refuses XDP on live "
					    "frames"));
		assert_non_null(strstr(out, "nothing was made"));
		assert_int_equal(count_leftovers("xdptc-"), 0);
		return;
	}
	assert_non_null(mkdtemp(tmpl));
	run = run_rate_search(tmpl, "shared", "--napi-cpu sender --modes tc,xdpdrv");
	assert_string_equal(json_string_value(json_object_get(run, "max_rate_regime")),
			    "DUT on the sender's CPU");
	assert_int_equal(json_array_size(json_object_get(run, "max_rate")), 2);
	json_array_foreach(json_object_get(run, "max_rate"), i, x) {
		json_t *c = json_object_get(x, "confirm");
		double max = (double)json_integer_value(json_object_get(x, "max_drop_pps"));

		printf("# %s saturation %.0f pps [%.0f, %.0f], range %.0f-%.0f, %s\n",
		       json_string_value(json_object_get(x, "mode")), max,
		       num(c, "median_ci_lo_pps"), num(c, "median_ci_hi_pps"),
		       num(c, "reached_min_pps"), num(c, "reached_max_pps"),
		       json_is_true(json_object_get(c, "confirmed")) ? "within 5%" : "not within 5%");
		assert_string_equal(json_string_value(json_object_get(c, "kind")), "saturation");
		assert_int_equal(json_integer_value(json_object_get(c, "reps")), 20);
		assert_int_equal(json_array_size(json_object_get(c, "reached_pps")), 20);
		/* nothing can be lost when the DUT shares the sender's CPU */
		assert_int_equal(json_integer_value(json_object_get(c, "lossless_at_max")), 20);
		assert_true(max >= num(c, "median_ci_lo_pps") && max <= num(c, "median_ci_hi_pps"));
		assert_true(num(c, "reached_min_pps") <= num(c, "median_ci_lo_pps"));
		assert_true(num(c, "reached_max_pps") >= num(c, "median_ci_hi_pps"));
		assert_true(num(x, "cpu_ns_per_pkt_at_max") > 0);
		sat[!strcmp(json_string_value(json_object_get(x, "mode")), "xdpdrv")] = max;
	}
	assert_true(sat[1] > 1.5 * sat[0]);
	json_decref(run);

	run = run_rate_search(tmpl, "own", "--threaded-napi --modes xdpdrv");
	assert_string_equal(json_string_value(json_object_get(run, "max_rate_regime")),
			    "DUT on a CPU of its own");
	/* the stall watch attached, also without tracefs (tests run as on a fresh boot):
	 * its source named, no error recorded */
	if (!json_is_string(json_object_get(run, "max_rate_stall_source")))
		fail_msg("the stall watch did not attach: %s",
			 json_string_value(json_object_get(run, "max_rate_stall_source_error")) ?: "?");
	assert_null(json_object_get(run, "max_rate_stall_source_error"));
	x = json_array_get(json_object_get(run, "max_rate"), 0);
	assert_non_null(x);
	assert_true(json_array_size(json_object_get(x, "steps")) >= 2);
	{
		json_t *stp;
		size_t k;
		int stalled = 0;

		json_array_foreach(json_object_get(x, "steps"), k, stp) {
			assert_true(num(stp, "max_napi_wait_ns") > 0);
			if (json_is_true(json_object_get(stp, "stalled"))) {
				stalled++;
				assert_false(json_is_true(json_object_get(stp, "lossless")));
			}
		}
		printf("# own CPU: xdpdrv %lld pps, %d stalled step(s), %lld stalled trial(s)\n",
		       json_integer_value(json_object_get(x, "max_drop_pps")), stalled,
		       json_integer_value(json_object_get(x, "stalled_trials")));
	}
	json_decref(run);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_run_shows_the_mechanism),
		cmocka_unit_test(test_alternating_windows),
		cmocka_unit_test(test_sigint_cleans_up),
		cmocka_unit_test(test_unwritable_out_fails_before_measuring),
		cmocka_unit_test(test_unavailable_counts_are_null_not_zero),
		cmocka_unit_test(test_doctor_reports_reasons),
		cmocka_unit_test(test_sweep_over_senders),
		cmocka_unit_test(test_rate_search_regimes),
	};

	INTEGRATION_MAIN("test_run_veth", tests, NULL, NULL, &xdptc);
}
