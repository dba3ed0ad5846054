/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* netkit.c: a netkit pair over rtnetlink (netkit.h). */
#include "netkit.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if_link.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

struct nl_req {
	struct nlmsghdr h;
	struct ifinfomsg ifi;
	char buf[512];
};

/* An attribute appended to @r; returns it (for nesting), or NULL when it does not fit. */
static struct rtattr *attr_add(struct nl_req *r, unsigned short type, const void *data,
			       size_t len)
{
	size_t at = NLMSG_ALIGN(r->h.nlmsg_len), need = RTA_LENGTH(len);
	struct rtattr *a = (struct rtattr *)((char *)r + at);

	if (at + RTA_ALIGN(need) > sizeof(*r))
		return NULL;
	a->rta_type = type;
	a->rta_len = (unsigned short)need;
	if (len)
		memcpy(RTA_DATA(a), data, len);
	r->h.nlmsg_len = (unsigned int)(at + RTA_ALIGN(need));
	return a;
}

/* Close the nest @a opened by attr_add(..., NULL, 0). */
static void attr_end(struct nl_req *r, struct rtattr *a)
{
	a->rta_len = (unsigned short)((char *)r + r->h.nlmsg_len - (char *)a);
}

/* Send @r and read the kernel's answer. Returns 0 or its -errno, the kernel's extack
 * message (if any) into @msg. */
static int nl_talk(struct nl_req *r, char *msg, size_t msglen)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	char buf[4096];
	int fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE), one = 1, e;
	ssize_t n;

	msg[0] = '\0';
	if (fd < 0)
		return -errno;
	/* the kernel's reason as an attribute, after the request's header only */
	setsockopt(fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	if (sendto(fd, r, r->h.nlmsg_len, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		e = -errno;
		close(fd);
		return e;
	}
	n = recv(fd, buf, sizeof(buf), 0);
	e = n < 0 ? -errno : -EIO;
	close(fd);
	if (n >= (ssize_t)NLMSG_LENGTH(sizeof(struct nlmsgerr))) {
		struct nlmsghdr *h = (struct nlmsghdr *)buf;
		struct nlmsgerr *er = NLMSG_DATA(h);

		if (h->nlmsg_type != NLMSG_ERROR)
			return -EIO;
		e = er->error;
		/* the extack's message attribute after the echoed header */
		if (e && (h->nlmsg_flags & NLM_F_ACK_TLVS)) {
			size_t off = NLMSG_HDRLEN + sizeof(*er);
			int rest = (int)h->nlmsg_len - (int)off;
			struct rtattr *a = (struct rtattr *)((char *)h + off);

			for (; RTA_OK(a, rest); a = RTA_NEXT(a, rest))
				if (a->rta_type == NLMSGERR_ATTR_MSG)
					snprintf(msg, msglen, "%s", (char *)RTA_DATA(a));
		}
	}
	return e;
}

int netkit_pair_add(const char *primary, const char *peer, const char *peer_netns, char *err,
		    size_t errlen)
{
	struct nl_req r;
	struct rtattr *li, *data, *pi;
	uint32_t mode = NETKIT_L3, pass = NETKIT_PASS;
	struct ifinfomsg peer_ifi = { .ifi_family = AF_UNSPEC };
	char path[300], kmsg[256];
	int nsfd = -1, e;

	if (strlen(primary) >= 16 || strlen(peer) >= 16) {
		snprintf(err, errlen, "netkit device names are at most 15 characters");
		return -EINVAL;
	}
	if (peer_netns) {
		snprintf(path, sizeof(path), "/var/run/netns/%s", peer_netns);
		nsfd = open(path, O_RDONLY | O_CLOEXEC);
		if (nsfd < 0) {
			e = -errno;
			snprintf(err, errlen, "no network namespace '%s': %s", peer_netns, strerror(-e));
			return e;
		}
	}
	memset(&r, 0, sizeof(r));
	r.h.nlmsg_len = NLMSG_LENGTH(sizeof(struct ifinfomsg));
	r.h.nlmsg_type = RTM_NEWLINK;
	r.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE | NLM_F_EXCL;
	r.ifi.ifi_family = AF_UNSPEC;
	attr_add(&r, IFLA_IFNAME, primary, strlen(primary) + 1);
	li = attr_add(&r, IFLA_LINKINFO, NULL, 0);
	attr_add(&r, IFLA_INFO_KIND, "netkit", strlen("netkit"));
	data = attr_add(&r, IFLA_INFO_DATA, NULL, 0);
	attr_add(&r, IFLA_NETKIT_MODE, &mode, sizeof(mode));
	attr_add(&r, IFLA_NETKIT_POLICY, &pass, sizeof(pass));
	attr_add(&r, IFLA_NETKIT_PEER_POLICY, &pass, sizeof(pass));
	/* the peer: an ifinfomsg, then its own attributes (rtnl_nla_parse_ifinfomsg) */
	pi = attr_add(&r, IFLA_NETKIT_PEER_INFO, &peer_ifi, sizeof(peer_ifi));
	if (!pi || !attr_add(&r, IFLA_IFNAME, peer, strlen(peer) + 1) ||
	    (nsfd >= 0 && !attr_add(&r, IFLA_NET_NS_FD, &nsfd, sizeof(nsfd)))) {
		if (nsfd >= 0)
			close(nsfd);
		snprintf(err, errlen, "netkit request too long");
		return -E2BIG;
	}
	attr_end(&r, pi);
	attr_end(&r, data);
	attr_end(&r, li);
	e = nl_talk(&r, kmsg, sizeof(kmsg));
	if (nsfd >= 0)
		close(nsfd);
	if (e == -EOPNOTSUPP)
		snprintf(err, errlen, "this kernel has no netkit (CONFIG_NETKIT, Linux 6.7 or newer)");
	else if (e)
		snprintf(err, errlen, "making the netkit pair %s/%s failed: %s%s%s", primary, peer,
			 strerror(-e), kmsg[0] ? " (kernel: " : "", kmsg[0] ? kmsg : "");
	return e;
}

int netkit_probe(char *why, size_t whylen)
{
	int fds[2], st;
	pid_t pid;
	char buf[256] = "";
	ssize_t n;

	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return -errno;
	}
	if (pid == 0) {
		char err[256] = "";
		int e;

		close(fds[0]);
		if (unshare(CLONE_NEWNET)) {
			snprintf(err, sizeof(err), "cannot make a network namespace to try: %s",
				 strerror(errno));
			e = -errno;
		} else {
			e = netkit_pair_add("xdptc-nkprobe", "xdptc-nkprobe1", NULL, err, sizeof(err));
		}
		if (write(fds[1], err, strlen(err)) < 0)
			_exit(3);
		_exit(!e ? 0 : e == -EOPNOTSUPP ? 1 : 2);
	}
	close(fds[1]);
	n = read(fds[0], buf, sizeof(buf) - 1);
	close(fds[0]);
	buf[n > 0 ? n : 0] = '\0';
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	snprintf(why, whylen, "%s", buf);
	if (!WIFEXITED(st) || WEXITSTATUS(st) > 1)
		return WIFEXITED(st) && WEXITSTATUS(st) == 2 ? 0 : -EIO;
	return WEXITSTATUS(st) == 0;
}
