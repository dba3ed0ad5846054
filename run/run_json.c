/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_json.c: a run's pieces as run.json objects (the machine, the engine, the settings,
 * the capabilities, the guest, each trial, the timing schedule).
 * The keys are documented in docs/run-json.md and checked by docs/run.schema.json.
 */
#include "run_json.h"

#include "run_arms.h"

#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "metrics.h"
#include "run_opts_json.h"
#include "run_timing.h"
#include "trial.h"

void machine_cpu_model(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(buf, len, "%s", colon + 2);
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
}

json_t *machine_json(void)
{
	struct utsname u;
	char model[160];
	json_t *m = json_object();

	machine_cpu_model(model, sizeof(model));
	uname(&u);
	json_object_set_new(m, "cpu_model", json_string(model));
	json_object_set_new(m, "cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(m, "kernel_release", json_string(u.release));
	json_object_set_new(m, "kernel_version", json_string(u.version));
	json_object_set_new(m, "arch", json_string(u.machine));
	return m;
}

/* Where the run measured: "host", or "icount" with what the guest, qemu and the host
 * were. The virtio engine knows them here (@icount_guest, its topology); inside the veth
 * engine's guest the host wrote them into the run options (o->icount_host,
 * run_opts_to_json). */
json_t *engine_json(const struct run_opts *o, const struct topology *icount_guest)
{
	struct utsname u;
	char cpu[160];
	json_t *e = json_object();
	const char *qemu = o->icount_host.qemu, *args = o->icount_host.icount;
	const char *host_cpu = o->icount_host.host_cpu_model;
	const char *host_kernel = o->icount_host.host_kernel;
	const char *guest_kernel;

	if (!icount_guest && !o->inside_icount) {
		json_object_set_new(e, "name", json_string("host"));
		return e;
	}
	uname(&u);
	guest_kernel = u.release;
	if (icount_guest) { /* this host is the host */
		machine_cpu_model(cpu, sizeof(cpu));
		qemu = icount_guest->qemu_version;
		args = icount_guest->icount;
		guest_kernel = icount_guest->guest_kernel;
		host_cpu = cpu;
		host_kernel = u.release;
	}
	json_object_set_new(e, "name", json_string("icount"));
	json_object_set_new(e, "guest_kernel", json_string(guest_kernel));
	json_object_set_new(e, "qemu", json_string(qemu ? qemu : "unknown"));
	json_object_set_new(e, "icount", json_string(args ? args : "unknown"));
	json_object_set_new(e, "host_cpu_model", json_string(host_cpu ? host_cpu : "unknown"));
	json_object_set_new(e, "host_kernel", json_string(host_kernel ? host_kernel : "unknown"));
	json_object_set_new(e, "conversion",
			    json_string(icount_guest
				? "-icount shift=0: the guest clock advances 1 ns per guest "
				  "instruction, so the guest's NAPI thread and ksoftirqd CPU time in "
				  "ns counts instructions; guest_instructions_per_pkt = those ns over "
				  "pkts_at_dut"
				: "-icount shift=0: the guest clock advances 2^0 = 1 ns per guest "
				  "instruction, so per-task CPU time in ns (schedstat, "
				  "CLOCK_THREAD_CPUTIME_ID) counts instructions; "
				  "guest_instructions_per_pkt = those ns over pkts_at_dut"));
	return e;
}

/* ---- trials as JSON ---- */

/* @v per packet; NaN when no packet reached the DUT: unknown, never 0 */
double per_pkt(uint64_t v, uint64_t pkts)
{
	return pkts ? (double)v / (double)pkts : NAN;
}

/* A number for run.json: null when unknown (NaN; jansson has no NaN) */
static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The perf stat figures of timing trial @r into @t: "perf" (per event its value, unit,
 * running percentage and the lines summed, or null with perf's reason), and per event
 * E_per_pkt over pkts_at_dut (null when uncounted), E_pct_running when below 100,
 * "ipc" when cycles and instructions both counted, "perf_enabled_ns" (the counted
 * window) and "perf_error" when perf stat failed. */
static void perf_json(json_t *t, const struct trial_result *r)
{
	json_t *pj = json_object();
	double cyc = NAN, ins = NAN;

	for (int i = 0; i < r->perf_n; i++) {
		const struct perf_stat_value *v = &r->perf[i];
		json_t *o = json_object();
		bool ok = r->have_perf && v->counted;
		char k[112];

		json_object_set_new(o, "value", ok ? json_real(v->value) : json_null());
		if (ok) {
			json_object_set_new(o, "unit", json_string(v->unit));
			json_object_set_new(o, "pct_running", json_real(v->pct_running));
			json_object_set_new(o, "lines", json_integer(v->lines));
			if (v->user_only) /* perf's :u fallback: user space only */
				json_object_set_new(o, "user_only", json_true());
		} else {
			json_object_set_new(o, "reason", json_string(r->perf_error[0] ? r->perf_error
										: v->reason));
		}
		json_object_set_new(pj, v->event, o);
		json_object_set_new(t, v->metric,
				    ok && r->pkts_at_dut ? json_real(v->value / (double)r->pkts_at_dut)
							 : json_null());
		if (ok && v->pct_running < 100) {
			snprintf(k, sizeof(k), "%.*s_pct_running",
				 (int)(strlen(v->metric) - strlen("_per_pkt")), v->metric);
			json_object_set_new(t, k, json_real(v->pct_running));
		}
		if (ok && !strcmp(v->event, "cycles"))
			cyc = v->value;
		if (ok && !strcmp(v->event, "instructions"))
			ins = v->value;
	}
	json_object_set_new(t, "perf", pj);
	if (isfinite(cyc) && isfinite(ins) && cyc > 0)
		json_object_set_new(t, "ipc", json_real(ins / cyc));
	if (r->perf_enabled_ns)
		json_object_set_new(t, "perf_enabled_ns", json_integer((json_int_t)r->perf_enabled_ns));
	if (r->perf_error[0])
		json_object_set_new(t, "perf_error", json_string(r->perf_error));
}

/* run.json's keys of one trial, each function a group of them into object @t (in the
 * order run.json has always written them) */
#define SETI(k, v) json_object_set_new(t, k, json_integer((json_int_t)(v)))
#define SETR(k, v) json_object_set_new(t, k, real_or_null(v))

/* What trial @r is: its pass, repetition @rep, place @seq in the run, arm @label, the
 * kernel's attach mode and program id, the metric table's plain fields as they are,
 * whether it is valid (and why not), and whether BPF statistics were on. */
static void trial_head_json(json_t *t, const struct trial_result *r, const char *label,
			    int rep, int seq)
{
	json_object_set_new(t, "pass", json_string(trial_pass_name(r->pass)));
	SETI("rep", rep);
	SETI("seq", seq);
	json_object_set_new(t, "mode", json_string(label));
	json_object_set_new(t, "kernel_mode", json_string(r->kernel_mode));
	SETI("prog_id", r->prog_id);
	/* the plain fields of the metric table, as they are */
	for (const struct metric *x = metrics; x->name; x++) {
		const char *field = (const char *)r + x->trial_offset;

		if (x->from_trial == METRIC_FROM_U64)
			SETI(x->name, *(const uint64_t *)(const void *)field);
		else if (x->from_trial == METRIC_FROM_I64)
			SETI(x->name, *(const int64_t *)(const void *)field);
	}
	json_object_set_new(t, "valid", json_boolean(r->valid));
	if (!r->valid)
		json_object_set_new(t, "invalid_reason", json_string(r->invalid_reason));
	if (r->bpf_stats_on)
		json_object_set_new(t, "bpf_stats_on", json_true());
}

/* Trial @r's time: the host's other load and steal (ns, when the host's own tasks were
 * measured), the guest's vCPU time (ns), the time metric under @time_key (per packet:
 * ns, or instructions under icount; null when unknown) and the sender's rate (pps). */
static void trial_time_json(json_t *t, const struct trial_result *r, const char *time_key)
{
	if (!r->vcpu_ns && strcmp(time_key, "guest_instructions_per_pkt")) { /* the host's own measured tasks */
		SETI("steal_ns", r->steal_ns);
		SETI("other_busy_ns", r->other_busy_ns);
		json_object_set_new(t, "other_load", json_boolean(r->other_load));
		json_object_set_new(t, "host_steal", json_boolean(r->host_steal));
	}
	if (r->vcpu_ns)
		SETI("guest_vcpu_ns", r->vcpu_ns);
	SETR(time_key, r->cpu_ns_per_pkt);
	SETR("pps", r->wall_ns ? (double)r->sent * 1e9 / (double)r->wall_ns : 0.0);
}

/* A trial @r whose traffic came from outside: sent and pps unknown (null, never 0), what
 * the NIC took in stands for sent (offered, packets; offered_pps), the NIC's misses, the
 * receive path's time (ns) and the driver's own counters that moved (ethtool -S). */
static void trial_outside_json(json_t *t, const struct trial_result *r)
{
	json_object_set_new(t, "sent", json_null()); /* unknown here, never 0 */
	json_object_set_new(t, "pps", json_null());
	SETI("offered", r->offered);
	SETR("offered_pps", r->offered_pps);
	SETI("dut_rx_missed", r->dut_rx_missed);
	SETI("rx_path_ns", r->rx_path_ns);
	SETI("rx_hardirq_ns", r->rx_hardirq_ns);
	if (r->nic) { /* the driver's own words (ethtool -S), where they moved */
		json_t *n = json_object();

		for (int i = 0; i < r->nic_n; i++)
			json_object_set_new(n, r->nic[i].name, json_integer(r->nic[i].delta));
		json_object_set_new(t, "nic_counters", n);
	}
}

/* Count pass trial @r's skb counts by the backends of @plan: per count its value and
 * per packet (null when no backend gives it), the other backends' figures where the plan
 * read them too (NAME_by_backend), "counters_backend" naming each count's backend, and
 * the tracepoints' detail where they were attached. */
static void trial_counts_json(json_t *t, const struct trial_result *r,
			      const struct skb_counters_plan *plan)
{
	const uint64_t *c = r->counts.v;
	char backends[128] = "";

	for (int k = 0; k < SKB_COUNT_NR; k++) {
		const char *name = skb_count_name((enum skb_count)k);
		char key[64];

		snprintf(backends + strlen(backends), sizeof(backends) - strlen(backends),
			 "%s%s=%s", k ? "," : "", name, counter_backend_name(plan->backend[k]));
		if (plan->backend[k] == BACKEND_NONE) {
			json_object_set_new(t, name, json_null());
			continue;
		}
		uint64_t v = skb_count_value(c, (enum skb_count)k, plan->backend[k]);

		SETI(name, v);
		if (skb_count_missed(c, (enum skb_count)k, plan->backend[k])) {
			/* hits whose program the kernel skipped: in v */
			snprintf(key, sizeof(key), "%s_missed", name);
			SETI(key, skb_count_missed(c, (enum skb_count)k, plan->backend[k]));
		}
		snprintf(key, sizeof(key), "%s_per_pkt", name);
		SETR(key, per_pkt(v, r->pkts_at_dut));
		if (plan->also[k]) { /* the same count from the other backends */
			json_t *by = json_object();

			for (int b = 0; b < BACKEND_NR; b++)
				if (b == plan->backend[k] || (plan->also[k] & (1u << b)))
					json_object_set_new(by, counter_backend_name(b),
						json_integer((json_int_t)skb_count_value(
							c, (enum skb_count)k, b)));
			snprintf(key, sizeof(key), "%s_by_backend", name);
			json_object_set_new(t, key, by);
		}
	}
	json_object_set_new(t, "counters_backend", json_string(backends));
	/* the tracepoints' detail, where they were attached */
	if (plan->backend[SKB_STACK_ENTRIES] == BACKEND_TRACEPOINT)
		SETI("stack_entries_any_dev", c[CNT_TP_STACK_ALL]);
	if (plan->backend[SKB_FREED] == BACKEND_TRACEPOINT) {
		SETI("kfree_skb", c[CNT_TP_KFREE_ALL]);
		SETI("consume_skb", c[CNT_TP_CONSUME_ALL]);
		SETI("kfree_skb_on_dut", c[CNT_TP_KFREE_DUT]);
		SETI("consume_skb_on_dut", c[CNT_TP_CONSUME_DUT]);
	}
}

/* The icount engine's plugin over trial @r's window: its instructions (the window's,
 * retired, rep string iterations, the icount clock's), the halts and idle time (ns), the
 * clock's gap, and per packet the retired, window and string instructions and the pages
 * cleared. */
static void trial_insns_json(json_t *t, const struct trial_result *r)
{
	SETI("insn_window", r->insn_window);
	SETI("insn_retired", r->insn_retired);
	SETI("insn_string_iterations", r->insn_string_iterations);
	SETI("insn_clock", r->insn_clock);
	SETI("insn_halts", r->insn_halts);
	SETI("insn_idle_ns", r->insn_idle_ns);
	SETR("insn_clock_gap", r->insn_clock_gap);
	SETR("retired_instructions_per_pkt", r->retired_instructions_per_pkt);
	SETR("window_instructions_per_pkt", r->window_instructions_per_pkt);
	SETR("string_iterations_per_pkt", r->string_iterations_per_pkt);
	SETR("pages_cleared_per_pkt", r->pages_cleared_per_pkt);
}

json_t *trial_json(const struct trial_result *r, const char *label, int rep, int seq,
		   const struct skb_counters_plan *plan, const char *time_key)
{
	json_t *t = json_object();

	trial_head_json(t, r, label, rep, seq);
	trial_time_json(t, r, time_key);
	if (r->outside) /* traffic from outside: what the NIC took in stands for sent */
		trial_outside_json(t, r);
	if (r->perf_n) /* perf stat over the window: each event, and it per packet */
		perf_json(t, r);
	if (r->have_counts)
		trial_counts_json(t, r, plan);
	if (r->have_insns) /* the icount engine's plugin over the sender's window */
		trial_insns_json(t, r);
	if (r->have_bpf_stats) { /* the BPF statistics pass: the program's run time, ns */
		SETI("bpf_run_time_ns", r->bpf_run_time_ns);
		SETI("bpf_run_cnt", r->bpf_run_cnt);
		SETR("bpf_ns_per_run", r->bpf_run_cnt ? (double)r->bpf_run_time_ns /
								 (double)r->bpf_run_cnt
						      : 0.0);
	}
	return t;
}
#undef SETI
#undef SETR


json_t *settings_json(const struct run_opts *o)
{
	json_t *s = json_object(), *modes = json_array();

	for (int i = 0; i < o->nmodes; i++)
		json_array_append_new(modes, json_string(arm_label(o, i)));
	json_object_set_new(s, "modes", modes);
	json_object_set_new(s, "packets", o->dev ? json_null() /* windows of time */
						 : json_integer((json_int_t)o->packets));
	json_object_set_new(s, "warmup", json_integer((json_int_t)o->warmup));
	json_object_set_new(s, "reps", json_integer(o->reps));
	json_object_set_new(s, "count_reps", json_integer(o->count_reps));
	json_object_set_new(s, "schedule", json_string(o->schedule == SCHEDULE_CLASSIC ? "classic"
						       : o->schedule == SCHEDULE_ALTERNATING
							   ? "alternating" : "auto"));
	if (o->dev) { /* traffic from outside: windows of time on the device named */
		json_object_set_new(s, "warmup", json_null()); /* no packets: warmup_s */
		json_object_set_new(s, "warmup_s", json_real(o->window_s / RUN_WINDOW_WARMUP_DIV));
		json_object_set_new(s, "device", json_string(o->dev));
		json_object_set_new(s, "netns", o->dev_netns ? json_string(o->dev_netns)
							     : json_null());
		json_object_set_new(s, "window_s", json_real(o->window_s));
		json_object_set_new(s, "rate_tolerance", json_real(o->rate_tolerance));
		json_object_set_new(s, "allow_default_route_dev",
				    json_boolean(o->allow_default_route_dev));
	}
	if (o->window_ms > 0)
		json_object_set_new(s, "window_ms", json_real(o->window_ms));
	if (o->windows_per_attach > 0)
		json_object_set_new(s, "windows_per_attach", json_integer(o->windows_per_attach));
	json_object_set_new(s, "timing_budget_s", json_real(o->timing_budget_s));
	json_object_set_new(s, "target_halfwidth", json_real(o->target_halfwidth));
	json_object_set_new(s, "segments", json_integer(o->segments));
	json_object_set_new(s, "port", json_integer(o->port));
	json_object_set_new(s, "payload_len", json_integer(o->payload_len));
	/* Ethernet + IPv4 + UDP headers + payload, without the 4-byte FCS */
	json_object_set_new(s, "frame_len", json_integer(o->payload_len + 42));
	json_object_set_new(s, "sender", json_string(sender_name(o->sender)));
	json_object_set_new(s, "sender_cpu", json_integer(o->sender_cpu));
	json_object_set_new(s, "rate_pps", json_integer((json_int_t)o->rate_pps));
	json_object_set_new(s, "seed", json_integer((json_int_t)o->seed));
	json_object_set_new(s, "order", json_string("seeded shuffle per repetition"));
	json_object_set_new(s, "aa", o->aa_arm >= 0 ? json_string(arm_label(o, o->aa_arm)) : json_null());
	json_object_set_new(s, "passes", json_string(o->flame ? "timing, count, bpfstats, profile"
							       : "timing, count, bpfstats"));
	json_object_set_new(s, "flame_graphs", json_boolean(o->flame));
	json_object_set_new(s, "threaded_napi", json_boolean(o->threaded_napi));
	if (o->threaded_napi)
		json_object_set_new(s, "napi_cpu", o->napi_cpu >= 0 ? json_integer(o->napi_cpu)
								  : json_string("not the sender's"));
	/* every other setting the options declare, each under its row's key
	 * (run_opt_table.c), as the icount engine's inner run gets it */
	for (const struct run_opt *r = run_opt_table; r->name; r++)
		if (r->json && !json_object_get(s, r->json))
			json_object_set_new(s, r->json, run_opt_json(r, o));
	return s;
}

json_t *timing_plan_json(const struct timing_plan *p)
{
	const struct timing_noise *nz = &p->noise;
	json_t *j = json_object(), *n = json_object(), *lens = json_array(), *oh = json_array();

	json_object_set_new(j, "schedule", json_string(p->alternating ? "alternating" : "classic"));
	if (!p->alternating)
		return j;
	json_object_set_new(j, "window_ms", json_real(p->window_ms));
	json_object_set_new(j, "window_from", json_string(p->window_from));
	json_object_set_new(j, "window_packets", json_integer((json_int_t)p->window_packets));
	json_object_set_new(j, "window_warmup", json_integer((json_int_t)p->window_warmup));
	json_object_set_new(j, "windows_per_visit", json_integer(p->per_visit));
	json_object_set_new(j, "junction_arm", p->junction_arm >= 0
			    ? json_integer(p->junction_arm) : json_null());
	json_object_set_new(j, "blocks", json_integer(p->blocks));
	json_object_set_new(j, "rounds_per_block", json_integer(p->rounds_per_block));
	json_object_set_new(j, "segments", json_integer(p->segments));
	json_object_set_new(j, "blocks_per_segment", json_integer(p->blocks_per_segment));
	json_object_set_new(j, "pairs_for_target", json_integer(p->pairs_for_target));
	json_object_set_new(j, "pair_lag_ms", json_real(p->pair_lag_ms));
	json_object_set_new(j, "pair_sd", json_real(p->pair_sd));
	json_object_set_new(j, "target_halfwidth", json_real(p->target_halfwidth));
	json_object_set_new(j, "predicted_halfwidth", json_real(p->predicted_halfwidth));
	json_object_set_new(j, "budget_s", json_real(p->budget_s));
	json_object_set_new(j, "predicted_s", json_real(p->predicted_s));
	json_object_set_new(n, "mode", json_string(nz->mode));
	json_object_set_new(n, "slots", json_integer(nz->slots));
	json_object_set_new(n, "slot_ms", json_real(nz->slot_ms));
	json_object_set_new(n, "slot_cycle_ms", json_real(nz->slot_cycle_ms));
	json_object_set_new(n, "slot_packets", json_integer((json_int_t)nz->slot_packets));
	json_object_set_new(n, "span_ms", json_real(nz->span_ms));
	json_object_set_new(n, "wall_ns_per_pkt", json_real(nz->wall_ns_per_pkt));
	json_object_set_new(n, "cv", json_real(nz->cv));
	json_object_set_new(n, "autocorrelation", json_pack("{s:f, s:f, s:f, s:f}",
		"lag1", nz->ac[0], "lag2", nz->ac[1], "lag5", nz->ac[2], "lag10", nz->ac[3]));
	json_object_set_new(n, "gap_ms", json_real(nz->gap_ms));
	json_object_set_new(n, "hl_inflation", json_real(nz->hl_inflation));
	for (int i = 0; i < RUN_MAX_MODES && nz->overhead_ms_by_arm[i] > 0; i++)
		json_array_append_new(oh, json_real(nz->overhead_ms_by_arm[i]));
	json_object_set_new(n, "visit_overhead_ms_by_arm", oh);
	for (int i = 0; i < nz->nlen; i++) {
		const struct timing_noise_len *l = &nz->len[i];
		json_t *d = json_array();

		for (int k = 0; k < l->nlags; k++)
			json_array_append_new(d, json_real(l->d[k]));
		json_array_append_new(lens, json_pack("{s:f, s:i, s:f, s:o}", "window_ms",
						      l->window_ms, "slots", l->slots, "lag_ms",
						      l->slots * nz->slot_cycle_ms, "pair_sd_by_lag", d));
	}
	json_object_set_new(n, "lengths", lens);
	json_object_set_new(j, "noise", n);
	return j;
}

/* Capabilities of this run: the PMU (local DUT only) and the count pass's probes. */
json_t *capabilities_json(bool have_pmu, const char *pmu_why, bool remote,
			  const struct dut_counters_info *ci, const char *time_key)
{
	json_t *caps = json_object(), *pmu_j = json_object(), *cnt_j;

	/* hardware events counting per task (doctor's perf stat try); what each asked-for
	 * event gave is in every timing trial's "perf" */
	json_object_set_new(pmu_j, "available", json_boolean(have_pmu));
	if (!have_pmu)
		json_object_set_new(pmu_j, "reason", json_string(pmu_why));
	json_object_set_new(caps, "pmu", pmu_j);
	json_object_set_new(caps, "time_metric",
			    json_string(!strcmp(time_key, "guest_instructions_per_pkt")
				? "guest_instructions_per_pkt (guest CPU time at -icount shift=0: 1 ns = 1 instruction)"
				: remote ? "cpu_ns_per_pkt (host CPU time of the guest's vCPU thread)"
				: "cpu_ns_per_pkt (per-task CPU time, schedstat)"));
	cnt_j = counters_plan_to_json(&ci->plan);
	json_object_del(cnt_j, "ok");
	json_object_set_new(caps, "counters", cnt_j);
	return caps;
}

json_t *guest_json(const struct topology *t)
{
	json_t *g = json_object();

	json_object_set_new(g, "kernel_release", json_string(t->guest_kernel));
	json_object_set_new(g, "accelerator", json_string(t->accel));
	json_object_set_new(g, "accelerator_reason", json_string(t->accel_reason));
	json_object_set_new(g, "qemu", json_string(t->qemu_version));
	json_object_set_new(g, "vcpus", json_integer(1));
	json_object_set_new(g, "emulated_time", json_boolean(strcmp(t->accel, "kvm") != 0));
	return g;
}

