/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * xdptc: measure identical UDP-drop logic at native XDP and TC ingress.
 *
 * Commands (xdptc COMMAND --help for each):
 *   attach   load and attach the drop program to a device in a mode
 *   detach   remove xdptc's program(s) from a device
 *   status   what is attached to a device, its mode as the kernel reports it, verdicts
 *   send     UDP traffic generator (sendmmsg)
 *   run      a whole measurement run on a topology (what `make run-veth` calls)
 *   cleanup  remove what a killed run left behind
 *
 * Exit status: 0 success, 1 runtime failure or missing privilege, 2 bad usage
 * (unknown mode, missing device or namespace, value out of range), 130 interrupted.
 */
#include <bpf/libbpf.h>
#include <dirent.h>
#include <fcntl.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <linux/capability.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "bpf_log.h"
#include "cleanup.h"
#include "cli_parse.h"
#include "doctor.h"
#include "plots.h"
#include "report.h"
#include "summary.h"
#include "drop_prog.h"
#include "dut.h"
#include "netns.h"
#include "run.h"
#include "skb_counters_user.h"
#include "udp_sender.h"

#define EXIT_USAGE 2
/* veth defaults: many short repetitions pair better than a few long ones on a shared
 * host (an A/A run here: 21 x 200k gave a 95% half-width of 0.4%, 5 x 1M 1.7%) */
#define VETH_DEFAULT_PACKETS 200000
#define VETH_DEFAULT_REPS 21
/* virtio defaults, sized for a TCG guest on a 2-vCPU host (see README) */
#define VIRTIO_DEFAULT_PACKETS 50000
#define VIRTIO_DEFAULT_REPS 10
#define VIRTIO_DEFAULT_RATE 50000

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

static int verbose;

static void usage_main(FILE *f)
{
	fprintf(f,
		"usage: xdptc COMMAND [OPTIONS]\n"
		"\n"
		"Measure how much work the kernel does when identical UDP-drop logic runs at\n"
		"native XDP (xdpdrv) versus TC ingress (clsact, direct-action).\n"
		"\n"
		"commands:\n"
		"  attach   --dev IF [--netns NS] --mode MODE [--port N]   attach the drop program\n"
		"  detach   --dev IF [--netns NS] [--mode MODE]            detach xdptc's program(s)\n"
		"  status   --dev IF [--netns NS] [--json]                 what is attached, verdicts\n"
		"  send     --dst ADDR [--netns NS] [--count N] ...        UDP traffic generator\n"
		"  run      [--topology veth|virtio] [--packets N] ...     a whole measurement run\n"
		"  cleanup                                                 remove leftovers of killed runs\n"
		"  doctor   [--json] [--boot]                              what this kernel offers, and why\n"
		"  report   DIR [--csv FILE]                               rebuild a run's summary; CSV export\n"
		"  compare  DIR_A DIR_B                                    two runs' within-run deltas side by side\n"
		"\n"
		"modes: %s\n"
		"Run 'xdptc COMMAND --help' for a command's options. Needs root (or CAP_BPF,\n"
		"CAP_NET_ADMIN and CAP_SYS_ADMIN) for everything but --help.\n",
		drop_mode_choices());
}

/* ---- privilege ---- */

static int check_privilege(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	unsigned int need[] = { CAP_BPF, CAP_NET_ADMIN, CAP_SYS_ADMIN };

	if (geteuid() == 0)
		return 0;
	memset(data, 0, sizeof(data));
	if (!syscall(SYS_capget, &hdr, data)) {
		int ok = 1;

		for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			if (!(data[need[i] / 32].effective & (1u << (need[i] % 32))))
				ok = 0;
		if (ok)
			return 0;
	}
	fprintf(stderr, "xdptc: this command needs root (or CAP_BPF, CAP_NET_ADMIN and "
			"CAP_SYS_ADMIN); run it with sudo.\n");
	return 1;
}

/* ---- namespace and device checks with the valid choices ---- */

static void list_netns(FILE *f)
{
	DIR *d = opendir("/run/netns");
	struct dirent *de;
	int n = 0;

	fprintf(f, "existing namespaces:");
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			fprintf(f, "%s %s", n++ ? "," : "", de->d_name);
	fprintf(f, "%s\n", n ? "" : " (none)");
	if (d)
		closedir(d);
}

static void list_devs(FILE *f)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	int n = 0;

	fprintf(f, "devices there:");
	for (i = ifs; i && i->if_index; i++)
		fprintf(f, "%s %s", n++ ? "," : "", i->if_name);
	fprintf(f, "\n");
	if (ifs)
		if_freenameindex(ifs);
}

/* Enter @netns (NULL: stay) and check @dev exists there. Exit status on failure. */
static int enter_and_check(const char *netns, const char *dev, int *saved)
{
	int e = netns_enter(netns, saved);

	if (e == -ENOENT) {
		fprintf(stderr, "xdptc: no network namespace '%s'; ", netns);
		list_netns(stderr);
		return EXIT_USAGE;
	}
	if (e) {
		fprintf(stderr, "xdptc: cannot enter namespace '%s': %s\n", netns, strerror(-e));
		return 1;
	}
	if (dev && !if_nametoindex(dev)) {
		fprintf(stderr, "xdptc: no device '%s' in %s%s; ", dev,
			netns ? "namespace " : "the current namespace", netns ? netns : "");
		list_devs(stderr);
		netns_return(*saved);
		return EXIT_USAGE;
	}
	return 0;
}

static int bad_mode(const char *s)
{
	fprintf(stderr, "xdptc: unknown mode '%s'; choose one of: %s\n", s, drop_mode_choices());
	return EXIT_USAGE;
}

static int bad_port(const char *s)
{
	fprintf(stderr, "xdptc: port '%s' is outside 1-65535\n", s);
	return EXIT_USAGE;
}

static int bad_value(const char *opt, const char *s, const char *what)
{
	fprintf(stderr, "xdptc: %s '%s': expected %s\n", opt, s, what);
	return EXIT_USAGE;
}

static int need_opt(const char *cmd, const char *opt)
{
	fprintf(stderr, "xdptc %s: %s is required (see 'xdptc %s --help')\n", cmd, opt, cmd);
	return EXIT_USAGE;
}

/* ---- attach / detach / status ---- */

static const struct option dev_opts[] = {
	{ "dev", required_argument, NULL, 'd' },   { "netns", required_argument, NULL, 'n' },
	{ "mode", required_argument, NULL, 'm' },  { "port", required_argument, NULL, 'p' },
	{ "json", no_argument, NULL, 'j' },        { "verbose", no_argument, NULL, 'v' },
	{ "help", no_argument, NULL, 'h' },        { NULL, 0, NULL, 0 },
};

struct dev_args {
	const char *dev, *netns, *mode_str;
	enum drop_mode mode;
	uint16_t port;
	int json, have_mode;
};

/* Parse --dev/--netns/--mode/--port/--json. Returns -1 to go on, else an exit status. */
static int parse_dev_args(const char *cmd, const char *help, int argc, char **argv,
			  struct dev_args *a)
{
	int c;

	memset(a, 0, sizeof(*a));
	a->port = DROP_DEFAULT_PORT;
	a->mode = MODE_NR;
	while ((c = getopt_long(argc, argv, "d:n:m:p:jvh", dev_opts, NULL)) != -1) {
		switch (c) {
		case 'd': a->dev = optarg; break;
		case 'n': a->netns = optarg; break;
		case 'm':
			a->mode_str = optarg;
			if (drop_mode_parse(optarg, &a->mode))
				return bad_mode(optarg);
			a->have_mode = 1;
			break;
		case 'p':
			if (parse_port(optarg, &a->port))
				return bad_port(optarg);
			break;
		case 'j': a->json = 1; break;
		case 'v': verbose = 1; bpf_log_setup(1); break;
		case 'h': printf("%s", help); return 0;
		default: fprintf(stderr, "see 'xdptc %s --help'\n", cmd); return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "xdptc %s: unexpected argument '%s'\n", cmd, argv[optind]);
		return EXIT_USAGE;
	}
	if (!a->dev)
		return need_opt(cmd, "--dev IF");
	if (strlen(a->dev) >= IF_NAMESIZE)
		return bad_value("--dev", a->dev, "an interface name of at most 15 characters");
	return -1;
}

static int cmd_attach(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc attach --dev IF [--netns NS] --mode MODE [--port N] [--verbose]\n"
		"Load the UDP-drop program and attach it to IF (in network namespace NS).\n"
		"IF is used exactly as named; xdptc never chooses an interface by itself.\n"
		"  --mode  xdpdrv (native XDP; fails with the kernel's reason if the driver\n"
		"          lacks it, never falls back), xdpgeneric, tc (clsact ingress,\n"
		"          direct-action; an existing clsact qdisc is reused), none\n"
		"  --port  UDP destination port to drop, 1-65535 (default 9999)\n"
		"  --verbose  print libbpf's messages (verifier and kernel errors)\n"
		"The program stays attached after xdptc exits; 'xdptc detach' removes it.\n";
	struct drop_attachment att;
	struct dev_args a;
	char err[512];
	int r = parse_dev_args("attach", help, argc, argv, &a), saved, e;

	if (r >= 0)
		return r;
	if (!a.have_mode)
		return need_opt("attach", "--mode MODE");
	if ((r = check_privilege()))
		return r;
	if ((r = enter_and_check(a.netns, a.dev, &saved)))
		return r;
	e = drop_attach(a.dev, a.mode, a.port, &att, err, sizeof(err));
	if (e) {
		fprintf(stderr, "xdptc: %s\n", err);
		netns_return(saved);
		return 1;
	}
	printf("attached %s program id %u to %s%s%s (drops UDP port %u)\n",
	       drop_mode_name(a.mode), att.prog_id, a.dev, a.netns ? " in " : "",
	       a.netns ? a.netns : "", a.port);
	drop_release(&att);
	netns_return(saved);
	return 0;
}

static int cmd_detach(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc detach --dev IF [--netns NS] [--mode MODE]\n"
		"Detach xdptc's program(s) from IF: the one of MODE, or all of them.\n"
		"Programs that are not xdptc's are left alone (exit 1). The clsact qdisc is\n"
		"removed only if xdptc created it.\n";
	struct dev_args a;
	char err[512];
	int r = parse_dev_args("detach", help, argc, argv, &a), saved, e;

	if (r >= 0)
		return r;
	if ((r = check_privilege()))
		return r;
	if ((r = enter_and_check(a.netns, a.dev, &saved)))
		return r;
	e = drop_detach_dev(a.dev, a.have_mode ? a.mode : MODE_NR, err, sizeof(err));
	netns_return(saved);
	if (e) {
		fprintf(stderr, "xdptc: %s\n", err);
		return 1;
	}
	printf("detached xdptc's %s%sprogram(s) from %s\n", a.have_mode ? a.mode_str : "",
	       a.have_mode ? " " : "", a.dev);
	return 0;
}

static int cmd_status(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc status --dev IF [--netns NS] [--json]\n"
		"Show what is attached to IF, the mode as the kernel reports it\n"
		"(bpf_xdp_query, bpf_tc_query) and the program's verdict counters (packets).\n";
	struct drop_status st;
	struct dev_args a;
	uint64_t xv[VERDICT_NR] = { 0 }, tv[VERDICT_NR] = { 0 };
	int r = parse_dev_args("status", help, argc, argv, &a), saved, e, hx = 0, ht = 0;

	if (r >= 0)
		return r;
	if ((r = check_privilege()))
		return r;
	if ((r = enter_and_check(a.netns, a.dev, &saved)))
		return r;
	e = drop_query(a.dev, &st);
	netns_return(saved);
	if (e) {
		fprintf(stderr, "xdptc: cannot query %s: %s\n", a.dev, strerror(-e));
		return 1;
	}
	if (st.xdp_prog_id)
		hx = !verdicts_read_prog(st.xdp_prog_id, xv);
	if (st.tc_prog_id)
		ht = !verdicts_read_prog(st.tc_prog_id, tv);
	if (a.json) {
		printf("{\"dev\":\"%s\",\"ifindex\":%d,\"xdp\":", a.dev, st.ifindex);
		if (st.xdp_prog_id)
			printf("{\"mode\":\"%s\",\"prog_id\":%u,\"prog_name\":\"%s\"", drop_mode_name(st.xdp_mode),
			       st.xdp_prog_id, st.xdp_prog_name);
		else
			printf("null");
		if (st.xdp_prog_id && hx)
			printf(",\"dropped\":%llu,\"passed\":%llu}", (unsigned long long)xv[0],
			       (unsigned long long)xv[1]);
		else if (st.xdp_prog_id)
			printf("}");
		printf(",\"tc\":");
		if (st.tc_prog_id)
			printf("{\"mode\":\"tc\",\"prog_id\":%u,\"prog_name\":\"%s\"", st.tc_prog_id,
			       st.tc_prog_name);
		else
			printf("null");
		if (st.tc_prog_id && ht)
			printf(",\"dropped\":%llu,\"passed\":%llu}", (unsigned long long)tv[0],
			       (unsigned long long)tv[1]);
		else if (st.tc_prog_id)
			printf("}");
		printf(",\"clsact_created_by_xdptc\":%s}\n", st.clsact_marker ? "true" : "false");
		return 0;
	}
	printf("%s (ifindex %d)\n", a.dev, st.ifindex);
	if (st.xdp_prog_id) {
		printf("  xdp: %s, program id %u '%s'", drop_mode_name(st.xdp_mode), st.xdp_prog_id,
		       st.xdp_prog_name);
		if (hx)
			printf(", dropped %llu, passed %llu packets", (unsigned long long)xv[0],
			       (unsigned long long)xv[1]);
		printf("\n");
	} else {
		printf("  xdp: none\n");
	}
	if (st.tc_prog_id) {
		printf("  tc ingress: program id %u '%s'", st.tc_prog_id, st.tc_prog_name);
		if (ht)
			printf(", dropped %llu, passed %llu packets", (unsigned long long)tv[0],
			       (unsigned long long)tv[1]);
		printf("%s\n", st.clsact_marker ? " (clsact created by xdptc)" : "");
	} else {
		printf("  tc ingress: no xdptc filter\n");
	}
	return 0;
}

/* ---- send ---- */

static int cmd_send(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc send --dst ADDR [--netns NS] [--port N] [--count N] [--size B]\n"
		"                  [--cpu N] [--rate PPS] [--batch N] [--src-port N]\n"
		"Send UDP packets from a socket with sendmmsg (the kernel builds one skb each).\n"
		"  --dst      destination IPv4/IPv6 address (use the suite's 198.18.0.0/15)\n"
		"  --netns    send from this network namespace\n"
		"  --port     destination port (default 9999)\n"
		"  --count    packets, k/M/G suffixes allowed (default 10000)\n"
		"  --size     UDP payload bytes (default 18: 60-byte frames, 64 with the FCS)\n"
		"  --cpu      pin the sender to this CPU\n"
		"  --rate     packets per second (default 0: as fast as possible)\n"
		"  --batch    messages per sendmmsg call, 1-1024 (default 64)\n"
		"Prints packets sent, wall time (s), rate (pps) and sender CPU time (ns/pkt).\n";
	static const struct option opts[] = {
		{ "dst", required_argument, NULL, 'a' },   { "netns", required_argument, NULL, 'n' },
		{ "port", required_argument, NULL, 'p' },  { "count", required_argument, NULL, 'c' },
		{ "size", required_argument, NULL, 's' },  { "cpu", required_argument, NULL, 'C' },
		{ "rate", required_argument, NULL, 'r' },  { "batch", required_argument, NULL, 'b' },
		{ "src-port", required_argument, NULL, 'S' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	struct udp_sender_opts o = { .dst_port = DROP_DEFAULT_PORT, .payload_len = 18 };
	struct udp_send_result res;
	struct udp_sender s;
	const char *netns = NULL;
	uint64_t count = 10000, v;
	int c, cpu = -1, saved, e;

	while ((c = getopt_long(argc, argv, "a:n:p:c:s:C:r:b:S:h", opts, NULL)) != -1) {
		switch (c) {
		case 'a': o.dst_addr = optarg; break;
		case 'n': netns = optarg; break;
		case 'p':
			if (parse_port(optarg, &o.dst_port))
				return bad_port(optarg);
			break;
		case 'S':
			if (parse_port(optarg, &o.src_port))
				return bad_port(optarg);
			break;
		case 'c':
			if (parse_count(optarg, UINT64_MAX / 2, &count))
				return bad_value("--count", optarg, "a packet count such as 10000 or 1M");
			break;
		case 's':
			if (parse_count(optarg, 65000, &v))
				return bad_value("--size", optarg, "payload bytes, 0-65000");
			o.payload_len = (uint32_t)v;
			break;
		case 'C':
			if (parse_count(optarg, CPU_SETSIZE - 1, &v))
				return bad_value("--cpu", optarg, "a CPU number");
			cpu = (int)v;
			break;
		case 'r':
			if (parse_count(optarg, 1000000000ull, &o.rate_pps))
				return bad_value("--rate", optarg, "packets per second such as 500k");
			break;
		case 'b':
			if (parse_count(optarg, 1024, &v) || !v)
				return bad_value("--batch", optarg, "1-1024");
			o.batch = (unsigned int)v;
			break;
		case 'h': printf("%s", help); return 0;
		default: fprintf(stderr, "see 'xdptc send --help'\n"); return EXIT_USAGE;
		}
	}
	if (!o.dst_addr)
		return need_opt("send", "--dst ADDR");
	if ((c = check_privilege()))
		return c;
	if ((c = enter_and_check(netns, NULL, &saved)))
		return c;
	if (cpu >= 0 && (e = pin_to_cpu(cpu))) {
		fprintf(stderr, "xdptc: cannot pin to CPU %d: %s\n", cpu, strerror(-e));
		return EXIT_USAGE;
	}
	e = udp_sender_open(&s, &o);
	if (e == -EINVAL)
		return bad_value("--dst", o.dst_addr, "an IPv4 or IPv6 address");
	if (e) {
		fprintf(stderr, "xdptc: cannot open the UDP socket: %s\n", strerror(-e));
		return 1;
	}
	e = udp_sender_send(&s, count, NULL, &res);
	udp_sender_close(&s);
	netns_return(saved);
	if (e) {
		fprintf(stderr, "xdptc: sending failed after %llu packets: %s\n",
			(unsigned long long)res.sent, strerror(-e));
		return 1;
	}
	printf("sent %llu packets to %s port %u in %.3f s (%.0f pps); sender CPU %.1f ns/pkt; "
	       "%llu retries\n",
	       (unsigned long long)res.sent, o.dst_addr, o.dst_port, (double)res.wall_ns / 1e9,
	       res.wall_ns ? (double)res.sent * 1e9 / (double)res.wall_ns : 0.0,
	       res.sent ? (double)res.cpu_ns / (double)res.sent : 0.0,
	       (unsigned long long)res.retries);
	return 0;
}

/* ---- agent (inside a guest) and guest-exec ---- */

static int cmd_agent(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc agent --serial PORT --dev IF\n"
		"Inside a virtio guest (started by topologies/guest/guest-init.sh): serve the\n"
		"host's requests (attach, detach, snapshot, counters, bpfstats, exec) on the\n"
		"virtio-serial PORT for the DUT interface IF. Not for use on the host.\n";
	static const struct option opts[] = {
		{ "serial", required_argument, NULL, 's' }, { "dev", required_argument, NULL, 'd' },
		{ "help", no_argument, NULL, 'h' },         { NULL, 0, NULL, 0 },
	};
	const char *port = NULL, *dev = NULL;
	int c, fd, e;

	while ((c = getopt_long(argc, argv, "s:d:h", opts, NULL)) != -1) {
		switch (c) {
		case 's': port = optarg; break;
		case 'd': dev = optarg; break;
		case 'h': printf("%s", help); return 0;
		default: return EXIT_USAGE;
		}
	}
	if (!port || !dev)
		return need_opt("agent", "--serial PORT and --dev IF");
	fd = open(port, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		fprintf(stderr, "xdptc agent: cannot open %s: %s\n", port, strerror(errno));
		return 1;
	}
	printf("XDPTC-AGENT-READY on %s for %s\n", port, dev);
	fflush(stdout);
	e = dut_agent_serve(fd, dev);
	close(fd);
	return e ? 1 : 0;
}

static int cmd_guest_exec(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc guest-exec --ctl SOCKET -- COMMAND...\n"
		"Run a shell command inside a running virtio guest through its agent's control\n"
		"socket (/run/xdptc/PREFIX/ctl.sock); print its output; exit with its status.\n";
	static const struct option opts[] = {
		{ "ctl", required_argument, NULL, 'c' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *ctl = NULL;
	char cmd[1000] = "", out[16384], err[512];
	struct dut d;
	int c, st = 0, e;

	while ((c = getopt_long(argc, argv, "+c:h", opts, NULL)) != -1) {
		switch (c) {
		case 'c': ctl = optarg; break;
		case 'h': printf("%s", help); return 0;
		default: return EXIT_USAGE;
		}
	}
	if (!ctl || optind >= argc)
		return need_opt("guest-exec", "--ctl SOCKET and a COMMAND");
	if ((c = check_privilege()))
		return c;
	for (int i = optind; i < argc; i++) {
		strncat(cmd, argv[i], sizeof(cmd) - strlen(cmd) - 2);
		strcat(cmd, " ");
	}
	e = dut_remote_connect(&d, ctl, 120000, err, sizeof(err));
	if (e) {
		fprintf(stderr, "xdptc: %s\n", err);
		return 1;
	}
	e = dut_exec(&d, cmd, &st, out, sizeof(out));
	dut_close(&d);
	if (e) {
		fprintf(stderr, "xdptc: guest-exec failed: %s\n", out[0] ? out : strerror(-e));
		return 1;
	}
	fputs(out, stdout);
	return st;
}

/* ---- run / cleanup ---- */

static void default_topologies_dir(char *buf, size_t len)
{
	char exe[PATH_MAX - 32];
	ssize_t n;
	const char *env = getenv("XDPTC_TOPOLOGIES");

	if (env) {
		snprintf(buf, len, "%s", env);
		return;
	}
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (n > 0) {
		char *slash;

		exe[n] = '\0';
		slash = strrchr(exe, '/');
		if (slash)
			*slash = '\0';
		snprintf(buf, len, "%s/../topologies", exe);
		return;
	}
	snprintf(buf, len, "topologies");
}

static int cmd_run(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc run [--topology veth|virtio] [--packets N] [--reps N] [--count-reps N]\n"
		"                 [--modes LIST] [--aa] [--warmup N] [--rate PPS] [--cpu N]\n"
		"                 [--port N] [--size B] [--guest-kernel 6.1|6.12] [--counters LIST]\n"
		"                 [--cross-check-counters] [--no-flame] [--seed N] [--out DIR]\n"
		"                 [--quiet] [--verbose]\n"
		"Build the topology, run interleaved trials of every mode in three passes\n"
		"(timing: no tracing, BPF stats off; count: the counter backends; bpfstats: BPF\n"
		"run time) and a profile pass (flame graphs), write DIR/<UTC timestamp>-<topology>/run.json and summary.md,\n"
		"print the summary, and remove the topology (also on error and Ctrl-C).\n"
		"  --topology  veth (default): a veth pair between two namespaces;\n"
		"              virtio: a qemu guest's virtio-net NIC fed by a host tap\n"
		"  --packets   packets per measured window, k/M suffixes (default 200k; virtio 50k)\n"
		"  --rate      sender pace in packets/s (default: as fast as possible; virtio 50k)\n"
		"  --guest-kernel  virtio guest kernel: 6.1 (default) or 6.12\n"
		"  --counters  counter backends to try, in order (default kprobe,fentry,tracepoint);\n"
		"              e.g. fentry,tracepoint keeps kprobes off\n"
		"  --aa        also measure the first mode as a second arm (MODE-aa): its delta\n"
		"              against the first is the run's noise floor\n"
		"  --no-flame  skip the profile pass (one trial per mode under perf record,\n"
		"              drawn as flame-MODE.svg; veth only)\n"
		"  --cross-check-counters  count with every working backend at once and\n"
		"              record each (<count>_by_backend in run.json)\n"
		"  --reps      repetitions of the timing pass, 2-100 (default 21; virtio 10)\n"
		"  --count-reps  repetitions of the count and BPF-statistics passes, 1-100\n"
		"              (default 3)\n"
		"  --modes     comma list of none, xdpdrv, xdpgeneric, tc (default tc,xdpdrv)\n"
		"  --warmup    packets sent before each window (default 10% of --packets)\n"
		"  --cpu       CPU the sender (and on veth the receive softirq) runs on\n"
		"              (default: the last CPU)\n"
		"  --port      UDP port to drop and to send to (default 9999)\n"
		"  --size      UDP payload bytes (default 18: 60-byte frames, 64 with the FCS)\n"
		"  --seed      seed of the trial order and the bootstrap (default: the time)\n"
		"  --out       parent directory of results (default results)\n"
		"  --quiet     do not print the summary on stdout (progress still goes to stderr)\n"
		"  --verbose   print libbpf's messages\n"
		"One run at a time per machine: a second run refuses while one is measuring.\n";
	static const struct option opts[] = {
		{ "topology", required_argument, NULL, 't' }, { "packets", required_argument, NULL, 'P' },
		{ "reps", required_argument, NULL, 'r' },     { "modes", required_argument, NULL, 'm' },
		{ "count-reps", required_argument, NULL, 'c' },
		{ "warmup", required_argument, NULL, 'w' },   { "cpu", required_argument, NULL, 'C' },
		{ "port", required_argument, NULL, 'p' },     { "size", required_argument, NULL, 's' },
		{ "seed", required_argument, NULL, 'S' },     { "out", required_argument, NULL, 'o' },
		{ "quiet", no_argument, NULL, 'q' },          { "verbose", no_argument, NULL, 'v' },
		{ "rate", required_argument, NULL, 'R' },     { "guest-kernel", required_argument, NULL, 'G' },
		{ "counters", required_argument, NULL, 'K' },
		{ "cross-check-counters", no_argument, NULL, 'X' },
		{ "no-flame", no_argument, NULL, 'F' },
		{ "aa", no_argument, NULL, 'A' },
		{ "help", no_argument, NULL, 'h' },           { NULL, 0, NULL, 0 },
	};
	char topodir[PATH_MAX];
	int packets_set = 0, rate_set = 0, reps_set = 0, aa = 0;
	static int counter_order[BACKEND_NR + 1];
	struct run_opts o = {
		.topology = "veth", .out_dir = "results", .packets = VETH_DEFAULT_PACKETS,
		.reps = VETH_DEFAULT_REPS, .count_reps = 3,
		.flame = true, .aa_arm = -1,
		.port = DROP_DEFAULT_PORT, .payload_len = 18,
		.sender_cpu = (int)sysconf(_SC_NPROCESSORS_ONLN) - 1,
		.seed = (uint64_t)time(NULL),
	};
	uint64_t v, warmup = UINT64_MAX;
	int c, n;

	o.modes[0] = MODE_TC;
	o.modes[1] = MODE_XDPDRV;
	o.nmodes = 2;
	while ((c = getopt_long(argc, argv, "t:P:r:c:m:w:C:p:s:S:o:R:G:K:XFAqvh", opts, NULL)) != -1) {
		switch (c) {
		case 't':
			if (strcmp(optarg, "veth") && strcmp(optarg, "virtio"))
				return bad_value("--topology", optarg, "veth or virtio");
			o.topology = optarg;
			break;
		case 'R':
			if (parse_count(optarg, 100000000ull, &o.rate_pps))
				return bad_value("--rate", optarg, "packets per second such as 20k");
			rate_set = 1;
			break;
		case 'X':
			o.cross_check = true;
			break;
		case 'F':
			o.flame = false;
			break;
		case 'A':
			aa = 1;
			break;
		case 'K':
			if (parse_counter_backends(optarg, counter_order) < 0)
				return bad_value("--counters", optarg,
						 "a comma list of kprobe, fentry, tracepoint");
			o.counter_order = counter_order;
			break;
		case 'G':
			if (strcmp(optarg, "6.1") && strcmp(optarg, "6.12"))
				return bad_value("--guest-kernel", optarg, "6.1 or 6.12");
			setenv("GUEST_KERNEL", optarg, 1);
			break;
		case 'P':
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
		case 'C':
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
			if (parse_count(optarg, 1400, &v))
				return bad_value("--size", optarg, "payload bytes, 0-1400");
			o.payload_len = (uint32_t)v;
			break;
		case 'S':
			if (parse_count(optarg, (uint64_t)INT64_MAX, &o.seed))
				return bad_value("--seed", optarg, "a non-negative integer");
			break;
		case 'o': o.out_dir = optarg; break;
		case 'q': o.quiet = 1; break;
		case 'v': verbose = 1; bpf_log_setup(1); break;
		case 'h': printf("%s", help); return 0;
		default: fprintf(stderr, "see 'xdptc run --help'\n"); return EXIT_USAGE;
		}
	}
	if (optind < argc) {
		fprintf(stderr, "xdptc run: unexpected argument '%s'\n", argv[optind]);
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
	o.warmup = warmup == UINT64_MAX ? o.packets / 10 : warmup;
	if (aa) { /* the first mode twice: its delta against itself is the noise floor */
		if (o.nmodes == RUN_MAX_MODES)
			return bad_value("--aa", "", "room for one more arm");
		o.modes[o.nmodes] = o.modes[0];
		o.aa_arm = o.nmodes++;
	}
	if ((c = check_privilege()))
		return c;
	default_topologies_dir(topodir, sizeof(topodir));
	o.topologies_dir = topodir;
	return run_main(&o);
}

static int cmd_doctor(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc doctor [--json] [--boot]\n"
		"Report what this machine and kernel offer the suite, each item tried for real\n"
		"where it can be (XDP, clsact and tcx on a veth pair of its own; a kprobe, an\n"
		"fentry program and the tracepoints loaded and attached; PMU counters opened;\n"
		"BPF statistics enabled), with the reason for every no. Also qemu, KVM and the\n"
		"versions of the packages the suite uses.\n"
		"  --json  the report as JSON (what run.json stores under \"doctor\")\n"
		"  --boot  prove KVM with a test boot of the guest kernel (may download it)\n"
		"  --guest inside a guest: leave out qemu and KVM\n";
	static const struct option opts[] = {
		{ "json", no_argument, NULL, 'j' }, { "boot", no_argument, NULL, 'b' },
		{ "guest", no_argument, NULL, 'g' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char topodir[PATH_MAX];
	int c, as_json = 0, boot = 0, guest = 0;
	json_t *r;

	while ((c = getopt_long(argc, argv, "jbgh", opts, NULL)) != -1) {
		switch (c) {
		case 'j': as_json = 1; break;
		case 'b': boot = 1; break;
		case 'g': guest = 1; break;
		case 'h': printf("%s", help); return 0;
		default: fprintf(stderr, "see 'xdptc doctor --help'\n"); return EXIT_USAGE;
		}
	}
	if ((c = check_privilege()))
		return c;
	default_topologies_dir(topodir, sizeof(topodir));
	r = doctor_report(topodir, boot, guest);
	if (as_json) {
		json_dumpf(r, stdout, JSON_INDENT(2));
		printf("\n");
	} else {
		doctor_print(r, stdout);
	}
	json_decref(r);
	return 0;
}

static int cmd_report(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc report DIR [--csv FILE|-] [--quiet]\n"
		"Rebuild DIR/summary.md from DIR/run.json (the summary is computed again from\n"
		"the trials: same seed, same result) and the plots (gnuplot), and print it.\n"
		"  --csv FILE  also write every trial as CSV to FILE (- for stdout, no summary)\n"
		"  --quiet     do not print the summary\n";
	static const struct option opts[] = {
		{ "csv", required_argument, NULL, 'c' }, { "quiet", no_argument, NULL, 'q' },
		{ "help", no_argument, NULL, 'h' },      { NULL, 0, NULL, 0 },
	};
	const char *csv = NULL;
	char err[600], path[PATH_MAX + 16];
	json_t *run;
	FILE *f;
	int c, quiet = 0, e;

	while ((c = getopt_long(argc, argv, "c:qh", opts, NULL)) != -1) {
		switch (c) {
		case 'c': csv = optarg; break;
		case 'q': quiet = 1; break;
		case 'h': printf("%s", help); return 0;
		default: fprintf(stderr, "see 'xdptc report --help'\n"); return EXIT_USAGE;
		}
	}
	if (optind != argc - 1)
		return need_opt("report", "one run directory");
	e = report_load(argv[optind], &run, err, sizeof(err));
	if (e) {
		fprintf(stderr, "xdptc: %s\n", err);
		return e == -EBADMSG || e == -EPROTO ? EXIT_USAGE : 1;
	}
	json_object_set_new(run, "summary", summary_compute(run));
	if (csv) {
		f = strcmp(csv, "-") ? fopen(csv, "w") : stdout;
		if (!f || report_csv(run, f)) {
			fprintf(stderr, "xdptc: cannot write the CSV to %s: %s\n", csv, strerror(errno));
			json_decref(run);
			return 1;
		}
		if (f != stdout)
			fclose(f);
		else
			quiet = 1;
	}
	snprintf(path, sizeof(path), "%s/summary.md", argv[optind]);
	f = fopen(path, "w");
	if (!f || summary_render_md(run, f)) {
		fprintf(stderr, "xdptc: cannot write %s: %s\n", path, strerror(errno));
		if (f)
			fclose(f);
		json_decref(run);
		return 1;
	}
	fclose(f);
	if (!quiet)
		summary_render_md(run, stdout);
	if (plots_write(run, argv[optind], err, sizeof(err)) < 0)
		fprintf(stderr, "xdptc: plots: %s\n", err);
	json_decref(run);
	return 0;
}

static int cmd_compare(int argc, char **argv)
{
	static const char help[] =
		"usage: xdptc compare DIR_A DIR_B\n"
		"Put two runs side by side by their within-run deltas (B against A of each run,\n"
		"with each run's own 95% interval). Absolute figures from different runs are not\n"
		"comparable, so compare never shows them (--absolute is refused).\n";
	static const struct option opts[] = {
		{ "absolute", no_argument, NULL, 'a' }, { "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	char err[600];
	json_t *a, *b;
	int c, e;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'a':
			fprintf(stderr, "xdptc: compare refuses absolute figures: nanoseconds and cycles "
					"from different runs, machines or topologies are not comparable; "
					"it compares within-run deltas only\n");
			return EXIT_USAGE;
		case 'h': printf("%s", help); return 0;
		default: fprintf(stderr, "see 'xdptc compare --help'\n"); return EXIT_USAGE;
		}
	}
	if (optind != argc - 2)
		return need_opt("compare", "two run directories");
	for (int i = 0; i < 2; i++) {
		e = report_load(argv[optind + i], i ? &b : &a, err, sizeof(err));
		if (e) {
			fprintf(stderr, "xdptc: %s\n", err);
			if (i)
				json_decref(a);
			return e == -EBADMSG || e == -EPROTO ? EXIT_USAGE : 1;
		}
	}
	json_object_set_new(a, "summary", summary_compute(a));
	json_object_set_new(b, "summary", summary_compute(b));
	e = report_compare(a, argv[optind], b, argv[optind + 1], stdout);
	if (e)
		fprintf(stderr, "xdptc: the two runs share no delta (different modes?)\n");
	json_decref(a);
	json_decref(b);
	return e ? 1 : 0;
}

static int cmd_cleanup(int argc, char **argv)
{
	char topodir[PATH_MAX];
	int n;

	if (argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: xdptc cleanup\n"
		       "Remove what killed runs left: namespaces, links and guests named xdptc-*\n"
		       "whose run is gone (a topology whose run still goes is left alone), xdptc's\n"
		       "clsact markers of namespaces that no longer exist, and empty run directories\n"
		       "under ./results. Touches nothing else. Every run does this when it starts.\n");
		return 0;
	}
	if (check_privilege())
		return 1;
	default_topologies_dir(topodir, sizeof(topodir));
	n = cleanup_leftovers(topodir, "results", "");
	if (n < 0) {
		fprintf(stderr, "xdptc: cleanup failed: %s\n", strerror(-n));
		return 1;
	}
	if (!n)
		fprintf(stderr, "nothing to clean: nothing of a killed xdptc run is left\n");
	return 0;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int (*fn)(int, char **);
	} cmds[] = {
		{ "attach", cmd_attach }, { "detach", cmd_detach }, { "status", cmd_status },
		{ "send", cmd_send },     { "run", cmd_run },       { "cleanup", cmd_cleanup },
		{ "agent", cmd_agent },   { "guest-exec", cmd_guest_exec },
		{ "doctor", cmd_doctor }, { "report", cmd_report },   { "compare", cmd_compare },
	};

	if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h") ||
	    !strcmp(argv[1], "help")) {
		usage_main(argc < 2 ? stderr : stdout);
		return argc < 2 ? EXIT_USAGE : 0;
	}
	bpf_log_setup(0);
	for (size_t i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++)
		if (!strcmp(argv[1], cmds[i].name))
			return cmds[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "xdptc: unknown command '%s'\n", argv[1]);
	usage_main(stderr);
	return EXIT_USAGE;
}
