/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "drop_prog.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <linux/if_link.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bpf_log.h"
#include "netns.h"
#include "percpu_array.h"
#include "rx_path.h"
#include "netkit_drop.skel.h"
#include "tc_drop.skel.h"
#include "xdp_drop.skel.h"

static __u32 xdp_flags_for(enum drop_mode mode)
{
	return mode == MODE_XDPDRV ? XDP_FLAGS_DRV_MODE : XDP_FLAGS_SKB_MODE;
}

static void set_err(char *err, size_t errlen, const char *what, int e)
{
	const char *kern = bpf_log_last();

	if (*kern)
		snprintf(err, errlen, "%s: %s (kernel: %s)", what, strerror(-e), kern);
	else
		snprintf(err, errlen, "%s: %s", what, strerror(-e));
}

/* Id and tag of @prog_fd into @a. */
static void prog_identity(int prog_fd, struct drop_attachment *a)
{
	char name[17];

	rx_prog_ident_fd(prog_fd, &a->prog_id, name, a->prog_tag);
}

static uint32_t link_id_of(int link_fd)
{
	struct bpf_link_info info;
	__u32 len = sizeof(info);

	memset(&info, 0, sizeof(info));
	return bpf_link_get_info_by_fd(link_fd, &info, &len) ? 0 : info.id;
}

/* An attach succeeded: @a keeps the skeleton @skel and its verdicts map @verdicts_fd
 * until drop_detach. Returns 0. */
static int keep_attachment(struct drop_attachment *a, void *skel, int verdicts_fd)
{
	a->verdicts_fd = verdicts_fd;
	a->skel = skel;
	return 0;
}

static int attach_xdp(struct drop_attachment *a, uint16_t port, char *err, size_t errlen)
{
	LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = xdp_flags_for(a->mode));
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
	/* a BPF link: it never replaces a program attached meanwhile (the kernel refuses
	 * with EBUSY), and it detaches when its last reference goes */
	a->link_fd = bpf_link_create(a->prog_fd, a->ifindex, BPF_XDP, &lo);
	if (a->link_fd < 0) {
		e = a->link_fd;
		a->link_fd = -1;
		/* the kernel gives a link's refusal no words (its extack goes to a tracepoint);
		 * the same attach through netlink, which cannot replace anything
		 * (UPDATE_IF_NOEXIST), makes it say why; should it succeed, it is undone */
		if (e != -EBUSY && e != -EEXIST) {
			LIBBPF_OPTS(bpf_xdp_attach_opts, xo, .old_prog_fd = a->prog_fd);

			bpf_log_clear();
			if (!bpf_xdp_attach(a->ifindex, a->prog_fd,
					    xdp_flags_for(a->mode) | XDP_FLAGS_UPDATE_IF_NOEXIST, NULL))
				bpf_xdp_detach(a->ifindex, xdp_flags_for(a->mode) | XDP_FLAGS_REPLACE,
					       &xo);
		}
		set_err(err, errlen,
			a->mode == MODE_XDPDRV
				? "native XDP (xdpdrv) attach refused; not falling back to generic"
				: "generic XDP (xdpgeneric) attach refused",
			e);
		xdp_drop_bpf__destroy(skel);
		a->prog_fd = -1;
		return e;
	}
	return keep_attachment(a, skel, bpf_map__fd(skel->maps.verdicts));
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
	a->prog_fd = bpf_program__fd(skel->progs.tc_drop);
	a->tc_handle = XDPTC_TC_HANDLE;
	a->tc_prio = XDPTC_TC_PRIO;
	opts.prog_fd = a->prog_fd;
	/* BPF_TC_F_REPLACE unset: a filter at this place already makes this fail (EEXIST) */
	e = bpf_tc_attach(&hook, &opts);
	if (e) {
		set_err(err, errlen, "attaching the cls_bpf filter to clsact ingress failed", e);
		if (a->created_clsact && drop_clsact_filters(if_indextoname((unsigned)a->ifindex,
									     a->dev)) == 0) {
			hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
			bpf_tc_hook_destroy(&hook);
		}
		a->created_clsact = false;
		tc_drop_bpf__destroy(skel);
		a->prog_fd = -1;
		return e;
	}
	return keep_attachment(a, skel, bpf_map__fd(skel->maps.verdicts));
}

/* The netkit program for UDP port @port, loaded (BPF_NETKIT_PEER, from its section), and
 * linked as the peer's program of the netkit device @a->ifindex (its primary). */
static int attach_netkit(struct drop_attachment *a, uint16_t port, char *err, size_t errlen)
{
	struct netkit_drop_bpf *skel = netkit_drop_bpf__open();
	int e;

	if (!skel) {
		e = -errno;
		set_err(err, errlen, "opening the netkit program failed", e);
		return e;
	}
	skel->rodata->drop_port = port;
	if ((e = netkit_drop_bpf__load(skel))) {
		set_err(err, errlen, "loading the netkit program failed", e);
		netkit_drop_bpf__destroy(skel);
		return e;
	}
	a->prog_fd = bpf_program__fd(skel->progs.netkit_drop);
	/* appended after every program already there: drop_attach refused those */
	a->link_fd = bpf_link_create(a->prog_fd, a->ifindex, BPF_NETKIT_PEER, NULL);
	if (a->link_fd < 0) {
		e = a->link_fd;
		a->link_fd = -1;
		set_err(err, errlen, e == -ENXIO ? "attaching as netkit peer failed: the device is "
				     "no netkit" : e == -EACCES ? "attaching as netkit peer failed: "
				     "the device is a netkit peer, not its primary"
				     : "attaching as netkit peer failed (kernel 6.7 or newer needed)", e);
		netkit_drop_bpf__destroy(skel);
		a->prog_fd = -1;
		return e;
	}
	return keep_attachment(a, skel, bpf_map__fd(skel->maps.verdicts));
}

/* A skeleton of @mode's program destroyed. */
static void skel_destroy(enum drop_mode mode, void *skel)
{
	if (mode == MODE_TC || mode == MODE_TCX)
		tc_drop_bpf__destroy(skel);
	else if (mode == MODE_NETKIT)
		netkit_drop_bpf__destroy(skel);
	else
		xdp_drop_bpf__destroy(skel);
}

static int attach_tcx(struct drop_attachment *a, uint16_t port, char *err, size_t errlen)
{
	int e;
	struct tc_drop_bpf *skel = load_tc_prog(port, BPF_TCX_INGRESS, err, errlen, &e);

	if (!skel)
		return e;
	a->prog_fd = bpf_program__fd(skel->progs.tc_drop);
	/* appended after every tcx program already there: drop_attach refused those */
	a->link_fd = bpf_link_create(a->prog_fd, a->ifindex, BPF_TCX_INGRESS, NULL);
	if (a->link_fd < 0) {
		e = a->link_fd;
		a->link_fd = -1;
		set_err(err, errlen, "attaching to tcx ingress failed (kernel 6.6 or newer needed)", e);
		tc_drop_bpf__destroy(skel);
		a->prog_fd = -1;
		return e;
	}
	return keep_attachment(a, skel, bpf_map__fd(skel->maps.verdicts));
}

/* Refuse when something on @ifname's receive path would see the frames before a
 * program of @mode (or holds its place): each occupant named, and why. */
static int check_rx_path(const char *ifname, enum drop_mode mode, char *err, size_t errlen)
{
	struct rx_path p;
	int e = rx_path_read(ifname, &p, err, errlen);

	if (e)
		return e;
	return rx_path_refusal(&p, ifname, mode, drop_mode_name(mode), XDPTC_TC_PRIO, NULL, NULL,
			       err, errlen) ? -EBUSY : 0;
}

/* @out for @mode on @ifname, nothing held yet. Returns 0, or -ENODEV (said). */
static int attachment_init(struct drop_attachment *out, const char *ifname,
			   enum drop_mode mode, char *err, size_t errlen)
{
	memset(out, 0, sizeof(*out));
	out->mode = mode;
	out->prog_fd = -1;
	out->verdicts_fd = -1;
	out->link_fd = -1;
	out->ifindex = (int)if_nametoindex(ifname);
	snprintf(out->dev, sizeof(out->dev), "%s", ifname);
	if (!out->ifindex) {
		snprintf(err, errlen, "no device '%s' in this network namespace", ifname);
		return -ENODEV;
	}
	return 0;
}

int drop_attach(const char *ifname, enum drop_mode mode, uint16_t port,
		struct drop_attachment *out, char *err, size_t errlen)
{
	int e = attachment_init(out, ifname, mode, err, errlen);

	if (e)
		return e;
	if (mode >= MODE_NR) {
		snprintf(err, errlen, "unknown mode; choose one of: %s", drop_mode_choices());
		return -EINVAL;
	}
	out->netns_cookie = netns_current_cookie();
	err[0] = '\0';
	if ((e = check_rx_path(ifname, mode, err, errlen)))
		return e;
	bpf_log_clear();
	switch (mode) {
	case MODE_NONE:
		return 0;
	case MODE_XDPDRV:
	case MODE_XDPGENERIC:
		e = attach_xdp(out, port, err, errlen);
		break;
	case MODE_TCX:
		e = attach_tcx(out, port, err, errlen);
		break;
	case MODE_NETKIT:
		e = attach_netkit(out, port, err, errlen);
		break;
	default:
		e = attach_tc(out, port, err, errlen);
		break;
	}
	if (e)
		return e;
	prog_identity(out->prog_fd, out);
	if (out->link_fd >= 0)
		out->link_id = link_id_of(out->link_fd);
	return 0;
}

static void destroy_skel(struct drop_attachment *a)
{
	if (a->link_fd >= 0)
		close(a->link_fd);
	a->link_fd = -1;
	if (!a->skel)
		return;
	skel_destroy(a->mode, a->skel);
	a->skel = NULL;
	a->prog_fd = -1;
	a->verdicts_fd = -1;
}

void drop_close(struct drop_attachment *a)
{
	destroy_skel(a);
}

int drop_clsact_filters(const char *ifname)
{
	char err[256];
	int n = 0;

	if (!ifname)
		return -ENODEV;
	for (int dir = 0; dir < 2; dir++) {
		json_t *j = rx_tc_json("filter", ifname, dir ? "egress" : "ingress", err, sizeof(err)), *f;
		size_t i;

		if (!j)
			return -EIO;
		json_array_foreach(j, i, f) /* entries with options are filters */
			n += json_object_get(f, "options") != NULL;
		json_decref(j);
	}
	return n;
}

/* Remove the cls_bpf filter at @a's place while the program there is @a's; then the
 * clsact qdisc when @a made it and nothing else sits on it. */
static int detach_tc(struct drop_attachment *a)
{
	LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex, .attach_point = BPF_TC_INGRESS);
	LIBBPF_OPTS(bpf_tc_opts, q, .handle = a->tc_handle, .priority = a->tc_prio);
	LIBBPF_OPTS(bpf_tc_opts, d, .handle = a->tc_handle, .priority = a->tc_prio);
	char name[IF_NAMESIZE];
	int e;

	if (bpf_tc_query(&hook, &q) || q.prog_id != a->prog_id)
		return -ENOENT; /* not ours any more: left alone */
	e = bpf_tc_detach(&hook, &d);
	if (!e && a->created_clsact &&
	    drop_clsact_filters(if_indextoname((unsigned)a->ifindex, name)) == 0) {
		hook.attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS;
		e = bpf_tc_hook_destroy(&hook);
		if (e == -ENOENT || e == -EINVAL)
			e = 0;
	}
	return e;
}

int drop_detach(struct drop_attachment *a)
{
	int e = 0;

	switch (a->mode) {
	case MODE_XDPDRV:
	case MODE_XDPGENERIC:
	case MODE_TCX:
	case MODE_NETKIT:
		if (a->link_fd >= 0)
			e = bpf_link_detach(a->link_fd);
		break;
	case MODE_TC:
		e = detach_tc(a);
		break;
	default:
		break;
	}
	destroy_skel(a);
	return e == -ENOENT ? 0 : e;
}

int verdicts_read_fd(int map_fd, uint64_t out[VERDICT_NR])
{
	return percpu_array_sum(map_fd, VERDICT_NR, out);
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

/* The hooks before and at @mode's place, read through netlink and the bpf syscall: no
 * XDP program on the device, no tcx program on its ingress, for tc our filter's place
 * free. Returns 0, or -EBUSY with a sentence. */
static int quick_rx_check(int ifindex, const char *dev, enum drop_mode mode, char *err,
			  size_t errlen)
{
	LIBBPF_OPTS(bpf_xdp_query_opts, xq);
	__u32 cnt = 0;

	if (!bpf_xdp_query(ifindex, 0, &xq) && xq.prog_id) {
		snprintf(err, errlen, "an XDP program (id %u) is on %s now, not attached by this run: "
			 "it would see the frames first", xq.prog_id, dev);
		return -EBUSY;
	}
	if (mode == MODE_NETKIT) {
		if (!bpf_prog_query(ifindex, BPF_NETKIT_PEER, 0, NULL, NULL, &cnt) && cnt) {
			snprintf(err, errlen, "%u netkit peer program(s) are on %s now, not attached "
				 "by this run: they would see the frames first", cnt, dev);
			return -EBUSY;
		}
		return 0;
	}
	if (mode != MODE_XDPDRV && mode != MODE_XDPGENERIC &&
	    !bpf_prog_query(ifindex, BPF_TCX_INGRESS, 0, NULL, NULL, &cnt) && cnt) {
		snprintf(err, errlen, "%u tcx program(s) are on %s's ingress now, not attached by "
			 "this run: they would see the frames first", cnt, dev);
		return -EBUSY;
	}
	if (mode == MODE_TC) {
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = ifindex, .attach_point = BPF_TC_INGRESS);
		LIBBPF_OPTS(bpf_tc_opts, q, .handle = XDPTC_TC_HANDLE, .priority = XDPTC_TC_PRIO);

		if (!bpf_tc_query(&hook, &q)) {
			snprintf(err, errlen, "a filter (program id %u) holds xdptc's place on %s's "
				 "clsact ingress now", q.prog_id, dev);
			return -EBUSY;
		}
	}
	return 0;
}

int drop_attach_kept(struct drop_keep *k, const char *ifname, enum drop_mode mode,
		     uint16_t port, struct drop_attachment *out, char *err, size_t errlen)
{
	int e;

	if (mode >= MODE_NR || mode == MODE_NONE || !k->skel[mode]) {
		e = drop_attach(ifname, mode, port, out, err, errlen);
		if (e || mode == MODE_NONE || mode >= MODE_NR)
			return e;
		/* the program moves into the keep; a clsact made for it stays */
		k->skel[mode] = out->skel;
		k->prog_fd[mode] = out->prog_fd;
		k->verdicts_fd[mode] = out->verdicts_fd;
		k->prog_id[mode] = out->prog_id;
		snprintf(k->prog_tag[mode], sizeof(k->prog_tag[mode]), "%s", out->prog_tag);
		out->skel = NULL;
		if (out->created_clsact) {
			k->clsact_ifindex = out->ifindex;
			snprintf(k->dev, sizeof(k->dev), "%s", ifname);
			out->created_clsact = false;
		}
		return 0;
	}
	if ((e = attachment_init(out, ifname, mode, err, errlen)))
		return e;
	out->netns_cookie = netns_current_cookie();
	out->prog_fd = k->prog_fd[mode];
	out->verdicts_fd = k->verdicts_fd[mode];
	out->prog_id = k->prog_id[mode];
	snprintf(out->prog_tag, sizeof(out->prog_tag), "%s", k->prog_tag[mode]);
	err[0] = '\0';
	if ((e = quick_rx_check(out->ifindex, ifname, mode, err, errlen)))
		return e;
	bpf_log_clear();
	if (mode == MODE_TC) {
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = out->ifindex,
			    .attach_point = BPF_TC_INGRESS);
		LIBBPF_OPTS(bpf_tc_opts, opts, .handle = XDPTC_TC_HANDLE, .priority = XDPTC_TC_PRIO,
			    .prog_fd = out->prog_fd);

		e = bpf_tc_hook_create(&hook);
		if (e && e != -EEXIST) {
			set_err(err, errlen, "creating the clsact qdisc failed", e);
			return e;
		}
		if (!e && !k->clsact_ifindex) {
			k->clsact_ifindex = out->ifindex;
			snprintf(k->dev, sizeof(k->dev), "%s", ifname);
		}
		out->tc_handle = XDPTC_TC_HANDLE;
		out->tc_prio = XDPTC_TC_PRIO;
		e = bpf_tc_attach(&hook, &opts);
		if (e)
			set_err(err, errlen, "attaching the cls_bpf filter to clsact ingress failed", e);
		return e;
	}
	{
		LIBBPF_OPTS(bpf_link_create_opts, lo, .flags = xdp_flags_for(mode));
		bool xdp = mode == MODE_XDPDRV || mode == MODE_XDPGENERIC;

		out->link_fd = bpf_link_create(out->prog_fd, out->ifindex,
					       xdp ? BPF_XDP : mode == MODE_NETKIT ? BPF_NETKIT_PEER
					       : BPF_TCX_INGRESS, xdp ? &lo : NULL);
		if (out->link_fd < 0) {
			e = out->link_fd;
			out->link_fd = -1;
			set_err(err, errlen, xdp ? "attaching the XDP program again failed"
					     : mode == MODE_NETKIT ? "attaching as netkit peer again failed"
					     : "attaching to tcx ingress again failed", e);
			return e;
		}
		out->link_id = link_id_of(out->link_fd);
	}
	return 0;
}

int drop_detach_kept(struct drop_attachment *a)
{
	int e = 0;

	if (a->skel) /* the first attach of a mode held its own until the keep took it */
		return drop_detach(a);
	if (a->mode == MODE_TC) {
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = a->ifindex, .attach_point = BPF_TC_INGRESS);
		LIBBPF_OPTS(bpf_tc_opts, q, .handle = a->tc_handle, .priority = a->tc_prio);
		LIBBPF_OPTS(bpf_tc_opts, d, .handle = a->tc_handle, .priority = a->tc_prio);

		if (bpf_tc_query(&hook, &q) || q.prog_id != a->prog_id)
			return 0; /* not ours any more: left alone */
		e = bpf_tc_detach(&hook, &d);
	} else if (a->link_fd >= 0) {
		e = bpf_link_detach(a->link_fd);
	}
	if (a->link_fd >= 0)
		close(a->link_fd);
	a->link_fd = -1;
	return e == -ENOENT ? 0 : e;
}

void drop_keep_release(struct drop_keep *k)
{
	for (int m = 0; m < MODE_NR; m++) {
		if (!k->skel[m])
			continue;
		skel_destroy((enum drop_mode)m, k->skel[m]);
		k->skel[m] = NULL;
	}
	if (k->clsact_ifindex > 0 && drop_clsact_filters(k->dev) == 0) {
		LIBBPF_OPTS(bpf_tc_hook, hook, .ifindex = k->clsact_ifindex,
			    .attach_point = BPF_TC_INGRESS | BPF_TC_EGRESS);

		bpf_tc_hook_destroy(&hook);
	}
	k->clsact_ifindex = 0;
}
