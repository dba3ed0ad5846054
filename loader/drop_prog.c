/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "drop_prog.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf_log.h"
#include "netns.h"
#include "tc_drop.skel.h"
#include "xdp_drop.skel.h"

static const char *const mode_names[MODE_NR] = {
	[MODE_NONE] = "none",
	[MODE_XDPDRV] = "xdpdrv",
	[MODE_XDPGENERIC] = "xdpgeneric",
	[MODE_TC] = "tc",
	[MODE_TCX] = "tcx",
};

const char *drop_mode_name(enum drop_mode mode)
{
	return mode < MODE_NR ? mode_names[mode] : "?";
}

int drop_mode_parse(const char *s, enum drop_mode *out)
{
	for (int m = 0; m < MODE_NR; m++) {
		if (s && !strcmp(s, mode_names[m])) {
			*out = (enum drop_mode)m;
			return 0;
		}
	}
	return -EINVAL;
}

const char *drop_mode_choices(void)
{
	return "none, xdpdrv, xdpgeneric, tc, tcx";
}

static __u32 xdp_flags_for(enum drop_mode mode)
{
	return mode == MODE_XDPDRV ? XDP_FLAGS_DRV_MODE : XDP_FLAGS_SKB_MODE;
}

static void clsact_marker_path(int ifindex, char *buf, size_t len)
{
	snprintf(buf, len, XDPTC_STATE_DIR "/clsact-%u-%d", netns_current_ino(), ifindex);
}

static void clsact_marker_set(int ifindex, bool on)
{
	char path[128];
	int fd;

	clsact_marker_path(ifindex, path, sizeof(path));
	if (!on) {
		unlink(path);
		return;
	}
	mkdir(XDPTC_STATE_DIR, 0755);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}

static bool clsact_marker_get(int ifindex)
{
	char path[128];

	clsact_marker_path(ifindex, path, sizeof(path));
	return access(path, F_OK) == 0;
}

/* Is @ino the inode of a network namespace some task or /run/netns name holds? */
static bool netns_ino_live(unsigned long ino)
{
	const char *dirs[] = { "/proc", "/run/netns" };
	bool live = false;

	for (size_t d = 0; d < 2 && !live; d++) {
		DIR *dir = opendir(dirs[d]);
		struct dirent *de;

		while (dir && !live && (de = readdir(dir))) {
			char path[300];
			struct stat st;

			if (de->d_name[0] == '.' || (d == 0 && !isdigit((unsigned char)de->d_name[0])))
				continue;
			snprintf(path, sizeof(path), d == 0 ? "/proc/%s/ns/net" : "/run/netns/%s",
				 de->d_name);
			live = !stat(path, &st) && st.st_ino == ino;
		}
		if (dir)
			closedir(dir);
	}
	return live;
}

int clsact_markers_prune(void)
{
	static const char *const dirs[2] = { XDPTC_STATE_DIR, XDPTC_BPFFS };
	static const char *const fmts[2] = { "clsact-%lu-%d", "tcx-%lu-%d" };
	int removed = 0;

	for (int i = 0; i < 2; i++) {
		DIR *dir = opendir(dirs[i]);
		struct dirent *de;

		while (dir && (de = readdir(dir))) {
			unsigned long ino;
			int ifindex;
			char path[300];

			if (sscanf(de->d_name, fmts[i], &ino, &ifindex) != 2 || netns_ino_live(ino))
				continue;
			snprintf(path, sizeof(path), "%s/%s", dirs[i], de->d_name);
			removed += unlink(path) == 0;
		}
		if (dir)
			closedir(dir);
	}
	rmdir(XDPTC_BPFFS); /* only when empty */
	return removed;
}

static void set_err(char *err, size_t errlen, const char *what, int e)
{
	const char *kern = bpf_log_last();

	if (*kern)
		snprintf(err, errlen, "%s: %s (kernel: %s)", what, strerror(-e), kern);
	else
		snprintf(err, errlen, "%s: %s", what, strerror(-e));
}

static int attach_xdp(struct drop_attachment *a, uint16_t port, char *err, size_t errlen)
{
	struct xdp_drop_bpf *skel = xdp_drop_bpf__open();
	int e;

	if (!skel) {
		e = -errno;
		set_err(err, errlen, "opening the XDP program failed", e);
		return e;
	}
	skel->rodata->drop_port = port;
	e = xdp_drop_bpf__load(skel);
	if (e) {
		set_err(err, errlen, "loading the XDP program failed", e);
		xdp_drop_bpf__destroy(skel);
		return e;
	}
	a->prog_fd = bpf_program__fd(skel->progs.xdp_drop);
	e = bpf_xdp_attach(a->ifindex, a->prog_fd,
			   xdp_flags_for(a->mode) | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL);
	if (e) {
		set_err(err, errlen,
			a->mode == MODE_XDPDRV
				? "native XDP (xdpdrv) attach refused; not falling back to generic"
				: "generic XDP (xdpgeneric) attach refused",
			e);
		xdp_drop_bpf__destroy(skel);
		return e;
	}
	a->verdicts_fd = bpf_map__fd(skel->maps.verdicts);
	a->skel = skel;
	return 0;
}

/* Open the TC program with UDP port @port, load it for @attach_type (0: cls_bpf,
 * BPF_TCX_INGRESS: tcx). Returns the skeleton, or NULL with a sentence in @err and *@e. */
static struct tc_drop_bpf *load_tc_prog(uint16_t port, enum bpf_attach_type attach_type,
					char *err, size_t errlen, int *e)
{
	struct tc_drop_bpf *skel = tc_drop_bpf__open();

	if (!skel) {
		*e = -errno;
		set_err(err, errlen, "opening the TC program failed", *e);
		return NULL;
	}
	skel->rodata->drop_port = port;
	if (attach_type)
		bpf_program__set_expected_attach_type(skel->progs.tc_drop, attach_type);
	*e = tc_drop_bpf__load(skel);
	if (*e) {
		set_err(err, errlen, "loading the TC program failed", *e);
		tc_drop_bpf__destroy(skel);
		return NULL;
	}
	return skel;
}

static int attach_tc(struct drop_attachment *a, uint16_t port, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = XDPTC_TC_HANDLE, .priority = XDPTC_TC_PRIO);
	int e;
	struct tc_drop_bpf *skel = load_tc_prog(port, 0, err, errlen, &e);

	if (!skel)
		return e;
	e = bpf_tc_hook_create(&hook);
	if (e && e != -EEXIST) {
		set_err(err, errlen, "creating the clsact qdisc failed", e);
		tc_drop_bpf__destroy(skel);
		return e;
	}
	a->created_clsact = (e == 0);
	if (a->created_clsact)
		clsact_marker_set(a->ifindex, true);
	a->prog_fd = bpf_program__fd(skel->progs.tc_drop);
	opts.prog_fd = a->prog_fd;
	/* BPF_TC_F_REPLACE unset: an existing xdptc filter makes this fail with EEXIST */
	e = bpf_tc_attach(&hook, &opts);
	if (e) {
		set_err(err, errlen, "attaching the cls_bpf filter to clsact ingress failed", e);
		if (a->created_clsact) {
			hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
			bpf_tc_hook_destroy(&hook);
			clsact_marker_set(a->ifindex, false);
		}
		tc_drop_bpf__destroy(skel);
		return e;
	}
	a->verdicts_fd = bpf_map__fd(skel->maps.verdicts);
	a->skel = skel;
	return 0;
}

static void tcx_pin_path(int ifindex, char *buf, size_t len)
{
	snprintf(buf, len, XDPTC_BPFFS "/tcx-%u-%d", netns_current_ino(), ifindex);
}

static int attach_tcx(struct drop_attachment *a, uint16_t port, char *err, size_t errlen)
{
	struct bpf_link *link;
	int e;
	struct tc_drop_bpf *skel = load_tc_prog(port, BPF_TCX_INGRESS, err, errlen, &e);

	if (!skel)
		return e;
	link = bpf_program__attach_tcx(skel->progs.tc_drop, a->ifindex, NULL);
	if (!link) {
		e = -errno;
		set_err(err, errlen, "attaching to tcx ingress failed (kernel 6.6 or newer needed)", e);
		tc_drop_bpf__destroy(skel);
		return e;
	}
	a->link = link;
	a->prog_fd = bpf_program__fd(skel->progs.tc_drop);
	a->verdicts_fd = bpf_map__fd(skel->maps.verdicts);
	a->skel = skel;
	return 0;
}

static uint32_t prog_id_of(int prog_fd)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_prog_get_info_by_fd(prog_fd, &info, &len))
		return 0;
	return info.id;
}

int drop_attach(const char *ifname, enum drop_mode mode, uint16_t port,
		struct drop_attachment *out, char *err, size_t errlen)
{
	int e;

	memset(out, 0, sizeof(*out));
	out->mode = mode;
	out->prog_fd = -1;
	out->verdicts_fd = -1;
	out->ifindex = (int)if_nametoindex(ifname);
	if (!out->ifindex) {
		snprintf(err, errlen, "no device '%s' in this network namespace", ifname);
		return -ENODEV;
	}
	if (mode >= MODE_NR) {
		snprintf(err, errlen, "unknown mode; choose one of: %s", drop_mode_choices());
		return -EINVAL;
	}
	bpf_log_clear();
	switch (mode) {
	case MODE_NONE:
		return 0;
	case MODE_XDPDRV:
	case MODE_XDPGENERIC:
		e = attach_xdp(out, port, err, errlen);
		break;
	case MODE_TCX: {
		/* tcx takes several programs per hook: refuse a second xdptc one, as tc does */
		struct drop_status st;

		if (!drop_query(ifname, &st) && st.tcx_prog_id) {
			snprintf(err, errlen, "an xdptc program (id %u) is already attached to tcx "
					      "ingress of '%s'; detach it first", st.tcx_prog_id, ifname);
			return -EEXIST;
		}
		e = attach_tcx(out, port, err, errlen);
		break;
	}
	default:
		e = attach_tc(out, port, err, errlen);
		break;
	}
	if (!e)
		out->prog_id = prog_id_of(out->prog_fd);
	return e;
}

static void destroy_skel(struct drop_attachment *a)
{
	if (!a->skel)
		return;
	if (a->mode == MODE_TC || a->mode == MODE_TCX)
		tc_drop_bpf__destroy(a->skel);
	else
		xdp_drop_bpf__destroy(a->skel);
	a->skel = NULL;
	a->prog_fd = -1;
	a->verdicts_fd = -1;
}

void drop_release(struct drop_attachment *a)
{
	if (a->link) { /* keep the tcx link: pin it where detach will find it */
		char path[128];

		if (access(XDPTC_BPFFS, F_OK)) {
			/* a freshly booted machine may have no bpffs: mount it, and say so */
			if (access("/sys/fs/bpf", F_OK))
				fprintf(stderr, "xdptc: no /sys/fs/bpf to mount bpffs on\n");
			else if (system("mountpoint -q /sys/fs/bpf") != 0) {
				if (system("mount -t bpf bpf /sys/fs/bpf"))
					fprintf(stderr, "xdptc: cannot mount bpffs on /sys/fs/bpf\n");
				else
					fprintf(stderr, "xdptc: mounted bpffs on /sys/fs/bpf (it was not "
							"mounted) to pin the tcx link\n");
			}
			mkdir(XDPTC_BPFFS, 0700);
		}
		tcx_pin_path(a->ifindex, path, sizeof(path));
		if (bpf_link__pin(a->link, path))
			fprintf(stderr, "xdptc: pinning the tcx link at %s failed: %s (it goes with "
					"this process)\n", path, strerror(errno));
		bpf_link__destroy(a->link); /* a pinned link stays attached */
		a->link = NULL;
	}
	destroy_skel(a);
}

static int detach_tc_filter(int ifindex, bool destroy_clsact)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, opts, .handle = XDPTC_TC_HANDLE, .priority = XDPTC_TC_PRIO);
	int e = bpf_tc_detach(&hook, &opts);

	if (destroy_clsact) {
		hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		int e2 = bpf_tc_hook_destroy(&hook);

		if (!e2 || e2 == -ENOENT || e2 == -EINVAL)
			clsact_marker_set(ifindex, false);
		if (!e)
			e = e2;
	}
	return e;
}

int drop_detach(struct drop_attachment *a)
{
	int e = 0;

	switch (a->mode) {
	case MODE_XDPDRV:
	case MODE_XDPGENERIC: {
		LIBBPF_OPTS(bpf_xdp_attach_opts, xo, .old_prog_fd = a->prog_fd);
		e = bpf_xdp_detach(a->ifindex, xdp_flags_for(a->mode) | XDP_FLAGS_REPLACE, &xo);
		break;
	}
	case MODE_TC:
		e = detach_tc_filter(a->ifindex, a->created_clsact);
		break;
	case MODE_TCX:
		e = bpf_link__destroy(a->link); /* unpinned: detaches */
		a->link = NULL;
		break;
	default:
		break;
	}
	destroy_skel(a);
	return e;
}

static void prog_name_of(uint32_t id, char *name, size_t len)
{
	struct bpf_prog_info info;
	__u32 ilen = sizeof(info);
	int fd = bpf_prog_get_fd_by_id(id);

	name[0] = '\0';
	if (fd < 0)
		return;
	memset(&info, 0, sizeof(info));
	if (!bpf_prog_get_info_by_fd(fd, &info, &ilen))
		snprintf(name, len, "%s", info.name);
	close(fd);
}

int drop_query(const char *ifname, struct drop_status *st)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, xq);
	int e;

	memset(st, 0, sizeof(*st));
	st->ifindex = (int)if_nametoindex(ifname);
	if (!st->ifindex)
		return -ENODEV;
	e = bpf_xdp_query(st->ifindex, 0, &xq);
	if (e)
		return e;
	if (xq.attach_mode == XDP_ATTACHED_DRV || xq.attach_mode == XDP_ATTACHED_SKB) {
		st->xdp_prog_id = xq.prog_id;
		st->xdp_mode = xq.attach_mode == XDP_ATTACHED_DRV ? MODE_XDPDRV : MODE_XDPGENERIC;
		prog_name_of(st->xdp_prog_id, st->xdp_prog_name, sizeof(st->xdp_prog_name));
	}
	{
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = st->ifindex,
			    .attach_point = BPF_TC_INGRESS);
		LIBBPF_OPTS(bpf_tc_opts, to, .handle = XDPTC_TC_HANDLE,
			    .priority = XDPTC_TC_PRIO);

		if (!bpf_tc_query(&hook, &to)) {
			st->tc_prog_id = to.prog_id;
			prog_name_of(st->tc_prog_id, st->tc_prog_name,
				     sizeof(st->tc_prog_name));
		}
	}
	{
		LIBBPF_OPTS(bpf_prog_query_opts, q);
		__u32 ids[16];
		char path[128], name[17];

		q.prog_ids = ids;
		q.count = 16;
		if (!bpf_prog_query_opts(st->ifindex, BPF_TCX_INGRESS, &q))
			for (__u32 i = 0; i < q.count && i < 16; i++) {
				prog_name_of(ids[i], name, sizeof(name));
				if (!strcmp(name, "tc_drop"))
					st->tcx_prog_id = ids[i];
			}
		tcx_pin_path(st->ifindex, path, sizeof(path));
		st->tcx_pinned = access(path, F_OK) == 0;
	}
	st->clsact_marker = clsact_marker_get(st->ifindex);
	return 0;
}

int drop_detach_dev(const char *ifname, enum drop_mode mode, char *err, size_t errlen)
{
	struct drop_status st;
	int e = drop_query(ifname, &st);

	if (e) {
		snprintf(err, errlen, "cannot query '%s': %s", ifname, strerror(-e));
		return e;
	}
	err[0] = '\0';
	if (st.xdp_prog_id && (mode == MODE_NR || mode == st.xdp_mode)) {
		if (strcmp(st.xdp_prog_name, "xdp_drop")) {
			snprintf(err, errlen,
				 "the XDP program on '%s' (id %u, '%s') is not xdptc's; left alone",
				 ifname, st.xdp_prog_id, st.xdp_prog_name);
			return -EBUSY;
		}
		e = bpf_xdp_detach(st.ifindex, xdp_flags_for(st.xdp_mode), NULL);
		if (e) {
			snprintf(err, errlen, "XDP detach from '%s' failed: %s", ifname,
				 strerror(-e));
			return e;
		}
	}
	if ((mode == MODE_NR || mode == MODE_TCX) && st.tcx_pinned) {
		char path[128];

		tcx_pin_path(st.ifindex, path, sizeof(path));
		if (unlink(path)) { /* the last reference to the link: it detaches */
			snprintf(err, errlen, "tcx detach from '%s' failed: %s", ifname, strerror(errno));
			return -errno;
		}
	}
	if (mode == MODE_NR || mode == MODE_TC) {
		if (st.tc_prog_id || st.clsact_marker) {
			e = detach_tc_filter(st.ifindex, st.clsact_marker);
			if (e && e != -ENOENT) {
				snprintf(err, errlen, "TC detach from '%s' failed: %s", ifname,
					 strerror(-e));
				return e;
			}
		}
	}
	return 0;
}

int verdicts_read_fd(int map_fd, uint64_t out[VERDICT_NR])
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t *vals;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (uint32_t k = 0; k < VERDICT_NR; k++) {
		if (bpf_map_lookup_elem(map_fd, &k, vals)) {
			int e = -errno;

			free(vals);
			return e;
		}
		out[k] = 0;
		for (int c = 0; c < ncpu; c++)
			out[k] += vals[c];
	}
	free(vals);
	return 0;
}

int verdicts_read_prog(uint32_t prog_id, uint64_t out[VERDICT_NR])
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info), map_ids[8];
	int fd = bpf_prog_get_fd_by_id(prog_id), e = -ENOENT;

	if (fd < 0)
		return -errno;
	memset(&info, 0, sizeof(info));
	info.nr_map_ids = 8;
	info.map_ids = (__u64)(unsigned long)map_ids;
	if (bpf_prog_get_info_by_fd(fd, &info, &len)) {
		e = -errno;
		close(fd);
		return e;
	}
	close(fd);
	for (__u32 i = 0; i < info.nr_map_ids && i < 8; i++) {
		struct bpf_map_info mi;
		__u32 mlen = sizeof(mi);
		int mfd = bpf_map_get_fd_by_id(map_ids[i]);

		if (mfd < 0)
			continue;
		memset(&mi, 0, sizeof(mi));
		if (!bpf_map_get_info_by_fd(mfd, &mi, &mlen) &&
		    !strcmp(mi.name, DROP_VERDICTS_MAP_NAME)) {
			e = verdicts_read_fd(mfd, out);
			close(mfd);
			return e;
		}
		close(mfd);
	}
	return e;
}

int prog_run_stats(int prog_fd, uint64_t *run_time_ns, uint64_t *run_cnt)
{
	struct bpf_prog_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	if (bpf_prog_get_info_by_fd(prog_fd, &info, &len))
		return -errno;
	*run_time_ns = info.run_time_ns;
	*run_cnt = info.run_cnt;
	return 0;
}
