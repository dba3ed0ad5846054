/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_run_table.c: the options of `xdptc run` (cmd_run_table.h), and the words of the
 * rows that name the topologies and their defaults, from the table of topologies. */
#include "cmd_run_table.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli_parse.h"
#include "cli_table.h"
#include "drop_mode.h"
#include "run_opts.h"
#include "topologies.h"

/* The option table; the rows that list the topologies and their defaults get their words
 * from the table of topologies (run_opts_table_topologies) */
struct cli_opt run_opts_table[] = {
	{ "topology", 't', "NAME", "the topologies' list", "the first", .brief = "the same" },
	{ "modes", 'm', "LIST", "the modes' list", "the topologies' defaults", "MODES",
	  .brief = "the same" },
	{ "packets", OPT_PACKETS, "N", "packets per trial of the count, BPF-statistics and "
	  "profile passes, and of the timing pass under --schedule classic; RANGE, k/M/G "
	  "suffixes allowed",
	  "per topology", "PACKETS",
	  .brief = "packets per trial (k/M/G suffixes; the alternating timing pass sizes its "
	  "own windows)" },
	{ "reps", 'r', "N", "repetitions of the timing pass (the alternating schedule's "
	  "blocks), " RUN_STR(RUN_REPS_MIN) "-" RUN_STR(RUN_REPS_MAX) ", in a seeded shuffled order; 6 or more give each delta an interval",
	  "per topology", "REPS" },
	{ "schedule", OPT_SCHEDULE, "alternating|classic", "the timing pass: alternating "
	  "measures the machine's noise first and from it chooses short windows (a few ms) "
	  "and how many, then alternates the arms round by round with one sender kept alive, "
	  "each mode's program loaded once (docs/method.md, \"The timing schedule\"); classic "
	  "gives each arm one window of --packets per repetition", "alternating; classic for "
	  "virtio and under the icount engine", "SCHEDULE", .brief = "`alternating` (short windows chosen from "
	  "the noise) or `classic` (one window of PACKETS per arm and repetition)" },
	{ "window-ms", OPT_WINDOW_MS, "MS", "alternating: the window's length, " RUN_STR(RUN_WINDOW_MS_MIN) "-"
	  RUN_STR(RUN_WINDOW_MS_MAX) " ms, "
	  "instead of the one chosen from the noise", "chosen from the noise", "WINDOW_MS" },
	{ "windows-per-attach", OPT_WINDOWS_PER_ATTACH, "N", "alternating: windows of an arm "
	  "after each attach, 1, 2, 4 or 8, instead of the number chosen from the noise",
	  "chosen from the noise", "WINDOWS_PER_ATTACH" },
	{ "timing-budget", OPT_TIMING_BUDGET, "S", "alternating: the most seconds the timing "
	  "pass's rounds may take, " RUN_STR(RUN_TIMING_BUDGET_MIN) "-"
	  RUN_STR(RUN_TIMING_BUDGET_MAX), RUN_STR(RUN_TIMING_BUDGET_DEFAULT), "TIMING_BUDGET" },
	{ "segments", OPT_SEGMENTS, "N", "alternating: the timing pass in N segments spread "
	  "over it, the topology built anew before each (veth); their spread gives the "
	  "interval for the next run's figure, " RUN_STR(RUN_SEGMENTS_MIN) "-"
	  RUN_STR(RUN_SEGMENTS_MAX), RUN_STR(RUN_SEGMENTS_DEFAULT), "SEGMENTS" },
	{ "target", OPT_TARGET, "PCT", "alternating: the half-width, in percent, that the "
	  "noise measured predicts for an A/A pair and the number of rounds aims at (with or "
	  "without --aa; within the budget), " RUN_STR(RUN_TARGET_PCT_MIN) "-"
	  RUN_STR(RUN_TARGET_PCT_MAX), "0.5", "TARGET" },
	{ "count-reps", 'c', "N", "repetitions of the count and BPF-statistics passes, "
	  RUN_STR(RUN_COUNT_REPS_MIN) "-" RUN_STR(RUN_COUNT_REPS_MAX),
	  "3; icount 2", "COUNT_REPS" },
	{ "aa", OPT_AA, NULL, "also measure the first mode as a second arm (MODE-aa): its "
	  "delta against the first is the run's noise floor", "off", "AA", "1" },
	{ "profile-period", OPT_PROFILE_PERIOD, "N", "the profile pass samples every N ns of "
	  "cpu-clock (perf record -c N; inside the icount engine's guest, every N guest "
	  "instructions) instead of 997 times a second", "997 Hz; icount 50k" },
	{ "profile-packets", OPT_PROFILE_PACKETS, "N", "packets in the profile pass's window "
	  "instead of the window sized from the timing pass for 2000 samples per mode "
	  "(docs/flamegraphs.md)", "2000 samples' worth, at least --packets; icount 50k (or "
	  "--packets if more)" },
	{ "no-flame", OPT_NO_FLAME, NULL, "skip the profile pass (one trial per mode under "
	  "perf record, drawn as flame-MODE.svg; FLAME_TOPOLOGIES only)", "flame graphs on",
	  "FLAME", "0", .brief = "skip the profile pass and its flame graphs" },
	{ "sender", OPT_SENDER, "KIND", "udp (a socket), packet (AF_PACKET, the qdisc "
	  "bypassed) or xdp-live (XDP_TX live frames: no skb on the way to the DUT); see "
	  "docs/senders-and-rate-search.md", "udp", "SENDER",
	  .brief = "`udp`, `packet` or `xdp-live` (see docs/senders-and-rate-search.md)" },
	{ "find-max-rate", OPT_FIND_MAX_RATE, NULL, "after the passes, search each mode's "
	  "highest offered rate dropped with no loss before the DUT (max_drop_pps). A DUT on a "
	  "CPU of its own (--threaded-napi): bisection, at most 12 trials, to 2%, then checked: "
	  "3 trials there must be lossless, 1 of 3 at +5% must lose; trials whose loss a stall "
	  "of the NAPI thread explains are repeated. A DUT on the sender's CPU (the default, "
	  "or --napi-cpu sender): nothing can be lost, so the saturation rate, 20 interleaved "
	  "unpaced trials per mode, checked: the median's 95.9% interval within 5%", "off",
	  "MAXRATE", "1", .brief = "search each mode's highest lossless drop rate" },
	{ "threaded-napi", OPT_THREADED_NAPI, NULL, "veth: run the DUT's NAPI in its own "
	  "kernel thread, kept off the sender's CPU, so the receive path can fall behind the "
	  "sender (a rate search then bisects for the lossless edge; on a VM the waits of that "
	  "thread's vCPU can set it: see docs/senders-and-rate-search.md)", "off", "THREADED",
	  "1", .brief = "veth DUT's NAPI in its own kernel thread, off the sender's CPU" },
	{ "napi-cpu", OPT_NAPI_CPU, "N|sender", "veth: --threaded-napi with the thread pinned "
	  "to this CPU; 'sender' (the sender's CPU) makes the two take turns, so nothing is "
	  "lost and a rate search measures the pair's saturation rate, with the DUT's own CPU "
	  "time per packet", NULL, "NAPI_CPU", .brief = "that thread pinned to this CPU "
	  "instead (implies `THREADED=1`); `sender`: the sender's CPU" },
	{ "warmup", 'w', "N", "packets sent before each window, not measured (the classic "
	  "schedule and the count, BPF-statistics and profile passes; the alternating pass "
	  "warms up 1000 packets or 10% of a window, whichever is more, after each attach)",
	  "10% of --packets", "WARMUP" },
	{ "rate", OPT_RATE, "PPS", "sender pace in packets/s, k/M suffixes allowed; 0: as "
	  "fast as possible", "per topology", "RATE" },
	{ "guest-kernel", OPT_GUEST_KERNEL, "VERSION", "guest kernel (virtio, or the icount "
	  "engine): a Debian kernel's version prefix (6.1, 6.12, 6.18, 7.3: the newest patch "
	  "level in bookworm, trixie, their backports or sid) or its full package version "
	  "(6.12.95-1~bpo12+1); fetched through a private apt configuration in the cache "
	  "(docs/engines.md)", "6.1", "GUEST_KERNEL" },
	{ "engine", OPT_ENGINE, "host|icount", "host: measure on this machine; icount: under "
	  "qemu's -icount shift=0,sleep=off, where guest time counts guest instructions: "
	  "veth runs the whole experiment inside such a guest, virtio boots its DUT guest so; "
	  "reports guest_instructions_per_pkt (guest instructions, never a PMU's "
	  "instructions_per_pkt) instead of cpu_ns_per_pkt. Its defaults: 20k packets x 11 "
	  "repetitions, 2 count repetitions, on veth a profile pass of 50k packets with a "
	  "sample every 50,000 guest instructions (--profile-period), virtio paced at 30k; "
	  "--guest-kernel applies. Every guest runs the instruction-counting qemu plugin "
	  "(build/insn_count.so, `make plugin`; XDPTC_PLUGIN names another): its "
	  "retired_instructions_per_pkt (a rep string instruction once, as a CPU counts "
	  "it) is then the headline, and a run whose plugin does not count known work "
	  "exactly runs no trial (docs/engines.md)", "host", "ENGINE",
	  .brief = "`icount`: measure instructions per packet inside a qemu `-icount` guest "
	  "(see docs/engines.md)" },
	{ "counters", OPT_COUNTERS, "LIST", "counter backends to try, in order; e.g. "
	  "fentry,tracepoint keeps kprobes off (docs/counters.md)",
	  "kprobe,fentry,tracepoint", "COUNTERS", .brief = "counter backends to try, in order" },
	{ "pmu-events", OPT_PMU_EVENTS, "LIST", "perf events counted by `perf stat` in the "
	  "timing pass, as `perf list` spells them (raw rNNNN, cpu_core/EVENT/ and modifiers "
	  "such as :u allowed; 'none' for none): over exactly each window (not the settle "
	  "wait after it), on the threads whose CPU time is cpu_ns_per_pkt; each event E "
	  "gives E_per_pkt (dashes to underscores), scaled by perf when counters were shared "
	  "(its running percentage is kept), null with perf's reason where it counted nothing "
	  "(<not supported>); IPC when both cycles and instructions count. Not in an icount "
	  "guest", "cycles,instructions", "PMU_EVENTS", .brief = "perf events counted by "
	  "`perf stat` over each timing window (see docs/method.md); `none`" },
	{ "dev", OPT_DEV, "IFACE", "dev: the device the traffic arrives on, named by you "
	  "(xdptc attaches to it alone and creates nothing; see `xdptc doctor --dev`)", NULL,
	  "DEV", .brief = "the device of `make run-dev`", .flags = CLI_MAKE_CMDLINE },
	{ "netns", OPT_NETNS, "NS", "dev: the device's network namespace", "this one",
	  "NETNS", .flags = CLI_MAKE_CMDLINE },
	{ "window", OPT_WINDOW, "S", "dev: each trial's window, " RUN_STR(RUN_WINDOW_S_MIN) "-"
	  RUN_STR(RUN_WINDOW_S_MAX) " seconds of the traffic that comes",
	  RUN_STR(RUN_WINDOW_S_DEFAULT), "WINDOW" },
	{ "rate-tolerance", OPT_RATE_TOLERANCE, "PCT", "dev: a trial whose offered rate is "
	  "further than PCT percent from its pass's median is invalid (a generator that "
	  "changed its pace), "
	  RUN_STR(RUN_RATE_TOLERANCE_MIN) "-" RUN_STR(RUN_RATE_TOLERANCE_MAX),
	  RUN_STR(RUN_RATE_TOLERANCE_DEFAULT), "RATE_TOLERANCE" },
	{ "allow-default-route-dev", OPT_ALLOW_DEFAULT_ROUTE_DEV, NULL, "dev: measure a "
	  "device that carries the default route or a remote login (an XDP attach can take "
	  "its link down for a moment on some drivers)", "refused", "ALLOW_DEFAULT_ROUTE_DEV",
	  "1" },
	{ "cpu", OPT_CPU, "N", "CPU the sender (and on veth the receive softirq) runs on",
	  "the last CPU", "CPU", .flags = CLI_MAKE_CMDLINE },
	{ "port", 'p', "N", "UDP port to drop and to send to", "9999", "PORT",
	  .flags = CLI_MAKE_CMDLINE },
	{ "out", 'o', "DIR", "parent directory of the run directory", "results", "OUT",
	  .flags = CLI_MAKE_CMDLINE },
	{ "size", 's', "B", "UDP payload bytes, 0-" RUN_STR(RUN_PAYLOAD_MAX) " (18: 60-byte frames, 64 with "
	  "the FCS)",
	  "18" },
	{ "seed", OPT_SEED, "N", "seed of the trial order", "the time" },
	{ "cross-check-counters", OPT_CROSS_CHECK, NULL, "count with every working backend at "
	  "once and record each (skbs_built_by_backend and the like in run.json; docs/counters.md)", "off" },
	{ "quiet", 'q', NULL, "do not print the summary on stdout (progress still goes to "
	  "stderr)" },
	{ "verbose", 'v', NULL, "print libbpf's messages on stderr" },
	{ "inside-icount", OPT_INSIDE_ICOUNT, "FILE", "the inner run of the icount engine, "
	  "inside its guest: every option from FILE (run_opts_to_json)", .flags = CLI_HIDDEN },
	{ "held-lock", OPT_HELD_LOCK, "FD", "one run of `xdptc matrix`, which holds the run "
	  "lock on the inherited FD", .flags = CLI_HIDDEN },
	{ NULL },
};

/* A default's words, from the topologies' (@off: the field of struct topology_defaults,
 * @is_rate: a uint64_t of packets/s, 0 written "unpaced"; else packets or repetitions):
 * the first topology's on the host engine, then each other's where it differs, then the
 * icount engine's ("icount V" when every topology has the same, else "NAME under icount
 * V" for each that has one). */
static const char *default_words(size_t off, bool is_int)
{
	static char bufs[3][160];
	static int next;
	char *b = bufs[next++ % 3];
	const struct topology_desc *first = topologies[0];
	size_t n = 0;
	bool same = true;

#define DEFAULT_OF(t, eng) (is_int ? (uint64_t)*(const int *)((const char *)&(t)->eng + off) \
				   : *(const uint64_t *)((const char *)&(t)->eng + off))
	for (int i = 0; topologies[i]; i++) {
		uint64_t v = DEFAULT_OF(topologies[i], host);
		char num[32];

		if ((topologies[i]->outside && !is_int) || /* windows of time: no count, no pace */
		    topologies[i]->icount_only)
			continue;
		if (i && v == DEFAULT_OF(first, host))
			continue;
		cli_count_words(v, num, sizeof(num));
		n += (size_t)snprintf(b + n, sizeof(bufs[0]) - n, "%s%s%s%s", i ? "; " : "",
				      i ? topologies[i]->name : "", i ? " " : "",
				      v || is_int ? num : "unpaced");
		same &= topologies[i]->outside || topologies[i]->icount_as || /* none of its own */
			DEFAULT_OF(topologies[i], icount) == DEFAULT_OF(first, icount);
	}
	for (int i = 0; topologies[i] && n < sizeof(bufs[0]); i++) {
		uint64_t v = DEFAULT_OF(topologies[i], icount);
		char num[32];

		if (topologies[i]->outside || topologies[i]->icount_as || (same && i) ||
		    (!same && !v))
			continue;
		cli_count_words(v, num, sizeof(num));
		n += (size_t)snprintf(b + n, sizeof(bufs[0]) - n, "; %s%sicount %s",
				      same ? "" : topologies[i]->name, same ? "" : " under ",
				      v || is_int ? num : "unpaced");
	}
#undef DEFAULT_OF
	return b;
}

/* Option @x's help with @token replaced by @text, into @buf (the help as it is when it
 * has no @token). */
static void help_with(struct cli_opt *x, const char *token, const char *text, char *buf,
		      size_t len)
{
	const char *at = strstr(x->help, token);

	if (!at)
		return;
	snprintf(buf, len, "%.*s%s%s", (int)(at - x->help), x->help, text, at + strlen(token));
	x->help = buf;
}

/* --modes's help, default and brief: every mode of drop_mode.c, the topologies that take
 * a mode only some allow (netkit), and each topology's default modes. */
static void modes_words(struct cli_opt *x)
{
	static char help[384], deflt[256], brief[256];
	size_t h = 0, d = 0, b = 0;

	h += (size_t)snprintf(help, sizeof(help), "comma list of the modes measured, each an arm "
			      "of every repetition: ");
	for (int m = 0; m < MODE_NR; m++) {
		const char *sep = m ? (m == MODE_NR - 1 ? " or " : ", ") : "";

		h += (size_t)snprintf(help + h, sizeof(help) - h, "%s%s", sep, drop_mode_name(m));
		b += (size_t)snprintf(brief + b, sizeof(brief) - b, "%s`%s`", m ? ", " : "comma list of ",
				      drop_mode_name(m));
	}
	snprintf(help + h, sizeof(help) - h, " (netkit: the %s topology only)",
		 topology_names(TOPOLOGY_NETKIT, NULL, ", ", NULL));
	snprintf(brief + b, sizeof(brief) - b, " (`netkit`: %s only)",
		 topology_names(TOPOLOGY_NETKIT, "`%s`", ", ", NULL));
	d += (size_t)snprintf(deflt, sizeof(deflt), "%s", topologies[0]->modes ?: "tc,xdpdrv");
	for (int i = 1; topologies[i]; i++)
		if (topologies[i]->modes)
			d += (size_t)snprintf(deflt + d, sizeof(deflt) - d, "; %s %s",
					      topologies[i]->name, topologies[i]->modes);
	x->help = help;
	x->deflt = deflt;
	x->brief = brief;
}

/* The option rows that name the topologies (--topology) and their defaults (--packets,
 * --reps, --rate), and the modes (--modes), from the tables of topologies and modes,
 * before anything reads the table. */
__attribute__((constructor)) static void run_opts_table_topologies(void)
{
	static char brief[256], arg[128];

	for (struct cli_opt *x = run_opts_table; x->name; x++) {
		if (!strcmp(x->name, "topology")) {
			/* a copy: topology_names' buffers are used in turn by the rows after */
			snprintf(arg, sizeof(arg), "%s", topology_names(0, NULL, "|", NULL));
			x->arg = arg;
			x->help = topology_help();
			x->deflt = topologies[0]->name;
			snprintf(brief, sizeof(brief), "%s (what `make run-%s` pass)",
				 topology_names(0, "`%s`", ", ", " or "),
				 topology_names(0, NULL, "` / `run-", NULL));
			x->brief = brief;
		} else if (!strcmp(x->name, "packets")) {
			static char help[512];

			/* the range, from its one definition (run_opts.h) */
			help_with(x, "RANGE", cli_packets_range(), help, sizeof(help));
			x->deflt = default_words(offsetof(struct topology_defaults, packets), false);
		} else if (!strcmp(x->name, "no-flame")) {
			/* the topologies whose DUT this machine's perf sees */
			static char help[256], deflt[128];
			char names[96] = "";

			for (int i = 0; topologies[i]; i++)
				if (!topologies[i]->no_flame)
					snprintf(names + strlen(names), sizeof(names) - strlen(names),
						 "%s%s", names[0] ? ", " : "", topologies[i]->name);
			help_with(x, "FLAME_TOPOLOGIES", names, help, sizeof(help));
			snprintf(deflt, sizeof(deflt), "%s (%s)", x->deflt, names);
			x->deflt = deflt;
		} else if (!strcmp(x->name, "modes")) {
			modes_words(x);
		} else if (!strcmp(x->name, "reps")) {
			x->deflt = default_words(offsetof(struct topology_defaults, reps), true);
		} else if (!strcmp(x->name, "rate")) {
			x->deflt = default_words(offsetof(struct topology_defaults, rate_pps), false);
		}
	}
}

