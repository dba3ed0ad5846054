/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix.c: the kernel matrix's entries, matrix.md and its plot's data (matrix.h). */
#include "matrix.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "flamegraph.h"
#include "json_read.h"
#include "matrix_boots.h"
#include "matrix_entry.h"
#include "matrix_experiments.h"
#include "matrix_flame.h"
#include "matrix_insns.h"
#include "matrix_pictures.h"
#include "matrix_plot.h"
#include "matrix_section.h"
#include "page_html.h"

/* the profile's check: the sender's own code must come out the same in tc's and xdpdrv's
 * profiles within this share */
#define PROFILE_CHECK 0.2
/* a profile window that measured more than this factor above or below its timing pass
 * ran in another regime (its profiler's own interrupts add about 10-20%) */
#define PROFILE_REGIME 1.5
#include "summary_facts.h"

#define PROFILE_SKIP_COMM "perf" /* the profiler's own samples: not the path measured */
#define PROFILE_MAX_FNS 4096

json_t *matrix_entry_from_run(const char *kernel, const char *experiment, const json_t *run)
{
	const json_t *s = json_object_get(run, "summary");
	json_t *e = json_object();

	json_object_set_new(e, "kernel", json_string(kernel));
	json_object_set_new(e, "experiment", json_string(experiment));
	json_object_set_new(e, "status", json_string("ok"));
	json_object_set_new(e, "guest_kernel",
			    json_string(json_str_of(json_object_get(run, "engine"), "guest_kernel", "")));
	json_object_set_new(e, "time_metric", json_string(summary_time_metric(run)));
	json_object_set_new(e, "engine", json_string(summary_engine(run)));
	json_object_set_new(e, "modes", json_deep_copy(json_object_get(s, "modes")));
	json_object_set_new(e, "deltas", json_deep_copy(json_object_get(s, "deltas")));
	if (json_object_get(run, "insn_profiles")) /* the plugin's, exact */
		json_object_set_new(e, "insn_profiles", matrix_insn_profiles(run));
	if (json_object_get(run, "dut_nic")) /* the nic topology: its driver, native XDP */
		json_object_set_new(e, "dut_nic", json_pack("{s:s?, s:O?, s:s?}", "driver",
				    json_str_of(json_object_get(run, "dut_nic"), "driver", NULL),
				    "xdp_native", json_object_get(json_object_get(run, "dut_nic"), "xdp_native"),
				    "xdp_native_reason", json_str_of(json_object_get(run, "dut_nic"),
								   "xdp_native_reason", NULL)));
	if (json_is_true(json_object_get(run, "sender_skb_apart")))
		json_object_set_new(e, "sender_skb_apart", json_true());
	if (json_object_get(run, "insn_selfcheck"))
		json_object_set_new(e, "insn_selfcheck",
				    json_deep_copy(json_object_get(run, "insn_selfcheck")));
	return e;
}

/* Copy the folded profile of one mode from @src to @dst; *@samples_kept gets the samples
 * outside PROFILE_SKIP_COMM, *@sender_own those of the UDP sender's own code (through
 * udp_sendmsg, not as far as __dev_queue_xmit: the same work in every mode). Returns the
 * number of stacks, or -1 when it cannot be read or written. */
static int folded_copy(const char *src, const char *dst, double *samples_kept,
		       double *sender_own)
{
	char line[16384];
	FILE *f = fopen(src, "r"), *out = f ? fopen(dst, "w") : NULL;
	int n = 0;

	*samples_kept = 0;
	*sender_own = 0;
	while (out && fgets(line, sizeof(line), f)) {
		char *sp = strrchr(line, ' ');
		long long c;

		fputs(line, out);
		if (!sp)
			continue;
		c = atoll(sp + 1);
		n++;
		if (strncmp(line, PROFILE_SKIP_COMM ";", strlen(PROFILE_SKIP_COMM) + 1))
			*samples_kept += (double)c;
		*sp = '\0';
		if (strstr(line, ";udp_sendmsg;") && !strstr(line, ";__dev_queue_xmit"))
			*sender_own += (double)c;
	}
	if (f)
		fclose(f);
	if (!out || fclose(out))
		return -1;
	return n;
}

/* The profile of @mode in @run's "flamegraphs", or NULL. */
static const json_t *run_flame(const json_t *run, const char *mode)
{
	const json_t *fg;
	size_t i;

	json_array_foreach(json_object_get(run, "flamegraphs"), i, fg)
		if (!strcmp(json_str_of(fg, "mode", ""), mode) && json_is_string(json_object_get(fg, "folded")) &&
		    json_num_of(fg, "period") > 0 && json_num_of(fg, "pkts_at_dut") > 0)
			return fg;
	return NULL;
}

/* The measured time metric of @mode in @run's summary (its median). */
static double measured_per_pkt(const json_t *run, const char *mode)
{
	const json_t *m;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(run, "summary"), "modes"), i, m)
		if (!strcmp(json_str_of(m, "mode", ""), mode))
			return json_num_of(m, summary_time_metric(run));
	return NAN;
}

/* The time metric of @mode's profile-pass trial in @run: the profile window's own
 * measurement (with the profiler's interrupts in it), or NaN. */
static double profile_window_per_pkt(const json_t *run, const char *mode)
{
	const json_t *t;
	size_t i;

	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (!strcmp(json_str_of(t, "pass", ""), "profile") &&
		    !strcmp(json_str_of(t, "mode", ""), mode))
			return json_num_of(t, summary_time_metric(run));
	return NAN;
}

/* xdpdrv against tc (@tc and @xdp: their flamegraphs entries; @tc_scale and @xdp_scale:
 * the instructions per packet one sample stands for): the top functions; the
 * differential flame graph is named @svg_name (matrix_flame.c draws it). */
static json_t *profile_diff(const json_t *tc, const json_t *xdp, double tc_scale,
			    double xdp_scale, const char *run_dir, const char *svg_name, int top)
{
	static struct flame_fn fns[PROFILE_MAX_FNS];
	char pa[PATH_MAX], pb[PATH_MAX];
	FILE *a, *b;
	json_t *d = json_object(), *arr = json_array();
	int n;

	snprintf(pa, sizeof(pa), "%s/%s", run_dir, json_str_of(tc, "folded", ""));
	snprintf(pb, sizeof(pb), "%s/%s", run_dir, json_str_of(xdp, "folded", ""));
	a = fopen(pa, "r");
	b = fopen(pb, "r");
	json_object_set_new(d, "svg", json_string(svg_name));
	if (a && b) {
		n = flame_self_diff(a, tc_scale, b, xdp_scale, PROFILE_SKIP_COMM,
				    fns, PROFILE_MAX_FNS);
		for (int i = 0; i < n && i < top; i++)
			json_array_append_new(arr, json_pack(
				"{s:s, s:f, s:f, s:f, s:f, s:f}", "function", fns[i].name,
				"tc_per_pkt", fns[i].per_pkt[0], "xdpdrv_per_pkt", fns[i].per_pkt[1],
				"diff_per_pkt", fns[i].per_pkt[1] - fns[i].per_pkt[0],
				"tc_err", fns[i].err[0], "xdpdrv_err", fns[i].err[1]));
	}
	if (a)
		fclose(a);
	if (b)
		fclose(b);
	json_object_set_new(d, "a", json_string("tc"));
	json_object_set_new(d, "b", json_string("xdpdrv"));
	json_object_set_new(d, "top_functions", arr);
	return d;
}

json_t *matrix_profiles(const json_t *run, const char *run_dir, const char *out_dir,
			const char *name, int top)
{
	char svg_name[PATH_MAX];
	const json_t *fg, *tc = run_flame(run, "tc"), *xdp = run_flame(run, "xdpdrv");
	json_t *p = NULL, *modes = json_object();
	size_t i;

	json_array_foreach(json_object_get(run, "flamegraphs"), i, fg) {
		char path[PATH_MAX], file[PATH_MAX], dst[2 * PATH_MAX];
		double kept, own, scale;
		json_t *m;
		int stacks;

		if (json_is_string(json_object_get(fg, "error"))) { /* lost: said, never dropped */
			json_object_set_new(modes, json_str_of(fg, "mode", ""),
					    json_pack("{s:s}", "error", json_str_of(fg, "error", "")));
			continue;
		}
		if (!run_flame(run, json_str_of(fg, "mode", "")))
			continue;
		snprintf(path, sizeof(path), "%s/%s", run_dir, json_str_of(fg, "folded", ""));
		snprintf(file, sizeof(file), "%s-%s.folded", name, json_str_of(fg, "mode", ""));
		snprintf(dst, sizeof(dst), "%s/%s", out_dir, file);
		stacks = folded_copy(path, dst, &kept, &own);
		if (stacks < 0)
			continue;
		if (!p)
			p = json_pack("{s:f, s:s, s:s}", "period", json_num_of(fg, "period"), "period_unit",
				      json_str_of(fg, "period_unit", ""), "left_out", PROFILE_SKIP_COMM);
		/* each sample's own interrupt costs instructions that no sample sees, so
		 * samples x period overstates the work: the samples are scaled to add up to
		 * the instructions per packet the timing pass measured */
		scale = kept > 0 ? measured_per_pkt(run, json_str_of(fg, "mode", "")) / kept : 0;
		m = json_pack("{s:s, s:f, s:f, s:f, s:f, s:f}", "file", json_str_of(fg, "folded", ""),
			      "samples", kept, "pkts_at_dut", json_num_of(fg, "pkts_at_dut"),
			      "sampled_per_pkt", kept * json_num_of(fg, "period") / json_num_of(fg, "pkts_at_dut"),
			      "measured_per_pkt", measured_per_pkt(run, json_str_of(fg, "mode", "")),
			      "per_sample", scale);
		json_object_set_new(m, "sender_own_per_pkt", own > 0 ? json_real(own * scale)
								    : json_null());
		/* the profile window's own measurement: the samples at face value cover it;
		 * when it is far from the timing pass's, the two passes ran in different
		 * regimes and the scaled profile describes the timing pass only roughly */
		own = profile_window_per_pkt(run, json_str_of(fg, "mode", ""));
		json_object_set_new(m, "window_per_pkt", isnan(own) ? json_null() : json_real(own));
		json_object_set_new(m, "folded_file", json_string(file));
		json_object_set_new(m, "stacks", json_integer(stacks));
		json_object_set_new(modes, json_str_of(fg, "mode", ""), m);
	}
	if (!p && json_object_size(modes))
		p = json_object(); /* every profile of the run failed: their reasons */
	if (!p) {
		json_decref(modes);
		return NULL;
	}
	json_object_set_new(p, "modes", modes);
	snprintf(svg_name, sizeof(svg_name), "%s-xdpdrv-vs-tc.svg", name);
	if (tc && xdp && json_object_get(modes, "tc") && json_object_get(modes, "xdpdrv")) {
		json_t *d = profile_diff(tc, xdp, json_num_of(json_object_get(modes, "tc"), "per_sample"),
					 json_num_of(json_object_get(modes, "xdpdrv"), "per_sample"),
					 run_dir, svg_name, top);

		json_object_set_new(p, "diff", d);
		if (matrix_profile_svg(p, out_dir, NULL)) /* drawn from the copies, as --report does */
			json_object_del(d, "svg");
	}
	return p;
}

/* The delta of @b against tc in @entry (retired where counted: matrix_entry_metric). */
static const json_t *entry_delta(const json_t *entry, const char *b)
{
	return matrix_entry_delta(entry, b, matrix_entry_metric(entry));
}

#define fmt_delta matrix_fmt_delta

static void md_head(const json_t *matrix, FILE *out)
{
	const json_t *h = json_object_get(matrix, "host"), *set = json_object_get(matrix, "settings");
	const json_t *k;
	size_t i;
	size_t nk = json_array_size(json_object_get(matrix, "kernels"));
	long long cr = json_integer_value(json_object_get(set, "count_reps"));
	const json_t *rep = json_object_get(set, "repeat");

	fprintf(out, "# xdptc matrix: XDP against TC on %zu guest kernel%s\n\n", nk,
		nk == 1 ? "" : "s");
	fprintf(out, "- Host: %s, kernel %s; %s\n", json_str_of(h, "cpu_model", ""), json_str_of(h, "kernel_release", ""),
		json_str_of(h, "qemu", ""));
	char jobs[48];

	if (json_is_integer(json_object_get(set, "jobs")))
		snprintf(jobs, sizeof(jobs), "%lld job(s) at a time",
			 json_integer_value(json_object_get(set, "jobs")));
	else
		snprintf(jobs, sizeof(jobs), "each cell run by itself");
	fprintf(out, "- Engine: icount (`-icount shift=0,sleep=off`): guest time is guest "
		     "instructions, whatever the host's speed; how far it moves between boots: "
		     "docs/matrix.md%s\n", matrix_has_insns(matrix) ? "; the experiments' "
		     "instructions and deltas are retired (a rep string instruction once: they "
		     "repeat), every iteration beside them in the plugin's tables" : "");
	fprintf(out, "- Every run in a guest: %lld packets per window, %lld timing repetitions, "
		     "%lld count repetition%s; modes asked for %s (each kernel's measured ones "
		     "below); %s; %.0f s in all (the host engine's "
		     "cross-check, if any, at its own defaults)",
		json_integer_value(json_object_get(set, "packets")),
		json_integer_value(json_object_get(set, "reps")), cr, cr == 1 ? "" : "s",
		json_str_of(set, "modes", ""), jobs, json_num_of(matrix, "elapsed_s"));
	if (json_integer_value(rep) > 1)
		fprintf(out, "; %lld boots of every experiment", json_integer_value(rep));
	fprintf(out, "\n");
	if (json_is_object(json_object_get(matrix, "merged")))
		fprintf(out, "- Merged (`xdptc matrix --merge`) from %lld cells made by xdptc %s, "
			     "the time is the cells' own, added up\n",
			json_integer_value(json_object_get(json_object_get(matrix, "merged"), "cells")),
			json_str_of(json_object_get(matrix, "merged"), "xdptc", "?"));
	if (json_array_size(json_object_get(matrix, "hosts")) > 1) {
		const json_t *hh;
		size_t hi;

		fprintf(out, "- The cells ran on different hosts (allowed for icount: guest "
			     "instructions do not depend on the host; each entry's host is in "
			     "matrix.json):");
		json_array_foreach(json_object_get(matrix, "hosts"), hi, hh)
			fprintf(out, "%s %s, kernel %s", hi ? ";" : "", json_str_of(hh, "cpu_model", ""),
				json_str_of(hh, "kernel_release", ""));
		fprintf(out, "\n");
	}
	fprintf(out, "\n");
	fprintf(out, "| kernel | package | version | suite | guest release | measured | left out |\n"
		     "|---|---|---|---|---|---|---|\n");
	json_array_foreach(json_object_get(matrix, "kernels"), i, k) {
		const char *tcx = json_str_of(k, "tcx_reason", ""), *ex = json_str_of(k, "experiments_left_out", "");

		fprintf(out, "| %s | %s | %s | %s | %s | %s | %s%s%s |\n", json_str_of(k, "spec", ""),
			json_str_of(k, "package", ""), json_str_of(k, "version", ""), json_str_of(k, "suite", ""), json_str_of(k, "release", ""),
			strcmp(json_str_of(k, "status", ""), "ok") ? "failed" : json_str_of(k, "modes", ""),
			strcmp(json_str_of(k, "status", ""), "ok") ? json_str_of(k, "reason", "") : tcx,
			*tcx && *ex ? "; " : "", *ex ? ex : "");
	}
}

/* The entry of @kernel's @experiment in @matrix, or NULL. */
static const json_t *find_entry(const json_t *matrix, const char *kernel, const char *exp)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(matrix, "entries"), i, e)
		if (!strcmp(json_str_of(e, "kernel", ""), kernel) && !strcmp(json_str_of(e, "experiment", ""), exp))
			return e;
	return NULL;
}

/* The two engines side by side: each host-engine run (MATRIX_HOST) beside the icount run
 * of the same kernel series its row names (beside). */
static void md_cross_check(const json_t *matrix, FILE *out)
{
	const json_t *h;
	size_t i;
	bool head = false;

	json_array_foreach(json_object_get(matrix, "entries"), i, h) {
		const struct matrix_exp *x = matrix_exp_find(json_str_of(h, "experiment", ""));
		const json_t *g, *dg, *dh;
		char a[96], b[96];

		if (!x || x->engine != MATRIX_HOST)
			continue;
		g = find_entry(matrix, json_str_of(h, "kernel", ""), x->beside);
		dg = g ? entry_delta(g, "xdpdrv") : NULL;
		dh = entry_delta(h, "xdpdrv");
		if (!head)
			fprintf(out, "\n## The two engines on one kernel series\n\nThe icount guest "
				     "(instructions per packet) beside the host engine on the host's own "
				     "kernel of the same series (CPU time per packet, %s):\n\n| "
				     "experiment | icount guest | xdpdrv vs tc, instructions | host | "
				     "xdpdrv vs tc, CPU time | same sign (both intervals exclude 0) |\n|---|---|---|---|---|---|\n",
				json_str_of(json_object_get(matrix, "host"), "cpu_model", ""));
		head = true;
		fmt_delta(a, sizeof(a), dg);
		fmt_delta(b, sizeof(b), dh);
		fprintf(out, "| %s | %s | %s | %s | %s | %s |\n", x->beside,
			g ? json_str_of(g, "guest_kernel", "") : "n/a", a,
			json_str_of(json_object_get(matrix, "host"), "kernel_release", ""), b,
			strcmp(json_str_of(h, "status", ""), "ok") ? "n/a"
							      : matrix_same_sign(dg, dh, "icount", "host"));
	}
}

/* Each profile's window against its timing pass: a note where they ran in different
 * regimes (more than PROFILE_REGIME apart). */
static void md_profile_regimes(FILE *out, const json_t *modes, const char *lead)
{
	for (int k = 0; k < 2; k++) {
		const json_t *m = json_object_get(modes, k ? "xdpdrv" : "tc");
		double w = json_num_of(m, "window_per_pkt"), t = json_num_of(m, "measured_per_pkt");

		if (w > 0 && t > 0 && (w / t > PROFILE_REGIME || t / w > PROFILE_REGIME))
			fprintf(out, "%s**Note**: %s's profile window measured %.0f instructions "
				     "per packet, its timing pass %.0f: the two passes ran in different "
				     "regimes, and the profile, scaled to the timing pass, describes "
				     "it only roughly.\n%s", lead, k ? "xdpdrv" : "tc", w, t,
				*lead ? "" : "\n");
	}
}

/* The profile's own check: the UDP sender's code is the same work in every mode, so its
 * share per packet must come out the same in tc's and xdpdrv's profiles. */
static void md_profile_check(FILE *out, const json_t *modes)
{
	double a = json_num_of(json_object_get(modes, "tc"), "sender_own_per_pkt");
	double b = json_num_of(json_object_get(modes, "xdpdrv"), "sender_own_per_pkt");

	md_profile_regimes(out, modes, "");
	if (isnan(a) || isnan(b) || a <= 0 || b <= 0)
		return;
	if (fabs(b / a - 1) <= PROFILE_CHECK)
		fprintf(out, "Check: the sender's own code (the same in both modes) comes out at "
			     "%.0f and %.0f instructions per packet: the attribution holds to %.0f%%.\n\n",
			a, b, 100 * fabs(b / a - 1));
	else
		fprintf(out, "**Check failed**: the sender's own code, the same work in both "
			     "modes, comes out at %.0f (tc) and %.0f (xdpdrv) instructions per "
			     "packet: the samples are not spread in proportion to instructions here "
			     "(docs/matrix.md), so read the call paths, not the per-function widths "
			     "or figures.\n\n", a, b);
}

/* The functions of @e's differential profile, a table; its graph as matrix_md_flame_ref
 * names it (@dir: the matrix's directory). */
static void md_profile(FILE *out, const json_t *e, const char *dir, int rows)
{
	const json_t *p = json_object_get(e, "profiles"), *d = json_object_get(p, "diff"), *f;
	const json_t *modes = json_object_get(p, "modes");
	size_t i;

	if (!d)
		return;
	fprintf(out, "\n### %s, %s (guest %s)\n\n%.0f and %.0f samples (tc, xdpdrv; a sample "
		     "every %.0f %s), scaled to the %.0f and %.0f instructions per packet measured. "
		     "Differential flame graph: ",
		json_str_of(e, "kernel", ""), json_str_of(e, "experiment", ""), json_str_of(e, "guest_kernel", ""),
		json_num_of(json_object_get(modes, "tc"), "samples"),
		json_num_of(json_object_get(modes, "xdpdrv"), "samples"), json_num_of(p, "period"),
		json_str_of(p, "period_unit", ""), json_num_of(json_object_get(modes, "tc"), "measured_per_pkt"),
		json_num_of(json_object_get(modes, "xdpdrv"), "measured_per_pkt"));
	matrix_md_flame_ref(e, dir, "", out);
	fputc('\n', out);
	md_profile_check(out, modes);
	fprintf(out, "The leaf functions whose instructions per packet differ most (± two "
		     "standard deviations of the sample count):\n\n| function | tc | xdpdrv | "
		     "xdpdrv - tc |\n|---|---|---|---|\n");
	json_array_foreach(json_object_get(d, "top_functions"), i, f) {
		if ((int)i == rows)
			break;
		fprintf(out, "| `%s` | %.0f ± %.0f | %.0f ± %.0f | %+.0f |\n", json_str_of(f, "function", ""),
			json_num_of(f, "tc_per_pkt"), json_num_of(f, "tc_err"), json_num_of(f, "xdpdrv_per_pkt"),
			json_num_of(f, "xdpdrv_err"), json_num_of(f, "diff_per_pkt"));
	}
}

static int write_md(const json_t *matrix, const char *dir, FILE *out)
{
	const json_t *e;
	size_t i;
	char seen[MATRIX_MAX_EXPS][64];
	int nseen = 0;

	md_head(matrix, out);
	json_array_foreach(json_object_get(matrix, "entries"), i, e) {
		const char *exp = json_str_of(e, "experiment", "");
		const struct matrix_exp *x = matrix_exp_find(exp);
		int k;

		for (k = 0; k < nseen && strcmp(seen[k], exp); k++)
			;
		if (k < nseen || nseen == MATRIX_MAX_EXPS || (x && !x->md))
			continue; /* a host engine's runs: in the cross-check */
		snprintf(seen[nseen++], sizeof(seen[0]), "%s", exp);
		/* an experiment this version does not know: the generic table */
		(x ? x->md : matrix_md_section)(out, matrix, exp);
	}
	md_cross_check(matrix, out);
	matrix_md_insns(matrix, out, 12);
	fprintf(out, "\n## %s: xdpdrv against tc\n\nInstruction profiles "
		     "(perf record -e cpu-clock inside the icount guest, whose clock counts "
		     "instructions), one profile trial per mode, normalised per packet.\n",
		matrix_has_insns(matrix) ? "Call paths, sampled" : "Where the instructions go");
	json_array_foreach(json_object_get(matrix, "entries"), i, e) {
		const char *mode;
		const json_t *pm;

		json_object_foreach((json_t *)json_object_get(json_object_get(e, "profiles"), "modes"), mode, pm)
			if (json_is_string(json_object_get(pm, "error")))
				fprintf(out, "\n%s, %s: no profile of %s: %s\n", json_str_of(e, "kernel", ""),
					json_str_of(e, "experiment", ""), mode, json_str_of(pm, "error", ""));
		if (json_array_size(json_object_get(e, "insn_profiles"))) {
			const json_t *d = json_object_get(json_object_get(e, "profiles"), "diff");

			if (d) /* the exact counts are above: of the samples, the paths only */
				matrix_md_flame(e, dir, out);
			if (d && fputc('\n', out) != EOF) /* the sampled graph's own check */
				md_profile_check(out, json_object_get(json_object_get(e, "profiles"), "modes"));
			continue;
		}
		md_profile(out, e, dir, 10);
	}
	fprintf(out, "\nEach delta is the median of the paired ratios of one run (the modes "
		     "interleaved in every repetition), with the order-statistics interval of at "
		     "least 95%% coverage; compare deltas, not instruction counts, across rows. "
		     "tcx is left out of kernels older than 6.6, which do not have it.\n");
	return ferror(out) ? -EIO : 0;
}

int matrix_write_md(const json_t *matrix, const char *dir, FILE *out)
{
	json_t *first = matrix_first_boots(matrix); /* the tables: each cell's first boot */
	int e = first ? write_md(first, dir, out) : -ENOMEM;

	json_decref(first);
	if (!e)
		matrix_md_boots(matrix, out);
	return e || ferror(out) ? -EIO : 0;
}


/* matrix.md and the plots in @dir from matrix.json @j. Returns 0 or 1 (said why). */
int matrix_write_files(const json_t *j, const char *dir)
{
	char path[PATH_MAX + 32], cmd[PATH_MAX + 128], err[PATH_MAX + 64];
	FILE *f;

	/* the plots first: matrix.md and index.html show those that were drawn */
	if (matrix_write_plot(j, dir) > 0) {
		snprintf(cmd, sizeof(cmd), "cd '%s' && gnuplot matrix-delta.gp 2>/dev/null", dir);
		if (system(cmd))
			fprintf(stderr, "xdptc matrix: the plots were not drawn (gnuplot failed)\n");
	}
	snprintf(path, sizeof(path), "%s/matrix.md", dir);
	f = fopen(path, "w");
	if (f && !matrix_write_md(j, dir, f))
		matrix_md_pictures(dir, f);
	if (!f || ferror(f) || fclose(f)) {
		fprintf(stderr, "xdptc matrix: cannot write %s\n", path);
		return 1;
	}
	if (page_html_write(dir, "matrix.md", &(struct page_facts){
		.heading = { "Settings", "Host" },
		.obj = { json_object_get(j, "settings"), json_object_get(j, "host") },
		.n = 2 }, err, sizeof(err))) {
		fprintf(stderr, "xdptc matrix: %s\n", err);
		return 1;
	}
	return 0;
}
