/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* metrics.c: the metric table (metrics.h). */
#include "metrics.h"

#include <stddef.h>
#include <string.h>

#include "trial.h"

#define LOWER METRIC_LOWER_LESS_WORK
#define HIGHER METRIC_HIGHER_MORE_CAPACITY
#define NEUTRAL METRIC_NEUTRAL
#define NO_TIMING "no valid timing trial"
/* the trial's uint64_t (int64_t) field F, written as it is */
#define U64(f) .from_trial = METRIC_FROM_U64, .trial_offset = offsetof(struct trial_result, f)
#define I64(f) .from_trial = METRIC_FROM_I64, .trial_offset = offsetof(struct trial_result, f)

const struct metric metrics[] = {
	{ "seq", "-", "any", "xdptc", NEUTRAL, METRIC_FMT_COUNT, NULL,
	  "the trial's place in the run (0, 1, ...)", METRIC_CSV },
	{ "pass", "-", "any", "xdptc", NEUTRAL, METRIC_FMT_STRING, NULL,
	  "timing, count, bpfstats or profile", METRIC_CSV },
	{ "rep", "-", "any", "xdptc", NEUTRAL, METRIC_FMT_COUNT, NULL,
	  "the repetition of its pass (from 0); trials of one repetition are paired",
	  METRIC_CSV },
	{ "mode", "-", "any", "xdptc", NEUTRAL, METRIC_FMT_STRING, NULL,
	  "the arm: none, xdpdrv, xdpgeneric, tc, tcx, or MODE-aa (the A/A twin)", METRIC_CSV },
	{ "kernel_mode", "-", "any", "bpf_xdp_query, bpf_prog_query, tc filter show",
	  NEUTRAL, METRIC_FMT_STRING, NULL,
	  "how the program was attached, as the kernel reports it", METRIC_CSV },
	{ "valid", "-", "any", "xdptc", NEUTRAL, METRIC_FMT_STRING, NULL,
	  "packets conserved (sent = reached the DUT + lost before it, within 0.1%) and the "
	  "program decided every packet the driver received (within 0.1%); invalid trials (with "
	  "invalid_reason) enter no statistic", METRIC_CSV },
	{ "sent", "packets", "any", "the sender's own count (sendmmsg, AF_PACKET or XDP "
	  "live frames)", NEUTRAL, METRIC_FMT_COUNT, NULL,
	  "packets the sender sent in the measured window", METRIC_CSV | METRIC_MEDIAN,
	  .unavailable = NO_TIMING, U64(sent) },
	{ "pkts_at_dut", "packets", "timing", "dropped + passed (the program's verdicts); in "
	  "mode none the DUT's rx_packets (netdev statistics)", NEUTRAL,
	  METRIC_FMT_COUNT, "pkts_at_dut (median, timing pass)",
	  "packets that reached the DUT in the window: the denominator of every per-packet "
	  "figure", METRIC_CSV | METRIC_MEDIAN, .unavailable = NO_TIMING, U64(pkts_at_dut) },
	{ "dropped", "packets", "any", "the drop program's per-CPU verdicts map (XDP_DROP, "
	  "TC_ACT_SHOT)", NEUTRAL, METRIC_FMT_COUNT, NULL,
	  "packets the program dropped in the window", METRIC_CSV, U64(dropped) },
	{ "passed", "packets", "any", "the drop program's per-CPU verdicts map (XDP_PASS, "
	  "TC_ACT_OK)", NEUTRAL, METRIC_FMT_COUNT, NULL,
	  "packets the program let pass in the window", METRIC_CSV, U64(passed) },
	{ "dut_rx_packets", "packets", "any", "the DUT's rx_packets (netdev statistics)",
	  NEUTRAL, METRIC_FMT_COUNT, NULL, "packets the DUT's driver received in the window",
	  METRIC_CSV, U64(dut_rx_packets) },
	{ "dut_rx_dropped", "packets", "any", "the DUT's rx_dropped (netdev statistics)",
	  NEUTRAL, METRIC_FMT_COUNT, NULL, "packets the DUT's driver dropped (some drivers "
	  "count XDP_DROP there: virtio-net does)", METRIC_CSV, U64(dut_rx_dropped) },
	{ "snd_tx_dropped", "packets", "any", "the sending device's tx_dropped (netdev "
	  "statistics: the veth peer, or the tap towards a guest)", NEUTRAL, METRIC_FMT_COUNT,
	  NULL, "packets the sending device dropped on the way to the DUT", METRIC_CSV,
	  U64(snd_tx_dropped) },
	{ "lost_before_dut", "packets", "any", "the sender's tx_dropped and the DUT's "
	  "rx_dropped (netdev statistics)", NEUTRAL, METRIC_FMT_COUNT, NULL,
	  "packets lost on the way, counted by the devices", METRIC_CSV,
	  U64(lost_before_dut) },
	{ "unexplained_loss", "packets", "any", "sent - pkts_at_dut - lost_before_dut",
	  NEUTRAL, METRIC_FMT_COUNT, NULL,
	  "packets nobody accounts for; above 0.1% of sent the trial is invalid", METRIC_CSV,
	  I64(unexplained) },
	{ "wall_ns", "ns", "any", "CLOCK_MONOTONIC around the window", NEUTRAL,
	  METRIC_FMT_COUNT, NULL, "the window's wall-clock time", METRIC_CSV, U64(wall_ns) },
	{ "pps", "packets/s", "any", "sent / wall_ns", HIGHER, METRIC_FMT_1DP, NULL,
	  "the offered rate over the window", METRIC_CSV },
	{ "offered", "packets", "any", "dev: the NIC's rx_packets, its rx_dropped beyond the "
	  "program's XDP drops and its rx_missed_errors (netdev statistics)", NEUTRAL,
	  METRIC_FMT_COUNT, NULL, "traffic from outside: the packets the NIC took in over the "
	  "window (the sent count is unknown)", METRIC_CSV },
	{ "offered_pps", "packets/s", "any", "dev: offered / wall_ns", NEUTRAL, METRIC_FMT_1DP,
	  NULL, "traffic from outside: the offered rate over the window; a trial further "
	  "than --rate-tolerance from the run's median is invalid", METRIC_CSV },
	{ "dut_rx_missed", "packets", "any", "dev: the NIC's rx_missed_errors (netdev "
	  "statistics)", NEUTRAL, METRIC_FMT_COUNT, NULL, "frames the NIC dropped for want of "
	  "a receive buffer", METRIC_CSV },
	{ "nic_counters", "packets", "any", "dev: ethtool -S (SIOCETHTOOL ETHTOOL_GSTATS), the "
	  "statistics whose names say drop, miss, discard, err or xdp", NEUTRAL,
	  METRIC_FMT_STRING, NULL, "traffic from outside: the NIC's own counters that moved in "
	  "the window, name to delta (an object; absent where the driver has none): where the "
	  "driver says packets went, beside the rtnetlink figures the check uses", 0 },
	{ "rx_path_ns", "ns", "any", "dev: irq:softirq_entry/softirq_exit (NET_RX_SOFTIRQ) and "
	  "irq:irq_handler_entry/exit of the NIC's IRQs on every CPU (probes/rx_time.bpf.c)",
	  NEUTRAL, METRIC_FMT_COUNT, NULL, "the receive path's CPU time in the window: the "
	  "NET_RX softirq on every CPU (all devices') and the NIC's hard-IRQ handlers outside "
	  "it; with the device's threaded-NAPI threads, cpu_ns_per_pkt's numerator",
	  METRIC_CSV },
	{ "cpu_ns_per_pkt", "ns/pkt", "timing", "per-task CPU time (/proc/PID/schedstat's "
	  "sum_exec_runtime) of the sender thread and the DUT's softirq/NAPI threads, or of a "
	  "guest's vCPU thread; in an icount guest guest_instructions_per_pkt (guest ns at "
	  "-icount shift=0: instructions)", LOWER, METRIC_FMT_RANGE, NULL,
	  "the run's time metric: CPU time per packet over pkts_at_dut, with its minimum, "
	  "maximum and coefficient of variation per mode; compared between modes",
	  METRIC_CSV | METRIC_MEDIAN | METRIC_TIME | METRIC_DELTA | METRIC_SWEEP,
	  .unavailable = NO_TIMING },
	{ "retired_instructions_per_pkt", "instructions/pkt", "timing", "the icount engine's "
	  "qemu plugin (plugins/insn_count.c): every guest instruction between two marker "
	  "NOPs around the sender's window, a rep string instruction once per execution as "
	  "a CPU's retired-instruction counter counts it", LOWER, METRIC_FMT_RANGE,
	  "retired_instructions_per_pkt (plugin: a rep string instruction once), median "
	  "(min-max)", "guest instructions per packet as a CPU counts them, the whole guest "
	  "over the window (comparable with a PMU's instructions); compared between modes "
	  "first", METRIC_CSV | METRIC_INSNS | METRIC_DELTA },
	{ "window_instructions_per_pkt", "instructions/pkt", "timing", "the same plugin, every "
	  "iteration of a rep string instruction counted (as qemu's -icount clock counts)",
	  LOWER, METRIC_FMT_RANGE, "window_instructions_per_pkt (plugin: every iteration), "
	  "median (min-max)", "guest instructions per packet over the window, each rep "
	  "iteration one", METRIC_CSV | METRIC_INSNS },
	{ "string_iterations_per_pkt", "iterations/pkt", "timing", "window_instructions - "
	  "retired_instructions (the plugin)", LOWER, METRIC_FMT_1DP,
	  "string_iterations_per_pkt (rep iterations beyond the first)", "what the two "
	  "conventions differ by: bytes cleared, copied or compared by rep string "
	  "instructions", METRIC_CSV | METRIC_INSNS },
	{ "pages_cleared_per_pkt", "pages/pkt", "timing", "the plugin's per-function counts: "
	  "the string iterations of clear_page_erms (a byte each) and clear_page_rep (8 "
	  "bytes) over 4,096", NEUTRAL, METRIC_FMT_3DP, NULL, "pages the kernel cleared per "
	  "packet in the window (under init_on_alloc, each page the buddy allocator hands "
	  "out): the regime of the every-iteration counts, none below 0.1, every packet from "
	  "0.9 (the summary's page_regime per arm)", METRIC_INSNS },
	{ "insn_window", "instructions", "timing", "the plugin's window", NEUTRAL,
	  METRIC_FMT_COUNT, NULL, "instructions between the markers, every iteration",
	  METRIC_CSV | METRIC_INSNS },
	{ "insn_retired", "instructions", "timing", "the plugin's window", NEUTRAL,
	  METRIC_FMT_COUNT, NULL, "instructions between the markers, a rep string "
	  "instruction once", METRIC_CSV | METRIC_INSNS },
	{ "insn_clock", "guest ns", "timing", "the guest's TSC (rdtsc) just outside the "
	  "markers: under -icount it reads the icount clock (cpu_get_ticks)", NEUTRAL,
	  METRIC_FMT_COUNT, NULL, "the icount clock over the plugin's window: the cross-check",
	  METRIC_CSV | METRIC_INSNS },
	{ "insn_halts", "halts", "timing", "the plugin: hlt and mwait instructions run",
	  NEUTRAL, METRIC_FMT_COUNT, NULL, "the vCPU's idle entries inside the window",
	  METRIC_CSV | METRIC_INSNS },
	{ "insn_idle_ns", "guest ns", "timing", "insn_clock - insn_window when the vCPU "
	  "halted in the window, else 0", NEUTRAL, METRIC_FMT_COUNT, NULL, "idle time inside "
	  "the window, which the clock skips and the plugin does not count", METRIC_CSV |
	  METRIC_INSNS },
	{ "insn_clock_gap", "fraction", "timing", "(insn_window - insn_clock) / insn_window",
	  NEUTRAL, METRIC_FMT_2SIG, NULL, "the plugin against the icount clock; beyond 1e-4 "
	  "with no halt in the window the trial is invalid", METRIC_CSV | METRIC_INSNS },
	{ "sender_cpu_ns", "ns", "any", "the sender thread's schedstat", NEUTRAL,
	  METRIC_FMT_COUNT, NULL, "CPU time of the sender thread (on veth it runs the "
	  "receive softirq too)", METRIC_CSV, U64(sender_cpu_ns) },
	{ "softirq_thread_cpu_ns", "ns", "any", "schedstat of ksoftirqd/N and napi/DEV",
	  NEUTRAL, METRIC_FMT_COUNT, NULL, "CPU time of the softirq and NAPI threads",
	  METRIC_CSV, U64(softirq_cpu_ns) },
	{ "guest_vcpu_ns", "ns", "any", "schedstat of qemu's vCPU threads (/proc/PID/task)",
	  NEUTRAL, METRIC_FMT_COUNT, NULL, "virtio: CPU time of the guest's vCPU thread",
	  METRIC_CSV },
	{ "cpus_busy_ns", "ns", "any", "/proc/stat (all CPUs, not idle)", NEUTRAL,
	  METRIC_FMT_COUNT, NULL, "every CPU's busy time in the window: a cross-check",
	  METRIC_CSV, U64(cpus_busy_ns) },
	{ "E_per_pkt", "events/pkt", "timing", "perf stat -e E over the window (its --control "
	  "fifo), on the threads of cpu_ns_per_pkt", LOWER, METRIC_FMT_RANGE, NULL,
	  "each perf event E a run counted (--pmu-events), per packet, with ipc when cycles "
	  "and instructions both counted; null with perf's reason where it counted nothing",
	  METRIC_MEDIAN | METRIC_PERF | METRIC_DELTA },
	{ "count_pkts_at_dut", "packets", "count", "pkts_at_dut of the count pass", NEUTRAL,
	  METRIC_FMT_COUNT, NULL, "packets at the DUT in the count pass: what the counts of "
	  "a mode are compared with (conservation)", METRIC_MEDIAN, .from = "pkts_at_dut",
	  .unavailable = "no valid count trial" },
	{ "stack_entries", "entries", "count", "__netif_receive_skb_core (kprobe or fentry) "
	  "or the net:netif_receive_skb tracepoint (raw_tp), on the DUT", NEUTRAL, METRIC_FMT_COUNT,
	  "stack_entries (count pass)", "entries of skbs into the network stack's receive "
	  "path", METRIC_CSV | METRIC_MEDIAN | METRIC_COUNTER, .counter = "stack_entries" },
	{ "stack_entries_per_pkt", "entries/pkt", "count", "stack_entries over pkts_at_dut",
	  LOWER, METRIC_FMT_3DP, "stack_entries per pkt", "stack entries per packet: 1 for TC, "
	  "0 where XDP dropped before the stack", METRIC_MEDIAN | METRIC_COUNTER |
	  METRIC_SWEEP | METRIC_PLOT, .counter = "stack_entries" },
	{ "skbs_freed", "skbs", "count", "kfree_skbmem (kprobe or fentry) or the "
	  "skb:kfree_skb and skb:consume_skb tracepoints (raw_tp)", NEUTRAL, METRIC_FMT_COUNT,
	  "skbs_freed", "skbs freed", METRIC_CSV | METRIC_MEDIAN | METRIC_COUNTER,
	  .counter = "skbs_freed" },
	{ "skbs_freed_per_pkt", "skbs/pkt", "count", "skbs_freed over pkts_at_dut", LOWER,
	  METRIC_FMT_3DP, "skbs_freed per pkt", "skbs freed per packet", METRIC_MEDIAN |
	  METRIC_COUNTER | METRIC_SWEEP | METRIC_PLOT, .counter = "skbs_freed" },
	{ "skbs_built", "skbs", "count", "__alloc_skb, __build_skb, __napi_build_skb "
	  "(napi_build_skb where that is inlined, as on 7.2), slab_build_skb and "
	  "build_skb_around (kprobe or fentry); no tracepoint marks it", NEUTRAL,
	  METRIC_FMT_COUNT, "skbs_built", "skbs built", METRIC_CSV | METRIC_MEDIAN |
	  METRIC_COUNTER, .counter = "skbs_built" },
	{ "skbs_built_per_pkt", "skbs/pkt", "count", "skbs_built over pkts_at_dut", LOWER,
	  METRIC_FMT_3DP, NULL, "skbs built per packet: 0 where native XDP dropped before the "
	  "driver built one", METRIC_MEDIAN | METRIC_COUNTER | METRIC_SWEEP | METRIC_PLOT,
	  .counter = "skbs_built" },
	{ "counters_backend", "-", "count", "xdptc", NEUTRAL, METRIC_FMT_STRING, NULL,
	  "which backend counted each count (count=backend,...)", METRIC_CSV },
	{ "bpf_ns_per_run", "ns/run", "bpfstats", "the program's run_time_ns / run_cnt "
	  "(bpf_prog_info, kernel.bpf_stats_enabled by BPF_ENABLE_STATS)", LOWER,
	  METRIC_FMT_1DP, "bpf_ns_per_run (BPF-stats pass)", "the drop program's own time per "
	  "run", METRIC_CSV | METRIC_MEDIAN, .unavailable = "no valid BPF-statistics trial" },
	{ "bpf_run_cnt", "runs", "bpfstats", "bpf_prog_info run_cnt", NEUTRAL,
	  METRIC_FMT_COUNT, NULL, "runs of the drop program in the window", METRIC_CSV },
	{ "max_drop_pps", "packets/s", "rate", "the rate search (docs/senders-and-rate-"
	  "search.md)", HIGHER, METRIC_FMT_COUNT, "max_drop_pps (rate search)",
	  "the highest offered rate dropped with no loss before the DUT", METRIC_RATE },
	{ "max_drop_pps_check", "-", "rate", "the rate search's check", NEUTRAL,
	  METRIC_FMT_STRING, "max_drop_pps check", "within 5%, NOT within 5%, a lower bound "
	  "(sender-bound) or not checked", METRIC_RATE },
	{ "cpu_ns_per_pkt_at_max_drop", "ns/pkt", "rate", "cpu_ns_per_pkt of the lossless "
	  "trials at max_drop_pps", LOWER, METRIC_FMT_RANGE, "cpu_ns_per_pkt at max_drop_pps, "
	  "median (min-max) of the lossless trials there", "the DUT's CPU time per packet at "
	  "its highest lossless rate", METRIC_RATE },
	{ "observer_count_pass_pct", "%", "summary", "count-pass trials paired with "
	  "timing-pass trials of the same repetition", LOWER, METRIC_FMT_OBSERVER,
	  "count pass cost, % of timing", "what the count pass's probes add to the time "
	  "metric (the observer effect), with its interval or n.s.", 0 },
	{ "observer_bpfstats_pass_pct", "%", "summary", "bpfstats-pass trials paired with "
	  "timing-pass trials of the same repetition", LOWER, METRIC_FMT_OBSERVER,
	  "BPF-stats pass cost, % of timing", "what BPF statistics add to the time metric",
	  0 },
	{ "invalid_timing_trials", "trials", "summary", "xdptc", NEUTRAL, METRIC_FMT_COUNT,
	  "invalid timing trials", "timing trials left out (see each one's invalid_reason)",
	  0 },
	{ "invalid_count_trials", "trials", "summary", "xdptc", NEUTRAL, METRIC_FMT_COUNT,
	  "invalid count trials", "count trials left out", 0 },
	{ "invalid_bpfstats_trials", "trials", "summary", "xdptc", NEUTRAL, METRIC_FMT_COUNT,
	  "invalid bpfstats trials", "bpfstats trials left out", 0 },
	{ NULL },
};

void md_cell(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputc('\\', f);
		fputc(*s == '\n' ? ' ' : *s, f);
	}
}

void metrics_doc_md(FILE *f)
{
	static const char *const dir[] = { "", "lower: less work", "higher: more capacity" };

	fprintf(f, "| metric | unit | pass | source | direction | what |\n"
		   "|---|---|---|---|---|---|\n");
	for (const struct metric *m = metrics; m->name; m++) {
		fprintf(f, "| `%s` | %s | %s | ", m->name, m->unit, m->pass);
		md_cell(f, m->source);
		fprintf(f, " | %s | ", dir[m->direction]);
		md_cell(f, m->description);
		fprintf(f, " |\n");
	}
}
