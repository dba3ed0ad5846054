/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "udp_sender.h"
#include "cpu_time.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

struct sender_bufs {
	struct sockaddr_storage dst;
	socklen_t dst_len;
	struct mmsghdr *msgs;
	struct iovec *iov;
	char *payload;
};


int pin_to_cpu(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set) ? -errno : 0;
}

static int parse_dst(const char *addr, uint16_t port, struct sender_bufs *b)
{
	struct sockaddr_in *in4 = (struct sockaddr_in *)&b->dst;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&b->dst;

	memset(&b->dst, 0, sizeof(b->dst));
	if (inet_pton(AF_INET, addr, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons(port);
		b->dst_len = sizeof(*in4);
		return AF_INET;
	}
	if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		b->dst_len = sizeof(*in6);
		return AF_INET6;
	}
	return -EINVAL;
}

int udp_sender_open(struct udp_sender *s, const struct udp_sender_opts *opts)
{
	struct sender_bufs *b;
	int family, sndbuf = 4 << 20, e;

	memset(s, 0, sizeof(*s));
	s->fd = -1;
	if (!opts->dst_addr || !opts->dst_port || opts->payload_len > 65000)
		return -EINVAL;
	s->opts = *opts;
	if (!s->opts.batch)
		s->opts.batch = 64;
	if (s->opts.batch > 1024)
		return -EINVAL;
	b = calloc(1, sizeof(*b));
	if (!b)
		return -ENOMEM;
	s->priv = b;
	family = parse_dst(opts->dst_addr, opts->dst_port, b);
	if (family < 0) {
		udp_sender_close(s);
		return -EINVAL;
	}
	b->msgs = calloc(s->opts.batch, sizeof(*b->msgs));
	b->iov = calloc(s->opts.batch, sizeof(*b->iov));
	b->payload = calloc(1, opts->payload_len ? opts->payload_len : 1);
	if (!b->msgs || !b->iov || !b->payload) {
		udp_sender_close(s);
		return -ENOMEM;
	}
	memset(b->payload, 0x5a, opts->payload_len);
	for (unsigned int i = 0; i < s->opts.batch; i++) {
		b->iov[i].iov_base = b->payload;
		b->iov[i].iov_len = opts->payload_len;
		b->msgs[i].msg_hdr.msg_iov = &b->iov[i];
		b->msgs[i].msg_hdr.msg_iovlen = 1;
		/* unconnected: ICMP errors for passed packets never fail a later send */
		b->msgs[i].msg_hdr.msg_name = &b->dst;
		b->msgs[i].msg_hdr.msg_namelen = b->dst_len;
	}
	s->fd = socket(family, SOCK_DGRAM | SOCK_CLOEXEC, IPPROTO_UDP);
	if (s->fd < 0) {
		e = -errno;
		udp_sender_close(s);
		return e;
	}
	setsockopt(s->fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	if (opts->src_port) {
		struct sockaddr_storage src;
		struct sockaddr_in *in4 = (struct sockaddr_in *)&src;
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&src;

		memset(&src, 0, sizeof(src));
		if (family == AF_INET) {
			in4->sin_family = AF_INET;
			in4->sin_port = htons(opts->src_port);
		} else {
			in6->sin6_family = AF_INET6;
			in6->sin6_port = htons(opts->src_port);
		}
		if (bind(s->fd, (struct sockaddr *)&src, b->dst_len)) {
			e = -errno;
			udp_sender_close(s);
			return e;
		}
	}
	return 0;
}

void send_pace(uint64_t *start_ns, uint64_t sent, uint64_t rate_pps, uint64_t burst)
{
	uint64_t due = *start_ns + sent * 1000000000ull / rate_pps;
	uint64_t now = clock_ns(CLOCK_MONOTONIC);
	uint64_t slack = 2 * burst * 1000000000ull / rate_pps;

	if (now > due + slack) {
		*start_ns += now - due; /* preempted: move on, no catch-up burst */
		return;
	}
	while ((now = clock_ns(CLOCK_MONOTONIC)) < due) {
		if (due - now > 200000) {
			uint64_t d = due - now - 150000;
			struct timespec ts = { .tv_sec = (time_t)(d / 1000000000ull),
					       .tv_nsec = (long)(d % 1000000000ull) };

			nanosleep(&ts, NULL);
		}
	}
}

int udp_sender_send(struct udp_sender *s, uint64_t count, volatile int *stop,
		    struct udp_send_result *res)
{
	struct sender_bufs *b = s->priv;
	uint64_t wall0 = clock_ns(CLOCK_MONOTONIC), cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	uint64_t sched0 = wall0;
	int err = 0;

	memset(res, 0, sizeof(*res));
	while (res->sent < count && !(stop && *stop)) {
		uint64_t left = count - res->sent;
		unsigned int n = left < s->opts.batch ? (unsigned int)left : s->opts.batch;
		int r;

		if (s->opts.rate_pps)
			send_pace(&sched0, res->sent, s->opts.rate_pps, s->opts.batch);
		r = sendmmsg(s->fd, b->msgs, n, 0);
		if (r < 0) {
			if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR) {
				res->retries++;
				continue;
			}
			err = -errno;
			break;
		}
		res->sent += (uint64_t)r;
	}
	res->wall_ns = clock_ns(CLOCK_MONOTONIC) - wall0;
	res->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	return err;
}

void udp_sender_close(struct udp_sender *s)
{
	struct sender_bufs *b = s->priv;

	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (b) {
		free(b->msgs);
		free(b->iov);
		free(b->payload);
		free(b);
	}
	s->priv = NULL;
}
