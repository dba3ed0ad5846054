/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_opt_table.c: every option of `xdptc run`, declared once (run_opt_table.h). */
#include "run_opt_table.h"

#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "drop_prog.h"
#include "qemu_from.h"
#include "sender.h"

/* the words of enum run_schedule: a user types alternating or classic (auto is what
 * neither gives) */
static const char *schedule_word(int i)
{
	static const char *const w[] = { "auto", "alternating", "classic" };

	return i >= 0 && i < (int)(sizeof(w) / sizeof(w[0])) ? w[i] : NULL;
}

/* the words of enum run_engine */
static const char *engine_word(int i)
{
	static const char *const w[] = { "host", "icount" };

	return i >= 0 && i < (int)(sizeof(w) / sizeof(w[0])) ? w[i] : NULL;
}

/* the words of enum sender_kind (sender.c) */
static const char *sender_word(int i)
{
	return i >= 0 && i < SENDER_NR ? sender_name((enum sender_kind)i) : NULL;
}

/* The options. The rows that list the topologies and their defaults get their words
 * from the table of topologies (cmd_run_table.c); the defaults that depend on the
 * topology, the engine or the machine are set where the options are finished
 * (cmd_run.c). A row without a JSON key is RUN_OPT_LOCAL: it says where this process
 * writes, what it prints or which lock it holds, nothing the numbers depend on. */
const struct run_opt run_opt_table[] = {
	{ "topology", 't', "NAME", "the topologies' list", "the first", .brief = "the same",
	  .type = RUN_OPT_STRING, RUN_OPT_AT(topology), .flags = RUN_OPT_OWN_PARSER, .json = "topology" },
	{ "modes", 'm', "LIST", "the modes' list", "the topologies' defaults", "MODES",
	  .brief = "the same",
	  .type = RUN_OPT_LIST, .flags = RUN_OPT_OWN_PARSER | RUN_OPT_OWN_JSON, .json = "modes" },
	{ "packets", OPT_PACKETS, "N", "packets per trial of the count, BPF-statistics and "
	  "profile passes, and of the timing pass under --schedule classic; RANGE, k/M/G "
	  "suffixes allowed",
	  "per topology", "PACKETS",
	  .brief = "packets per trial (k/M/G suffixes; the alternating timing pass sizes its "
	  "own windows)",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(packets), .imin = RUN_PACKETS_MIN, .imax = RUN_PACKETS_MAX,
	  .what = "a packet count from 1 to 10^" RUN_STR(RUN_PACKETS_MAX_EXP10) " such as 1M", .json = "packets" },
	{ "reps", 'r', "N", "repetitions of the timing pass (the alternating schedule's "
	  "blocks: at least N, rounded up to a whole number of blocks per segment), " RUN_STR(RUN_REPS_MIN) "-" RUN_STR(RUN_REPS_MAX) ", in a seeded shuffled order; 6 or more give each delta an interval",
	  "per topology", "REPS",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(reps), .imin = RUN_REPS_MIN, .imax = RUN_REPS_MAX,
	  .what = RUN_STR(RUN_REPS_MIN) "-" RUN_STR(RUN_REPS_MAX) " repetitions", .json = "reps" },
	{ "schedule", OPT_SCHEDULE, "alternating|classic", "the timing pass: alternating "
	  "measures the machine's noise first and from it chooses short windows (a few ms) "
	  "and how many, then alternates the arms round by round with one sender kept alive, "
	  "each mode's program loaded once (docs/method.md, \"The timing schedule\"); classic "
	  "gives each arm one window of --packets per repetition", "alternating; classic for "
	  "virtio and under the icount engine", "SCHEDULE", .brief = "`alternating` (short windows chosen from "
	  "the noise) or `classic` (one window of PACKETS per arm and repetition)",
	  .type = RUN_OPT_ENUM, RUN_OPT_AT(schedule), .imin = SCHEDULE_ALTERNATING,
	  .word_of = schedule_word, .what = "alternating or classic", .json = "schedule" },
	{ "window-ms", OPT_WINDOW_MS, "MS", "alternating: the window's length, " RUN_STR(RUN_WINDOW_MS_MIN) "-"
	  RUN_STR(RUN_WINDOW_MS_MAX) " ms, "
	  "instead of the one chosen from the noise", "chosen from the noise", "WINDOW_MS",
	  .type = RUN_OPT_REAL, RUN_OPT_AT(window_ms), .min = RUN_WINDOW_MS_MIN, .max = RUN_WINDOW_MS_MAX,
	  .what = "milliseconds from " RUN_STR(RUN_WINDOW_MS_MIN) " to " RUN_STR(RUN_WINDOW_MS_MAX),
	  .flags = RUN_OPT_ALTERNATING | RUN_OPT_ZERO_UNSET, .json = "window_ms" },
	{ "windows-per-attach", OPT_WINDOWS_PER_ATTACH, "N", "alternating: windows of an arm "
	  "after each attach, 1, 2, 4 or 8, instead of the number chosen from the noise",
	  "chosen from the noise", "WINDOWS_PER_ATTACH",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(windows_per_attach), .imin = 1, .imax = 8,
	  .what = "1, 2, 4 or 8", .flags = RUN_OPT_ALTERNATING | RUN_OPT_ZERO_UNSET | RUN_OPT_POW2, .json = "windows_per_attach" },
	{ "timing-budget", OPT_TIMING_BUDGET, "S", "alternating: the most seconds the timing "
	  "pass's rounds may take, " RUN_STR(RUN_TIMING_BUDGET_MIN) "-"
	  RUN_STR(RUN_TIMING_BUDGET_MAX), RUN_STR(RUN_TIMING_BUDGET_DEFAULT), "TIMING_BUDGET",
	  .type = RUN_OPT_REAL, RUN_OPT_AT(timing_budget_s), .min = RUN_TIMING_BUDGET_MIN,
	  .max = RUN_TIMING_BUDGET_MAX, .dflt = RUN_TIMING_BUDGET_DEFAULT, .what = "seconds from "
	  RUN_STR(RUN_TIMING_BUDGET_MIN) " to " RUN_STR(RUN_TIMING_BUDGET_MAX),
	  .flags = RUN_OPT_ALTERNATING, .json = "timing_budget_s" },
	{ "segments", OPT_SEGMENTS, "N", "alternating: the timing pass in N segments spread "
	  "over it, the topology built anew before each (REBUILD_TOPOLOGIES); their spread gives the "
	  "interval for the next run's figure, " RUN_STR(RUN_SEGMENTS_MIN) "-"
	  RUN_STR(RUN_SEGMENTS_MAX), RUN_STR(RUN_SEGMENTS_DEFAULT), "SEGMENTS",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(segments), .imin = RUN_SEGMENTS_MIN, .imax = RUN_SEGMENTS_MAX,
	  .dflt = RUN_SEGMENTS_DEFAULT, .what = "a number from " RUN_STR(RUN_SEGMENTS_MIN) " to "
	  RUN_STR(RUN_SEGMENTS_MAX), .flags = RUN_OPT_ALTERNATING, .json = "segments" },
	{ "target", OPT_TARGET, "PCT", "alternating: the half-width, in percent, that the "
	  "noise measured predicts for an A/A pair and the number of rounds aims at (with or "
	  "without --aa; within the budget); after its planned segments the run adds segments "
	  "until the A/A pair is within it and every other arm within twice it (without --aa: "
	  "the arms only), or the budget ends (with the default budget, also at the run's "
	  "wall-time limit; docs/method.md), " RUN_STR(RUN_TARGET_PCT_MIN) "-"
	  RUN_STR(RUN_TARGET_PCT_MAX), "0.5", "TARGET",
	  .type = RUN_OPT_PERCENT, RUN_OPT_AT(target_halfwidth), .min = RUN_TARGET_PCT_MIN,
	  .max = RUN_TARGET_PCT_MAX, .dflt = 0.5, .what = "a percentage from " RUN_STR(RUN_TARGET_PCT_MIN)
	  " to " RUN_STR(RUN_TARGET_PCT_MAX), .flags = RUN_OPT_ALTERNATING, .json = "target_halfwidth" },
	{ "count-reps", 'c', "N", "repetitions of the count and BPF-statistics passes, "
	  RUN_STR(RUN_COUNT_REPS_MIN) "-" RUN_STR(RUN_COUNT_REPS_MAX),
	  "3; icount 2", "COUNT_REPS",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(count_reps), .imin = RUN_COUNT_REPS_MIN,
	  .imax = RUN_COUNT_REPS_MAX, .dflt = 3, .what = RUN_STR(RUN_COUNT_REPS_MIN) "-"
	  RUN_STR(RUN_COUNT_REPS_MAX) " repetitions", .json = "count_reps" },
	{ "aa", OPT_AA, NULL, "also measure the first mode as a second arm (MODE-aa): its "
	  "delta against the first is the run's noise floor", "off", "AA", "1",
	  .type = RUN_OPT_FLAG, .flags = RUN_OPT_OWN_JSON, .json = "aa_arm" },
	{ "profile-period", OPT_PROFILE_PERIOD, "N", "the profile pass samples every N ns of "
	  "cpu-clock (perf record -c N; inside the icount engine's guest, every N guest "
	  "instructions) instead of 997 times a second", "997 Hz; icount 50k",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(profile_period), .imin = 1000, .imax = 1000000000,
	  .what = "1000 or more", .flags = RUN_OPT_ZERO_UNSET, .json = "profile_period" },
	{ "profile-packets", OPT_PROFILE_PACKETS, "N", "packets in the profile pass's window "
	  "instead of the window sized from the timing pass for 2000 samples per mode "
	  "(docs/flamegraphs.md)", "2000 samples' worth, at least --packets; icount 50k (or "
	  "--packets if more)",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(profile_packets), .imin = 1000, .imax = 1000000000,
	  .what = "1000 or more", .flags = RUN_OPT_ZERO_UNSET, .json = "profile_packets" },
	{ "no-flame", OPT_NO_FLAME, NULL, "skip the profile pass (one trial per mode under "
	  "perf record, drawn as flame-MODE.svg; FLAME_TOPOLOGIES only)", "flame graphs on",
	  "FLAME", "0", .brief = "skip the profile pass and its flame graphs",
	  .type = RUN_OPT_UNSET, RUN_OPT_AT(flame), .dflt = 1, .json = "flame" },
	{ "sender", OPT_SENDER, "KIND", "udp (a socket), packet (AF_PACKET, the qdisc "
	  "bypassed), xdp-live (XDP_TX live frames: no skb on the way to the DUT) or tap "
	  "(frames written into a tap, as qemu writes: the tap topology's own); see "
	  "docs/senders-and-rate-search.md", "udp (tap on the tap topology)", "SENDER",
	  .brief = "`udp`, `packet`, `xdp-live` or `tap` (see docs/senders-and-rate-search.md)",
	  .type = RUN_OPT_ENUM, RUN_OPT_AT(sender), .word_of = sender_word,
	  .what = "udp, packet, xdp-live or tap", .json = "sender" },
	{ "find-max-rate", OPT_FIND_MAX_RATE, NULL, "after the passes, search each mode's "
	  "highest offered rate dropped with no loss before the DUT (max_drop_pps). A DUT on a "
	  "CPU of its own (--threaded-napi): bisection, at most 12 trials, to 2%, then checked: "
	  "3 trials there must be lossless, 1 of 3 at +5% must lose; trials whose loss a stall "
	  "of the NAPI thread explains are repeated. A DUT on the sender's CPU (the default, "
	  "or --napi-cpu sender): nothing can be lost, so the saturation rate, 20 interleaved "
	  "unpaced trials per mode, checked: the median's 95.9% interval within 5%", "off",
	  "MAXRATE", "1", .brief = "search each mode's highest lossless drop rate",
	  .type = RUN_OPT_FLAG, RUN_OPT_AT(find_max_rate), .json = "find_max_rate" },
	{ "threaded-napi", OPT_THREADED_NAPI, NULL, "veth: run the DUT's NAPI in its own "
	  "kernel thread, kept off the sender's CPU, so the receive path can fall behind the "
	  "sender (a rate search then bisects for the lossless edge; on a VM the waits of that "
	  "thread's vCPU can set it: see docs/senders-and-rate-search.md)", "off", "THREADED",
	  "1", .brief = "veth DUT's NAPI in its own kernel thread, off the sender's CPU",
	  .type = RUN_OPT_FLAG, RUN_OPT_AT(threaded_napi), .json = "threaded_napi" },
	{ "napi-cpu", OPT_NAPI_CPU, "N|sender", "veth: --threaded-napi with the thread pinned "
	  "to this CPU; 'sender' (the sender's CPU) makes the two take turns, so nothing is "
	  "lost and a rate search measures the pair's saturation rate, with the DUT's own CPU "
	  "time per packet", NULL, "NAPI_CPU", .brief = "that thread pinned to this CPU "
	  "instead (implies `THREADED=1`); `sender`: the sender's CPU",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(napi_cpu), .imin = -1, .imax = 4095, .dflt = -1,
	  .flags = RUN_OPT_OWN_PARSER, .json = "napi_cpu" },
	{ "warmup", 'w', "N", "packets sent before each window, not measured (the classic "
	  "schedule and the count, BPF-statistics and profile passes; the alternating pass "
	  "warms up 1000 packets or 10% of a window, whichever is more, after each attach)",
	  "10% of --packets", "WARMUP",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(warmup), .imin = 0, .imax = RUN_PACKETS_MAX,
	  .what = "a packet count", .json = "warmup" },
	{ "rate", OPT_RATE, "PPS", "sender pace in packets/s, k/M suffixes allowed; 0: as "
	  "fast as possible", "per topology", "RATE",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(rate_pps), .imin = 0, .imax = 100000000,
	  .what = "packets per second such as 20k", .json = "rate_pps" },
	{ "guest-kernel", OPT_GUEST_KERNEL, "VERSION", "guest kernel (virtio, or the icount "
	  "engine): a Debian kernel's version prefix (6.1, 6.12, 6.18, 7.3: the newest patch "
	  "level in bookworm, trixie, their backports or sid) or its full package version "
	  "(6.12.95-1~bpo12+1); fetched through a private apt configuration in the cache "
	  "(docs/engines.md)", "6.1", "GUEST_KERNEL",
	  .type = RUN_OPT_STRING, RUN_OPT_AT(guest_kernel), .flags = RUN_OPT_OWN_PARSER,
	  .json = "guest_kernel" },
	{ "nic", OPT_NIC, "MODEL", "nic (and virtio under the icount engine): the DUT's "
	  "qemu NIC model (run/nic_models.c: virtio-net, vmxnet3, e1000e, ...; a name it does "
	  "not know, or a model the installed qemu lacks, is refused with the list of those "
	  "it has); the guest loads its "
	  "driver from the guest kernel's package; where the driver has no native XDP, "
	  "xdpdrv is refused with the kernel's reason and the other modes run "
	  "(docs/engines.md, \"Ask your driver\")", "virtio-net", "NIC",
	  .type = RUN_OPT_STRING, RUN_OPT_AT(nic), .flags = RUN_OPT_OWN_PARSER, .json = "nic" },
	{ "qemu", OPT_QEMU, "installed|backports", "the qemu that runs the guests (virtio, nic, "
	  "the icount engine): installed, the system's qemu-system-x86_64 (Debian 12: 7.2; "
	  "$QEMU names another binary), or backports: bookworm-backports' (10.0.2, which has "
	  "igb), unpacked into the cache beside the installed one at its first use, nothing "
	  "installed (topologies/qemu_backports.sh), the icount plugin built against its own "
	  "header (docs/engines.md, \"Ask your driver\")", "installed", "QEMU",
	  .brief = "`backports`: bookworm-backports' qemu 10.0.2 (with igb), beside the "
	  "installed one",
	  .type = RUN_OPT_ENUM, RUN_OPT_AT(qemu), .word_of = qemu_from_word,
	  .what = "installed or backports", .flags = RUN_OPT_MAKE_CMDLINE, .json = "qemu" },
	{ "engine", OPT_ENGINE, "host|icount", "host: measure on this machine; icount: under "
	  "qemu's -icount shift=0,sleep=off, where guest time counts guest instructions: "
	  "veth runs the whole experiment inside such a guest, virtio boots its DUT guest so; "
	  "reports guest_instructions_per_pkt (guest instructions, never a PMU's "
	  "instructions_per_pkt) instead of cpu_ns_per_pkt. Its defaults: 20k packets x 11 "
	  "repetitions, 2 count repetitions, on veth a profile pass of 50k packets with a "
	  "sample every 50,000 guest instructions (--profile-period); virtio runs as nic, "
	  "unpaced; "
	  "--guest-kernel applies. Every guest runs the instruction-counting qemu plugin "
	  "(build/insn_count.so, `make plugin`; installed, PREFIX/lib/xdptc's, else one "
	  "built into the cache at the first icount run; XDPTC_PLUGIN names another): its "
	  "retired_instructions_per_pkt (a rep string instruction once, as a CPU counts "
	  "it) is then the headline, and a run whose plugin does not count known work "
	  "exactly runs no trial (docs/engines.md)", "host", "ENGINE",
	  .brief = "`icount`: measure instructions per packet inside a qemu `-icount` guest "
	  "(see docs/engines.md)",
	  .type = RUN_OPT_ENUM, RUN_OPT_AT(engine), .word_of = engine_word,
	  .what = "host or icount", .json = "engine" },
	{ "counters", OPT_COUNTERS, "LIST", "counter backends to try, in order; e.g. "
	  "fentry,tracepoint keeps kprobes off (docs/counters.md)",
	  "kprobe,fentry,tracepoint", "COUNTERS", .brief = "counter backends to try, in order",
	  .type = RUN_OPT_LIST, .flags = RUN_OPT_OWN_PARSER | RUN_OPT_OWN_JSON, .json = "counters" },
	{ "pmu-events", OPT_PMU_EVENTS, "LIST", "perf events counted by `perf stat` in the "
	  "timing pass, as `perf list` spells them (raw rNNNN, cpu_core/EVENT/ and modifiers "
	  "such as :u allowed; 'none' for none): over exactly each window (not the settle "
	  "wait after it), on the threads whose CPU time is cpu_ns_per_pkt; each event E "
	  "gives E_per_pkt (dashes to underscores), scaled by perf when counters were shared "
	  "(its running percentage is kept), null with perf's reason where it counted nothing "
	  "(<not supported>); IPC when both cycles and instructions count. Not in an icount "
	  "guest", "cycles,instructions", "PMU_EVENTS", .brief = "perf events counted by "
	  "`perf stat` over each timing window (see docs/method.md); `none`",
	  .type = RUN_OPT_STRING, RUN_OPT_AT(pmu_events), .dflt_str = "cycles,instructions",
	  .flags = RUN_OPT_OWN_PARSER, .json = "pmu_events" },
	{ "dev", OPT_DEV, "IFACE", "dev: the device the traffic arrives on, named by you "
	  "(xdptc attaches to it alone and creates nothing; see `xdptc doctor --dev`)", NULL,
	  "DEV", .brief = "the device of `make run-dev`",
	  .type = RUN_OPT_STRING, RUN_OPT_AT(dev), .flags = RUN_OPT_MAKE_CMDLINE | RUN_OPT_OWN_PARSER |
	  RUN_OPT_OUTSIDE, .json = "device" },
	{ "netns", OPT_NETNS, "NS", "dev: the device's network namespace", "this one",
	  "NETNS",
	  .type = RUN_OPT_STRING, RUN_OPT_AT(dev_netns), .flags = RUN_OPT_MAKE_CMDLINE | RUN_OPT_OWN_PARSER |
	  RUN_OPT_OUTSIDE, .json = "netns" },
	{ "window", OPT_WINDOW, "S", "dev: each trial's window, " RUN_STR(RUN_WINDOW_S_MIN) "-"
	  RUN_STR(RUN_WINDOW_S_MAX) " seconds of the traffic that comes",
	  RUN_STR(RUN_WINDOW_S_DEFAULT), "WINDOW",
	  .type = RUN_OPT_REAL, RUN_OPT_AT(window_s), .min = RUN_WINDOW_S_MIN, .max = RUN_WINDOW_S_MAX,
	  .dflt = RUN_WINDOW_S_DEFAULT, .what = "seconds from " RUN_STR(RUN_WINDOW_S_MIN) " to "
	  RUN_STR(RUN_WINDOW_S_MAX), .flags = RUN_OPT_OUTSIDE, .json = "window_s" },
	{ "rate-tolerance", OPT_RATE_TOLERANCE, "PCT", "dev: a trial whose offered rate is "
	  "further than PCT percent from its pass's median is invalid (a generator that "
	  "changed its pace), "
	  RUN_STR(RUN_RATE_TOLERANCE_MIN) "-" RUN_STR(RUN_RATE_TOLERANCE_MAX),
	  RUN_STR(RUN_RATE_TOLERANCE_DEFAULT), "RATE_TOLERANCE",
	  .type = RUN_OPT_PERCENT, RUN_OPT_AT(rate_tolerance), .min = RUN_RATE_TOLERANCE_MIN,
	  .max = RUN_RATE_TOLERANCE_MAX, .dflt = RUN_RATE_TOLERANCE_DEFAULT, .what = "a percentage from "
	  RUN_STR(RUN_RATE_TOLERANCE_MIN) " to " RUN_STR(RUN_RATE_TOLERANCE_MAX), .flags = RUN_OPT_OUTSIDE,
	  .json = "rate_tolerance" },
	{ "allow-default-route-dev", OPT_ALLOW_DEFAULT_ROUTE_DEV, NULL, "dev: measure a "
	  "device that carries the default route or a remote login (an XDP attach can take "
	  "its link down for a moment on some drivers)", "refused", "ALLOW_DEFAULT_ROUTE_DEV",
	  "1",
	  .type = RUN_OPT_FLAG, RUN_OPT_AT(allow_default_route_dev), .flags = RUN_OPT_OUTSIDE,
	  .json = "allow_default_route_dev" },
	{ "cpu", OPT_CPU, "N", "CPU the sender (and on veth the receive softirq) runs on",
	  "the last CPU", "CPU",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(sender_cpu), .imin = 0, .imax = 4095,
	  .flags = RUN_OPT_MAKE_CMDLINE | RUN_OPT_OWN_PARSER | RUN_OPT_OWN_JSON, .json = "sender_cpu" },
	{ "port", 'p', "N", "UDP port to drop and to send to", "9999", "PORT",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(port), .imin = 1, .imax = 65535, .dflt = DROP_DEFAULT_PORT,
	  .flags = RUN_OPT_MAKE_CMDLINE | RUN_OPT_OWN_PARSER, .json = "port" },
	{ "out", 'o', "DIR", "parent directory of the run directory", "results", "OUT",
	  .type = RUN_OPT_STRING, RUN_OPT_AT(out_dir), .dflt_str = "results",
	  .flags = RUN_OPT_MAKE_CMDLINE | RUN_OPT_LOCAL },
	{ "size", 's', "B", "UDP payload bytes, 0-" RUN_STR(RUN_PAYLOAD_MAX) " (18: 60-byte frames, 64 with "
	  "the FCS)",
	  "18",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(payload_len), .imin = 0, .imax = RUN_PAYLOAD_MAX, .dflt = 18,
	  .what = "payload bytes, 0-" RUN_STR(RUN_PAYLOAD_MAX) " (a 1514-byte frame)", .json = "payload_len" },
	{ "batch", OPT_BATCH, "N", "packets per send call of the udp and packet senders "
	  "(sendmmsg's messages, 1-" RUN_STR(RUN_BATCH_MAX) "): 1 sends each datagram in a "
	  "call of its own, as many applications do; more share one system call among more "
	  "packets. The same for every arm of a run", RUN_STR(RUN_BATCH_DEFAULT), "BATCH",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(batch), .imin = 1, .imax = RUN_BATCH_MAX,
	  .dflt = RUN_BATCH_DEFAULT, .what = "packets per call, 1-" RUN_STR(RUN_BATCH_MAX),
	  .json = "batch", .senders = 1u << SENDER_UDP | 1u << SENDER_PACKET },
	{ "vlan", OPT_VLAN, "ID", "tag every frame with an 802.1Q header of VLAN ID (1-"
	  RUN_STR(RUN_VLAN_MAX) "): the packet, xdp-live and tap senders, which write whole "
	  "frames (a socket's datagrams carry no tag). On the software DUTs (veth, tap) XDP reads "
	  "the tag in the frame and TC runs after __netif_receive_skb_core moved it into the "
	  "skb (skb_vlan_untag); a NIC that strips tags on receive (rx-vlan-offload) hands "
	  "native XDP the frame without its tag (it stays in the receive descriptor) and the "
	  "skb-based hooks the tag in the skb's metadata. The same for every arm of a run", "untagged", "VLAN",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(vlan), .imin = 1, .imax = RUN_VLAN_MAX,
	  .what = "a VLAN ID, 1-" RUN_STR(RUN_VLAN_MAX), .flags = RUN_OPT_ZERO_UNSET,
	  .json = "vlan", .senders = 1u << SENDER_PACKET | 1u << SENDER_XDP_LIVE | 1u << SENDER_TAP },
	{ "seed", OPT_SEED, "N", "seed of the trial order", "the time",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(seed), .imin = 0, .imax = INT64_MAX,
	  .what = "a non-negative integer", .json = "seed" },
	{ "cross-check-counters", OPT_CROSS_CHECK, NULL, "count with every working backend at "
	  "once and record each (skbs_built_by_backend and the like in run.json; docs/counters.md)", "off",
	  .type = RUN_OPT_FLAG, RUN_OPT_AT(cross_check), .json = "cross_check" },
	{ "quiet", 'q', NULL, "do not print the summary on stdout (progress still goes to "
	  "stderr)",
	  .type = RUN_OPT_FLAG, RUN_OPT_AT(quiet), .flags = RUN_OPT_LOCAL },
	{ "verbose", 'v', NULL, "print libbpf's messages on stderr",
	  .type = RUN_OPT_FLAG, .flags = RUN_OPT_OWN_PARSER | RUN_OPT_LOCAL },
	{ "inside-icount", OPT_INSIDE_ICOUNT, "FILE", "the inner run of the icount engine, "
	  "inside its guest: every option from FILE (run_opts_to_json)",
	  .type = RUN_OPT_STRING, .flags = RUN_OPT_HIDDEN | RUN_OPT_OWN_PARSER | RUN_OPT_LOCAL },
	{ "held-lock", OPT_HELD_LOCK, "FD", "one run of `xdptc matrix`, which holds the run "
	  "lock on the inherited FD",
	  .type = RUN_OPT_COUNT, RUN_OPT_AT(held_lock), .imin = 3, .imax = INT32_MAX,
	  .what = "an inherited file descriptor", .flags = RUN_OPT_HIDDEN | RUN_OPT_LOCAL },
	{ NULL },
};

int run_opt_count(void)
{
	int n = 0;

	while (run_opt_table[n].name)
		n++;
	return n;
}

const struct run_opt *run_opt_find(int key)
{
	for (const struct run_opt *r = run_opt_table; r->name; r++)
		if (r->key == key)
			return r;
	return NULL;
}

int run_opt_set_int(const struct run_opt *r, struct run_opts *o, int64_t v)
{
	char *at = (char *)o + r->off;

	if (!r->size || r->type == RUN_OPT_REAL || r->type == RUN_OPT_PERCENT ||
	    r->type == RUN_OPT_STRING || r->type == RUN_OPT_LIST)
		return -1;
	switch (r->size) {
	case sizeof(bool): { bool b = v != 0; memcpy(at, &b, sizeof(b)); break; }
	case sizeof(uint16_t): { uint16_t u = (uint16_t)v; memcpy(at, &u, sizeof(u)); break; }
	case sizeof(int32_t): { int32_t i = (int32_t)v; memcpy(at, &i, sizeof(i)); break; }
	case sizeof(int64_t): memcpy(at, &v, sizeof(v)); break;
	default: return -1;
	}
	return 0;
}

int64_t run_opt_get_int(const struct run_opt *r, const struct run_opts *o)
{
	const char *at = (const char *)o + r->off;
	bool b;
	uint16_t u;
	int32_t i;
	int64_t v = 0;

	if (!r->size || r->type == RUN_OPT_REAL || r->type == RUN_OPT_PERCENT ||
	    r->type == RUN_OPT_STRING || r->type == RUN_OPT_LIST)
		return 0;
	switch (r->size) {
	case sizeof(bool): memcpy(&b, at, sizeof(b)); return b;
	case sizeof(uint16_t): memcpy(&u, at, sizeof(u)); return u;
	case sizeof(int32_t): memcpy(&i, at, sizeof(i)); return i;
	case sizeof(int64_t): memcpy(&v, at, sizeof(v)); return v;
	}
	return 0;
}

double *run_opt_real(const struct run_opt *r, struct run_opts *o)
{
	return (double *)((char *)o + r->off);
}

const char **run_opt_string(const struct run_opt *r, struct run_opts *o)
{
	return (const char **)((char *)o + r->off);
}

void run_opt_defaults(struct run_opts *o)
{
	for (const struct run_opt *r = run_opt_table; r->name; r++) {
		if (!r->size)
			continue;
		if (r->type == RUN_OPT_REAL)
			*run_opt_real(r, o) = r->dflt;
		else if (r->type == RUN_OPT_PERCENT)
			*run_opt_real(r, o) = r->dflt / 100;
		else if (r->type == RUN_OPT_STRING)
			*run_opt_string(r, o) = r->dflt_str;
		else
			run_opt_set_int(r, o, (int64_t)r->dflt);
	}
}
