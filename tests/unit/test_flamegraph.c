/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of the flame graphs (analysis/flamegraph.c, flame_unnamed.c, flame_render.c,
 * summary_flame.c) on `perf script` text written here with frames perf could not name on
 * purpose: a JIT-ed BPF program, kernel code whose symbols kptr_restrict hides, a module,
 * user space without symbols, a deleted file. Each kind's samples are known from how
 * the text is made, and the test checks the shares folded, counted, recorded in a
 * run.json entry, drawn in the SVG's subtitle and said in summary.md, with the sentence
 * of what to change. The script in the SVG is checked in a browser by test_flame_browser.
 */
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
#include <unistd.h>
#include <cmocka.h>

#include "flame_render.h"
#include "flame_unnamed.h"
#include "flamegraph.h"
#include "summary_flame.h"

/* How many samples of each shape the perf script text holds. */
enum { N_NAMED = 60, N_BPF = 9, N_KSYMS = 12, N_MODULE = 5, N_USER_LEAF = 4, N_USER_PATH = 10,
       N_DELETED = 2, N_IDLE = 7 };
#define N_ALL (N_NAMED + N_BPF + N_KSYMS + N_MODULE + N_USER_LEAF + N_USER_PATH + N_DELETED)

/* One sample of process @comm: its frames from the innermost, as perf script prints them. */
static void sample(FILE *f, const char *comm, const char *const *frames)
{
	fprintf(f, "%s 4242 [001] 100.000001: 1003009 cpu-clock:\n", comm);
	for (int i = 0; frames[i]; i++)
		fprintf(f, "\t    ffffffff8100%04x %s\n", i, frames[i]);
	fputc('\n', f);
}

static void times(FILE *f, int n, const char *comm, const char *const *frames)
{
	for (int i = 0; i < n; i++)
		sample(f, comm, frames);
}

/* A profile's perf script text with every kind of unnamed frame. */
static void perf_script(FILE *f)
{
	static const char *const named[] = { "kfree_skb_reason+0x12 ([kernel.kallsyms])",
		"veth_xmit+0x40 ([kernel.kallsyms])", "udp_sendmsg+0x300 ([kernel.kallsyms])",
		"entry_SYSCALL_64_after_hwframe+0x4b ([kernel.kallsyms])",
		"__sendmmsg+0x1a (/usr/lib/x86_64-linux-gnu/libc.so.6)", NULL };
	static const char *const bpf[] = { "[unknown] ([unknown])",
		"bpf_prog_run_generic_xdp+0x50 ([kernel.kallsyms])",
		"do_xdp_generic+0x20 ([kernel.kallsyms])", "asm_sysvec_apic_timer_interrupt+0x1a "
		"([kernel.kallsyms])", NULL };
	static const char *const ksyms[] = { "[unknown] ([kernel.kallsyms])",
		"[unknown] ([kernel.kallsyms])", "entry_SYSCALL_64_after_hwframe+0x4b "
		"([kernel.kallsyms])", "[unknown] (/usr/lib/x86_64-linux-gnu/libc.so.6)", NULL };
	static const char *const module[] = { "[unknown] ([sch_ingress])",
		"__netif_receive_skb_core+0x20 ([kernel.kallsyms])", "ret_from_fork_asm+0x1a "
		"([kernel.kallsyms])", NULL };
	static const char *const user_leaf[] = { "[unknown] (/usr/bin/cc1)",
		"main+0x10 (/usr/bin/cc1)", NULL };
	/* an unnamed user-space caller above a named system call: the path, not the leaf */
	static const char *const user_path[] = { "udp_sendmsg+0x300 ([kernel.kallsyms])",
		"entry_SYSCALL_64_after_hwframe+0x4b ([kernel.kallsyms])",
		"syscall+0x1d (/usr/lib/x86_64-linux-gnu/libc.so.6)", "[unknown] ([unknown])",
		NULL };
	static const char *const deleted[] = { "[unknown] (/memfd:sealed-91 (deleted))", NULL };
	static const char *const idle[] = { "default_idle+0x9 ([kernel.kallsyms])",
		"secondary_startup_64_no_verify+0xe5 ([kernel.kallsyms])", NULL };

	times(f, N_NAMED, "xdptc", named);
	times(f, N_BPF, "xdptc", bpf);
	times(f, N_KSYMS, "xdptc", ksyms);
	times(f, N_MODULE, "ksoftirqd/1", module);
	times(f, N_USER_LEAF, "cc1", user_leaf);
	times(f, N_USER_PATH, "xdptc", user_path);
	times(f, N_DELETED, "memfd:sealed-91", deleted);
	times(f, N_IDLE, "swapper", idle);
}

static char dir[64];

/* perf script text folded into dir/flame-tc.folded; returns the samples folded */
static long fold(void)
{
	char path[128];
	FILE *in = tmpfile(), *out;
	long idle = -1, n;

	assert_non_null(in);
	perf_script(in);
	rewind(in);
	snprintf(path, sizeof(path), "%s/flame-tc.folded", dir);
	out = fopen(path, "w");
	assert_non_null(out);
	n = flame_fold(in, out, &idle);
	fclose(in);
	fclose(out);
	assert_int_equal(idle, N_IDLE);
	return n;
}

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof(dir), "/tmp/xdptc-flame-XXXXXX");
	assert_non_null(mkdtemp(dir));
	return 0;
}

static int teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd);
}

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf;
	long n;

	assert_non_null(f);
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The unnamed frames come out of the fold with their DSO's name, and count by kind. */
static void test_fold_and_count(void **state)
{
	char path[128], *folded;
	struct flame_unnamed u;
	FILE *f;

	(void)state;
	assert_int_equal(fold(), N_ALL);
	snprintf(path, sizeof(path), "%s/flame-tc.folded", dir);
	folded = slurp(path);
	printf("%s", folded);
	assert_non_null(strstr(folded, ";[kernel.kallsyms]"));
	assert_non_null(strstr(folded, "ksoftirqd/1;ret_from_fork_asm;__netif_receive_skb_core;[sch_ingress] 5"));
	assert_non_null(strstr(folded, "cc1;main;[cc1] 4"));
	assert_non_null(strstr(folded, "memfd:sealed-91;[memfd:sealed-91_(deleted)] 2"));
	assert_null(strstr(folded, "swapper"));
	free(folded);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(flame_unnamed_count(f, NULL, &u), 0);
	fclose(f);
	assert_true(u.samples == N_ALL);
	assert_true(u.kind_self[UNNAMED_BPF] == N_BPF);
	assert_true(u.kind_self[UNNAMED_KERNEL] == N_KSYMS);
	assert_true(u.kind_self[UNNAMED_MODULE] == N_MODULE);
	assert_true(u.kind_self[UNNAMED_USER] == N_USER_LEAF + N_DELETED);
	/* the kernel-symbol samples' user caller in libc is unnamed too */
	assert_true(u.kind_path[UNNAMED_USER] == N_USER_LEAF + N_DELETED + N_USER_PATH + N_KSYMS);
	assert_true(u.self == N_BPF + N_KSYMS + N_MODULE + N_USER_LEAF + N_DELETED);
	assert_true(u.path == N_ALL - N_NAMED);
	assert_true(u.kernel_path == N_BPF + N_KSYMS + N_MODULE);
	assert_string_equal(u.frame[UNNAMED_MODULE], "[sch_ingress]");
	assert_string_equal(u.caller[UNNAMED_BPF], "bpf_prog_run_generic_xdp");
	assert_int_equal(flame_unnamed_main(&u), UNNAMED_KERNEL);
	assert_true(flame_frame_unnamed("ffffffffc01234ab"));
	assert_true(flame_frame_unnamed("0x7f12345678"));
	assert_false(flame_frame_unnamed("bpf_prog_6deef7357e7b4530_xdp_drop"));
	assert_false(flame_frame_unnamed("cafe"));
}

/* A run.json entry for the folded stacks, on a machine whose kptr_restrict hides the
 * kernel's addresses (doctor's item), drawn and recorded; its summary says what to
 * change. */
static void test_entry_summary_svg(void **state)
{
	char path[128], *svg, *md, want[256];
	json_t *run, *fg;
	struct render_ctx rc = { 0 };
	size_t len;
	FILE *mem;
	double share = (double)(N_BPF + N_KSYMS + N_MODULE + N_USER_LEAF + N_DELETED) / N_ALL;
	const json_t *un;

	(void)state;
	assert_int_equal(fold(), N_ALL);
	run = json_pack("{s:{s:[{s:s, s:b, s:s}]}, s:[{s:s, s:s, s:n, s:s, s:i, s:s, s:s, s:i}]}",
			"doctor", "items", "name", "kernel_symbols", "ok", 0, "detail",
			"kernel.kptr_restrict=2: /proc/kallsyms shows no addresses even to root",
			"flamegraphs", "mode", "tc", "event", "cpu-clock", "period", "period_unit",
			"ns", "pkts_at_dut", 1000, "svg", "flame-tc.svg", "folded", "flame-tc.folded",
			"idle_samples", N_IDLE);
	assert_non_null(run);
	assert_int_equal(flame_render_run(run, dir, path, sizeof(path)), 1);
	fg = json_array_get(json_object_get(run, "flamegraphs"), 0);
	un = json_object_get(fg, "unnamed");
	json_dumpf(fg, stdout, JSON_INDENT(1));
	printf("\n");
	assert_int_equal(json_integer_value(json_object_get(fg, "samples")), N_ALL);
	assert_true(fabs(json_real_value(json_object_get(un, "share")) - share) < 1e-12);
	assert_true(fabs(json_real_value(json_object_get(un, "path_share")) -
			 (double)(N_ALL - N_NAMED) / N_ALL) < 1e-12);
	assert_string_equal(json_string_value(json_object_get(un, "fix_kind")), "kernel");
	assert_non_null(strstr(json_string_value(json_object_get(un, "fix")), "kptr_restrict"));
	assert_string_equal(json_string_value(json_object_get(
		json_array_get(json_object_get(un, "kinds"), 0), "kind")), "kernel");
	assert_true(fabs(json_real_value(json_object_get(json_object_get(fg, "sampling_error"),
							 "at_1pct")) -
			 2 * sqrt(0.01 * 0.99 / N_ALL)) < 1e-12);
	assert_true(json_real_value(json_object_get(fg, "sample_period")) == 1000000000 / 997);

	/* the SVG: interactive, every frame, the subtitle's figures */
	snprintf(path, sizeof(path), "%s/flame-tc.svg", dir);
	svg = slurp(path);
	assert_non_null(strstr(svg, "<script type=\"text/ecmascript\"><![CDATA["));
	assert_non_null(strstr(svg, "id=\"search\""));
	assert_non_null(strstr(svg, "<g class=\"f\" data-v=\"9\"><title>[unknown]\n9 samples"));
	snprintf(want, sizeof(want), "Unnamed frames (perf could not name them): %.1f%% of the "
		 "samples hit one", 100 * share);
	assert_non_null(strstr(svg, want));
	snprintf(want, sizeof(want), "%d samples (fewer than the 2,000 aimed at): a frame's "
		 "share is within %.2f points at 1%%", N_ALL, 200 * sqrt(0.01 * 0.99 / N_ALL));
	assert_non_null(strstr(svg, want));
	/* the script's section closes once, at its end */
	assert_non_null(strstr(svg, "]]></script>\n</svg>\n"));
	assert_true(strstr(svg, "]]>") == strstr(svg, "]]></script>\n</svg>\n"));
	free(svg);

	/* summary.md's words */
	rc.run = run;
	mem = open_memstream(&md, &len);
	rc.out = mem;
	summary_flame_render(&rc);
	fclose(mem);
	printf("%s", md);
	snprintf(want, sizeof(want), "**Unnamed frames in `flame-tc.svg`**: %.1f%% of its samples "
		 "hit frames perf could not name", 100 * share);
	assert_non_null(strstr(md, want));
	assert_non_null(strstr(md, "kernel code whose symbols are hidden (kernel.kptr_restrict=2"));
	assert_non_null(strstr(md, "to name them, show root the kernel's addresses for the run "
				   "(sysctl kernel.kptr_restrict=1, or 0)."));
	assert_non_null(strstr(md, "fewer than the 2,000 the profile pass aims at"));
	free(md);
	json_decref(run);
}

/* Under the share that calls for a change, summary.md names the unnamed frames and says
 * no sentence of what to change; a user-space caller above a named kernel path alone
 * does not call for one. */
static void test_no_fix_below(void **state)
{
	struct flame_unnamed u = { .samples = 1000, .self = 10, .path = 300, .kernel_path = 10 };
	json_t *j;

	(void)state;
	u.kind_self[UNNAMED_USER] = 10;
	u.kind_path[UNNAMED_USER] = 300;
	snprintf(u.frame[UNNAMED_USER], sizeof(u.frame[0]), "[unknown]");
	snprintf(u.comm[UNNAMED_USER], sizeof(u.comm[0]), "xdptc");
	j = flame_unnamed_json(&u, NULL);
	assert_true(json_is_null(json_object_get(j, "fix")));
	json_decref(j);
	u.self = 60; /* 6%: above */
	u.kind_self[UNNAMED_USER] = 60;
	j = flame_unnamed_json(&u, NULL);
	assert_non_null(strstr(json_string_value(json_object_get(j, "fix")), "dbgsym"));
	json_decref(j);
}

/* A differential graph's tooltip holds both sides' values and samples, the share of
 * the difference, and the SVG names the sides for its script. */
static void test_diff_tooltip(void **state)
{
	FILE *a = tmpfile(), *b = tmpfile(), *out;
	struct flame_opts o = { .title = "xdpdrv against tc", .unit = "instructions",
				.a_name = "tc", .b_name = "xdpdrv" };
	char *svg;
	size_t len;

	(void)state;
	fputs("xdptc;udp_sendmsg;ip_output 10\nxdptc;udp_sendmsg;alloc_skb 30\n", a);
	fputs("xdptc;udp_sendmsg;ip_output 40\n", b);
	rewind(a);
	rewind(b);
	out = open_memstream(&svg, &len);
	assert_int_equal(flame_svg_diff(a, 2.0, b, 1.0, NULL, out, &o), 0);
	fclose(out);
	fclose(a);
	fclose(b);
	assert_non_null(strstr(svg, "data-diff=\"1\" data-a=\"tc\" data-b=\"xdpdrv\""));
	/* ip_output: xdpdrv 40 x 1, tc 10 x 2; the whole: 40 against 80 */
	assert_non_null(strstr(svg, "<title>ip_output\nxdpdrv 40.0, tc 20.0 instructions per "
				    "packet (40 and 10 samples)\nxdpdrv - tc +20.0, -50.0% of the "
				    "difference</title>"));
	free(svg);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_fold_and_count),
		cmocka_unit_test(test_entry_summary_svg),
		cmocka_unit_test(test_no_fix_below),
		cmocka_unit_test(test_diff_tooltip),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
