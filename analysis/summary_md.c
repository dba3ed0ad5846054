/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* summary_md.c: summary.md (summary_md.h): its header (what was measured where, how,
 * and what may have disturbed it), its table of each mode's figures, then the notes,
 * deltas and footer (summary_notes.c). */
#include "summary_md.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "json_read.h"
#include "metrics.h"
#include "page_regime.h"
#include "skb_counters.h"
#include "summary_facts.h"
#include "summary_flame.h"
#include "summary_notes.h"
#include "summary_pictures.h"
#include "summary_segments.h"
#include "summary_words.h"
#include "window_delta.h"

/* The line saying where the time metric comes from (and the engine, or the guest). */
/* The icount engine's time: instructions, on its guest (virtio) or all inside it. */
static void time_source_icount(const struct render_ctx *rc)
{
	const char *timing_words = rc->timing_words;
	const json_t *guest = rc->guest;
	const json_t *run = rc->run;
	FILE *out = rc->out;
	const json_t *en = json_object_get(run, "engine");
	const char *qemu = json_str_of(en, "qemu", "?");
	const char *args = json_str_of(en, "icount", "?");
	const char *kern = json_str_of(en, "guest_kernel", "?");

	if (guest) /* virtio: the guest is the DUT */
		fprintf(out, "- Engine: icount: the DUT is a qemu TCG guest (%s, %s), kernel "
			     "%s, its virtio-net eth0 fed from this host's tap\n",
			qemu, args, kern);
	else /* veth: the whole experiment in the guest */
		fprintf(out, "- Engine: icount: the whole experiment ran inside a qemu TCG "
			     "guest (%s, %s), guest kernel %s, on a host with %s, kernel %s\n",
			qemu, args, kern,
			json_str_of(en, "host_cpu_model", "?"),
			json_str_of(en, "host_kernel", "?"));
	fprintf(out, "- Time: %s = %s, over pkts_at_dut; at -icount "
		     "shift=0 the guest clock advances 1 ns per guest instruction, so these "
		     "ns are instructions (no cpu_ns_per_pkt: emulated time is no host "
		     "time); %s\n",
		summary_time_metric(run),
		guest ? "the guest's CPU time in ns of its NAPI thread (threaded NAPI on "
			"eth0) and ksoftirqd"
		: json_is_string(json_object_get(run, "timed"))
			? json_string_value(json_object_get(run, "timed"))
			: "guest CPU time in ns of the sender thread (which runs the veth "
			  "receive softirq) + ksoftirqd/NAPI threads",
		timing_words);
}

/* The DUT's receive path in a kernel thread of its own (threaded NAPI on veth). */
static void time_source_napi(const struct render_ctx *rc)
{
	const char *timing_words = rc->timing_words;
	const json_t *set = rc->set;
	FILE *out = rc->out;
	const json_t *nc = json_object_get(set, "napi_cpu");

	if (json_is_integer(nc) &&
	    json_integer_value(nc) == json_integer_value(json_object_get(set, "sender_cpu")))
		fprintf(out, "- Threaded NAPI: the DUT's receive path runs in its own kernel "
			     "thread (napi/DEV, %s) on the sender's CPU %lld: the two take "
			     "turns, and the thread's CPU time is the DUT's\n",
			json_str_of(set, "napi_thread_sched", "?"),
			json_integer_value(nc));
	else if (json_is_integer(nc))
		fprintf(out, "- Threaded NAPI: the DUT's receive path runs in its own kernel "
			     "thread (napi/DEV, %s) on CPU %lld\n",
			json_str_of(set, "napi_thread_sched", "?"),
			json_integer_value(nc));
	else
		fprintf(out, "- Threaded NAPI: the DUT's receive path runs in its own kernel "
			     "thread (napi/DEV, %s), kept off the sender's CPU\n",
			json_str_of(set, "napi_thread_sched", "?"));
	fprintf(out, "- Time: cpu_ns_per_pkt = CPU time of the sender thread + the DUT's "
		     "NAPI thread and ksoftirqd, over pkts_at_dut; at max_drop_pps the NAPI "
		     "thread's alone (the sender's own time, pacing included, is not the DUT's cost); %s\n",
		timing_words);
}

static void header_time_source(const struct render_ctx *rc)
{
	const json_t *set = rc->set;
	const json_t *guest = rc->guest;
	const char *timing_words = rc->timing_words;
	const json_t *run = rc->run;
	FILE *out = rc->out;

	if (summary_time_is_guest(summary_time_metric(run))) {
		time_source_icount(rc);
	} else if (json_is_object(json_object_get(run, "device"))) { /* traffic from outside */
		const json_t *dev = json_object_get(run, "device");

		fprintf(out, "- Time: cpu_ns_per_pkt = the NET_RX softirq's CPU time on every CPU "
			     "and the hard-IRQ time of %s's IRQs outside it (probes/rx_time.bpf.c: "
			     "irq:softirq_entry/softirq_exit, irq:irq_handler_entry/exit; it fires "
			     "per softirq run and per interrupt, not per packet, in every pass and "
			     "mode alike) + its threaded-NAPI threads, over pkts_at_dut; receive "
			     "CPUs %s; BPF statistics off in the timing pass\n",
			json_str_of(set, "device", "?"), json_str_of(dev, "receive_cpus", "unknown"));
	} else if (guest) {
		bool emulated = json_is_true(json_object_get(guest, "emulated_time"));

		fprintf(out, "- Guest (the DUT is its virtio-net eth0): kernel %s, %lld vCPU, %s, %s\n",
			json_str_of(guest, "kernel_release", "?"),
			json_integer_value(json_object_get(guest, "vcpus")),
			json_str_of(guest, "accelerator", "?"),
			json_str_of(guest, "qemu", "?"));
		fprintf(out, "- Time: cpu_ns_per_pkt = host CPU time of the guest's vCPU thread over "
			     "pkts_at_dut; %s\n", timing_words);
		if (emulated)
			fprintf(out, "- **These are emulation times (TCG)**: the guest's instructions "
				     "are translated and run by qemu, so only the within-run "
				     "comparison and the counts carry meaning, not the absolute "
				     "nanoseconds\n");
	} else if (json_is_true(json_object_get(set, "threaded_napi"))) {
		time_source_napi(rc);
	} else if (json_is_string(json_object_get(run, "timed"))) { /* the topology's words */
		fprintf(out, "- Time: cpu_ns_per_pkt = %s, over pkts_at_dut; %s\n",
			json_string_value(json_object_get(run, "timed")), timing_words);
	} else {
		fprintf(out, "- Time: cpu_ns_per_pkt = CPU time of the sender thread (which runs the "
			     "veth receive softirq) + ksoftirqd/NAPI threads, over pkts_at_dut; "
			     "%s\n", timing_words);
	}
}

/* One of the load notes: @fmt (with the count of trials under @key and the count of
 * load-checked trials, both %lld) when @key counts any trial. */
static void load_note(FILE *out, const json_t *s, const char *key, const char *fmt)
{
	long long n = json_integer_value(json_object_get(s, key));

	if (n > 0)
		fprintf(out, fmt, n,
			(long long)json_integer_value(json_object_get(s, "timing_trials_load_checked")));
}

/* "; N of its M probe hits ... counted" when the count pass's trials of @run missed
 * hits of @count (run.json's COUNT_missed: hits whose probe program did not run), else
 * "". The text lives in a static buffer, until the next call. */
static const char *missed_note(const json_t *run, const char *count)
{
	static char buf[400];
	char key[64];
	long long missed = 0, hits = 0;
	const json_t *t;
	size_t i;

	snprintf(key, sizeof(key), "%s_missed", count);
	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (!strcmp(json_str_of(t, "pass", ""), "count")) {
			missed += (long long)json_integer_value(json_object_get(t, key));
			hits += (long long)json_integer_value(json_object_get(t, count));
		}
	if (!missed)
		return "";
	snprintf(buf, sizeof(buf), "; %lld of its %lld hits in the count pass ran no handler "
		 "(a probe hit inside another probe's handler) and are added from the kernel's "
		 "miss counts (docs/counters.md)", missed, hits);
	return buf;
}

/* What may have disturbed the timing pass: steal time, other load, BPF statistics held
 * on by someone else, the JIT off. */
static void header_disturbances(const struct render_ctx *rc)
{
	const json_t *s = rc->s;
	const char *bpf_stats_outside = rc->bpf_stats_outside;
	const json_t *run = rc->run;
	FILE *out = rc->out;

	load_note(out, s, "timing_trials_host_steal",
		  "- **Steal time**: in %lld of %lld timing trials the hypervisor ran other "
		  "work on this VM's CPUs for at least a quarter of the window "
		  "(`host_steal` and `steal_ns` in run.json): the host was loaded, so "
		  "absolute times per packet are inflated and spread wider; the paired "
		  "deltas, which compare trials taken next to each other, are the ones to "
		  "read\n");
	load_note(out, s, "timing_trials_other_load",
		  "- **Other load**: %lld of %lld timing trials ran while other work kept "
		  "a CPU busy for at least a quarter of the window (`other_load` and "
		  "`other_busy_ns` in run.json): such work slows the measured path (shared "
		  "caches, memory bandwidth, the hypervisor), so absolute times per packet "
		  "are inflated and spread wider; the paired deltas, which compare trials "
		  "taken next to each other, are the ones to read\n");
	if (bpf_stats_outside)
		fprintf(out, "- **BPF statistics were on during the timing pass** (%s; xdptc "
			     "leaves such a setting as it was): every run of a BPF program read the "
			     "clock twice, which adds to the XDP and TC modes' time alike but not to "
			     "mode none; the BPF-stats pass cost cannot be measured\n",
			bpf_stats_outside);
	{
		long jit = (long)json_integer_value(json_object_get(
			json_object_get(json_object_get(run, "doctor"), "sysctls"),
			"net.core.bpf_jit_enable"));

		if (json_is_integer(json_object_get(json_object_get(json_object_get(run, "doctor"),
								    "sysctls"),
						    "net.core.bpf_jit_enable")) && jit == 0)
			fprintf(out, "- **The BPF JIT was off** (net.core.bpf_jit_enable=0): the drop "
				     "programs were interpreted, several times slower than the JIT "
				     "code a production kernel runs\n");
	}
}

static void header_time(const struct render_ctx *rc)
{
	header_time_source(rc);
	header_disturbances(rc);
}

static void header_sources(const struct render_ctx *rc)
{
	const json_t *modes = rc->modes;
	const json_t *set = rc->set;
	const json_t *cnt = rc->cnt;
	const json_t *pmu = rc->pmu;
	const json_t *run = rc->run;
	FILE *out = rc->out;
	size_t i;
	json_t *m;

	if (json_is_array(summary_perf_events(run))) {
		size_t k;
		json_t *e;

		if (!json_array_size(summary_perf_events(run)))
			fprintf(out, "- perf events: none counted (%s)\n",
				json_str_of(set, "perf_events_reason", "?"));
		else
			fprintf(out, "- perf events: counted by perf stat over each timing window (its "
				     "counters on right before the %s window and off right after "
				     "it, not during the settle wait) on %s; scaled by perf where "
				     "counters were shared:",
				json_is_object(json_object_get(run, "device")) ? "measured" : "sender's",
				json_str_of(set, "perf_scope", "?"));
		json_array_foreach(summary_perf_events(run), k, e) {
			const char *metric = json_str_of(e, "metric", "?");
			char rkey[140];

			snprintf(rkey, sizeof(rkey), "%s_reason", metric);
			fprintf(out, "%s %s", k ? ";" : "",
				json_str_of(e, "event", "?"));
			json_array_foreach(modes, i, m)
				if (json_is_string(json_object_get(m, rkey))) {
					fprintf(out, " (none: %s)",
						json_string_value(json_object_get(m, rkey)));
					break;
				}
		}
		if (json_array_size(summary_perf_events(run)))
			fprintf(out, "\n");
	} else {
		fprintf(out, "- Cycles: %s\n",
			json_is_true(json_object_get(pmu, "available"))
				? "PMU counters (perf_event_open, all CPUs)"
				: json_str_of(pmu, "reason", "n/a"));
	}
	{
		fprintf(out, "- Counters (count pass):\n");
		for (int k = 0; k < SKB_COUNT_NR; k++) {
			const char *count = skb_count_name((enum skb_count)k);
			const json_t *c = json_object_get(cnt, count);
			const char *b = json_str_of(c, "backend", "?");

			if (!strcmp(b, "unavailable"))
				fprintf(out, "  - %s: unavailable (%s)\n", count,
					json_str_of(c, "passed_over", ""));
			else
				fprintf(out, "  - %s: %s backend, %s%s\n", count, b,
					json_str_of(c, "points", "?"), missed_note(run, count));
		}
	}
}

/* The timing pass's blocks: those measured where the stopping rule recorded them, else
 * the repetitions asked for. */
static long long timing_blocks(const json_t *run, const json_t *set)
{
	const json_t *st = json_object_get(json_object_get(run, "timing_schedule"), "stop");

	return json_integer_value(json_object_get(st, "blocks"))
		       ? (long long)json_integer_value(json_object_get(st, "blocks"))
		       : (long long)json_integer_value(json_object_get(set, "reps"));
}

/* A mode asked for that this machine cannot run: one sentence each. */
static void header_refused(const json_t *run, FILE *out)
{
	const json_t *r;
	size_t i;
	int n = 0;

	json_array_foreach(json_object_get(run, "modes_refused"), i, r)
		n += fprintf(out, "%s is left out of this run: %s; the other modes ran.\n",
			     json_str_of(r, "mode", "?"), json_str_of(r, "reason", "?")) > 0;
	if (n)
		fprintf(out, "\n");
}

/* The DUT NIC of a guest's emulated NIC (run.json's "dut_nic", the nic topology): its
 * model, its driver and whether the kernel says it runs XDP natively. */
static void header_dut_nic(const json_t *run, FILE *out)
{
	const json_t *nic = json_object_get(run, "dut_nic");
	const json_t *native = json_object_get(nic, "xdp_native");
	const json_t *att = json_object_get(nic, "xdp_attach"); /* before 6.3: the answer */

	if (!json_is_object(nic))
		return;
	fprintf(out, "- DUT NIC: %s, driver %s; native XDP: %s\n",
		json_str_of(json_object_get(run, "settings"), "nic", "virtio-net"),
		json_str_of(nic, "driver", "?"),
		json_is_true(native) ? "yes (the driver's xdp-features)"
		: json_is_false(native) ? "no (the driver's xdp-features)"
		: !att ? "not said by this kernel (the attach decides)"
		: json_is_true(json_object_get(att, "ok"))
			? "yes (not said by this kernel: the xdpdrv attach succeeded)"
			: "no (not said by this kernel: the xdpdrv attach was refused)");
}

/* How many of the DUT's packets veth's NAPI took (run.json's "dut_napi", the veth-napi
 * topology: its queues' rx_queue_N_xdp_packets against its rx_packets). */
static void header_dut_napi(const json_t *run, FILE *out)
{
	const json_t *n = json_object_get(run, "dut_napi");
	double napi = json_number_value(json_object_get(n, "napi_packets"));
	double rx = json_number_value(json_object_get(n, "rx_packets"));
	char a[32], b[32];

	if (!json_is_object(n))
		return;
	fprintf(out, "- veth's NAPI (veth_poll) took %s of the %s packets the DUT received "
		     "(%.2f%%; its queues' rx_queue_N_xdp_packets, over the topology's last build)\n",
		summary_fmt_count(a, sizeof(a), json_object_get(n, "napi_packets")),
		summary_fmt_count(b, sizeof(b), json_object_get(n, "rx_packets")),
		rx > 0 ? 100 * napi / rx : 0);
}

/* How many packets the router forwarded to the DUT (run.json's "router", the routed
 * topology: its namespace's ForwDatagrams against the DUT's rx_packets), over the
 * topology's last build: with the alternating pass's segments the last segment's and the
 * passes' after it, else (built once) the whole run's. */
static void header_router(const json_t *run, FILE *out)
{
	const json_t *r = json_object_get(run, "router");
	char f[32], d[32];

	if (!json_is_object(r))
		return;
	fprintf(out, "- the router's namespace %s forwarded %s packets (its ForwDatagrams, "
		     "counted in ip_forward_finish); the DUT received %s (both over the "
		     "topology's last build: %s)\n",
		json_str_of(r, "netns", "?"),
		summary_fmt_count(f, sizeof(f), json_object_get(r, "forwarded_packets")),
		summary_fmt_count(d, sizeof(d), json_object_get(r, "dut_rx_packets")),
		window_pass_alternates(run) ? "its last segment and the passes after it"
					    : "the whole run, every pass");
	if (!strstr(json_str_of(json_object_get(json_object_get(json_object_get(run,
			"capabilities"), "counters"), "stack_entries"), "points", ""), "DUT only"))
		fprintf(out, "- stack entries are counted machine-wide: the router's "
			     "receive adds one per packet to every mode (the skb is the one forwarded)\n");
}

/* The sender in words: its kind, and what a run asked of it beyond the defaults (--batch
 * other than 64, --vlan): "udp", "udp (1 datagram a sendmmsg call)", "packet, VLAN 100". */
static const char *sender_words(const json_t *set, char *buf, size_t len)
{
	long long batch = json_integer_value(json_object_get(set, "batch"));
	long long vlan = json_integer_value(json_object_get(set, "vlan"));
	size_t n = (size_t)snprintf(buf, len, "%s", json_str_of(set, "sender", "?"));

	if (batch > 0 && batch != 64 && n < len)
		n += (size_t)snprintf(buf + n, len - n, " (%lld datagram%s a sendmmsg call)", batch,
				      batch == 1 ? "" : "s");
	if (vlan > 0 && n < len)
		snprintf(buf + n, len - n, ", VLAN %lld (802.1Q)", vlan);
	return buf;
}

/* Where the traffic came from: the sender and its settings, or a device fed from
 * outside with its windows and offered rate. */
static void header_traffic(const struct render_ctx *rc)
{
	const json_t *set = rc->set;
	const json_t *run = rc->run;
	FILE *out = rc->out;
	const json_t *rate = json_object_get(set, "rate_pps");
	const json_t *dev = json_object_get(run, "device");
	const json_t *off = json_object_get(run, "offered_rate");
	char a[48], b[48], c[48], r[48], snd[96];

	if (json_is_object(dev)) { /* traffic from outside: windows of time */
		double med = json_num_of(off, "median_pps");
		char medw[64];

		if (med > 0)
			snprintf(medw, sizeof(medw), "median %.0f pps in the timing pass", med);
		else
			snprintf(medw, sizeof(medw), "no valid timing trial to take a median of");
		fprintf(out, "- Traffic: from outside, into %s (driver %s%s%s); windows of "
			     "%.1f s; offered rate: %s, %lld "
			     "trials measured, %lld invalid for being more than %.1f%% from "
			     "their pass's median; %lld repetitions of "
			     "the timing pass and %lld of the count and BPF-statistics passes, "
			     "in shuffled order (seed %lld)\n",
			json_str_of(set, "device", "?"), json_str_of(dev, "driver", "?"),
			json_is_string(json_object_get(dev, "netns")) ? ", namespace " : "",
			json_str_of(dev, "netns", ""),
			json_num_of(set, "window_s"), medw,
			(long long)json_integer_value(json_object_get(off, "trials")),
			(long long)json_integer_value(json_object_get(off, "invalid")),
			100 * json_num_of(off, "tolerance"),
			json_integer_value(json_object_get(set, "reps")),
			json_integer_value(json_object_get(set, "count_reps")),
			json_integer_value(json_object_get(set, "seed")));
		return;
	}
	/* the alternating pass's blocks are its repetitions; its windows its own */
	long long blocks = timing_blocks(run, set);
	long long count_reps = json_integer_value(json_object_get(set, "count_reps"));
	char passes[160];

	if (window_pass_alternates(run))
		snprintf(passes, sizeof(passes), "the count and BPF-statistics passes %s packets "
			 "per trial after a warm-up of %s, %lld blocks of the timing pass (below) "
			 "and %lld repetition%s of the others",
			 summary_fmt_count(a, sizeof(a), json_object_get(set, "packets")),
			 summary_fmt_count(b, sizeof(b), json_object_get(set, "warmup")), blocks,
			 count_reps, count_reps == 1 ? "" : "s");
	else
		snprintf(passes, sizeof(passes), "%s packets per trial after a warm-up of %s; "
			 "%lld repetition%s of the timing pass and %lld of the count and "
			 "BPF-statistics passes",
			 summary_fmt_count(a, sizeof(a), json_object_get(set, "packets")),
			 summary_fmt_count(b, sizeof(b), json_object_get(set, "warmup")), blocks,
			 blocks == 1 ? "" : "s", count_reps);
	fprintf(out, "- Sender: %s, pinned to CPU %lld, %s; %s, in shuffled order (seed %lld)\n",
		sender_words(set, snd, sizeof(snd)),
		json_integer_value(json_object_get(set, "sender_cpu")),
		json_integer_value(rate) > 0 ? (snprintf(r, sizeof(r), "paced at %s pps",
							 summary_fmt_count(c, sizeof(c), rate)), r)
					     : "unpaced",
		passes, json_integer_value(json_object_get(set, "seed")));
}

static void render_header(const struct render_ctx *rc)
{
	const json_t *mach = rc->mach;
	const json_t *run = rc->run;
	FILE *out = rc->out;

	fprintf(out, "# xdptc run: %s topology, %s\n\n",
		json_str_of(run, "topology", "?"),
		json_str_of(run, "created_utc", "?"));
	if (json_is_string(json_object_get(run, "incomplete")))
		fprintf(out, "**INCOMPLETE RUN**: %s. The figures below cover only the trials "
			     "measured before that.\n\n",
			json_string_value(json_object_get(run, "incomplete")));
	/* the answer first, in words, built only from the figures below */
	if (summary_headline(run, out))
		fprintf(out, "\n");
	header_refused(run, out);
	fprintf(out, "- Machine: %s, %lld CPU%s; kernel %s %s\n",
		json_str_of(mach, "cpu_model", "?"),
		json_integer_value(json_object_get(mach, "cpus")),
		json_integer_value(json_object_get(mach, "cpus")) == 1 ? "" : "s",
		json_str_of(mach, "kernel_release", "?"),
		json_str_of(mach, "arch", ""));
	header_dut_nic(run, out);
	header_dut_napi(run, out);
	header_router(run, out);
	header_traffic(rc);
	window_schedule_md(run, out);
	summary_stop_md(run, out);
	header_time(rc);
	header_sources(rc);
}

/* The rows of the run's time metric: median (min-max), and its coefficient of variation. */
static void time_rows(FILE *out, const json_t *modes, const char *tm)
{
	char label[96], key[64];

	snprintf(label, sizeof(label), "%s, median (min-max)", tm);
	summary_row(out, modes, label, tm, METRIC_FMT_RANGE);
	snprintf(label, sizeof(label), "%s coefficient of variation", tm);
	summary_row(out, modes, label, summary_time_key(key, sizeof(key), tm, "_cv"), METRIC_FMT_2SIG);
}

/* The rows of the run's perf events (each E_per_pkt, how much of the window perf counted
 * where it multiplexed, ipc), or of a run before perf stat its cycles and instructions. */
static void perf_rows(FILE *out, const json_t *modes, const json_t *run)
{
	size_t i, k;
	json_t *m, *e;

	if (!json_is_array(summary_perf_events(run))) {
		summary_row(out, modes, "cycles_per_pkt", "cycles_per_pkt", METRIC_FMT_1DP);
		if (strcmp(summary_time_metric(run), "instructions_per_pkt"))
			summary_row(out, modes, "instructions_per_pkt", "instructions_per_pkt", METRIC_FMT_1DP);
		return;
	}
	json_array_foreach(summary_perf_events(run), k, e) {
		const char *metric = json_str_of(e, "metric", "?");
		char label[160], key[128];
		bool shared = false;

		snprintf(label, sizeof(label), "%s (perf stat), median (min-max)", metric);
		summary_row(out, modes, label, metric, METRIC_FMT_RANGE);
		snprintf(key, sizeof(key), "%s_min_pct_running", metric);
		json_array_foreach(modes, i, m)
			shared |= json_number_value(json_object_get(m, key)) < 100 &&
				  json_is_number(json_object_get(m, key));
		if (shared) { /* multiplexed: perf scaled the counts */
			snprintf(label, sizeof(label), "%s: lowest %% of the window counted "
						       "(perf scaled it)", metric);
			summary_row(out, modes, label, key, METRIC_FMT_1DP);
		}
	}
	json_array_foreach(modes, i, m)
		if (json_is_number(json_object_get(m, "ipc"))) {
			summary_row(out, modes, "ipc (instructions per cycle, perf stat)", "ipc", METRIC_FMT_3DP);
			break;
		}
}

/* summary.md's table: a column per mode, a row per metric of the metric table that has
 * a label (rate-search rows only when the run searched), in the table's order. */
static void render_table(const struct render_ctx *rc)
{
	const json_t *modes = rc->modes;
	const json_t *run = rc->run;
	FILE *out = rc->out;
	size_t i;
	json_t *m;

	fprintf(out, "\n| metric |");
	json_array_foreach(modes, i, m)
		fprintf(out, " %s |", json_string_value(json_object_get(m, "mode")));
	fprintf(out, "\n|---|");
	json_array_foreach(modes, i, m)
		fprintf(out, "---|");
	fprintf(out, "\n");
	for (const struct metric *x = metrics; x->name; x++) {
		if (x->flags & METRIC_TIME)
			time_rows(out, modes, summary_time_metric(run));
		else if (x->flags & METRIC_PERF)
			perf_rows(out, modes, run);
		else if (x->flags & METRIC_INSNS) {
			if (x->label && summary_has_insns(run))
				summary_row(out, modes, x->label, x->name, x->format);
			if (!strcmp(x->name, "string_iterations_per_pkt")) /* what they are */
				page_regime_row(out, modes);
		} else if (!x->label || ((x->flags & METRIC_RATE) && !json_object_get(run, "max_rate")))
			continue;
		else if (x->format == METRIC_FMT_OBSERVER)
			summary_observer_row(out, modes, x->label, x->name);
		else
			summary_row(out, modes, x->label, x->name, x->format);
	}

}

int summary_render_md(const json_t *run, const char *dir, FILE *out)
{
	struct render_ctx rc = { .run = run, .dir = dir, .out = out };

	rc.s = json_object_get(run, "summary");
	rc.modes = json_object_get(rc.s, "modes");
	rc.set = json_object_get(run, "settings");
	rc.mach = json_object_get(run, "machine");
	rc.caps = json_object_get(run, "capabilities");
	rc.cnt = json_object_get(rc.caps, "counters");
	rc.pmu = json_object_get(rc.caps, "pmu");
	rc.guest = json_object_get(run, "guest");
	rc.bpf_stats_outside = summary_bpf_stats_outside(run);
	rc.timing_words = rc.bpf_stats_outside
		? "timing pass with no tracing, but with BPF statistics on (see below)"
		: "timing pass with no tracing and BPF statistics off";
	if (!json_is_array(rc.modes) || !rc.set || !rc.mach)
		return -EINVAL;
	render_header(&rc);  /* the answer, the machine, settings, sources */
	render_table(&rc);   /* one column per mode */
	summary_notes_render(&rc);   /* loss, rate search, its checks, conservation */
	summary_cross_check_render(&rc);
	summary_deltas_render(&rc);  /* the paired deltas, the noise floor */
	summary_pictures_render(&rc); /* the plots embedded, the flame graphs linked */
	summary_flame_render(&rc);   /* the flame graphs' samples and unnamed frames */
	summary_footer_render(&rc);  /* how to read the rest */
	return 0;
}
