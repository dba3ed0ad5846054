/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* dev_report.c: a named device, read before anything is attached (dev_report.h). */
#include "dev_report.h"

#include <arpa/inet.h>
#include <bpf/libbpf.h>
#include <dirent.h>
#include <errno.h>
#include <ifaddrs.h>
#include <limits.h>
#include <linux/ethtool.h>
#include <linux/netdev.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <sched.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "doctor.h"
#include "netns.h"
#include "rx_path.h"

/* The driver's name, version and bus (ETHTOOL_GDRVINFO, what `ethtool -i` prints). */
static void driver_info(json_t *r, const char *dev)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	ifr.ifr_data = (void *)&di;
	if (fd >= 0 && !ioctl(fd, SIOCETHTOOL, &ifr)) {
		json_object_set_new(r, "driver", json_string(di.driver));
		json_object_set_new(r, "driver_version", json_string(di.version));
		json_object_set_new(r, "bus_info", json_string(di.bus_info));
	} else {
		json_object_set_new(r, "driver", json_null());
		json_object_set_new(r, "driver_reason", json_string(strerror(errno)));
	}
	if (fd >= 0)
		close(fd);
}

/* Native XDP from the kernel's own answer: the netdev family's xdp-features
 * (NETDEV_XDP_ACT_*, Linux 6.3+), which bpf_xdp_query reads. */
static void xdp_features(json_t *r, int ifindex)
{
	static const char *const names[] = { "basic", "redirect", "ndo-xmit", "xsk-zerocopy",
					     "hw-offload", "rx-sg", "ndo-xmit-sg" };
	LIBBPF_OPTS(bpf_xdp_query_opts, q);
	json_t *f = json_array();
	struct utsname u;
	int major = 0, minor = 0, e = bpf_xdp_query(ifindex, 0, &q);

	uname(&u);
	sscanf(u.release, "%d.%d", &major, &minor);
	for (unsigned int i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (q.feature_flags & (1ull << i))
			json_array_append_new(f, json_string(names[i]));
	json_object_set_new(r, "xdp_features", f);
	if (!e && (q.feature_flags || major > 6 || (major == 6 && minor >= 3))) {
		json_object_set_new(r, "xdp_native",
				    json_boolean(q.feature_flags & NETDEV_XDP_ACT_BASIC));
		if (!(q.feature_flags & NETDEV_XDP_ACT_BASIC))
			json_object_set_new(r, "xdp_native_reason",
					    json_string("its driver announces no XDP features "
							"(netdev xdp-features)"));
		else
			json_object_set_new(r, "xdp_native_note",
					    json_string("the driver's claim: an attach can still "
							"be refused (virtio_net when the guest's "
							"offloads cannot be turned off, a too large "
							"MTU), and says why"));
	} else {
		char why[160];

		snprintf(why, sizeof(why), e ? "the kernel could not be asked (bpf_xdp_query: "
			 "%s)" : "this kernel (%s) has no netdev netlink family (Linux 6.3+): "
			 "an attach says", e ? strerror(-e) : u.release);
		json_object_set_new(r, "xdp_native", json_null());
		json_object_set_new(r, "xdp_native_reason", json_string(why));
	}
}

void dev_report_xdp(json_t *r, const char *dev)
{
	driver_info(r, dev);
	xdp_features(r, (int)if_nametoindex(dev));
}

/* Entries of @dir whose names start with @prefix. */
static int count_prefixed(const char *dir, const char *prefix)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	int n = 0;

	while (d && (de = readdir(d)))
		n += !strncmp(de->d_name, prefix, strlen(prefix));
	if (d)
		closedir(d);
	return n;
}

static void read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	buf[0] = '\0';
	if (f && fgets(buf, (int)len, f))
		buf[strcspn(buf, "\n")] = '\0';
	if (f)
		fclose(f);
}

#define MAX_CPUS 1024

/* CPU list @list ("0-3,6") into @set. */
static void cpus_add_list(bool *set, const char *list)
{
	for (const char *p = list; *p;) {
		char *end;
		long a = strtol(p, &end, 10), b = a;

		if (end == p)
			break;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		for (long c = a; c <= b && c >= 0 && c < MAX_CPUS; c++)
			set[c] = true;
		p = *end == ',' ? end + 1 : end;
	}
}

/* A hex CPU mask as sysfs writes it ("00000000,0000000f") into @set. */
static void cpus_add_mask(bool *set, const char *mask)
{
	int cpu = 0;

	for (const char *p = mask + strlen(mask); p-- > mask;) {
		int v;

		if (*p == ',')
			continue;
		v = *p >= '0' && *p <= '9' ? *p - '0' : *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
			: *p >= 'A' && *p <= 'F' ? *p - 'A' + 10 : 0;
		for (int b = 0; b < 4 && cpu + b < MAX_CPUS; b++)
			if (v & (1 << b))
				set[cpu + b] = true;
		cpu += 4;
	}
}

/* @set as a CPU list ("0-1,3") into @buf; "" when empty. */
static const char *cpus_list(const bool *set, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (int c = 0; c < MAX_CPUS && n < len; c++) {
		int e = c;

		if (!set[c])
			continue;
		while (e + 1 < MAX_CPUS && set[e + 1])
			e++;
		n += (size_t)snprintf(buf + n, len - n, e > c ? "%s%d-%d" : "%s%d", n ? "," : "", c, e);
		c = e;
	}
	return buf;
}

/* Queues (/sys/class/net/DEV/queues) and each receive queue's RPS CPUs (a list; "" when
 * RPS is off), whose CPUs also run the receive path from the skb on (@rps). */
static void queues(json_t *r, const char *dev, bool *rps_set)
{
	char dir[PATH_MAX], path[PATH_MAX + 64], mask[128], list[256];
	json_t *q = json_object(), *rps = json_array();
	int rx;

	snprintf(dir, sizeof(dir), "/sys/class/net/%s/queues", dev);
	rx = count_prefixed(dir, "rx-");
	json_object_set_new(q, "rx", json_integer(rx));
	json_object_set_new(q, "tx", json_integer(count_prefixed(dir, "tx-")));
	for (int i = 0; i < rx; i++) {
		bool one[MAX_CPUS] = { false };

		snprintf(path, sizeof(path), "%s/rx-%d/rps_cpus", dir, i);
		read_line(path, mask, sizeof(mask));
		cpus_add_mask(one, mask);
		cpus_add_mask(rps_set, mask);
		cpus_list(one, list, sizeof(list));
		/* no RPS on the queue: null, not an empty list's "" */
		json_array_append_new(rps, list[0] ? json_string(list) : json_null());
	}
	json_object_set_new(q, "rps_cpus", rps);
	json_object_set_new(r, "queues", q);
}

/* The name /proc/interrupts gives IRQ @irq. */
static void irq_name(int irq, char *buf, size_t len)
{
	char line[1024], want[16];
	FILE *f = fopen("/proc/interrupts", "r");

	buf[0] = '\0';
	snprintf(want, sizeof(want), "%d:", irq);
	while (f && fgets(line, sizeof(line), f)) {
		char *p = line + strspn(line, " "), *last;

		if (strncmp(p, want, strlen(want)))
			continue;
		line[strcspn(line, "\n")] = '\0';
		last = strrchr(line, ' ');
		snprintf(buf, len, "%s", last ? last + 1 : "");
		break;
	}
	if (f)
		fclose(f);
}

/* The device's MSI IRQs (its device's msi_irqs, or its parent's: virtio-net's device is
 * the virtio one, its PCI function the parent), each with its name and CPUs; the
 * receive CPUs are those of the IRQs that are not for transmit or configuration. */
static int cmp_irq(const void *a, const void *b)
{
	return *(const int *)a - *(const int *)b;
}

static void irqs(json_t *r, const char *dev, const bool *rps_set)
{
	static const char *const where[] = { "device/msi_irqs", "device/../msi_irqs" };
	bool set[MAX_CPUS] = { false };
	char cpus_all[512];
	json_t *a = json_array();

	for (int w = 0; w < 2 && !json_array_size(a); w++) {
		char dir[PATH_MAX];
		DIR *d;
		struct dirent *de;

		int nums[256], n = 0;

		snprintf(dir, sizeof(dir), "/sys/class/net/%s/%s", dev, where[w]);
		d = opendir(dir);
		while (d && (de = readdir(d)))
			if (atoi(de->d_name) > 0 && n < 256)
				nums[n++] = atoi(de->d_name);
		if (d)
			closedir(d);
		qsort(nums, (size_t)n, sizeof(nums[0]), cmp_irq);
		for (int k = 0; k < n; k++) {
			int irq = nums[k];
			char path[128], name[256], cpus[256];

			irq_name(irq, name, sizeof(name));
			snprintf(path, sizeof(path), "/proc/irq/%d/effective_affinity_list", irq);
			read_line(path, cpus, sizeof(cpus));
			if (!cpus[0]) {
				snprintf(path, sizeof(path), "/proc/irq/%d/smp_affinity_list", irq);
				read_line(path, cpus, sizeof(cpus));
			}
			json_array_append_new(a, json_pack("{s:i, s:s, s:s}", "irq", irq, "name",
							   name, "cpus", cpus));
			/* not the transmit, configuration or management ones */
			if (!strstr(name, "output") && !strstr(name, "config") &&
			    !strstr(name, "-tx-") && !strstr(name, "async") && !strstr(name, "misc"))
				cpus_add_list(set, cpus);
		}
	}
	json_object_set_new(r, "irqs", a);
	for (int c = 0; c < MAX_CPUS; c++)
		set[c] |= rps_set[c];
	cpus_list(set, cpus_all, sizeof(cpus_all));
	if (cpus_all[0]) {
		json_object_set_new(r, "receive_cpus", json_string(cpus_all));
	} else {
		json_object_set_new(r, "receive_cpus", json_null());
		json_object_set_new(r, "receive_cpus_reason",
				    json_string("the device has no IRQ of its own (a software "
						"device: it receives on the sending CPU)"));
	}
}

/* Does a PMU count on @cpus (NULL: on every CPU), as doctor asks it (perf stat -C)? */
static void pmu(json_t *r, const char *cpus)
{
	char said[300], detail[400];
	bool ok = doctor_perf_counts(cpus ? cpus : "", said, sizeof(said));

	/* no receive CPUs known: asked of every CPU (perf stat -a), said so either way */
	snprintf(detail, sizeof(detail), "%s%s%s: %s",
		 ok ? "counts on " : cpus ? "does not count on " : "counts on no CPU",
		 ok && !cpus ? "every CPU" : cpus ? "CPUs " : "", cpus ? cpus : "", said);
	json_object_set_new(r, "pmu", json_pack("{s:b, s:s}", "ok", ok, "detail", detail));
}

/* What sits on the device's XDP and TC hooks now. */
static void hooks(json_t *r, const char *dev)
{
	static struct rx_path p;
	char err[256];
	json_t *a = json_array();

	if (rx_path_read(dev, &p, err, sizeof(err))) {
		json_object_set_new(r, "hooks_reason", json_string(err));
		p.n = 0;
	}
	for (int i = 0; i < p.n; i++)
		json_array_append_new(a, rx_occupant_json(&p.occ[i], false));
	json_object_set_new(r, "hooks", a);
}

/* Is @dev the default route's (/proc/net/route, /proc/net/ipv6_route)? */
static bool default_route(const char *dev)
{
	char line[512], ifc[IFNAMSIZ + 1], dst[64], mask[64], pfx[8];
	FILE *f = fopen("/proc/net/route", "r");
	unsigned int flags;
	bool yes = false;

	/* a route that is up and not a reject route (RTF_UP 0x1, RTF_REJECT 0x200: the
	 * kernel's "unreachable" default on lo is one) */
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%16s %63s %*s %X %*s %*s %*s %63s", ifc, dst, &flags, mask) == 4 &&
		    !strcmp(dst, "00000000") && !strcmp(mask, "00000000") && !strcmp(ifc, dev) &&
		    (flags & 0x1) && !(flags & 0x200))
			yes = true;
	if (f)
		fclose(f);
	f = fopen("/proc/net/ipv6_route", "r");
	while (f && fgets(line, sizeof(line), f)) {
		char *last = strrchr(line, ' ');

		line[strcspn(line, "\n")] = '\0';
		if (sscanf(line, "%63s %7s %*s %*s %*s %*s %*s %*s %X", dst, pfx, &flags) == 3 &&
		    !strcmp(pfx, "00") && !strcmp(dst, "00000000000000000000000000000000") && last &&
		    !strcmp(last + 1, dev) && (flags & 0x1) && !(flags & 0x200))
			yes = true;
	}
	if (f)
		fclose(f);
	return yes;
}

/* Is one of @dev's addresses the local end of a remote login: this shell's
 * (SSH_CONNECTION) or any established TCP connection to port 22 (/proc/net/tcp)? */
static bool remote_login(const char *dev)
{
	const char *ssh = getenv("SSH_CONNECTION");
	char here[INET6_ADDRSTRLEN] = "", line[512];
	struct ifaddrs *ifa, *i;
	bool yes = false;
	FILE *f;

	if (ssh)
		sscanf(ssh, "%*s %*s %45s", here);
	if (getifaddrs(&ifa))
		return false;
	for (i = ifa; i && !yes; i = i->ifa_next) {
		char a[INET6_ADDRSTRLEN] = "";
		unsigned int hex = 0;

		if (!i->ifa_addr || strcmp(i->ifa_name, dev))
			continue;
		if (i->ifa_addr->sa_family == AF_INET) {
			hex = ((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr;
			inet_ntop(AF_INET, &((struct sockaddr_in *)i->ifa_addr)->sin_addr, a, sizeof(a));
		} else if (i->ifa_addr->sa_family == AF_INET6) {
			inet_ntop(AF_INET6, &((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr, a,
				  sizeof(a));
		}
		if (here[0] && !strcmp(a, here))
			yes = true;
		f = hex ? fopen("/proc/net/tcp", "r") : NULL;
		while (f && !yes && fgets(line, sizeof(line), f)) {
			unsigned int la, lp, st;

			if (sscanf(line, " %*d: %8X:%4X %*8X:%*4X %2X", &la, &lp, &st) == 3 &&
			    la == hex && lp == 22 && st == 1)
				yes = true;
		}
		if (f)
			fclose(f);
		/* IPv6: /proc/net/tcp6's local address is the in6_addr's four 32-bit words,
		 * each as %08X of its host-order value */
		f = i->ifa_addr->sa_family == AF_INET6 ? fopen("/proc/net/tcp6", "r") : NULL;
		if (f) {
			const uint32_t *w = (const uint32_t *)
				&((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr;
			char want[40];

			snprintf(want, sizeof(want), "%08X%08X%08X%08X", w[0], w[1], w[2], w[3]);
			while (!yes && fgets(line, sizeof(line), f)) {
				char la[40];
				unsigned int lp, st;

				if (sscanf(line, " %*d: %32[0-9A-F]:%4X %*32[0-9A-F]:%*4X %2X", la, &lp,
					   &st) == 3 && !strcmp(la, want) && lp == 22 && st == 1)
					yes = true;
			}
			fclose(f);
		}
	}
	freeifaddrs(ifa);
	return yes;
}

/* The report, in this process, in the namespace it is in. */
static json_t *report_here(const char *netns, const char *dev, int *e, char *err, size_t errlen)
{
	int ifindex = (int)if_nametoindex(dev);
	json_t *r;
	bool route, login;

	if (!ifindex) {
		*e = -ENODEV;
		snprintf(err, errlen, "no device '%s'%s%s", dev, netns ? " in namespace " : "",
			 netns ? netns : "");
		return NULL;
	}
	r = json_object();
	json_object_set_new(r, "dev", json_string(dev));
	json_object_set_new(r, "netns", netns ? json_string(netns) : json_null());
	json_object_set_new(r, "ifindex", json_integer(ifindex));
	driver_info(r, dev);
	xdp_features(r, ifindex);
	{
		static bool rps_set[MAX_CPUS];

		memset(rps_set, 0, sizeof(rps_set));
		queues(r, dev, rps_set);
		irqs(r, dev, rps_set);
	}
	pmu(r, json_string_value(json_object_get(r, "receive_cpus")));
	hooks(r, dev);
	route = default_route(dev);
	login = remote_login(dev);
	json_object_set_new(r, "default_route", json_boolean(route));
	json_object_set_new(r, "remote_login", json_boolean(login));
	if (route || login) {
		char s[512];

		snprintf(s, sizeof(s), "%s carries %s%s%s: on some drivers an XDP attach "
			 "reconfigures the queues and the link goes down for a moment, which "
			 "cuts what runs over it", dev,
			 route ? "the default route" : "", route && login ? " and " : "",
			 login ? "a remote login to this machine" : "");
		json_object_set_new(r, "attach_warning", json_string(s));
	} else {
		json_object_set_new(r, "attach_warning", json_null());
	}
	return r;
}

json_t *dev_report(const char *netns, const char *dev, int *e, char *err, size_t errlen)
{
	int fds[2], st = 0;
	pid_t pid;
	json_t *r;
	json_error_t jerr;
	FILE *in;

	*e = 0;
	if (!netns || !*netns)
		return report_here(NULL, dev, e, err, errlen);
	/* another namespace: a child enters it and mounts a sysfs of its own there, as `ip
	 * netns exec` does, so that /sys/class/net is that namespace's */
	if (pipe2(fds, O_CLOEXEC))
		return NULL;
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		return NULL;
	if (pid == 0) {
		int saved, ce = 0;
		char cerr[256] = "";
		json_t *cr = NULL;

		close(fds[0]);
		if (netns_enter(netns, &saved)) {
			snprintf(cerr, sizeof(cerr), "no namespace '%s'", netns);
			ce = -ENOENT;
		} else if (unshare(CLONE_NEWNS) || mount("", "/", NULL, MS_SLAVE | MS_REC, NULL) ||
			   (umount2("/sys", MNT_DETACH), mount("sysfs", "/sys", "sysfs", 0, NULL))) {
			snprintf(cerr, sizeof(cerr), "cannot mount a sysfs for namespace %s: %s", netns,
				 strerror(errno));
			ce = -EIO;
		} else {
			cr = report_here(netns, dev, &ce, cerr, sizeof(cerr));
		}
		if (!cr)
			cr = json_pack("{s:i, s:s}", "error_code", ce, "error", cerr);
		in = fdopen(fds[1], "w");
		if (in) {
			json_dumpf(cr, in, JSON_COMPACT);
			fclose(in);
		}
		_exit(0);
	}
	close(fds[1]);
	in = fdopen(fds[0], "r");
	r = in ? json_loadf(in, 0, &jerr) : NULL;
	if (in)
		fclose(in);
	else
		close(fds[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (r && json_object_get(r, "error")) {
		*e = (int)json_integer_value(json_object_get(r, "error_code"));
		snprintf(err, errlen, "%s", json_string_value(json_object_get(r, "error")));
		json_decref(r);
		return NULL;
	}
	if (!r)
		snprintf(err, errlen, "the report from namespace %s could not be read", netns);
	return r;
}

static const char *str(const json_t *o, const char *k, const char *dflt)
{
	const char *s = json_string_value(json_object_get(o, k));

	return s ? s : dflt;
}

void dev_report_print(const json_t *r, FILE *out)
{
	const json_t *q = json_object_get(r, "queues"), *x, *v;
	const json_t *native = json_object_get(r, "xdp_native");
	size_t i;

	fprintf(out, "device %s%s%s (ifindex %lld)\n", str(r, "dev", "?"),
		json_is_string(json_object_get(r, "netns")) ? " in namespace " : "",
		str(r, "netns", ""), json_integer_value(json_object_get(r, "ifindex")));
	if (json_is_string(json_object_get(r, "driver")))
		fprintf(out, "  driver:        %s %s%s%s\n", str(r, "driver", "?"),
			str(r, "driver_version", ""), str(r, "bus_info", "")[0] ? ", bus " : "",
			str(r, "bus_info", ""));
	else
		fprintf(out, "  driver:        unknown (ETHTOOL_GDRVINFO: %s)\n",
			str(r, "driver_reason", "?"));
	fprintf(out, "  native XDP:    %s", json_is_true(native) ? "yes" : json_is_false(native)
		? "no" : "unknown");
	json_array_foreach(json_object_get(r, "xdp_features"), i, v)
		fprintf(out, "%s%s", i ? ", " : " (xdp-features: ", json_string_value(v));
	fprintf(out, "%s%s%s%s%s%s\n", json_array_size(json_object_get(r, "xdp_features")) ? ")" : "",
		str(r, "xdp_native_reason", "")[0] ? "; " : "", str(r, "xdp_native_reason", ""),
		json_is_false(native) ? ": xdpdrv is refused, xdpgeneric, tc and tcx run" : "",
		str(r, "xdp_native_note", "")[0] ? "; " : "", str(r, "xdp_native_note", ""));
	fprintf(out, "  queues:        %lld rx, %lld tx", json_integer_value(json_object_get(q, "rx")),
		json_integer_value(json_object_get(q, "tx")));
	json_array_foreach(json_object_get(q, "rps_cpus"), i, v)
		if (json_string_value(v) && json_string_value(v)[0])
			fprintf(out, "; rx-%zu RPS to CPU %s", i, json_string_value(v));
	fprintf(out, "\n  IRQs:          ");
	json_array_foreach(json_object_get(r, "irqs"), i, x)
		fprintf(out, "%s%lld %s on CPU %s", i ? "; " : "",
			json_integer_value(json_object_get(x, "irq")), str(x, "name", "?"),
			str(x, "cpus", "?"));
	fprintf(out, "%s\n", json_array_size(json_object_get(r, "irqs")) ? "" : "none");
	if (json_is_string(json_object_get(r, "receive_cpus")))
		fprintf(out, "  receive CPUs:  CPU %s (its receive IRQs' and RPS's)\n",
			str(r, "receive_cpus", "?"));
	else
		fprintf(out, "  receive CPUs:  %s\n", str(r, "receive_cpus_reason", "unknown"));
	fprintf(out, "  PMU:           %s\n", str(json_object_get(r, "pmu"), "detail", "?"));
	fprintf(out, "  receive hooks: ");
	json_array_foreach(json_object_get(r, "hooks"), i, x)
		fprintf(out, "%s%s", i ? "; " : "", str(x, "what", "?"));
	fprintf(out, "%s\n", json_array_size(json_object_get(r, "hooks")) ? ""
		: str(r, "hooks_reason", "free (no XDP program, no tcx ingress program, no "
				 "ingress qdisc filter)"));
	fprintf(out, "  carries:       %s%s\n", str(r, "attach_warning",
						    "neither the default route nor a remote login"),
		json_is_string(json_object_get(r, "attach_warning"))
			? " (`xdptc attach` does not check this; `xdptc run --topology dev` refuses it "
			  "unless allowed)" : "");
}
