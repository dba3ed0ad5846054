/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_run.c: xdptc run, the options of a whole measurement run. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "bpf_log.h"
#include "cli_parse.h"
#include "run.h"
#include "skb_counters_user.h"

#include "sender.h"
#include "cli.h"
#include "cli_table.h"
#include "perf_stat.h"

/* veth defaults: many short repetitions pair better than a few long ones on a shared
 * host (an A/A run here: 21 x 200k gave a 95% half-width of 0.4%, 5 x 1M 1.7%) */
#define VETH_DEFAULT_PACKETS 200000
#define VETH_DEFAULT_REPS 21
/* virtio defaults, sized for a TCG guest on a 2-vCPU host (see README) */
#define VIRTIO_DEFAULT_PACKETS 50000
#define VIRTIO_DEFAULT_REPS 10
#define VIRTIO_DEFAULT_RATE 50000
/* the icount engine: instructions per packet repeat to a few parts per million, so small
 * windows do; about 3 minutes for tc, xdpdrv and an A/A arm here */
#define ICOUNT_DEFAULT_PACKETS 20000
#define ICOUNT_DEFAULT_REPS 11
#define ICOUNT_DEFAULT_COUNT_REPS 2
#define ICOUNT_VIRTIO_DEFAULT_RATE 30000


/* long-only options' keys */
enum {
	OPT_PACKETS = 256, OPT_CPU, OPT_SEED, OPT_RATE, OPT_GUEST_KERNEL, OPT_COUNTERS,
	OPT_CROSS_CHECK, OPT_NO_FLAME, OPT_AA, OPT_SENDER, OPT_FIND_MAX_RATE, OPT_THREADED_NAPI,
	OPT_NAPI_CPU, OPT_ENGINE, OPT_INSIDE_ICOUNT, OPT_PMU_EVENTS,
};

static const struct cli_opt run_opts_table[] = {
	{ "topology", 't', "veth|virtio",
	  "veth: a veth pair between two namespaces; virtio: a qemu guest's virtio-net NIC "
	  "fed by a host tap", "veth", .brief = "`veth` or `virtio` (what `make run-veth` / "
	  "`run-virtio` pass)" },
	{ "modes", 'm', "LIST", "comma list of the modes measured, each an arm of every "
	  "repetition: none, xdpdrv, xdpgeneric, tc, tcx", "tc,xdpdrv", "MODES",
	  .brief = "comma list of `none`, `xdpdrv`, `xdpgeneric`, `tc`, `tcx`" },
	{ "packets", OPT_PACKETS, "N", "packets per measured window, k/M suffixes allowed",
	  "200k; virtio 50k; icount 20k", "PACKETS",
	  .brief = "packets per measured window (k/M suffixes)" },
	{ "reps", 'r', "N", "repetitions of the timing pass, 2-100, in a seeded shuffled "
	  "order; 6 or more give each delta an interval", "21; virtio 10; icount 11", "REPS" },
	{ "count-reps", 'c', "N", "repetitions of the count and BPF-statistics passes, 1-100",
	  "3; icount 2", "COUNT_REPS" },
	{ "aa", OPT_AA, NULL, "also measure the first mode as a second arm (MODE-aa): its "
	  "delta against the first is the run's noise floor", "off", "AA", "1" },
	{ "no-flame", OPT_NO_FLAME, NULL, "skip the profile pass (one trial per mode under "
	  "perf record, drawn as flame-MODE.svg; veth only)", "on (veth)",
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
	{ "warmup", 'w', "N", "packets sent before each window, not measured",
	  "10% of --packets", "WARMUP" },
	{ "rate", OPT_RATE, "PPS", "sender pace in packets/s, k/M suffixes allowed; 0: as "
	  "fast as possible", "unpaced; virtio 50k; virtio under icount 30k", "RATE" },
	{ "guest-kernel", OPT_GUEST_KERNEL, "6.1|6.12", "guest kernel (virtio, or the icount "
	  "engine): 6.1 (bookworm) or 6.12 (bookworm-backports)", "6.1", "GUEST_KERNEL" },
	{ "engine", OPT_ENGINE, "host|icount", "host: measure on this machine; icount: under "
	  "qemu's -icount shift=0,sleep=off, where guest time counts guest instructions: "
	  "veth runs the whole experiment inside such a guest, virtio boots its DUT guest so; "
	  "reports guest_instructions_per_pkt (guest instructions, never a PMU's "
	  "instructions_per_pkt) instead of cpu_ns_per_pkt. Its defaults: 20k packets x 11 "
	  "repetitions, 2 count repetitions, no flame graphs, virtio paced at 30k; "
	  "--guest-kernel applies (docs/engines.md)", "host", "ENGINE",
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
	{ "cpu", OPT_CPU, "N", "CPU the sender (and on veth the receive softirq) runs on",
	  "the last CPU", "CPU", .flags = CLI_MAKE_CMDLINE },
	{ "port", 'p', "N", "UDP port to drop and to send to", "9999", "PORT",
	  .flags = CLI_MAKE_CMDLINE },
	{ "out", 'o', "DIR", "parent directory of the run directory", "results", "OUT",
	  .flags = CLI_MAKE_CMDLINE },
	{ "size", 's', "B", "UDP payload bytes, 0-1472 (18: 60-byte frames, 64 with the FCS)",
	  "18" },
	{ "seed", OPT_SEED, "N", "seed of the trial order", "the time" },
	{ "cross-check-counters", OPT_CROSS_CHECK, NULL, "count with every working backend at "
	  "once and record each (skbs_built_by_backend and the like in run.json; docs/counters.md)", "off" },
	{ "quiet", 'q', NULL, "do not print the summary on stdout (progress still goes to "
	  "stderr)" },
	{ "verbose", 'v', NULL, "print libbpf's messages on stderr" },
	{ "inside-icount", OPT_INSIDE_ICOUNT, NULL, "the inner run of the icount engine",
	  .flags = CLI_HIDDEN },
	{ NULL },
};

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

/* run_opts_parse - the options of `xdptc run` into @o (and the topologies directory
 * into @topodir). Returns -1 to go on, or the exit status (0 after --help). */
int run_opts_parse(int argc, char **argv, struct run_opts *out, char *topodir, size_t len)
{
	int packets_set = 0, rate_set = 0, reps_set = 0, aa = 0, guest_kernel_set = 0;
	int count_reps_set = 0, pmu_set = 0;
	static int counter_order[BACKEND_NR + 1];
	struct run_opts o = {
		.topology = "veth", .out_dir = "results", .packets = VETH_DEFAULT_PACKETS,
		.reps = VETH_DEFAULT_REPS, .count_reps = 3,
		.flame = true, .aa_arm = -1,
		.port = DROP_DEFAULT_PORT, .payload_len = 18,
		.sender_cpu = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1, .napi_cpu = -1,
		.seed = (uint64_t)time(NULL), .pmu_events = "cycles,instructions",
	};
	uint64_t v, warmup = UINT64_MAX;
	int c, n;

	o.modes[0] = MODE_TC;
	o.modes[1] = MODE_XDPDRV;
	o.nmodes = 2;
	while ((c = cli_next(&cli_cmd_run, argc, argv)) > 0) {
		switch (c) {
		case 't':
			if (strcmp(optarg, "veth") && strcmp(optarg, "virtio"))
				return bad_value("--topology", optarg, "veth or virtio");
			o.topology = optarg;
			break;
		case OPT_RATE:
			if (parse_count(optarg, 100000000ull, &o.rate_pps))
				return bad_value("--rate", optarg, "packets per second such as 20k");
			rate_set = 1;
			break;
		case OPT_CROSS_CHECK:
			o.cross_check = true;
			break;
		case OPT_NO_FLAME:
			o.flame = false;
			break;
		case OPT_AA:
			aa = 1;
			break;
		case OPT_FIND_MAX_RATE:
			o.find_max_rate = true;
			break;
		case OPT_ENGINE:
			if (!strcmp(optarg, "icount"))
				o.engine = ENGINE_ICOUNT;
			else if (strcmp(optarg, "host"))
				return bad_value("--engine", optarg, "host or icount");
			break;
		case OPT_INSIDE_ICOUNT:
			o.inside_icount = true;
			break;
		case OPT_THREADED_NAPI:
			o.threaded_napi = true;
			break;
		case OPT_NAPI_CPU: /* implies --threaded-napi */
			o.threaded_napi = true;
			if (!strcmp(optarg, "sender")) {
				o.napi_cpu = NAPI_CPU_SENDER;
				break;
			}
			if (parse_count(optarg, 4095, &v) ||
			    v >= (uint64_t)sysconf(_SC_NPROCESSORS_ONLN)) {
				fprintf(stderr, "xdptc: --napi-cpu '%s': expected 'sender' or an online "
						"CPU, 0-%ld\n", optarg, sysconf(_SC_NPROCESSORS_ONLN) - 1);
				return EXIT_USAGE;
			}
			o.napi_cpu = (int)v;
			break;
		case OPT_SENDER: {
			enum sender_kind k;

			if (sender_parse(optarg, &k))
				return bad_value("--sender", optarg, "udp, packet or xdp-live");
			o.sender = k;
			break;
		}
		case OPT_COUNTERS:
			if (parse_counter_backends(optarg, counter_order) < 0)
				return bad_value("--counters", optarg,
						 "a comma list of kprobe, fentry, tracepoint");
			o.counter_order = counter_order;
			break;
		case OPT_PMU_EVENTS: {
			struct perf_stat_value pv[PERF_STAT_MAX_EVENTS];

			pmu_set = 1;
			if (!strcmp(optarg, "none")) {
				o.pmu_events = "";
				break;
			}
			if (perf_stat_split_events(optarg, pv, PERF_STAT_MAX_EVENTS) < 0)
				return bad_value("--pmu-events", optarg,
						 "a comma list of perf events such as "
						 "task-clock,cycles (at most 16), or none");
			o.pmu_events = optarg;
			break;
		}
		case OPT_GUEST_KERNEL:
			if (strcmp(optarg, "6.1") && strcmp(optarg, "6.12"))
				return bad_value("--guest-kernel", optarg, "6.1 or 6.12");
			setenv("GUEST_KERNEL", optarg, 1);
			guest_kernel_set = 1;
			break;
		case OPT_PACKETS:
			if (parse_count(optarg, 1000000000000ull, &o.packets) || !o.packets)
				return bad_value("--packets", optarg, "a packet count such as 1M");
			packets_set = 1;
			break;
		case 'r':
			if (parse_count(optarg, 100, &v) || v < 2)
				return bad_value("--reps", optarg, "2-100 repetitions");
			o.reps = (int)v;
			reps_set = 1;
			break;
		case 'c':
			if (parse_count(optarg, 100, &v) || v < 1)
				return bad_value("--count-reps", optarg, "1-100 repetitions");
			o.count_reps = (int)v;
			count_reps_set = 1;
			break;
		case 'm':
			n = parse_modes(optarg, o.modes, RUN_MAX_MODES);
			if (n < 0) {
				fprintf(stderr, "xdptc: --modes '%s': a comma list of distinct modes "
						"from: %s\n", optarg, drop_mode_choices());
				return EXIT_USAGE;
			}
			o.nmodes = n;
			break;
		case 'w':
			if (parse_count(optarg, 1000000000000ull, &warmup))
				return bad_value("--warmup", optarg, "a packet count");
			break;
		case OPT_CPU:
			if (parse_count(optarg, 4095, &v) ||
			    v >= (uint64_t)sysconf(_SC_NPROCESSORS_ONLN)) {
				fprintf(stderr, "xdptc: --cpu '%s': expected an online CPU, 0-%ld\n",
					optarg, sysconf(_SC_NPROCESSORS_ONLN) - 1);
				return EXIT_USAGE;
			}
			o.sender_cpu = (int)v;
			break;
		case 'p':
			if (parse_port(optarg, &o.port))
				return bad_port(optarg);
			break;
		case 's':
			if (parse_count(optarg, 1472, &v))
				return bad_value("--size", optarg, "payload bytes, 0-1472 (a 1514-byte frame)");
			o.payload_len = (uint32_t)v;
			break;
		case OPT_SEED:
			if (parse_count(optarg, (uint64_t)INT64_MAX, &o.seed))
				return bad_value("--seed", optarg, "a non-negative integer");
			break;
		case 'o': o.out_dir = optarg; break;
		case 'q': o.quiet = 1; break;
		case 'v': verbose = 1; bpf_log_setup(1); break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (optind < argc) {
		fprintf(stderr, "xdptc run: unexpected argument '%s'\n", argv[optind]);
		return EXIT_USAGE;
	}
	if (strcmp(o.topology, "virtio") && o.engine != ENGINE_ICOUNT && guest_kernel_set) {
		fprintf(stderr, "xdptc: --guest-kernel applies to --topology virtio or --engine "
				"icount only\n");
		return EXIT_USAGE;
	}
	if (!strcmp(o.topology, "virtio")) {
		/* an emulated guest drops tens of thousands of packets per second, not
		 * millions: fewer packets, paced so the tap's queue never overflows */
		if (!packets_set)
			o.packets = VIRTIO_DEFAULT_PACKETS;
		if (!rate_set)
			o.rate_pps = VIRTIO_DEFAULT_RATE;
		if (!reps_set)
			o.reps = VIRTIO_DEFAULT_REPS;
	}
	if (o.threaded_napi && strcmp(o.topology, "veth") && o.engine != ENGINE_ICOUNT) {
		fprintf(stderr, "xdptc: --threaded-napi and --napi-cpu apply to --topology veth "
				"only (a virtio guest's NAPI is the guest's)\n");
		return EXIT_USAGE;
	}
	if (o.engine == ENGINE_ICOUNT && pmu_set && o.pmu_events[0]) {
		fprintf(stderr, "xdptc: --engine icount measures guest instructions, not the "
				"host's PMU: --pmu-events does not apply\n");
		return EXIT_USAGE;
	}
	if (o.engine == ENGINE_ICOUNT || o.inside_icount)
		o.pmu_events = ""; /* no PMU in a TCG guest, and none wanted beside it */
	if (o.engine == ENGINE_ICOUNT) {
		if (o.find_max_rate || o.threaded_napi ||
		    (o.rate_pps && strcmp(o.topology, "virtio"))) {
			fprintf(stderr, "xdptc: --engine icount measures instructions, not time: "
					"--find-max-rate, --threaded-napi (--napi-cpu) and (veth) "
					"--rate do not apply\n");
			return EXIT_USAGE;
		}
		/* instructions repeat exactly: small windows suffice, and an emulated
		 * guest is slow (about 3 s of host time per 20,000-packet window here) */
		if (!packets_set)
			o.packets = ICOUNT_DEFAULT_PACKETS;
		if (!reps_set)
			o.reps = ICOUNT_DEFAULT_REPS;
		if (!count_reps_set)
			o.count_reps = ICOUNT_DEFAULT_COUNT_REPS;
		/* under icount the guest DUT falls behind 50 kpps (some loss at the tap) */
		if (!strcmp(o.topology, "virtio") && !rate_set)
			o.rate_pps = ICOUNT_VIRTIO_DEFAULT_RATE;
		o.flame = false; /* perf in the guest samples emulated time only */
	}
	o.warmup = warmup == UINT64_MAX ? o.packets / 10 : warmup;
	if (o.napi_cpu == NAPI_CPU_SENDER)
		o.napi_cpu = o.sender_cpu;
	if (aa) { /* the first mode twice: its delta against itself is the noise floor */
		if (o.nmodes == RUN_MAX_MODES)
			return bad_value("--aa", "", "room for one more arm");
		o.modes[o.nmodes] = o.modes[0];
		o.aa_arm = o.nmodes++;
	}
	if ((c = check_privilege()))
		return c;
	default_topologies_dir(topodir, len);
	o.topologies_dir = topodir;
	o.argc = argc;
	o.argv = argv;
	*out = o;
	return -1;
}

int cmd_run(int argc, char **argv)
{
	static char topodir[PATH_MAX];
	struct run_opts o;
	int r = run_opts_parse(argc, argv, &o, topodir, sizeof(topodir));

	return r >= 0 ? r : run_main(&o);
}
