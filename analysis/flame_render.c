/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* flame_render.c: a run's flame graphs, their figures and their words (flame_render.h). */
#include "flame_render.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <string.h>

#include "doctor.h"
#include "flamegraph.h"
#include "json_read.h"

_Static_assert(FLAME_MIN_SAMPLES == 2000, "the words say 2,000 samples");

double flame_sampling_err(double p, double n)
{
	return n > 0 ? 2 * sqrt(p * (1 - p) / n) : NAN;
}

double flame_zero_share(double n)
{
	return 4 / (n + 4);
}

double flame_sample_period(const json_t *fg)
{
	double p = json_num_of(fg, "period");

	return p > 0 ? p : (double)(1000000000 / FLAME_FREQ_HZ);
}

const char *flame_group(char *buf, size_t len, double v)
{
	char d[48];
	size_t n, o = 0;

	snprintf(d, sizeof(d), "%.0f", v);
	n = strlen(d);
	for (size_t i = 0; i < n && o + 2 < len; i++) {
		buf[o++] = d[i];
		if (d[i] != '-' && i + 1 < n && (n - i - 1) % 3 == 0)
			buf[o++] = ',';
	}
	buf[o] = '\0';
	return buf;
}

const char *flame_pct(char *buf, size_t len, double share)
{
	if (share > 0 && share < 0.0005)
		snprintf(buf, len, "under 0.1%%");
	else
		snprintf(buf, len, "%.1f%%", 100 * share);
	return buf;
}

/* The share @x of @n, or 0 when there is no sample. */
static double share(double x, double n)
{
	return n > 0 ? x / n : 0;
}

void flame_unnamed_words(const struct flame_unnamed *u, char *buf, size_t len)
{
	int k = flame_unnamed_main(u);

	switch (k) {
	case UNNAMED_BPF: snprintf(buf, len, "JIT-ed BPF code"); break;
	case UNNAMED_KERNEL: snprintf(buf, len, "kernel code without its symbols"); break;
	case UNNAMED_MODULE: snprintf(buf, len, "the module %s", u->frame[k]); break;
	case UNNAMED_KOTHER: snprintf(buf, len, "unmapped kernel code"); break;
	case UNNAMED_USER: snprintf(buf, len, "user space of %s", u->comm[k]); break;
	default: snprintf(buf, len, "all named");
	}
}

json_t *flame_unnamed_json(const struct flame_unnamed *u, const char *kernel_symbols)
{
	json_t *j = json_object(), *kinds = json_array();
	int order[UNNAMED_NR], n = 0, main = flame_unnamed_main(u);

	json_object_set_new(j, "share", json_real(share(u->self, u->samples)));
	json_object_set_new(j, "path_share", json_real(share(u->path, u->samples)));
	json_object_set_new(j, "kernel_path_share", json_real(share(u->kernel_path, u->samples)));
	for (int k = 0; k < UNNAMED_NR; k++) /* the kinds by their samples, largest first */
		if (u->kind_path[k] > 0) {
			int i = n++;

			while (i > 0 && (u->kind_self[order[i - 1]] < u->kind_self[k] ||
					 (u->kind_self[order[i - 1]] == u->kind_self[k] &&
					  u->kind_path[order[i - 1]] < u->kind_path[k]))) {
				order[i] = order[i - 1];
				i--;
			}
			order[i] = k;
		}
	for (int i = 0; i < n; i++) {
		int k = order[i];
		char why[512];

		flame_unnamed_reason(u, (enum flame_unnamed_kind)k, kernel_symbols, why, sizeof(why));
		json_array_append_new(kinds, json_pack(
			"{s:s, s:f, s:f, s:s, s:s, s:s}", "kind",
			flame_unnamed_kind_name((enum flame_unnamed_kind)k),
			"share", share(u->kind_self[k], u->samples), "path_share",
			share(u->kind_path[k], u->samples), "frame", u->frame[k], "process", u->comm[k],
			"reason", why));
	}
	json_object_set_new(j, "kinds", kinds);
	/* what to change: where the graph cannot say where the time went (unnamed leaves) or
	 * which kernel path it took (an unnamed kernel frame); a user-space caller that
	 * perf could not name above a named system call does not hide the path measured */
	if (main >= 0 && (share(u->self, u->samples) > FLAME_UNNAMED_MAX ||
			  share(u->kernel_path, u->samples) > FLAME_UNNAMED_MAX)) {
		if (share(u->self, u->samples) <= FLAME_UNNAMED_MAX) { /* the kernel's */
			main = -1;
			for (int k = 0; k < UNNAMED_NR; k++)
				if (k != UNNAMED_USER && (main < 0 || u->kind_path[k] > u->kind_path[main]))
					main = k;
		}
		json_object_set_new(j, "fix_kind", json_string(flame_unnamed_kind_name(
						   (enum flame_unnamed_kind)main)));
		json_object_set_new(j, "fix", json_string(flame_unnamed_fix(
						   (enum flame_unnamed_kind)main, kernel_symbols)));
	} else {
		json_object_set_new(j, "fix", json_null());
	}
	return j;
}

/* Doctor's sentence when the kernel's symbols are hidden from perf, else NULL. */
static const char *kernel_symbols_hidden(const json_t *run)
{
	const json_t *d = json_object_get(run, "doctor");

	if (!d || doctor_item_ok(d, "kernel_symbols") || !*doctor_item_detail(d, "kernel_symbols"))
		return NULL;
	return doctor_item_detail(d, "kernel_symbols");
}

/* The three lines under a run's graph's title. */
static void entry_lines(const json_t *fg, const struct flame_unnamed *u, char l[3][400])
{
	double n = u->samples, per = flame_sample_period(fg), pk = json_num_of(fg, "pkts_at_dut");
	const char *unit = json_str_of(fg, "period_unit", "ns");
	char how[96], idle[64] = "the idle task's samples left out", words[128], g[3][32];

	if (json_num_of(fg, "period") > 0)
		snprintf(how, sizeof(how), "-c %.0f (a sample every %s %s)", per,
			 flame_group(g[0], sizeof(g[0]), per), unit);
	else
		snprintf(how, sizeof(how), "-F %d (a sample every %s %s)", FLAME_FREQ_HZ,
			 flame_group(g[0], sizeof(g[0]), per), unit);
	if (json_is_integer(json_object_get(fg, "idle_samples")))
		snprintf(idle, sizeof(idle), "%s idle samples left out",
			 flame_group(g[1], sizeof(g[1]), json_num_of(fg, "idle_samples")));
	snprintf(l[0], sizeof(l[0]), "perf record -a -g -e %s %s over %s packets at the DUT; "
		 "widths are samples; %s", json_str_of(fg, "event", "cpu-clock"), how,
		 flame_group(g[2], sizeof(g[2]), pk), idle);
	snprintf(l[1], sizeof(l[1]), "%s samples%s: a frame's share is within %.2f points at "
		 "1%% and %.1f at 10%% (two standard errors, binomial); under %.1f%% it cannot be "
		 "told from 0", flame_group(g[0], sizeof(g[0]), n),
		 n < FLAME_MIN_SAMPLES ? " (fewer than the 2,000 aimed at)" : "",
		 100 * flame_sampling_err(0.01, n), 100 * flame_sampling_err(0.10, n),
		 100 * flame_zero_share(n));
	flame_unnamed_words(u, words, sizeof(words));
	if (u->path > 0)
		snprintf(l[2], sizeof(l[2]), "Unnamed frames (perf could not name them): %s of the "
			 "samples hit one, %s have one in their stack; mostly %s (run.json and "
			 "summary.md say why)", flame_pct(g[1], sizeof(g[1]), share(u->self, n)),
			 flame_pct(g[2], sizeof(g[2]), share(u->path, n)), words);
	else
		snprintf(l[2], sizeof(l[2]), "Unnamed frames: none (perf named every frame)");
}

int flame_render_entry(const json_t *run, json_t *fg, const char *dir, FILE *svg)
{
	char path[PATH_MAX + 64], title[128], l[3][400];
	const char *ks = kernel_symbols_hidden(run);
	struct flame_unnamed u;
	struct flame_opts o = { .title = title };
	FILE *in, *out = svg;
	double n;
	long drawn;
	int e;

	if (!json_is_string(json_object_get(fg, "folded")))
		return 0;
	snprintf(path, sizeof(path), "%s/%s", dir, json_str_of(fg, "folded", ""));
	in = fopen(path, "r");
	if (!in)
		return -errno;
	e = flame_unnamed_count(in, NULL, &u);
	if (e) {
		fclose(in);
		return e;
	}
	n = u.samples;
	json_object_set_new(fg, "samples", json_integer((json_int_t)n));
	json_object_set_new(fg, "sample_period", json_real(flame_sample_period(fg)));
	json_object_set_new(fg, "sampling_error", json_pack(
		"{s:s, s:f, s:f, s:f}", "formula", "2*sqrt(p*(1-p)/n)", "at_1pct",
		flame_sampling_err(0.01, n), "at_10pct", flame_sampling_err(0.10, n), "zero_below",
		flame_zero_share(n)));
	json_object_set_new(fg, "unnamed", flame_unnamed_json(&u, ks));
	entry_lines(fg, &u, l);
	snprintf(title, sizeof(title), "xdptc: %s drop, every CPU during one window",
		 json_str_of(fg, "mode", ""));
	for (int i = 0; i < 3; i++)
		o.lines[i] = l[i];
	o.unit = json_str_of(fg, "period_unit", "ns");
	if (json_num_of(fg, "pkts_at_dut") > 0)
		o.per_sample = flame_sample_period(fg) / json_num_of(fg, "pkts_at_dut");
	if (!out) {
		snprintf(path, sizeof(path), "%s/%s", dir, json_str_of(fg, "svg", ""));
		out = fopen(path, "w");
	}
	rewind(in);
	drawn = out ? flame_svg(in, out, &o) : -errno;
	fclose(in);
	if (out && out != svg && fclose(out) && drawn >= 0)
		drawn = -EIO;
	return drawn < 0 ? (int)drawn : 0;
}

int flame_render_run(json_t *run, const char *dir, char *err, size_t errlen)
{
	json_t *fg;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(run, "flamegraphs"), i, fg) {
		int e;

		if (!json_is_string(json_object_get(fg, "folded")))
			continue;
		e = flame_render_entry(run, fg, dir, NULL);
		if (e == -ENOENT)
			continue; /* a run kept without its folded stacks: its entry as it was */
		if (e) {
			snprintf(err, errlen, "the flame graph of %s (%s/%s): %s",
				 json_str_of(fg, "mode", ""), dir, json_str_of(fg, "folded", ""),
				 strerror(-e));
			return e;
		}
		n++;
	}
	return n;
}
