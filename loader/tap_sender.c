/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "tap_sender.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

int tap_sender_open(const char *dev)
{
	struct ifreq ifr;
	int fd, e;

	if (!dev || strlen(dev) >= IFNAMSIZ)
		return -EINVAL;
	if (!if_nametoindex(dev))
		return -ENODEV;
	/* non-blocking: tun_can_build_skb takes the page-fragment path (and native XDP) only
	 * for a non-blocking writer */
	fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	/* no packet-information header, no virtio-net header: a plain Ethernet frame */
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	if (ioctl(fd, TUNSETIFF, &ifr)) {
		e = -errno;
		close(fd);
		return e;
	}
	return fd;
}

int tap_sender_send(int fd, const unsigned char *frame, unsigned int len, uint64_t count,
		    uint64_t rate_pps, struct udp_send_result *res)
{
	struct timespec t;
	uint64_t start;

	clock_gettime(CLOCK_MONOTONIC, &t);
	start = (uint64_t)t.tv_sec * 1000000000ull + (uint64_t)t.tv_nsec;
	while (res->sent < count) {
		ssize_t r;

		if (rate_pps)
			send_pace(&start, res->sent, rate_pps, 1);
		r = write(fd, frame, len);
		if (r < 0) {
			if (errno == EAGAIN || errno == ENOBUFS || errno == EINTR) {
				res->retries++;
				continue;
			}
			return -errno;
		}
		res->sent++;
	}
	return 0;
}
