/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* netdev_stats.h: a device's packet counters as the driver reports them. */
#ifndef XDPTC_NETDEV_STATS_H
#define XDPTC_NETDEV_STATS_H

#include <stdint.h>

/* Packets, from the kernel's struct rtnl_link_stats64 (IFLA_STATS64). */
struct netdev_stats {
	uint64_t rx_packets, tx_packets; /* packets the driver received / sent */
	uint64_t rx_dropped, tx_dropped; /* packets the driver dropped (ring full, ...) */
	uint64_t rx_missed;              /* rx_missed_errors: frames the NIC dropped for want
					  * of a receive buffer (a hardware counter) */
};

/*
 * netdev_stats_read - read @ifname's counters in the calling thread's network
 * namespace (RTM_GETLINK over rtnetlink, IFLA_STATS64).
 * Returns 0, or -errno (-ENODEV when there is no such device).
 */
int netdev_stats_read(const char *ifname, struct netdev_stats *out);

#endif
