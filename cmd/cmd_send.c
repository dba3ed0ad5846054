/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_send.c: xdptc send, the UDP traffic generator. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

#include "cli_parse.h"
#include "netns.h"
#include "udp_sender.h"

#include "cli.h"
#include "cli_table.h"

/* ---- send ---- */

enum { OPT_DST = 256, OPT_SRC_PORT, OPT_CPU, OPT_DURATION };

static const struct cli_opt send_opts[] = {
	{ "dst", OPT_DST, "ADDR", "destination IPv4 or IPv6 address (use the suite's "
	  "198.18.0.0/15, or an address you own)", .flags = CLI_REQUIRED },
	{ "netns", 'n', "NS", "send from this network namespace", "the current one" },
	{ "port", 'p', "N", "destination UDP port", "9999" },
	{ "src-port", OPT_SRC_PORT, "N", "source UDP port", "the kernel's choice" },
	{ "count", 'c', "N", "packets, k/M/G suffixes allowed", "10000" },
	{ "duration", OPT_DURATION, "S", "send for S seconds (0.001-86400) instead of a count: "
	  "with --rate, exactly rate x S packets at a steady pace (a generator for a "
	  "measurement on another machine); without, as many as go; Ctrl-C ends it early, "
	  "says what was sent of what and exits 130" },
	{ "size", 's', "B", "UDP payload bytes, 0-65000 (18: 60-byte frames, 64 with the FCS)",
	  "18" },
	{ "cpu", OPT_CPU, "N", "pin the sender to this CPU", "not pinned" },
	{ "rate", 'r', "PPS", "packets per second; 0: as fast as possible", "0" },
	{ "batch", 'b', "N", "messages per sendmmsg call, 1-1024", "64; with --rate about 1 ms "
	  "of packets (1-64), so that the pace is steady" },
	{ NULL },
};

const struct cli_command cli_cmd_send = {
	.name = "send",
	.fn = cmd_send,
	.brief = "UDP traffic generator (sendmmsg)",
	.about = "Send UDP packets from a socket with sendmmsg (the kernel builds one skb "
		 "each). --dst is required.",
	.opts = send_opts,
	.notes = "Prints packets sent, wall time (s), rate (pps) and sender CPU time "
		 "(ns/pkt).",
};

/* set by SIGINT/SIGTERM (interrupted) or by --duration's timer (SIGALRM: done) */
static volatile int g_send_stop, g_send_timer;

static void on_send_stop(int sig)
{
	g_send_timer |= sig == SIGALRM;
	g_send_stop = 1;
}

/* What `xdptc send`'s command line asks for. */
struct send_args {
	struct udp_sender_opts o; /* the socket: addresses, ports, payload, rate, batch */
	const char *netns;        /* the namespace to send from; NULL: this one */
	uint64_t count;           /* packets to send */
	double duration;          /* seconds to send for; 0: a count instead */
	int cpu;                  /* the CPU to pin to; -1: not pinned */
	bool count_set, batch_set; /* --count, --batch given */
};

/* One option @c with its argument @arg into @a. Returns -1 to go on, or EXIT_USAGE with
 * the refusal said on stderr. */
static int send_opt(struct send_args *a, int c, const char *arg)
{
	uint64_t v;
	char *end;

	switch (c) {
	case OPT_DST: a->o.dst_addr = arg; break;
	case 'n': a->netns = arg; break;
	case 'p':
		if (parse_port(arg, &a->o.dst_port))
			return bad_port(arg);
		break;
	case OPT_SRC_PORT:
		if (parse_port(arg, &a->o.src_port))
			return bad_port(arg);
		break;
	case 'c':
		if (parse_count(arg, UINT64_MAX / 2, &a->count))
			return bad_value("--count", arg, "a packet count such as 10000 or 1M");
		a->count_set = true;
		break;
	case OPT_DURATION:
		a->duration = strtod(arg, &end);
		if (end == arg || *end || !(a->duration >= 0.001 && a->duration <= 86400))
			return bad_value("--duration", arg, "seconds from 0.001 to 86400");
		break;
	case 's':
		if (parse_count(arg, 65000, &v))
			return bad_value("--size", arg, "payload bytes, 0-65000");
		a->o.payload_len = (uint32_t)v;
		break;
	case OPT_CPU:
		if (parse_count(arg, CPU_SETSIZE - 1, &v))
			return bad_value("--cpu", arg, "a CPU number");
		a->cpu = (int)v;
		break;
	case 'r':
		if (parse_count(arg, 1000000000ull, &a->o.rate_pps))
			return bad_value("--rate", arg, "packets per second such as 500k");
		break;
	case 'b':
		if (parse_count(arg, 1024, &v) || !v)
			return bad_value("--batch", arg, "1-1024");
		a->o.batch = (unsigned int)v;
		a->batch_set = true;
		break;
	}
	return -1;
}

/* The options that relate to each other: --dst given, --count or --duration, the count
 * a paced --duration gives (rate x seconds, rounded), the batch a paced sender takes by
 * default (about 1 ms of packets, 1-64). Returns -1 to go on, or EXIT_USAGE (said why). */
static int send_settle(struct send_args *a)
{
	if (!a->o.dst_addr)
		return need_opt("send", "--dst ADDR");
	if (a->duration > 0 && a->count_set) {
		fprintf(stderr, "xdptc send: --count and --duration: give one of them\n");
		return EXIT_USAGE;
	}
	if (a->duration > 0) /* paced: the count the rate gives; unpaced: until the timer */
		a->count = a->o.rate_pps ? (uint64_t)((double)a->o.rate_pps * a->duration + 0.5)
					 : UINT64_MAX / 2;
	if (a->duration > 0 && !a->count) {
		fprintf(stderr, "xdptc send: --rate %llu for %g s is no packet\n",
			(unsigned long long)a->o.rate_pps, a->duration);
		return EXIT_USAGE;
	}
	if (a->o.rate_pps && !a->batch_set) { /* about 1 ms of packets per call, 1 to 64 */
		uint64_t b = a->o.rate_pps / 1000;

		a->o.batch = b < 1 ? 1 : b > 64 ? 64 : (unsigned int)b;
	}
	return -1;
}

/* Parse `xdptc send`'s command line into @a. Returns -1 to go on, or the exit status
 * (0 after --help, EXIT_USAGE after a refusal said on stderr). */
static int send_parse(struct send_args *a, int argc, char **argv)
{
	int c, st;

	while ((c = cli_next(&cli_cmd_send, argc, argv)) > 0)
		if ((st = send_opt(a, c, optarg)) >= 0)
			return st;
	if (c < 0)
		return cli_exit(c);
	return send_settle(a);
}

/* The sender's end: SIGINT and SIGTERM stop it (interrupted); an unpaced --duration of
 * @duration seconds arms a timer whose SIGALRM stops it (done). Paced (@rate_pps), the
 * count alone ends it. */
static void send_arm_stop(double duration, uint64_t rate_pps)
{
	struct sigaction sa = { .sa_handler = on_send_stop };
	struct itimerval it = { 0 };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if (duration > 0 && !rate_pps) {
		sigaction(SIGALRM, &sa, NULL);
		it.it_value.tv_sec = (time_t)duration;
		it.it_value.tv_usec = (suseconds_t)((duration - (double)(time_t)duration) * 1e6);
		setitimer(ITIMER_REAL, &it, NULL);
	}
}

/* Say on stdout what went out (@res) of what @a asked for: interrupted (Ctrl-C,
 * SIGTERM), what was sent of the count, exit status 130; else the packets, the wall
 * time (s), the rate (pps), the sender's CPU time (ns/pkt) and the retries, status 0. */
static int send_report(const struct send_args *a, const struct udp_send_result *res)
{
	if (g_send_stop && !g_send_timer) {
		printf("interrupted after %.3f s: sent %llu", (double)res->wall_ns / 1e9,
		       (unsigned long long)res->sent);
		if (a->count < UINT64_MAX / 2)
			printf(" of %llu", (unsigned long long)a->count);
		printf(" packets to %s port %u\n", a->o.dst_addr, a->o.dst_port);
		return 130;
	}
	printf("sent %llu packets to %s port %u in %.3f s (%.0f pps); sender CPU %.1f ns/pkt%s; "
	       "%llu retries\n",
	       (unsigned long long)res->sent, a->o.dst_addr, a->o.dst_port,
	       (double)res->wall_ns / 1e9,
	       res->wall_ns ? (double)res->sent * 1e9 / (double)res->wall_ns : 0.0,
	       res->sent ? (double)res->cpu_ns / (double)res->sent : 0.0,
	       a->o.rate_pps ? " (its pacing's waits included)" : "",
	       (unsigned long long)res->retries);
	return 0;
}

int cmd_send(int argc, char **argv)
{
	struct send_args a = { .o = { .dst_port = DROP_DEFAULT_PORT, .payload_len = 18 },
			       .count = 10000, .cpu = -1 };
	struct udp_send_result res;
	struct udp_sender s;
	int st, saved, e;

	if ((st = send_parse(&a, argc, argv)) >= 0)
		return st;
	if ((st = enter_and_check(a.netns, NULL, &saved)))
		return st;
	if (a.cpu >= 0 && (e = pin_to_cpu(a.cpu))) {
		fprintf(stderr, "xdptc: cannot pin to CPU %d: %s\n", a.cpu, strerror(-e));
		return EXIT_USAGE;
	}
	e = udp_sender_open(&s, &a.o);
	if (e == -EINVAL)
		return bad_value("--dst", a.o.dst_addr, "an IPv4 or IPv6 address");
	if (e) {
		fprintf(stderr, "xdptc: cannot open the UDP socket: %s\n", strerror(-e));
		return 1;
	}
	send_arm_stop(a.duration, a.o.rate_pps);
	e = udp_sender_send(&s, a.count, &g_send_stop, &res);
	udp_sender_close(&s);
	netns_return(saved);
	if (e) {
		fprintf(stderr, "xdptc: sending failed after %llu packets: %s\n",
			(unsigned long long)res.sent, strerror(-e));
		return 1;
	}
	return send_report(&a, &res);
}
