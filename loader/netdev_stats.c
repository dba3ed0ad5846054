/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "netdev_stats.h"

#include <errno.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

int netdev_stats_read(const char *ifname, struct netdev_stats *out)
{
	struct {
		struct nlmsghdr nh;
		struct ifinfomsg ifi;
	} req;
	char buf[16384];
	unsigned int ifindex = if_nametoindex(ifname);
	int fd, len, err = -ENODATA;

	if (!ifindex)
		return -ENODEV;
	fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	if (fd < 0)
		return -errno;
	memset(&req, 0, sizeof(req));
	req.nh.nlmsg_len = NLMSG_LENGTH(sizeof(req.ifi));
	req.nh.nlmsg_type = RTM_GETLINK;
	req.nh.nlmsg_flags = NLM_F_REQUEST;
	req.ifi.ifi_family = AF_UNSPEC;
	req.ifi.ifi_index = (int)ifindex;
	if (send(fd, &req, req.nh.nlmsg_len, 0) < 0) {
		err = -errno;
		goto out;
	}
	len = (int)recv(fd, buf, sizeof(buf), 0);
	if (len < 0) {
		err = -errno;
		goto out;
	}
	for (struct nlmsghdr *nh = (struct nlmsghdr *)buf; NLMSG_OK(nh, (unsigned int)len);
	     nh = NLMSG_NEXT(nh, len)) {
		struct ifinfomsg *ifi;
		struct rtattr *rta;
		int alen;

		if (nh->nlmsg_type == NLMSG_ERROR) {
			struct nlmsgerr *e = NLMSG_DATA(nh);

			err = e->error ? e->error : -ENODATA;
			goto out;
		}
		if (nh->nlmsg_type != RTM_NEWLINK)
			continue;
		ifi = NLMSG_DATA(nh);
		alen = (int)IFLA_PAYLOAD(nh);
		for (rta = IFLA_RTA(ifi); RTA_OK(rta, alen); rta = RTA_NEXT(rta, alen)) {
			struct rtnl_link_stats64 s;

			if (rta->rta_type != IFLA_STATS64)
				continue;
			memcpy(&s, RTA_DATA(rta), sizeof(s));
			out->rx_packets = s.rx_packets;
			out->tx_packets = s.tx_packets;
			out->rx_dropped = s.rx_dropped;
			out->tx_dropped = s.tx_dropped;
			out->rx_missed = s.rx_missed_errors;
			err = 0;
		}
	}
out:
	close(fd);
	return err;
}
