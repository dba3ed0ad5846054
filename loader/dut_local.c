/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* dut_local.c: a DUT in a network namespace of this machine (the veth topology, and the
 * agent inside a guest): every operation done and every figure read by this process. */
#include "dut_local.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "attach_record.h"
#include "netns.h"
#include "rx_path.h"

static const struct dut_ops dut_local_ops;

/* how long an attach waits for its device's link to come back (link_wait_running) */
#define LINK_WAIT_MS 10000

/* An attach that resets the device (igb's and vmxnet3's XDP setup close and reopen it)
 * takes its link down until the driver sees it again (qemu's igb: after its emulated
 * autonegotiation); frames sent meanwhile are lost in the NIC and counted nowhere. So
 * wait, in the current namespace, until @dev runs again (IFF_RUNNING: carrier), at most
 * LINK_WAIT_MS; a device that is down is not waited for. Returns the ms waited. */
static int link_wait_running(const char *dev)
{
	struct ifreq ifr = { 0 };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), ms = 0;

	if (fd < 0)
		return 0;
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	while (ms < LINK_WAIT_MS && !ioctl(fd, SIOCGIFFLAGS, &ifr) &&
	       (ifr.ifr_flags & IFF_UP) && !(ifr.ifr_flags & IFF_RUNNING)) {
		usleep(10000);
		ms += 10;
	}
	close(fd);
	return ms;
}

void dut_local_init(struct dut *d, const char *netns, const char *dev)
{
	memset(d, 0, sizeof(*d));
	d->ops = &dut_local_ops;
	d->remote = false;
	d->netns = netns;
	d->dev = dev;
	d->cur_dev = dev;
	d->fd = -1;
	d->stats_fd = -1;
	softirq_tasks_find(&d->softirq);
}

static int local_attach(struct dut *d, enum drop_mode mode, uint16_t port, uint32_t *prog_id,
			char kernel_mode[16], char *err, size_t errlen)
{
	struct rx_path p;
	const char *dev = d->dev2 && (d->dev2_modes & (1u << mode)) ? d->dev2 : d->dev;
	int saved, e = netns_enter(d->netns, &saved);

	if (e) {
		snprintf(err, errlen, "cannot enter namespace %s: %s", d->netns, strerror(-e));
		return e;
	}
	d->cur_dev = dev; /* its counters are the window's from now on */
	e = d->keep ? drop_attach_kept(d->keep, dev, mode, port, &d->att, err, errlen)
		    : drop_attach(dev, mode, port, &d->att, err, errlen);
	if (!e && d->record_attach && (e = attach_record_held(&d->att, err, errlen)))
		drop_detach(&d->att); /* unrecorded, it must not stay */
	if (!e) {
		char qerr[256];

		d->attached = true;
		*prog_id = d->att.prog_id;
		snprintf(kernel_mode, 16, "%s", mode == MODE_NONE ? "none" : "?");
		/* the mode as the kernel reports the program now on the device (a kept
		 * program: as it reported it at its first attach) */
		if (d->keep && mode < MODE_NR && d->keep->kernel_mode[mode][0])
			snprintf(kernel_mode, 16, "%s", d->keep->kernel_mode[mode]);
		else if (mode != MODE_NONE && !rx_path_read(dev, &p, qerr, sizeof(qerr)))
			for (int i = 0; i < p.n; i++)
				if (p.occ[i].prog_id == d->att.prog_id)
					snprintf(kernel_mode, 16, "%s", p.occ[i].mode);
		if (d->keep && mode < MODE_NR && strcmp(kernel_mode, "?"))
			snprintf(d->keep->kernel_mode[mode], 16, "%s", kernel_mode);
	}
	if (!e) /* the time waited is in the trial's attach_ns */
		link_wait_running(dev);
	netns_return(saved);
	return e;
}

static int local_detach(struct dut *d)
{
	int saved, e;

	if (!d->attached)
		return 0;
	e = netns_enter(d->netns, &saved);
	if (e) {
		drop_close(&d->att);
		d->attached = false;
		return e;
	}
	{
		struct drop_attachment held = d->att;

		e = d->keep ? drop_detach_kept(&d->att) : drop_detach(&d->att);
		if (!e && d->record_attach)
			attach_record_release(&held);
	}
	netns_return(saved);
	d->attached = false;
	return e;
}

static int local_snapshot(struct dut *d, enum dut_pass pass, struct dut_snapshot *s)
{
	int saved, e;

	memset(s, 0, sizeof(*s));
	if (d->attached && d->att.verdicts_fd >= 0 &&
	    (e = verdicts_read_fd(d->att.verdicts_fd, s->verdicts)))
		return e;
	/* the probes' counts right after the verdicts: with traffic that never stops (from
	 * outside), what arrives between the two reads would count in one and not the other */
	if (pass == DUT_PASS_COUNT && d->counters_open) {
		if ((e = skb_counters_read(&d->counters, &s->counts)))
			return e;
		s->have_counts = true;
	}
	e = netns_enter(d->netns, &saved);
	if (e)
		return e;
	e = netdev_stats_read(d->cur_dev, &s->dev);
	netns_return(saved);
	if (e || pass == DUT_PASS_SETTLE) /* the settle wait: the packet counters only */
		return e;
	s->softirq_ns = softirq_tasks_cpu_ns(&d->softirq);
	if (d->rx_time.skel) {
		struct rx_time_read rt;

		if ((e = rx_time_read(&d->rx_time, &rt)))
			return e;
		s->rx_path_ns = rt.softirq_ns + rt.hardirq_ns;
		s->rx_hardirq_ns = rt.hardirq_ns;
	}
	s->busy_ns = cpus_busy_steal_ns(&s->steal_ns);
	/* in every pass (not the settle wait's polls): a run count that moves in the timing
	 * pass says that BPF statistics were on by someone else's doing (one
	 * bpf_prog_get_info_by_fd in each of the two snapshots, outside the window) */
	if (d->attached && d->att.prog_fd >= 0 &&
	    (e = prog_run_stats(d->att.prog_fd, &s->bpf_run_time_ns, &s->bpf_run_cnt)))
		return e;
	return 0;
}

static int local_counters_open(struct dut *d, const int *order, bool cross_check,
			       struct dut_counters_info *info, char *err, size_t errlen)
{
	uint32_t ino, ifx;
	int saved, e = netns_enter(d->netns, &saved);

	if (e) {
		snprintf(err, errlen, "cannot enter namespace %s: %s", d->netns, strerror(-e));
		return e;
	}
	ino = netns_current_ino();
	ifx = if_nametoindex(d->dev);
	netns_return(saved);
	e = skb_counters_open(&d->counters, ifx, ino, order, cross_check, err, errlen);
	if (e)
		return e;
	d->counters_open = true;
	info->plan = d->counters.plan;
	return 0;
}

static void local_counters_close(struct dut *d)
{
	if (d->counters_open)
		skb_counters_close(&d->counters);
	d->counters_open = false;
}

static int local_bpf_stats(struct dut *d, bool on)
{
	if (on && d->stats_fd < 0) {
		d->stats_fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
		if (d->stats_fd < 0)
			return -errno;
	} else if (!on && d->stats_fd >= 0) {
		close(d->stats_fd);
		d->stats_fd = -1;
	}
	return 0;
}

/* The local DUT's receive path as JSON (rx_path_occupants: each with "xdptc": false,
 * since nothing of a run's is attached between trials), or NULL with @err. */
static json_t *local_rx_path(struct dut *d, char *err, size_t errlen)
{
	struct rx_path p;
	json_t *a;
	int saved, e = netns_enter(d->netns, &saved);

	if (e) {
		snprintf(err, errlen, "cannot enter namespace %s: %s", d->netns, strerror(-e));
		return NULL;
	}
	e = rx_path_read(d->dev, &p, err, errlen);
	netns_return(saved);
	if (e)
		return NULL;
	a = json_array();
	for (int i = 0; i < p.n; i++)
		json_array_append_new(a, rx_occupant_json(&p.occ[i],
							  d->attached && p.occ[i].prog_id ==
								  d->att.prog_id));
	return a;
}

static int local_exec(struct dut *d, const char *cmd, int *status, char *out, size_t outlen)
{
	(void)d, (void)cmd, (void)status, (void)out, (void)outlen;
	return -EOPNOTSUPP; /* only a guest's agent runs commands for the host */
}

static int local_keep(struct dut *d, bool on)
{
	int saved, e;

	if (on) {
		if (!d->keep && !(d->keep = calloc(1, sizeof(*d->keep))))
			return -ENOMEM;
		return 0;
	}
	if (!d->keep)
		return 0;
	local_detach(d);
	e = netns_enter(d->netns, &saved);
	drop_keep_release(d->keep);
	if (!e)
		netns_return(saved);
	free(d->keep);
	d->keep = NULL;
	return 0;
}

static void local_close(struct dut *d)
{
	local_keep(d, false);
	rx_time_close(&d->rx_time);
}

/* The plugin's window, opened and closed by this process (the agent in an icount
 * guest): the markers, the TSC around them. */
static uint64_t insns_tsc0;

/* The plugin's file on this machine (XDPTC_INSNS), or NULL with why. */
static const char *plugin_file(char *err, size_t errlen)
{
	const char *path = getenv("XDPTC_INSNS");

	if (path && *path)
		return path;
	snprintf(err, errlen, "no instruction-counting plugin on this machine (XDPTC_INSNS unset)");
	return NULL;
}

static int local_insns(struct dut *d, bool open, struct dut_insns *out, char *err,
		       size_t errlen)
{
	const char *path = plugin_file(err, errlen);

	(void)d;
	if (!path)
		return -ENOENT;
	if (open) {
		insns_tsc0 = insn_tsc();
		insn_mark_open();
		return 0;
	}
	insn_mark_close();
	memset(out, 0, sizeof(*out));
	out->tsc = insn_tsc() - insns_tsc0;
	return insn_window_next(path, &out->w, &out->funcs, err, errlen);
}

static int local_insns_selfcheck(struct dut *d, struct insn_check c[2], char *err,
				 size_t errlen)
{
	const char *path = plugin_file(err, errlen);

	(void)d;
	if (!path)
		return -ENOENT;
	return insn_selfcheck(path, 100000, 4096, c, err, errlen);
}

static const struct dut_ops dut_local_ops = {
	.attach = local_attach,
	.detach = local_detach,
	.snapshot = local_snapshot,
	.counters_open = local_counters_open,
	.counters_close = local_counters_close,
	.bpf_stats = local_bpf_stats,
	.exec = local_exec,
	.rx_path = local_rx_path,
	.insns = local_insns,
	.insns_selfcheck = local_insns_selfcheck,
	.keep = local_keep,
	.close = local_close,
};
