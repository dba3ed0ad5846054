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
#include "nic_models.h"
#include "qemu_from.h"
#include "run_opts_json.h"
#include "topologies.h"
#include "skb_counters.h"

#include "sender.h"
#include "cli.h"
#include "cli_table.h"
#include "cmd_run_table.h"
#include "perf_stat.h"

/* Each topology's defaults of --packets, --reps and --rate, per engine, are its
 * descriptor's (run/topology_NAME.c), the others the declaration's (run_opt_table.c);
 * the icount engine's count passes need fewer repetitions on every topology
 * (instructions repeat exactly) */
#define ICOUNT_DEFAULT_COUNT_REPS 2
/* a sample every 50,000 guest instructions, over 50,000 packets: about 7,000 samples at
 * 7,000 instructions per packet, so the functions that matter carry thousands; at
 * 10,000 a sample's own interrupt (a few thousand instructions, more in deep stacks)
 * came close to the period. The attribution is biased under icount at every period
 * tried (docs/engines.md): the matrix checks it on the sender's own code */
#define ICOUNT_DEFAULT_PROFILE_PERIOD 50000
#define ICOUNT_DEFAULT_PROFILE_PACKETS 50000


const struct cli_command cli_cmd_run = {
	.name = "run",
	.fn = cmd_run,
	.brief = "a whole measurement run on a topology (what make run-veth calls)",
	.about = "Build the topology, run interleaved trials of every mode in three passes "
		 "(timing: no tracing, BPF statistics off; count: the counter backends; "
		 "bpfstats: BPF run time) and a profile pass (flame graphs), write "
		 "OUT/<UTC timestamp>-<topology>[-icount]/: run.json, summary.md, index.html, "
		 "the plots and the flame graphs; print the summary, and remove the topology "
		 "(also on error and Ctrl-C).",
	.opts = run_opts_table,
	.notes = "One run at a time per machine: a second run refuses while one is measuring.",
};

/* The options of `xdptc run` as they are parsed: the run's, and which were given. */
struct run_parse {
	struct run_opts o;
	bool given[RUN_OPT_MAX];               /* by row of run_opt_table */
	const char *inside_file;               /* --inside-icount FILE */
};

/* Was the option of key @key given? */
static bool given(const struct run_parse *p, int key)
{
	const struct run_opt *r = run_opt_find(key);

	return r && p->given[r - run_opt_table];
}

/* Was any option of the rows flagged @flag given? */
static bool any_given(const struct run_parse *p, unsigned int flag)
{
	for (int i = 0; run_opt_table[i].name; i++)
		if ((run_opt_table[i].flags & flag) && p->given[i])
			return true;
	return false;
}

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

/* Row @r's value @arg into @o, by its type and field (run_opt_table.h). Returns -1 to
 * go on, or EXIT_USAGE with the refusal said on stderr. */
static int run_opt_value(const struct run_opt *r, const char *arg, struct run_opts *o)
{
	char opt[64], *end;
	uint64_t v;
	double d;

	snprintf(opt, sizeof(opt), "--%s", r->name);
	switch (r->type) {
	case RUN_OPT_FLAG:
	case RUN_OPT_UNSET:
		run_opt_set_int(r, o, r->type == RUN_OPT_FLAG);
		break;
	case RUN_OPT_COUNT:
		if (parse_count(arg, (uint64_t)r->imax, &v) || (r->imin > 0 && v < (uint64_t)r->imin) ||
		    ((r->flags & RUN_OPT_POW2) && (v & (v - 1))))
			return bad_value(opt, arg, r->what);
		run_opt_set_int(r, o, (int64_t)v);
		break;
	case RUN_OPT_REAL:
	case RUN_OPT_PERCENT:
		d = strtod(arg, &end);
		if (end == arg || *end || !(d >= r->min && d <= r->max))
			return bad_value(opt, arg, r->what);
		*run_opt_real(r, o) = r->type == RUN_OPT_PERCENT ? d / 100 : d;
		break;
	case RUN_OPT_STRING:
		*run_opt_string(r, o) = arg;
		break;
	case RUN_OPT_ENUM:
		for (int i = (int)r->imin; r->word_of(i); i++)
			if (!strcmp(arg, r->word_of(i)))
				return run_opt_set_int(r, o, i) ? EXIT_USAGE : -1;
		return bad_value(opt, arg, r->what);
	case RUN_OPT_LIST:
		break;
	}
	return -1;
}

/* The options whose values have parsers of their own (RUN_OPT_OWN_PARSER): @c's
 * argument @arg. Returns -1 to go on, or the exit status of a refusal. */
/* --nic MODEL: a model of run/nic_models.c (whether the run's qemu emulates it is
 * nic_in_qemu's, once --qemu is known). Returns -1 to go on, or EXIT_USAGE (said why). */
static int run_opt_nic(struct run_parse *p, const char *arg)
{
	const struct nic_model *m = nic_model_find(arg);
	char all[512];

	if (m) {
		p->o.nic = m->name;
		return -1;
	}
	fprintf(stderr, "xdptc: --nic '%s': not a NIC model xdptc knows; it knows: %s\n", arg,
		nic_models_list(all, sizeof(all), NULL, 0));
	return EXIT_USAGE;
}

static int run_opt_own(struct run_parse *p, int c, const char *arg)
{
	static int counter_order[BACKEND_NR + 1];
	int n;

	switch (c) {
	case 't':
		if (!topology_find(arg))
			return bad_value("--topology", arg, topology_names(0, NULL, ", ", " or "));
		p->o.topology = arg;
		break;
	case 'm':
		n = parse_modes(arg, p->o.modes, RUN_MAX_MODES);
		if (n < 0) {
			fprintf(stderr, "xdptc: --modes '%s': %sa comma list of distinct modes "
					"from: %s\n", arg, n == -EEXIST ? "a mode is given twice; "
					: "", drop_mode_choices());
			return EXIT_USAGE;
		}
		p->o.nmodes = n;
		p->o.modes_given = true;
		break;
	case OPT_COUNTERS:
		if (parse_counter_backends(arg, counter_order) < 0)
			return bad_value("--counters", arg, "a comma list of kprobe, fentry, tracepoint");
		p->o.counter_order = counter_order;
		break;
	case OPT_GUEST_KERNEL:
		if (!guest_kernel_spec_ok(arg))
			return bad_value("--guest-kernel", arg, "a kernel version such as 6.1, "
					 "6.18, 7.3 or 6.12.95-1~bpo12+1");
		p->o.guest_kernel = arg;
		break;
	case OPT_NIC:
		return run_opt_nic(p, arg);
	case OPT_DEV:
		if (!*arg || strlen(arg) >= 16 || strchr(arg, '/'))
			return bad_value("--dev", arg, "a device name (at most 15 characters)");
		p->o.dev = arg;
		break;
	case OPT_NETNS:
		if (!*arg || strchr(arg, '/'))
			return bad_value("--netns", arg, "a network namespace's name");
		p->o.dev_netns = arg;
		break;
	case 'p':
		return parse_port(arg, &p->o.port) ? bad_port(arg) : -1;
	case OPT_PMU_EVENTS:
		return parse_pmu_events(p, arg);
	case OPT_NAPI_CPU: /* implies --threaded-napi */
		return parse_napi_cpu(p, arg);
	case OPT_CPU:
		return parse_cpu(p, arg);
	case OPT_INSIDE_ICOUNT: p->inside_file = arg; break;
	case 'v': verbose = 1; bpf_log_setup(1); break;
	}
	return -1;
}

/* Apply option @c (cli_next's key) with its argument in optarg: by its row's type and
 * field, or by its own parser. Returns -1 to go on, or the exit status of a refusal
 * (said on stderr). */
static int run_opt_apply(struct run_parse *p, int c)
{
	const struct run_opt *r = run_opt_find(c);

	if (!r)
		return -1;
	p->given[r - run_opt_table] = true;
	return r->flags & RUN_OPT_OWN_PARSER ? run_opt_own(p, c, optarg)
					     : run_opt_value(r, optarg, &p->o);
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
		fprintf(stderr, "xdptc: --topology %s needs --dev IFACE (make run-%s DEV=IFACE): "
				"the device the traffic arrives on (see `xdptc doctor --dev IFACE`)\n",
			td->name, td->name);
		return EXIT_USAGE;
	}
	if (p->o.engine == ENGINE_ICOUNT || given(p, OPT_SENDER) || given(p, OPT_RATE) ||
	    p->o.find_max_rate || p->o.threaded_napi || given(p, OPT_PACKETS) || given(p, 'w') ||
	    given(p, 's') || given(p, OPT_CPU) || given(p, OPT_SCHEDULE) ||
	    any_given(p, RUN_OPT_ALTERNATING)) {
		fprintf(stderr, "xdptc: --topology %s measures the traffic that comes from "
				"outside in windows of --window seconds, one per mode and "
				"repetition: --engine icount, --sender, --rate, --size, --cpu, "
				"--find-max-rate, --threaded-napi, --packets, --warmup, --schedule and "
				"the alternating pass's settings do not apply (the generator sets the "
				"frames and their pace; a trial far from its pass's median rate is "
				"invalid)\n", td->name);
		return EXIT_USAGE;
	}
	return -1;
}

/* The arms (the topology's modes unless --modes named them, the A/A twin) and the sizes
 * whose defaults are the topology's under this engine (@icount; topology_NAME.c), for
 * topology @td. Returns -1 to go on, or the exit status. */
static int run_opts_arms_sizes(struct run_parse *p, const struct topology_desc *td, bool icount)
{
	const struct topology_defaults *df;

	/* the topology's modes, unless --modes named them (topology_NAME.c) */
	if (!p->o.modes_given && td->modes) {
		int n = parse_modes(td->modes, p->o.modes, RUN_MAX_MODES);

		if (n > 0)
			p->o.nmodes = n;
	}
	/* a mode that some topology owns runs there only (its own_modes) */
	for (int i = 0; i < p->o.nmodes; i++) {
		int m = p->o.modes[i];
		const struct topology_desc *owner = topology_mode_owner(m);

		if (owner && !(td->own_modes & (1u << m))) {
			fprintf(stderr, "xdptc: --modes %s: the %s mode runs on --topology %s only "
					"(%s)\n", drop_mode_name(m), drop_mode_name(m),
				topology_mode_owners(m, NULL, ", ", " or "), owner->own_modes_why);
			return EXIT_USAGE;
		}
	}
	/* a sender that some topology owns is its only one (own_sender), and no other's */
	if (td->own_sender && !given(p, OPT_SENDER))
		p->o.sender = td->own_sender;
	if (td->own_sender ? p->o.sender != td->own_sender : !!topology_sender_owner(p->o.sender)) {
		const struct topology_desc *owner = td->own_sender ? td
								   : topology_sender_owner(p->o.sender);

		fprintf(stderr, "xdptc: --topology %s sends with --sender %s only, and no other "
				"topology does (it writes into the device --topology %s makes)\n",
			owner->name, sender_name((enum sender_kind)owner->own_sender), owner->name);
		return EXIT_USAGE;
	}
	if (td->udp_only && p->o.sender != SENDER_UDP) {
		fprintf(stderr, "xdptc: --topology %s %s: --sender %s does not apply; leave "
				"--sender out (udp)\n", td->name, td->udp_only,
			sender_name(p->o.sender));
		return EXIT_USAGE;
	}
	/* the topology's defaults under this engine (topology_NAME.c) */
	df = icount ? &td->icount : &td->host;
	if (!given(p, OPT_PACKETS))
		p->o.packets = df->packets;
	if (!given(p, 'r'))
		p->o.reps = df->reps;
	if (!given(p, OPT_RATE))
		p->o.rate_pps = df->rate_pps;
	if (icount) {
		if (!given(p, 'c'))
			p->o.count_reps = ICOUNT_DEFAULT_COUNT_REPS;
		/* the profile pass samples guest time, so instructions: perf record -c N */
		if (!p->o.profile_period)
			p->o.profile_period = ICOUNT_DEFAULT_PROFILE_PERIOD;
		if (!p->o.profile_packets)
			p->o.profile_packets = p->o.packets > ICOUNT_DEFAULT_PROFILE_PACKETS
				? p->o.packets : ICOUNT_DEFAULT_PROFILE_PACKETS;
	}
	if (!given(p, 'w'))
		p->o.warmup = p->o.packets / 10;
	/* no --profile-packets on the host engine: the profile pass sizes its window from
	 * the timing pass (run_passes.c) */
	if (p->o.napi_cpu == NAPI_CPU_SENDER)
		p->o.napi_cpu = p->o.sender_cpu;
	if (given(p, OPT_AA)) { /* the first mode twice: its delta against itself is the noise floor */
		if (p->o.nmodes == RUN_MAX_MODES)
			return bad_value("--aa", "", "room for one more arm");
		p->o.modes[p->o.nmodes] = p->o.modes[0];
		p->o.aa_arm = p->o.nmodes++;
	}
	return -1;
}

/* The defaults that depend on the topology and engine, and the combinations refused.
 * Returns -1 to go on, or the exit status. */
static int run_opts_finish(struct run_parse *p)
{
	const struct topology_desc *td = topology_find(p->o.topology);
	bool icount = p->o.engine == ENGINE_ICOUNT;

	/* a topology that the icount engine measures as another (virtio: nic) */
	if (icount && td->icount_as) {
		fprintf(stderr, "xdptc: --topology %s under the icount engine is --topology %s: "
				"its sender runs inside the guest, so the count does not follow "
				"the host's timing (docs/engines.md)\n", td->name, td->icount_as);
		p->o.topology = td->icount_as;
		td = topology_find(p->o.topology);
	}
	if (td->icount_only && !icount && !p->o.inside_icount) {
		fprintf(stderr, "xdptc: --topology %s runs under the icount engine only (--engine "
				"icount, make run-%s ENGINE=icount): its sender shares the guest's "
				"one vCPU, so only instructions compare\n", td->name, td->name);
		return EXIT_USAGE;
	}

	/* the alternating pass's settings, given where the timing pass will be classic */
	if (any_given(p, RUN_OPT_ALTERNATING) &&
	    (p->o.schedule == SCHEDULE_CLASSIC ||
	     (p->o.schedule == SCHEDULE_AUTO && (td->remote || icount))))
		fprintf(stderr, "xdptc: note: --window-ms, --windows-per-attach, --timing-budget, "
				"--target and --segments apply to the alternating timing pass only; this run's "
				"is classic (--schedule alternating to have it)\n");
	if (!(td->allows & TOPOLOGY_GUEST_KERNEL) && !icount && given(p, OPT_GUEST_KERNEL)) {
		fprintf(stderr, "xdptc: --guest-kernel applies to --topology %s or --engine "
				"icount only\n",
			topology_names(TOPOLOGY_GUEST_KERNEL, NULL, ", ", " or "));
		return EXIT_USAGE;
	}
	if (!(td->allows & TOPOLOGY_NIC_MODEL) && given(p, OPT_NIC)) {
		fprintf(stderr, "xdptc: --nic applies to --topology %s only (and virtio under the "
				"icount engine)\n", topology_names(TOPOLOGY_NIC_MODEL, NULL, ", ", " or "));
		return EXIT_USAGE;
	}
	if (p->o.threaded_napi && !(td->allows & TOPOLOGY_THREADED_NAPI) && !icount) {
		fprintf(stderr, "xdptc: --threaded-napi and --napi-cpu apply to --topology %s "
				"only (a guest's NAPI is the guest's)\n",
			topology_names(TOPOLOGY_THREADED_NAPI, NULL, ", ", " or "));
		return EXIT_USAGE;
	}
	if (icount && given(p, OPT_PMU_EVENTS) && p->o.pmu_events[0]) {
		fprintf(stderr, "xdptc: --engine icount measures guest instructions, not the "
				"host's PMU: --pmu-events does not apply\n");
		return EXIT_USAGE;
	}
	if (icount || p->o.inside_icount)
		p->o.pmu_events = ""; /* no PMU in a TCG guest, and none wanted beside it */
	if (icount && (p->o.find_max_rate || p->o.threaded_napi || given(p, OPT_RATE))) {
		fprintf(stderr, "xdptc: --engine icount measures instructions, not time: "
				"--find-max-rate, --threaded-napi (--napi-cpu) and --rate do not "
				"apply\n");
		return EXIT_USAGE;
	}
	if (td->outside) {
		int r = run_opts_outside(p, td);

		if (r >= 0)
			return r;
	} else if (any_given(p, RUN_OPT_OUTSIDE)) {
		fprintf(stderr, "xdptc: --dev, --netns, --window, --rate-tolerance and "
				"--allow-default-route-dev apply to --topology %s only\n",
			topology_names_outside());
		return EXIT_USAGE;
	}
	return run_opts_arms_sizes(p, td, icount);
}

/* The senders of @mask in words ("udp and packet") into @buf. */
static const char *sender_list(unsigned int mask, char *buf, size_t len)
{
	int n = 0, k = 0;
	size_t at = 0;

	for (int s = 0; s < SENDER_NR; s++)
		n += !!(mask & (1u << s));
	buf[0] = '\0';
	for (int s = 0; s < SENDER_NR && at < len; s++)
		if (mask & (1u << s))
			at += (size_t)snprintf(buf + at, len - at, "%s%s",
					       !k++ ? "" : k == n ? " and " : ", ",
					       sender_name((enum sender_kind)s));
	return buf;
}

/* An option of some senders only (its row's senders: --batch the socket senders' calls,
 * --vlan the whole frames of the raw ones), given with another sender, or where nothing
 * is sent (traffic from outside), is refused. Returns -1 to go on, or the exit status. */
static int run_opts_senders(const struct run_parse *p)
{
	const struct topology_desc *td = topology_find(p->o.topology);
	char list[96];

	for (const struct run_opt *r = run_opt_table; r->name; r++) {
		if (!r->senders || !given(p, r->key) ||
		    (!td->outside && (r->senders & (1u << p->o.sender))))
			continue;
		fprintf(stderr, "xdptc: --%s applies to --sender %s only (this run's sender: %s)\n",
			r->name, sender_list(r->senders, list, sizeof(list)),
			td->outside ? "none, its traffic comes from outside"
				    : sender_name((enum sender_kind)p->o.sender));
		return EXIT_USAGE;
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
	run_opt_defaults(&p.o); /* the declared ones (run_opt_table.c); then this machine's */
	p.o.topology = topologies[0]->name;
	p.o.aa_arm = -1;
	p.o.sender_cpu = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1;
	p.o.seed = (uint64_t)time(NULL);
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
	if (r < 0)
		r = run_opts_senders(&p);
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

/* The NIC model @o names must be one the run's qemu (--qemu: the installed one, $QEMU,
 * or bookworm-backports', fetched here at its first use) emulates: else refused before
 * anything boots, with the models that qemu has. Returns -1 to go on, or EXIT_USAGE. */
static int nic_in_qemu(const struct run_opts *o)
{
	const struct nic_model *m = nic_model_find(o->nic);
	char qemu[PATH_MAX], have[512];

	if (!m || o->inside_icount)
		return -1;
	if (!qemu_from_binary(o->topologies_dir, o->qemu, qemu, sizeof(qemu))) {
		fprintf(stderr, "xdptc: --qemu %s: that qemu is not at hand (said above)\n",
			qemu_from_word(o->qemu));
		return EXIT_USAGE;
	}
	if (nic_model_in_qemu(m, qemu) == 1)
		return -1;
	nic_models_list(have, sizeof(have), qemu, 1);
	fprintf(stderr, "xdptc: --nic '%s': %s (--qemu %s) does not emulate it; the NIC models "
			"it emulates: %s%s\n", m->name, qemu, qemu_from_word(o->qemu),
		have[0] ? have : "none (is qemu installed?)",
		o->qemu == QEMU_INSTALLED ? " (--qemu backports: qemu 10.0.2, with igb)" : "");
	return EXIT_USAGE;
}

/* The xdp-live sender needs XDP on live frames, which some kernels refuse (EPERM): asked
 * of the kernel that will run it (this one, or inside the icount guest the guest's), and
 * refused before anything is made. Returns -1 to go on, or 1. */
static int xdp_live_here(const struct run_opts *o)
{
	char why[256] = "";

	if (o->sender != SENDER_XDP_LIVE || (o->engine == ENGINE_ICOUNT && !o->inside_icount) ||
	    sender_xdp_live_probe(why, sizeof(why)) != 0)
		return -1;
	fprintf(stderr, "xdptc: --sender xdp-live: %s; nothing was made (the other senders "
			"do not need it; `xdptc doctor` says xdp_live)\n", why);
	return 1;
}

int cmd_run(int argc, char **argv)
{
	static char topodir[PATH_MAX];
	struct run_opts o;
	int r = run_opts_parse(argc, argv, &o, topodir, sizeof(topodir));

	if (r < 0)
		r = guest_kernel_known(&o);
	if (r < 0)
		r = nic_in_qemu(&o);
	/* the topology's own refusals (usage) before the kernel's (the machine) */
	if (r < 0 && topology_find(o.topology)->preflight)
		r = topology_find(o.topology)->preflight(&o);
	if (r < 0)
		r = xdp_live_here(&o);
	return r >= 0 ? r : run_main(&o);
}
