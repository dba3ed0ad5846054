/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_send.c: xdptc send, the UDP traffic generator. */
#include <errno.h>
#include <sched.h>
#include <signal.h>
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

int cmd_send(int argc, char **argv)
{
	struct udp_sender_opts o = { .dst_port = DROP_DEFAULT_PORT, .payload_len = 18 };
	struct udp_send_result res;
	struct udp_sender s;
	const char *netns = NULL;
	uint64_t count = 10000, v;
	double duration = 0;
	int c, cpu = -1, saved, e, count_set = 0, batch_set = 0;

	while ((c = cli_next(&cli_cmd_send, argc, argv)) > 0) {
		switch (c) {
		case OPT_DST: o.dst_addr = optarg; break;
		case 'n': netns = optarg; break;
		case 'p':
			if (parse_port(optarg, &o.dst_port))
				return bad_port(optarg);
			break;
		case OPT_SRC_PORT:
			if (parse_port(optarg, &o.src_port))
				return bad_port(optarg);
			break;
		case 'c':
			if (parse_count(optarg, UINT64_MAX / 2, &count))
				return bad_value("--count", optarg, "a packet count such as 10000 or 1M");
			count_set = 1;
			break;
		case OPT_DURATION: {
			char *end;

			duration = strtod(optarg, &end);
			if (end == optarg || *end || !(duration >= 0.001 && duration <= 86400))
				return bad_value("--duration", optarg, "seconds from 0.001 to 86400");
			break;
		}
		case 's':
			if (parse_count(optarg, 65000, &v))
				return bad_value("--size", optarg, "payload bytes, 0-65000");
			o.payload_len = (uint32_t)v;
			break;
		case OPT_CPU:
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
			batch_set = 1;
			break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (!o.dst_addr)
		return need_opt("send", "--dst ADDR");
	if (duration > 0 && count_set) {
		fprintf(stderr, "xdptc send: --count and --duration: give one of them\n");
		return EXIT_USAGE;
	}
	if (duration > 0) /* paced: the count the rate gives; unpaced: until the timer */
		count = o.rate_pps ? (uint64_t)((double)o.rate_pps * duration + 0.5) : UINT64_MAX / 2;
	if (duration > 0 && !count) {
		fprintf(stderr, "xdptc send: --rate %llu for %g s is no packet\n",
			(unsigned long long)o.rate_pps, duration);
		return EXIT_USAGE;
	}
	if (o.rate_pps && !batch_set) { /* about 1 ms of packets per call, 1 to 64 */
		uint64_t b = o.rate_pps / 1000;

		o.batch = b < 1 ? 1 : b > 64 ? 64 : (unsigned int)b;
	}
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
	{
		struct sigaction sa = { .sa_handler = on_send_stop };
		struct itimerval it = { 0 };

		sigemptyset(&sa.sa_mask);
		sigaction(SIGINT, &sa, NULL);
		sigaction(SIGTERM, &sa, NULL);
		if (duration > 0 && !o.rate_pps) {
			sigaction(SIGALRM, &sa, NULL);
			it.it_value.tv_sec = (time_t)duration;
			it.it_value.tv_usec = (suseconds_t)((duration - (double)(time_t)duration) * 1e6);
			setitimer(ITIMER_REAL, &it, NULL);
		}
	}
	e = udp_sender_send(&s, count, &g_send_stop, &res);
	udp_sender_close(&s);
	netns_return(saved);
	if (e) {
		fprintf(stderr, "xdptc: sending failed after %llu packets: %s\n",
			(unsigned long long)res.sent, strerror(-e));
		return 1;
	}
	if (g_send_stop && !g_send_timer) {
		/* Ctrl-C, SIGTERM: what went out of what was asked, and exit 130 */
		printf("interrupted after %.3f s: sent %llu", (double)res.wall_ns / 1e9,
		       (unsigned long long)res.sent);
		if (count < UINT64_MAX / 2)
			printf(" of %llu", (unsigned long long)count);
		printf(" packets to %s port %u\n", o.dst_addr, o.dst_port);
		return 130;
	}
	printf("sent %llu packets to %s port %u in %.3f s (%.0f pps); sender CPU %.1f ns/pkt%s; "
	       "%llu retries\n",
	       (unsigned long long)res.sent, o.dst_addr, o.dst_port, (double)res.wall_ns / 1e9,
	       res.wall_ns ? (double)res.sent * 1e9 / (double)res.wall_ns : 0.0,
	       res.sent ? (double)res.cpu_ns / (double)res.sent : 0.0,
	       o.rate_pps ? " (its pacing's waits included)" : "",
	       (unsigned long long)res.retries);
	return 0;
}
