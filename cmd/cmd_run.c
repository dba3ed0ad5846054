/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_run.c: xdptc run, the options of a whole measurement run. */
#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bpf_log.h"
#include "cli_parse.h"
#include "run.h"
#include "run_opts_json.h"
#include "topologies.h"
#include "skb_counters.h"

#include "sender.h"
#include "cli.h"
#include "cli_table.h"
#include "perf_stat.h"

/* Each topology's defaults of --packets, --reps and --rate, per engine, are its
 * descriptor's (run/topology_NAME.c); the icount engine's count passes need fewer
 * repetitions on every topology (instructions repeat exactly) */
#define DEFAULT_COUNT_REPS 3
#define ICOUNT_DEFAULT_COUNT_REPS 2
/* a sample every 50,000 guest instructions, over 50,000 packets: about 7,000 samples at
 * 7,000 instructions per packet, so the functions that matter carry thousands; at
 * 10,000 a sample's own interrupt (a few thousand instructions, more in deep stacks)
 * came close to the period. The attribution is biased under icount at every period
 * tried (docs/engines.md): the matrix checks it on the sender's own code */
#define ICOUNT_DEFAULT_PROFILE_PERIOD 50000
#define ICOUNT_DEFAULT_PROFILE_PACKETS 50000


/* long-only options' keys */
enum {
	OPT_PACKETS = 256, OPT_CPU, OPT_SEED, OPT_RATE, OPT_GUEST_KERNEL, OPT_COUNTERS,
	OPT_CROSS_CHECK, OPT_NO_FLAME, OPT_AA, OPT_SENDER, OPT_FIND_MAX_RATE, OPT_THREADED_NAPI,
	OPT_NAPI_CPU, OPT_ENGINE, OPT_INSIDE_ICOUNT, OPT_PMU_EVENTS, OPT_HELD_LOCK,
	OPT_PROFILE_PERIOD, OPT_PROFILE_PACKETS, OPT_SCHEDULE, OPT_WINDOW_MS, OPT_TIMING_BUDGET,
	OPT_TARGET, OPT_WINDOWS_PER_ATTACH, OPT_DEV, OPT_NETNS, OPT_WINDOW, OPT_RATE_TOLERANCE,
	OPT_ALLOW_DEFAULT_ROUTE_DEV,
};

/* The option table; the rows that list the topologies and their defaults get their words
 * from the table of topologies (run_opts_table_topologies) */
static struct cli_opt run_opts_table[] = {
	{ "topology", 't', "NAME", "the topologies' list", "the first", .brief = "the same" },
	{ "modes", 'm', "LIST", "comma list of the modes measured, each an arm of every "
	  "repetition: none, xdpdrv, xdpgeneric, tc, tcx", "tc,xdpdrv", "MODES",
	  .brief = "comma list of `none`, `xdpdrv`, `xdpgeneric`, `tc`, `tcx`" },
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
	  RUN_STR(RUN_TIMING_BUDGET_MAX), "48", "TIMING_BUDGET" },
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
	{ "profile-packets", OPT_PROFILE_PACKETS, "N", "packets in the profile pass's window",
	  "--packets; icount 50k (or --packets if more)" },
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

		if (topologies[i]->outside && !is_int) /* windows of time: no count, no pace */
			continue;
		if (i && v == DEFAULT_OF(first, host))
			continue;
		cli_count_words(v, num, sizeof(num));
		n += (size_t)snprintf(b + n, sizeof(bufs[0]) - n, "%s%s%s%s", i ? "; " : "",
				      i ? topologies[i]->name : "", i ? " " : "",
				      v || is_int ? num : "unpaced");
		same &= topologies[i]->outside || /* no icount engine */
			DEFAULT_OF(topologies[i], icount) == DEFAULT_OF(first, icount);
	}
	for (int i = 0; topologies[i] && n < sizeof(bufs[0]); i++) {
		uint64_t v = DEFAULT_OF(topologies[i], icount);
		char num[32];

		if (topologies[i]->outside || (same && i) || (!same && !v))
			continue;
		cli_count_words(v, num, sizeof(num));
		n += (size_t)snprintf(b + n, sizeof(bufs[0]) - n, "; %s%sicount %s",
				      same ? "" : topologies[i]->name, same ? "" : " under ", num);
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

/* The option rows that name the topologies (--topology) and their defaults (--packets,
 * --reps, --rate), from the table of topologies, before anything reads the table. */
__attribute__((constructor)) static void run_opts_table_topologies(void)
{
	static char brief[256];

	for (struct cli_opt *x = run_opts_table; x->name; x++) {
		if (!strcmp(x->name, "topology")) {
			x->arg = topology_names(0, NULL, "|", NULL);
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
		} else if (!strcmp(x->name, "reps")) {
			x->deflt = default_words(offsetof(struct topology_defaults, reps), true);
		} else if (!strcmp(x->name, "rate")) {
			x->deflt = default_words(offsetof(struct topology_defaults, rate_pps), false);
		}
	}
}

const struct cli_command cli_cmd_run = {
	.name = "run",
	.fn = cmd_run,
	.brief = "a whole measurement run on a topology (what make run-veth calls)",
	.about = "Build the topology, run interleaved trials of every mode in three passes "
		 "(timing: no tracing, BPF statistics off; count: the counter backends; "
		 "bpfstats: BPF run time) and a profile pass (flame graphs), write "
		 "OUT/<UTC timestamp>-<topology>[-icount]/run.json and summary.md, print the "
		 "summary, and remove the topology (also on error and Ctrl-C).",
	.opts = run_opts_table,
	.notes = "One run at a time per machine: a second run refuses while one is measuring.",
};

/* The options of `xdptc run` as they are parsed: the run's, and what was given. */
struct run_parse {
	struct run_opts o;
	uint64_t warmup;                       /* UINT64_MAX: not given */
	int packets_set, rate_set, reps_set, aa, guest_kernel_set, count_reps_set, pmu_set;
	int alt_set;                           /* --timing-budget or --target given */
	int dev_set, sender_set;               /* --window or --rate-tolerance; --sender */
	const char *inside_file;               /* --inside-icount FILE */
};

/* --napi-cpu N|sender (it implies --threaded-napi). Returns -1, or EXIT_USAGE. */
static int parse_napi_cpu(struct run_parse *p, const char *arg)
{
	uint64_t v;

	p->o.threaded_napi = true;
	if (!strcmp(arg, "sender")) {
		p->o.napi_cpu = NAPI_CPU_SENDER;
		return -1;
	}
	if (parse_count(arg, 4095, &v) || v >= (uint64_t)sysconf(_SC_NPROCESSORS_ONLN)) {
		fprintf(stderr, "xdptc: --napi-cpu '%s': expected 'sender' or an online CPU, 0-%ld\n",
			arg, sysconf(_SC_NPROCESSORS_ONLN) - 1);
		return EXIT_USAGE;
	}
	p->o.napi_cpu = (int)v;
	return -1;
}

/* --pmu-events LIST|none: checked by perf_stat_split_events. Returns -1, or EXIT_USAGE. */
static int parse_pmu_events(struct run_parse *p, const char *arg)
{
	struct perf_stat_value pv[PERF_STAT_MAX_EVENTS];

	p->pmu_set = 1;
	if (!strcmp(arg, "none")) {
		p->o.pmu_events = "";
		return -1;
	}
	if (perf_stat_split_events(arg, pv, PERF_STAT_MAX_EVENTS) < 0)
		return bad_value("--pmu-events", arg, "a comma list of perf events such as "
				 "task-clock,cycles (at most 16), or none");
	p->o.pmu_events = arg;
	return -1;
}

/* --cpu N: an online CPU. Returns -1, or EXIT_USAGE. */
static int parse_cpu(struct run_parse *p, const char *arg)
{
	uint64_t v;

	if (parse_count(arg, 4095, &v) || v >= (uint64_t)sysconf(_SC_NPROCESSORS_ONLN)) {
		fprintf(stderr, "xdptc: --cpu '%s': expected an online CPU, 0-%ld\n", arg,
			sysconf(_SC_NPROCESSORS_ONLN) - 1);
		return EXIT_USAGE;
	}
	p->o.sender_cpu = (int)v;
	p->o.sender_cpu_set = true;
	return -1;
}

/* Apply option @c (cli_next's key) with its argument in optarg. Returns -1 to go on, or
 * the exit status of a refusal (said on stderr). */
static int run_opt_apply(struct run_parse *p, int c)
{
	static int counter_order[BACKEND_NR + 1];
	uint64_t v;
	int n;

	switch (c) {
	case 't':
		if (!topology_find(optarg))
			return bad_value("--topology", optarg, topology_names(0, NULL, ", ", " or "));
		p->o.topology = optarg;
		break;
	case OPT_RATE:
		if (parse_count(optarg, 100000000ull, &p->o.rate_pps))
			return bad_value("--rate", optarg, "packets per second such as 20k");
		p->rate_set = 1;
		break;
	case OPT_CROSS_CHECK: p->o.cross_check = true; break;
	case OPT_NO_FLAME: p->o.flame = false; break;
	case OPT_PROFILE_PACKETS:
	case OPT_PROFILE_PERIOD: {
		uint64_t *to = c == OPT_PROFILE_PACKETS ? &p->o.profile_packets : &p->o.profile_period;

		if (parse_count(optarg, 1000000000ull, to) || *to < 1000)
			return bad_value(c == OPT_PROFILE_PACKETS ? "--profile-packets" : "--profile-period",
					 optarg, "1000 or more");
		break;
	}
	case OPT_AA: p->aa = 1; break;
	case OPT_SCHEDULE:
		if (!strcmp(optarg, "alternating"))
			p->o.schedule = SCHEDULE_ALTERNATING;
		else if (!strcmp(optarg, "classic"))
			p->o.schedule = SCHEDULE_CLASSIC;
		else
			return bad_value("--schedule", optarg, "alternating or classic");
		break;
	case OPT_WINDOWS_PER_ATTACH:
		if (strcmp(optarg, "1") && strcmp(optarg, "2") && strcmp(optarg, "4") &&
		    strcmp(optarg, "8"))
			return bad_value("--windows-per-attach", optarg, "1, 2, 4 or 8");
		p->o.windows_per_attach = atoi(optarg);
		break;
	case OPT_WINDOW_MS:
	case OPT_TIMING_BUDGET:
	case OPT_TARGET: {
		char *end;
		double v = strtod(optarg, &end);
		double lo = c == OPT_WINDOW_MS ? RUN_WINDOW_MS_MIN : c == OPT_TARGET ?
			    RUN_TARGET_PCT_MIN : RUN_TIMING_BUDGET_MIN;
		double hi = c == OPT_WINDOW_MS ? RUN_WINDOW_MS_MAX : c == OPT_TARGET ?
			    RUN_TARGET_PCT_MAX : RUN_TIMING_BUDGET_MAX;

		if (end == optarg || *end || !(v >= lo && v <= hi))
			return bad_value(c == OPT_WINDOW_MS ? "--window-ms" : c == OPT_TARGET
					 ? "--target" : "--timing-budget", optarg,
					 c == OPT_WINDOW_MS ? "milliseconds from "
					 RUN_STR(RUN_WINDOW_MS_MIN) " to " RUN_STR(RUN_WINDOW_MS_MAX)
					 : c == OPT_TARGET ? "a percentage from "
					 RUN_STR(RUN_TARGET_PCT_MIN) " to " RUN_STR(RUN_TARGET_PCT_MAX)
					 : "seconds from " RUN_STR(RUN_TIMING_BUDGET_MIN) " to "
					 RUN_STR(RUN_TIMING_BUDGET_MAX));
		p->alt_set |= c != OPT_WINDOW_MS;
		if (c == OPT_WINDOW_MS)
			p->o.window_ms = v;
		else if (c == OPT_TARGET)
			p->o.target_halfwidth = v / 100;
		else
			p->o.timing_budget_s = v;
		break;
	}
	case OPT_DEV:
		if (!*optarg || strlen(optarg) >= 16 || strchr(optarg, '/'))
			return bad_value("--dev", optarg, "a device name (at most 15 characters)");
		p->o.dev = optarg;
		break;
	case OPT_NETNS:
		if (!*optarg || strchr(optarg, '/'))
			return bad_value("--netns", optarg, "a network namespace's name");
		p->o.dev_netns = optarg;
		break;
	case OPT_WINDOW:
	case OPT_RATE_TOLERANCE: {
		char *end;
		double v = strtod(optarg, &end);
		bool w = c == OPT_WINDOW;

		if (end == optarg || *end ||
		    !(w ? v >= RUN_WINDOW_S_MIN && v <= RUN_WINDOW_S_MAX
			: v >= RUN_RATE_TOLERANCE_MIN && v <= RUN_RATE_TOLERANCE_MAX))
			return bad_value(w ? "--window" : "--rate-tolerance", optarg,
					 w ? "seconds from " RUN_STR(RUN_WINDOW_S_MIN) " to "
					     RUN_STR(RUN_WINDOW_S_MAX)
					   : "a percentage from " RUN_STR(RUN_RATE_TOLERANCE_MIN)
					     " to " RUN_STR(RUN_RATE_TOLERANCE_MAX));
		if (w)
			p->o.window_s = v;
		else
			p->o.rate_tolerance = v / 100;
		p->dev_set = 1;
		break;
	}
	case OPT_ALLOW_DEFAULT_ROUTE_DEV: p->o.allow_default_route_dev = true; break;
	case OPT_FIND_MAX_RATE: p->o.find_max_rate = true; break;
	case OPT_ENGINE:
		if (!strcmp(optarg, "icount"))
			p->o.engine = ENGINE_ICOUNT;
		else if (strcmp(optarg, "host"))
			return bad_value("--engine", optarg, "host or icount");
		break;
	case OPT_INSIDE_ICOUNT: p->inside_file = optarg; break;
	case OPT_HELD_LOCK:
		p->o.held_lock = atoi(optarg);
		if (p->o.held_lock <= 2)
			return bad_value("--held-lock", optarg, "an inherited file descriptor");
		break;
	case OPT_THREADED_NAPI: p->o.threaded_napi = true; break;
	case OPT_NAPI_CPU: /* implies --threaded-napi */
		return parse_napi_cpu(p, optarg);
	case OPT_SENDER: {
		enum sender_kind k;

		if (sender_parse(optarg, &k))
			return bad_value("--sender", optarg, "udp, packet or xdp-live");
		p->o.sender = k;
		p->sender_set = 1;
		break;
	}
	case OPT_COUNTERS:
		if (parse_counter_backends(optarg, counter_order) < 0)
			return bad_value("--counters", optarg,
					 "a comma list of kprobe, fentry, tracepoint");
		p->o.counter_order = counter_order;
		break;
	case OPT_PMU_EVENTS:
		return parse_pmu_events(p, optarg);
	case OPT_GUEST_KERNEL:
		if (!guest_kernel_spec_ok(optarg))
			return bad_value("--guest-kernel", optarg, "a kernel version such as 6.1, "
					 "6.18, 7.3 or 6.12.95-1~bpo12+1");
		p->o.guest_kernel = optarg;
		p->guest_kernel_set = 1;
		break;
	case OPT_PACKETS:
		if (parse_count(optarg, RUN_PACKETS_MAX, &p->o.packets) ||
		    p->o.packets < RUN_PACKETS_MIN) {
			char what[96];

			snprintf(what, sizeof(what), "a packet count from %s such as 1M",
				 cli_packets_range());
			return bad_value("--packets", optarg, what);
		}
		p->packets_set = 1;
		break;
	case 'r':
	case 'c':
		if (parse_count(optarg, c == 'r' ? RUN_REPS_MAX : RUN_COUNT_REPS_MAX, &v) ||
		    v < (c == 'r' ? RUN_REPS_MIN : RUN_COUNT_REPS_MIN))
			return bad_value(c == 'r' ? "--reps" : "--count-reps", optarg,
					 c == 'r' ? RUN_STR(RUN_REPS_MIN) "-" RUN_STR(RUN_REPS_MAX) " repetitions"
					 : RUN_STR(RUN_COUNT_REPS_MIN) "-" RUN_STR(RUN_COUNT_REPS_MAX)
					   " repetitions");
		*(c == 'r' ? &p->o.reps : &p->o.count_reps) = (int)v;
		*(c == 'r' ? &p->reps_set : &p->count_reps_set) = 1;
		break;
	case 'm':
		n = parse_modes(optarg, p->o.modes, RUN_MAX_MODES);
		if (n < 0) {
			fprintf(stderr, "xdptc: --modes '%s': %sa comma list of distinct modes "
					"from: %s\n", optarg, n == -EEXIST ? "a mode is given twice; "
					: "", drop_mode_choices());
			return EXIT_USAGE;
		}
		p->o.nmodes = n;
		break;
	case 'w':
		if (parse_count(optarg, RUN_PACKETS_MAX, &p->warmup))
			return bad_value("--warmup", optarg, "a packet count");
		break;
	case OPT_CPU:
		return parse_cpu(p, optarg);
	case 'p':
		if (parse_port(optarg, &p->o.port))
			return bad_port(optarg);
		break;
	case 's':
		if (parse_count(optarg, RUN_PAYLOAD_MAX, &v))
			return bad_value("--size", optarg, "payload bytes, 0-" RUN_STR(RUN_PAYLOAD_MAX)
					 " (a 1514-byte frame)");
		p->o.payload_len = (uint32_t)v;
		break;
	case OPT_SEED:
		if (parse_count(optarg, (uint64_t)INT64_MAX, &p->o.seed))
			return bad_value("--seed", optarg, "a non-negative integer");
		break;
	case 'o': p->o.out_dir = optarg; break;
	case 'q': p->o.quiet = 1; break;
	case 'v': verbose = 1; bpf_log_setup(1); break;
	}
	return -1;
}

/* The topologies whose traffic comes from outside, a comma list. */
static const char *topology_names_outside(void)
{
	static char b[128];

	b[0] = '\0';
	for (int i = 0; topologies[i]; i++)
		if (topologies[i]->outside)
			snprintf(b + strlen(b), sizeof(b) - strlen(b), "%s%s", b[0] ? ", " : "",
				 topologies[i]->name);
	return b;
}

/* A topology whose traffic comes from outside (dev): the device is required, and what
 * would make or pace traffic here is refused. Returns -1 to go on, or EXIT_USAGE. */
static int run_opts_outside(struct run_parse *p, const struct topology_desc *td)
{
	if (!p->o.dev) {
		fprintf(stderr, "xdptc: --topology %s needs --dev IFACE: the device the traffic "
				"arrives on (see `xdptc doctor --dev IFACE`)\n", td->name);
		return EXIT_USAGE;
	}
	if (p->o.engine == ENGINE_ICOUNT || p->sender_set || p->rate_set || p->o.find_max_rate ||
	    p->o.threaded_napi || p->packets_set || p->warmup != UINT64_MAX) {
		fprintf(stderr, "xdptc: --topology %s measures the traffic that comes from "
				"outside in windows of --window seconds: --engine icount, --sender, "
				"--rate, --find-max-rate, --threaded-napi, --packets and --warmup do "
				"not apply (pace the generator; a trial far from the run's median "
				"rate is invalid)\n", td->name);
		return EXIT_USAGE;
	}
	return -1;
}

/* The defaults that depend on the topology and engine, and the combinations refused.
 * Returns -1 to go on, or the exit status. */
static int run_opts_finish(struct run_parse *p)
{
	const struct topology_desc *td = topology_find(p->o.topology);
	bool icount = p->o.engine == ENGINE_ICOUNT;
	const struct topology_defaults *df = icount ? &td->icount : &td->host;

	/* the alternating pass's settings, given where the timing pass will be classic */
	if ((p->o.window_ms > 0 || p->o.windows_per_attach || p->alt_set) &&
	    (p->o.schedule == SCHEDULE_CLASSIC ||
	     (p->o.schedule == SCHEDULE_AUTO && (td->remote || icount))))
		fprintf(stderr, "xdptc: note: --window-ms, --windows-per-attach, --timing-budget "
				"and --target apply to the alternating timing pass only; this run's "
				"is classic (--schedule alternating to have it)\n");
	if (!(td->allows & TOPOLOGY_GUEST_KERNEL) && !icount && p->guest_kernel_set) {
		fprintf(stderr, "xdptc: --guest-kernel applies to --topology %s or --engine "
				"icount only\n",
			topology_names(TOPOLOGY_GUEST_KERNEL, NULL, ", ", " or "));
		return EXIT_USAGE;
	}
	if (p->o.threaded_napi && !(td->allows & TOPOLOGY_THREADED_NAPI) && !icount) {
		fprintf(stderr, "xdptc: --threaded-napi and --napi-cpu apply to --topology %s "
				"only (a guest's NAPI is the guest's)\n",
			topology_names(TOPOLOGY_THREADED_NAPI, NULL, ", ", " or "));
		return EXIT_USAGE;
	}
	if (icount && p->pmu_set && p->o.pmu_events[0]) {
		fprintf(stderr, "xdptc: --engine icount measures guest instructions, not the "
				"host's PMU: --pmu-events does not apply\n");
		return EXIT_USAGE;
	}
	if (icount || p->o.inside_icount)
		p->o.pmu_events = ""; /* no PMU in a TCG guest, and none wanted beside it */
	if (icount && (p->o.find_max_rate || p->o.threaded_napi ||
		       (p->rate_set && !(td->allows & TOPOLOGY_ICOUNT_RATE)))) {
		char unpaced[128] = "";

		for (int i = 0; topologies[i]; i++)
			if (!(topologies[i]->allows & TOPOLOGY_ICOUNT_RATE))
				snprintf(unpaced + strlen(unpaced), sizeof(unpaced) - strlen(unpaced),
					 "%s%s", unpaced[0] ? ", " : "", topologies[i]->name);
		fprintf(stderr, "xdptc: --engine icount measures instructions, not time: "
				"--find-max-rate, --threaded-napi (--napi-cpu) and (%s) --rate do "
				"not apply\n", unpaced);
		return EXIT_USAGE;
	}
	if (td->outside) {
		int r = run_opts_outside(p, td);

		if (r >= 0)
			return r;
	} else if (p->o.dev || p->o.dev_netns || p->dev_set || p->o.allow_default_route_dev) {
		fprintf(stderr, "xdptc: --dev, --netns, --window, --rate-tolerance and "
				"--allow-default-route-dev apply to --topology %s only\n",
			topology_names_outside());
		return EXIT_USAGE;
	}
	/* the topology's defaults under this engine (topology_NAME.c) */
	if (!p->packets_set)
		p->o.packets = df->packets;
	if (!p->reps_set)
		p->o.reps = df->reps;
	if (!p->rate_set)
		p->o.rate_pps = df->rate_pps;
	if (icount) {
		if (!p->count_reps_set)
			p->o.count_reps = ICOUNT_DEFAULT_COUNT_REPS;
		/* the profile pass samples guest time, so instructions: perf record -c N */
		if (!p->o.profile_period)
			p->o.profile_period = ICOUNT_DEFAULT_PROFILE_PERIOD;
		if (!p->o.profile_packets)
			p->o.profile_packets = p->o.packets > ICOUNT_DEFAULT_PROFILE_PACKETS
				? p->o.packets : ICOUNT_DEFAULT_PROFILE_PACKETS;
	}
	p->o.warmup = p->warmup == UINT64_MAX ? p->o.packets / 10 : p->warmup;
	if (!p->o.profile_packets)
		p->o.profile_packets = p->o.packets;
	if (p->o.napi_cpu == NAPI_CPU_SENDER)
		p->o.napi_cpu = p->o.sender_cpu;
	if (p->aa) { /* the first mode twice: its delta against itself is the noise floor */
		if (p->o.nmodes == RUN_MAX_MODES)
			return bad_value("--aa", "", "room for one more arm");
		p->o.modes[p->o.nmodes] = p->o.modes[0];
		p->o.aa_arm = p->o.nmodes++;
	}
	return -1;
}

/* --inside-icount FILE: the options the host wrote (run_opts_to_json), and no others.
 * Returns -1 to go on, or the exit status. */
static int run_opts_inside(struct run_parse *p, int argc)
{
	char err[512] = "";
	json_error_t jerr;
	json_t *j;
	int e;

	if (argc != 3) {
		fprintf(stderr, "xdptc run: --inside-icount FILE takes every option from FILE\n");
		return EXIT_USAGE;
	}
	j = json_load_file(p->inside_file, 0, &jerr);
	if (!j) {
		fprintf(stderr, "xdptc run: %s: %s\n", p->inside_file, jerr.text);
		return 1;
	}
	e = run_opts_from_json(j, &p->o, err, sizeof(err));
	json_decref(j);
	if (e) {
		fprintf(stderr, "xdptc run: %s: %s\n", p->inside_file, err);
		return 1;
	}
	p->o.engine = ENGINE_ICOUNT;
	p->o.out_dir = "/run/xdptc-share";
	p->o.quiet = 1;
	return -1;
}

/* run_opts_parse - the options of `xdptc run` into @o (and the topologies directory
 * into @topodir). Returns -1 to go on, or the exit status (0 after --help). */
int run_opts_parse(int argc, char **argv, struct run_opts *out, char *topodir, size_t len)
{
	static struct run_parse p;
	int c, r;

	memset(&p, 0, sizeof(p));
	p.warmup = UINT64_MAX;
	p.o = (struct run_opts){
		.topology = topologies[0]->name, .out_dir = "results",
		.count_reps = DEFAULT_COUNT_REPS,
		.timing_budget_s = 48, .target_halfwidth = 0.005,
		.flame = true, .aa_arm = -1,
		.port = DROP_DEFAULT_PORT, .payload_len = 18,
		.sender_cpu = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1, .napi_cpu = -1,
		.seed = (uint64_t)time(NULL), .pmu_events = "cycles,instructions",
		.window_s = RUN_WINDOW_S_DEFAULT, .rate_tolerance = RUN_RATE_TOLERANCE_DEFAULT / 100.0,
	};
	p.o.modes[0] = MODE_TC;
	p.o.modes[1] = MODE_XDPDRV;
	p.o.nmodes = 2;
	while ((c = cli_next(&cli_cmd_run, argc, argv)) > 0)
		if ((r = run_opt_apply(&p, c)) >= 0)
			return r;
	if (c < 0)
		return cli_exit(c);
	if (optind < argc) {
		fprintf(stderr, "xdptc run: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (p.inside_file) /* the icount engine's inner run: its options are data */
		r = run_opts_inside(&p, argc);
	else
		r = run_opts_finish(&p);
	if (r >= 0)
		return r;
	if ((c = check_privilege()))
		return c;
	default_topologies_dir(topodir, len);
	p.o.topologies_dir = topodir;
	*out = p.o;
	return -1;
}

/* A guest kernel named on the command line must be one Debian has, before anything is
 * made: topologies/virtio.sh kernel-resolve says so (exit 2, naming the series there
 * are, on its stderr). Returns -1 to go on, or EXIT_USAGE. Other failures (no network)
 * are left to the run, which says them when it fetches. */
static int guest_kernel_known(const struct run_opts *o)
{
	char cmd[PATH_MAX + 160];
	int st;

	if (!o->guest_kernel || o->inside_icount || geteuid() != 0)
		return -1;
	/* guest_kernel_spec_ok let through nothing a shell would read as more */
	snprintf(cmd, sizeof(cmd), "sh '%s/virtio.sh' kernel-resolve '%s' >/dev/null",
		 o->topologies_dir, o->guest_kernel);
	st = system(cmd);
	return WIFEXITED(st) && WEXITSTATUS(st) == 2 ? EXIT_USAGE : -1;
}

int cmd_run(int argc, char **argv)
{
	static char topodir[PATH_MAX];
	struct run_opts o;
	int r = run_opts_parse(argc, argv, &o, topodir, sizeof(topodir));

	if (r < 0)
		r = guest_kernel_known(&o);
	if (r < 0 && topology_find(o.topology)->preflight)
		r = topology_find(o.topology)->preflight(&o);
	return r >= 0 ? r : run_main(&o);
}
