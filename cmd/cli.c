/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cli.c: what the xdptc commands share (see cli.h). */
#include <dirent.h>
#include <errno.h>
#include <linux/capability.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "netns.h"
#include "run.h"
#include "self_exe.h"

#include "cli.h"

/* where `make install` put xdptc (Makefile: PREFIX, compiled in as -DXDPTC_PREFIX) */
#ifndef XDPTC_PREFIX
#define XDPTC_PREFIX "/usr/local"
#endif

#ifndef CAP_BPF
#define CAP_BPF 39
#endif

int verbose;

/* ---- privilege ---- */

int check_privilege(void)
{
	struct __user_cap_header_struct hdr = { .version = _LINUX_CAPABILITY_VERSION_3 };
	struct __user_cap_data_struct data[2];
	unsigned int need[] = { CAP_BPF, CAP_NET_ADMIN, CAP_SYS_ADMIN };

	if (geteuid() == 0)
		return 0;
	memset(data, 0, sizeof(data));
	if (!syscall(SYS_capget, &hdr, data)) {
		int ok = 1;

		for (size_t i = 0; i < sizeof(need) / sizeof(need[0]); i++)
			if (!(data[need[i] / 32].effective & (1u << (need[i] % 32))))
				ok = 0;
		if (ok)
			return 0;
	}
	fprintf(stderr, "xdptc: this command needs root (or CAP_BPF, CAP_NET_ADMIN and "
			"CAP_SYS_ADMIN); run it with sudo.\n");
	return 1;
}

/* ---- namespace and device checks with the valid choices ---- */

void list_netns(FILE *f)
{
	DIR *d = opendir("/run/netns");
	struct dirent *de;
	int n = 0;

	fprintf(f, "existing namespaces:");
	while (d && (de = readdir(d)))
		if (de->d_name[0] != '.')
			fprintf(f, "%s %s", n++ ? "," : "", de->d_name);
	fprintf(f, "%s\n", n ? "" : " (none)");
	if (d)
		closedir(d);
}

void list_devs(FILE *f)
{
	struct if_nameindex *ifs = if_nameindex(), *i;
	int n = 0;

	fprintf(f, "devices there:");
	for (i = ifs; i && i->if_index; i++)
		fprintf(f, "%s %s", n++ ? "," : "", i->if_name);
	fprintf(f, "\n");
	if (ifs)
		if_freenameindex(ifs);
}

/* Check the privilege, enter @netns (NULL: stay) and check @dev exists there. Exit status
 * on failure. */
int enter_and_check(const char *netns, const char *dev, int *saved)
{
	int e = check_privilege();

	if (e)
		return e;
	e = netns_enter(netns, saved);

	if (e == -ENOENT) {
		fprintf(stderr, "xdptc: no network namespace '%s'; ", netns);
		list_netns(stderr);
		return EXIT_USAGE;
	}
	if (e) {
		fprintf(stderr, "xdptc: cannot enter namespace '%s': %s\n", netns, strerror(-e));
		return 1;
	}
	if (dev && !if_nametoindex(dev)) {
		fprintf(stderr, "xdptc: no device '%s' in %s%s; ", dev,
			netns ? "namespace " : "the current namespace", netns ? netns : "");
		list_devs(stderr);
		netns_return(*saved);
		return EXIT_USAGE;
	}
	return 0;
}

int bad_mode(const char *s)
{
	fprintf(stderr, "xdptc: unknown mode '%s'; choose one of: %s\n", s, drop_mode_choices());
	return EXIT_USAGE;
}

int bad_port(const char *s)
{
	fprintf(stderr, "xdptc: port '%s' is outside 1-65535\n", s);
	return EXIT_USAGE;
}

int bad_value(const char *opt, const char *s, const char *what)
{
	fprintf(stderr, "xdptc: %s '%s': expected %s\n", opt, s, what);
	return EXIT_USAGE;
}

int need_opt(const char *cmd, const char *opt)
{
	fprintf(stderr, "xdptc %s: %s %s required (see 'xdptc %s --help')\n", cmd, opt,
		strstr(opt, " and ") || !strncmp(opt, "two ", 4) ? "are" : "is", cmd);
	return EXIT_USAGE;
}

int topologies_dir_for(const char *env, const char *exe, const char *prefix, char *buf,
		       size_t len)
{
	char dir[PATH_MAX], probe[PATH_MAX + 32];
	const char *slash = exe ? strrchr(exe, '/') : NULL;

	if (env && *env)
		return snprintf(buf, len, "%s", env), TOPODIR_ENV;
	if (slash) { /* a checkout's build/xdptc: its scripts in the checkout's topologies/ */
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - exe), exe);
		snprintf(probe, sizeof(probe), "%s/../topologies/lib.sh", dir);
		if (!access(probe, R_OK))
			return snprintf(buf, len, "%s/../topologies", dir), TOPODIR_CHECKOUT;
	}
	snprintf(buf, len, "%s/share/xdptc/topologies", prefix);
	return TOPODIR_PREFIX;
}

void default_topologies_dir(char *buf, size_t len)
{
	char exe[PATH_MAX - 32];

	topologies_dir_for(getenv("XDPTC_TOPOLOGIES"), self_exe(exe, sizeof(exe)) ? NULL : exe,
			   XDPTC_PREFIX, buf, len);
}
