/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * ethtool_stats.h: a NIC's own statistics, as `ethtool -S` prints them: the driver's
 * names and values (SIOCETHTOOL: ETHTOOL_GSSET_INFO for ETH_SS_STATS, ETHTOOL_GSTRINGS,
 * ETHTOOL_GSTATS). The dev topology records, per trial, the deltas of those that name
 * drops, misses, discards, errors or XDP: the driver's own words for where packets went,
 * beside the rtnetlink figures its conservation check uses.
 */
#ifndef XDPTC_ETHTOOL_STATS_H
#define XDPTC_ETHTOOL_STATS_H

#include <stdint.h>

#define ETHTOOL_STAT_NAME_MAX 32 /* ETH_GSTRING_LEN */

struct ethtool_stats_set {
	int n;
	char (*names)[ETHTOOL_STAT_NAME_MAX];
	uint64_t *values;
};

/* ethtool_stats_read - every statistic of @ifname (in the calling thread's network
 * namespace) into @out (free with ethtool_stats_free). Returns 0, -EOPNOTSUPP when the
 * driver has none, or -errno. */
int ethtool_stats_read(const char *ifname, struct ethtool_stats_set *out);

void ethtool_stats_free(struct ethtool_stats_set *s);

/* ethtool_stat_is_loss - does statistic @name name drops, misses, discards, errors or XDP
 * (case-insensitive)? */
int ethtool_stat_is_loss(const char *name);

#endif
