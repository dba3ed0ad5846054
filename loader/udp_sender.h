/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * udp_sender.h: the UDP socket traffic generator (sendmmsg). The kernel builds one
 * skb per packet on the sending side; on veth the receive path then runs in the
 * sender's own softirq context.
 */
#ifndef XDPTC_UDP_SENDER_H
#define XDPTC_UDP_SENDER_H

#include <stdint.h>

struct udp_sender_opts {
	const char *dst_addr;  /* IPv4 or IPv6 literal (the suite uses 198.18.0.0/15) */
	uint16_t dst_port;     /* UDP destination port, 1-65535 */
	uint16_t src_port;     /* 0: kernel chooses */
	uint32_t payload_len;  /* UDP payload bytes (18 gives a 60-byte frame + FCS = 64) */
	unsigned int batch;    /* messages per sendmmsg call, 1-1024 (default 64) */
	uint64_t rate_pps;     /* packets per second; 0 = as fast as possible */
};

struct udp_sender {
	int fd;
	struct udp_sender_opts opts;
	void *priv; /* mmsghdr/iovec/address arrays */
};

struct udp_send_result {
	uint64_t sent;        /* packets the kernel accepted (sendmmsg's count) */
	uint64_t retries;     /* sendmmsg calls refused with ENOBUFS/EAGAIN and retried */
	uint64_t wall_ns;     /* elapsed CLOCK_MONOTONIC time, ns */
	uint64_t cpu_ns;      /* this thread's CPU time (CLOCK_THREAD_CPUTIME_ID), ns;
			       * on veth this includes the receive softirq it ran */
};

/* udp_sender_open - make the socket in the calling thread's network namespace.
 * Returns 0, -EINVAL for a bad address/option, or -errno. */
int udp_sender_open(struct udp_sender *s, const struct udp_sender_opts *opts);

/* udp_sender_send - send @count packets (paced at opts.rate_pps when non-zero).
 * Stops early, with what was sent so far, when *@stop becomes non-zero.
 * Returns 0, or -errno for an error other than a transient ENOBUFS/EAGAIN. */
int udp_sender_send(struct udp_sender *s, uint64_t count, volatile int *stop,
		    struct udp_send_result *res);

void udp_sender_close(struct udp_sender *s);

/* pin_to_cpu - pin the calling thread to @cpu (>= 0). Returns 0 or -errno. */
int pin_to_cpu(int cpu);

/*
 * send_pace - wait (sleep, then spin) until packet @sent of a stream paced at @rate_pps
 * from *@start_ns (CLOCK_MONOTONIC, ns) is due. A sender that fell more than two bursts
 * of @burst packets behind (it was preempted) moves the schedule on (*@start_ns) instead
 * of catching up: a catch-up would be a burst far above the offered rate, overflowing the
 * DUT's ring and reading as the DUT's loss. The rate reached shows in the wall time.
 */
void send_pace(uint64_t *start_ns, uint64_t sent, uint64_t rate_pps, uint64_t burst);

#endif
