/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* ethtool_stats.c: a NIC's ethtool statistics (ethtool_stats.h). */
#include "ethtool_stats.h"

#include <errno.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

static int ethtool_ioctl(int fd, const char *ifname, void *data)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	strncpy(ifr.ifr_name, ifname, IFNAMSIZ - 1);
	ifr.ifr_data = data;
	return ioctl(fd, SIOCETHTOOL, &ifr) ? -errno : 0;
}

int ethtool_stats_read(const char *ifname, struct ethtool_stats_set *out)
{
	struct {
		struct ethtool_sset_info hdr;
		__u32 len;
	} info;
	struct ethtool_gstrings *strs = NULL;
	struct ethtool_stats *vals = NULL;
	int fd, e, n;

	memset(out, 0, sizeof(*out));
	fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	info.hdr.cmd = ETHTOOL_GSSET_INFO;
	info.hdr.sset_mask = 1ull << ETH_SS_STATS;
	e = ethtool_ioctl(fd, ifname, &info);
	if (!e && !(info.hdr.sset_mask & (1ull << ETH_SS_STATS)))
		e = -EOPNOTSUPP;
	n = e ? 0 : (int)info.len;
	if (!e && (n <= 0 || n > 65536))
		e = -EOPNOTSUPP;
	if (!e) {
		strs = calloc(1, sizeof(*strs) + (size_t)n * ETH_GSTRING_LEN);
		vals = calloc(1, sizeof(*vals) + (size_t)n * sizeof(__u64));
		out->names = calloc((size_t)n, sizeof(*out->names));
		out->values = calloc((size_t)n, sizeof(*out->values));
		if (!strs || !vals || !out->names || !out->values)
			e = -ENOMEM;
	}
	if (!e) {
		strs->cmd = ETHTOOL_GSTRINGS;
		strs->string_set = ETH_SS_STATS;
		strs->len = (__u32)n;
		e = ethtool_ioctl(fd, ifname, strs);
	}
	if (!e) {
		vals->cmd = ETHTOOL_GSTATS;
		vals->n_stats = (__u32)n;
		e = ethtool_ioctl(fd, ifname, vals);
	}
	if (!e) {
		out->n = n < (int)vals->n_stats ? n : (int)vals->n_stats;
		for (int i = 0; i < out->n; i++) {
			memcpy(out->names[i], strs->data + (size_t)i * ETH_GSTRING_LEN,
			       ETHTOOL_STAT_NAME_MAX - 1);
			out->values[i] = vals->data[i];
		}
	}
	free(strs);
	free(vals);
	close(fd);
	if (e)
		ethtool_stats_free(out);
	return e;
}

void ethtool_stats_free(struct ethtool_stats_set *s)
{
	free(s->names);
	free(s->values);
	memset(s, 0, sizeof(*s));
}

int ethtool_stat_is_loss(const char *name)
{
	static const char *const words[] = { "drop", "miss", "discard", "err", "xdp" };

	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		if (strcasestr(name, words[i]))
			return 1;
	return 0;
}
