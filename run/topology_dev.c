/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_dev.c: the dev topology (topologies/dev.sh): a device the user names
 * (--dev IFACE, in --netns NS or this namespace), with its traffic from outside: another
 * machine, a generator, `xdptc send` on a peer, at a steady rate to the dropped UDP port.
 * The suite makes no device and sends nothing. Each trial is a window of --window
 * seconds; the NIC's own counters stand for the unknown sent count, the offered rate is
 * measured in every trial and a trial far from the run's median is invalid
 * (run_offered.c). The time per packet is the receive path's on every CPU: the NET_RX
 * softirq and the NIC's hard IRQs (probes/rx_time.bpf.c) and the device's threaded-NAPI
 * threads; perf stat counts the receive CPUs (perf stat -a -C). Whether XDP saves work
 * here is the driver's answer: native XDP runs before the skb is built only where the
 * driver calls the program from its own receive loop.
 */
#include <errno.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_time.h"
#include "dev_report.h"
#include "dut_local.h"
#include "mode_refuse.h"
#include "run_ctx.h"
#include "run_offered.h"
#include "rx_time.h"

#define DEV_EXIT_USAGE 2 /* a device that is not there, or not to be touched: refused */

/* The device's report (dev_report.h), read once the topology is up; run.json's "device". */
static json_t *dev_info;
static json_t *dev_refused; /* the modes refused on the device, with the kernel's reason */
static char dev_cpus[256];  /* the receive CPUs, for perf stat -C */

/* The device must be there, and not carry the default route or a remote login unless
 * --allow-default-route-dev says so: refused before the run takes its lock, makes its
 * directory or attaches anything. */
static int dev_preflight(const struct run_opts *o)
{
	char err[512];
	int e = 0;
	json_t *r = dev_report(o->dev_netns, o->dev, &e, err, sizeof(err));
	const char *warn;

	if (!r) {
		fprintf(stderr, "xdptc: %s; nothing was touched\n", err);
		return e == -ENODEV || e == -ENOENT ? DEV_EXIT_USAGE : 1;
	}
	warn = json_string_value(json_object_get(r, "attach_warning"));
	if (warn && !o->allow_default_route_dev) {
		fprintf(stderr, "xdptc: %s. Refused before anything is attached: pass "
				"--allow-default-route-dev (make: ALLOW_DEFAULT_ROUTE_DEV=1) to measure "
				"it anyway.\n", warn);
		json_decref(r);
		return DEV_EXIT_USAGE;
	}
	json_decref(r);
	return -1;
}

/* The modes the device cannot run, taken out of the run with the kernel's reason
 * (mode_refuse.h). Returns 0 or -1 (said why). */
static int dev_modes_refuse(struct run_ctx *c)
{
	dev_refused = json_array();
	return mode_refuse_xdpdrv(c, c->o.dev, dev_info, dev_refused);
}

/* The DUT is the device, on this machine; what it is and carries said before any
 * attach. */
static int dev_dut_open(struct run_ctx *c)
{
	const struct topology *t = &c->topo;
	char err[512];
	const char *warn, *drv;
	int e = 0;

	json_decref(dev_info); /* a sweep's earlier run's */
	json_decref(dev_refused);
	dev_refused = NULL;
	dev_info = dev_report(t->dut_ns[0] ? t->dut_ns : NULL, t->dut_dev, &e, err, sizeof(err));
	if (!dev_info) {
		fprintf(stderr, "xdptc: %s\n", err);
		return -1;
	}
	drv = json_string_value(json_object_get(dev_info, "driver"));
	warn = json_string_value(json_object_get(dev_info, "attach_warning"));
	if (warn)
		fprintf(stderr, "xdptc: %s; measuring it as --allow-default-route-dev asks\n", warn);
	else
		fprintf(stderr, "xdptc: %s (driver %s) carries neither the default route nor a "
				"remote login; xdptc attaches to it alone, and its programs drop UDP "
				"to port %u only\n",
			t->dut_dev, drv ? drv : "unknown", (unsigned)c->o.port);
	dut_local_init(&c->dut, t->dut_ns[0] ? t->dut_ns : NULL, t->dut_dev);
	c->dut.record_attach = true; /* the user's device: a killed run's filter is found */
	return dev_modes_refuse(c);
}

/* The trials' windows are times; the time per packet is the receive path's on every CPU
 * (the NET_RX softirq, the NIC's IRQs, the device's threaded-NAPI threads); perf stat
 * counts the receive CPUs. */
static int dev_trial_env(struct run_ctx *c, struct trial_env *env)
{
	int irqs[RX_TIME_MAX_IRQS], n = 0;
	const json_t *x;
	const char *cpus = json_string_value(json_object_get(dev_info, "receive_cpus"));
	char err[512];
	size_t i;

	env->cpu_source = CPU_RX_PATH;
	env->window_ns = (uint64_t)(c->o.window_s * 1e9);
	/* after each attach, a part of a window unmeasured (run_opts.h) */
	env->warmup_ns = env->window_ns / RUN_WINDOW_WARMUP_DIV;
	/* the device's own NAPI threads, if it polls in threads; ksoftirqd's NET_RX time is
	 * the probe's (it counts the softirq wherever it runs) */
	napi_threads_find(c->topo.dut_dev, &c->dut.softirq);
	json_array_foreach(json_object_get(dev_info, "irqs"), i, x)
		if (n < RX_TIME_MAX_IRQS && json_integer_value(json_object_get(x, "irq")) > 0)
			irqs[n++] = (int)json_integer_value(json_object_get(x, "irq"));
	if (rx_time_open(&c->dut.rx_time, irqs, n, err, sizeof(err))) {
		snprintf(c->why, sizeof(c->why), "%s", err);
		fprintf(stderr, "xdptc: the receive path's CPU time cannot be measured: %s\n", err);
		return -1;
	}
	snprintf(dev_cpus, sizeof(dev_cpus), "%s", cpus ? cpus : "");
	env->perf_cpus = dev_cpus[0] ? dev_cpus : NULL;
	fprintf(stderr, "xdptc: %s: windows of %.1f s of the traffic that comes; receive CPUs "
			"%s; %d IRQ(s) timed; %d threaded-NAPI thread(s)\n",
		c->topo.dut_dev, c->o.window_s, cpus ? cpus : "unknown (perf stat counts every CPU)",
		n, c->dut.softirq.n);
	return 0;
}

/* run.json's "device" (the device's report) and "modes_refused". */
static void dev_json_describe(struct run_ctx *c, json_t *run)
{
	(void)c;
	json_object_set_new(run, "device", dev_info ? json_incref(dev_info) : json_null());
	json_object_set_new(run, "modes_refused", dev_refused ? json_incref(dev_refused)
							     : json_array());
}

/* After the passes: each trial's offered rate against its pass's median (run_offered.c),
 * run.json's "offered_rate"; no valid timing trial (nothing came, or nothing steady) is
 * a failure. Returns 0, or -EIO (said why). */
static int dev_after_passes(struct run_ctx *c)
{
	json_t *rate = run_offered_check(c->trials, c->o.rate_tolerance);

	if (rate && json_integer_value(json_object_get(rate, "invalid")))
		fprintf(stderr, "xdptc: %lld trial(s) invalid: their offered rate is more than "
				"%.1f%% from their pass's median (the timing pass's: %.0f pps)\n",
			(long long)json_integer_value(json_object_get(rate, "invalid")),
			100 * c->o.rate_tolerance,
			json_number_value(json_object_get(rate, "median_pps")));
	json_object_set_new(c->run, "offered_rate", rate ? rate : json_null());
	if (!rate || !json_is_number(json_object_get(json_object_get(rate, "median_pps_by_pass"),
						     "timing"))) {
		snprintf(c->why, sizeof(c->why), "no timing trial on %s is valid: no traffic came, "
			 "or none the program decided (is the generator sending, to UDP port %u?)",
			 c->o.dev, (unsigned)c->o.port);
		fprintf(stderr, "xdptc: %s\n", c->why);
		return -EIO;
	}
	return 0;
}

const struct topology_desc topology_dev = {
	.name = "dev",
	.script = "dev.sh",
	.help = "a device you name (--dev), its traffic from outside",
	/* windows of --window seconds; no packet count, no pace of its own */
	.host = { .reps = 10 },
	.icount = { .reps = 10 },
	.no_flame = NULL,
	.outside = true,
	.scope = { .time = "the NET_RX softirq and the NIC's hard IRQs on every CPU, and the "
			   "device's threaded-NAPI threads",
		   .perf = "the receive CPUs (perf stat -a -C)",
		   .perf_json = "the receive CPUs, everything on them (perf stat -a -C)" },
	.preflight = dev_preflight,
	.dut_open = dev_dut_open,
	.trial_env = dev_trial_env,
	.json_describe = dev_json_describe,
	.after_passes = dev_after_passes,
};
