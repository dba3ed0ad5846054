/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run.c: one run, phase by phase (run_main): the lock and the results directory, what
 * the machine offers, the topology up (its script, then its descriptor's callbacks:
 * topology.h), the trials' environment, the metrics said before the first trial,
 * run.json's head, the receive path checked free, the passes (run_passes.c) and the rate
 * search (run_rate.c), the results written, and the teardown on every way out.
 */
#include "run.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "doctor.h"
#include "plots.h"
#include "report.h" /* RUN_SCHEMA */
#include "summary.h"
#include "engine_icount.h"
#include "run_begin.h"
#include "run_ctx.h"
#include "run_dirs.h"
#include "run_json.h"
#include "run_passes.h"
#include "run_rate.h"
#include "run_signals.h"
#include "topologies.h"

/* Phase 1: the run lock, the time metric, the results directory, and what this
 * machine offers (doctor). Returns 0, or -1 when the run cannot start (said why). */
static int run_prepare(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	time_t now = time(NULL);
	char stamp[32], name[64];
	int e;

	c->lock_fd = run_begin(o, &c->topo);
	if (c->lock_fd < 0)
		return -1;
	gmtime_r(&now, &c->tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &c->tm);
	/* before anything is measured: a results directory that cannot be made fails now */
	snprintf(name, sizeof(name), "%s%s", o->topology, c->icount_clock ? "-icount" : "");
	e = run_dir_make(o->out_dir, stamp, name, c->dir, sizeof(c->dir));
	if (e) {
		fprintf(stderr, "xdptc: cannot create a results directory under '%s': %s\n",
			o->out_dir, strerror(-e));
		c->dir[0] = '\0';
		return -1;
	}
	if (o->inside_icount) /* the host's engine removes it when the run is interrupted */
		fprintf(stderr, "xdptc: results will be in %s/\n", c->dir);
	/* what this machine offers; the lines that decide this run's metrics */
	/* the veth item builds a veth pair to try native XDP on: only where it matters */
	c->doctor = doctor_report(c->td->doctor_item ? o->topologies_dir : NULL, false, false);
	fprintf(stderr, "xdptc: %s doctor: pmu %s; kprobes %s; fentry %s; tracepoints %s%s%s\n",
		o->inside_icount ? "icount guest's" : "host",
		doctor_item_ok(c->doctor, "pmu") ? "yes" : "no",
		doctor_item_ok(c->doctor, "kprobes") ? "yes" : "no",
		doctor_item_ok(c->doctor, "fentry") ? "yes" : "no",
		doctor_item_ok(c->doctor, "tracepoints") ? "yes" : "no",
		c->remote ? "; kvm " : "",
		c->remote ? (doctor_item_ok(c->doctor, "kvm") ? "yes" : "no") : "");
	if (c->o.flame && c->td->no_flame) {
		c->o.flame = false;
		fprintf(stderr, "xdptc: flame graphs: %s\n", c->td->no_flame);
	} else if (c->o.flame && !doctor_item_ok(c->doctor, "perf")) {
		c->o.flame = false;
		fprintf(stderr, "xdptc: flame graphs: skipped, %s\n",
			doctor_item_detail(c->doctor, "perf"));
	}
	if (c->td->doctor_item && !doctor_item_ok(c->doctor, c->td->doctor_item))
		fprintf(stderr, "xdptc: doctor: native XDP on %s: %s\n", c->td->name,
			doctor_item_detail(c->doctor, c->td->doctor_item));
	return 0;
}

/* Phase 2: the topology up (its script) and the DUT reached (its dut_open).
 * Returns 0 or -1 (said why). */
static int run_topology_up(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	struct topology *t = &c->topo;

	fprintf(stderr, "xdptc: %s topology %s: up\n", o->topology, t->prefix);
	c->topology_tried = true;
	/* virtio under icount: the run directory is the guest's share, where the plugin
	 * writes its windows for the agent to read (virtio.sh: INSNS_OUT) */
	if (c->icount_dut && realpath(c->dir, c->share))
		t->share = c->share;
	if (run_topology_cmd(o, c->td, "up", t) || !t->dut_dev[0]) {
		if (run_stopped())
			fprintf(stderr, "\nxdptc: interrupted; cleaning up\n");
		else
			fprintf(stderr, "xdptc: building the %s topology failed (see above)\n",
				o->topology);
		return -1;
	}
	t->up = 1;
	if (run_stopped())
		return -1;
	if (c->td->dut_open(c))
		return -1;
	c->have_dut = true;
	return 0;
}

/* Phase 3: what every trial needs (struct trial_env): the sender's side, the DUT, and
 * where CPU time is read (the topology's trial_env). Returns 0 or -1 (said why). */
static int run_trial_env(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	struct trial_env *env = &c->env;

	memset(env, 0, sizeof(*env));
	env->dut = &c->dut;
	if (c->td->trial_env && c->td->trial_env(c, env))
		return -1;
	env->snd_netns = c->topo.snd_ns;
	env->snd_dev = c->topo.snd_dev;
	env->dst_addr = c->topo.dut_addr;
	env->src_addr = c->topo.snd_addr;
	env->dst_mac = c->topo.dut_mac;
	env->sender = o->sender;
	env->port = o->port;
	env->send_port = o->port;
	env->payload_len = o->payload_len;
	env->batch = o->batch;
	env->vlan = o->vlan;
	env->sender_cpu = o->sender_cpu;
	/* the icount engine's plugin: its windows, and its self-check first */
	if ((c->icount_dut || o->inside_icount) &&
	    run_insns_setup(&c->insns, env, c->icount_dut ? &c->dut : NULL))
		return -1;
	env->warmup = o->warmup;
	env->rate_pps = o->rate_pps;
	env->stop = run_stop_flag();
	return 0;
}

/* Phase 5: which metrics this run can have, said before the first trial: the perf
 * events (or why none), the time metric, and each count's backend (the count pass's
 * probes loaded once to learn it). Returns 0 or -1 (said why). */
static int run_metrics_plan(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	int none = 0;

	if (c->icount_clock)
		snprintf(c->pmu_why, sizeof(c->pmu_why), "not counted in an icount guest (its "
			 "time metric is guest instructions)");
	else if (!o->pmu_events[0])
		snprintf(c->pmu_why, sizeof(c->pmu_why), "no perf events asked for (--pmu-events none)");
	else if (!doctor_item_ok(c->doctor, "perf"))
		snprintf(c->pmu_why, sizeof(c->pmu_why), "perf is not installed (linux-perf)");
	else
		c->perf_n = perf_stat_split_events(o->pmu_events, c->perf_events,
						   PERF_STAT_MAX_EVENTS);
	if (c->perf_n < 0)
		c->perf_n = 0;
	if (!c->pmu_why[0]) { /* hardware events per task: what doctor's perf stat try found */
		c->have_pmu = doctor_item_ok(c->doctor, "pmu");
		if (!c->have_pmu)
			snprintf(c->pmu_why, sizeof(c->pmu_why), "%s",
				 doctor_item_detail(c->doctor, "pmu"));
	}
	fprintf(stderr, "xdptc: time per packet from %s\n",
		c->icount_dut ? "the guest's NAPI thread and ksoftirqd time (icount: instructions)"
		: o->inside_icount ? "per-task CPU time in the icount guest (instructions)"
		: c->td->scope.time ? c->td->scope.time : "per-task CPU time");
	if (c->perf_n)
		fprintf(stderr, "xdptc: perf stat counts %s over each timing window on %s%s%s\n",
			o->pmu_events, c->td->scope.perf ? c->td->scope.perf
				       : "the sender thread and the softirq/NAPI threads",
			c->have_pmu ? "" : "; hardware events: ", c->have_pmu ? "" : c->pmu_why);
	else
		fprintf(stderr, "xdptc: perf events not counted: %s\n", c->pmu_why);
	/* the count pass's probes: loaded once now so their capability is known up front,
	 * then again only for the count pass */
	if (dut_counters_open(&c->dut, o->counter_order, o->cross_check, &c->ci, c->why,
			      sizeof(c->why))) {
		fprintf(stderr, "xdptc: %s\n", c->why);
		return -1;
	}
	dut_counters_close(&c->dut);
	for (int k = 0; k < SKB_COUNT_NR; k++) {
		const char *name = skb_count_name((enum skb_count)k);

		if (c->ci.plan.backend[k] == BACKEND_NONE) {
			none++;
			fprintf(stderr, "xdptc: %s unavailable: %s\n", name, c->ci.plan.reason[k]);
			continue;
		}
		fprintf(stderr, "xdptc: %s from %s (%s)\n", name,
			counter_backend_name(c->ci.plan.backend[k]), c->ci.plan.points[k]);
		if (*c->ci.plan.reason[k])
			fprintf(stderr, "xdptc:   passed over: %s\n", c->ci.plan.reason[k]);
	}
	if (none == SKB_COUNT_NR)
		fprintf(stderr, "xdptc: warning: no count is available with these counter "
				"backends; the count pass will record none (try --counters "
				"kprobe,fentry,tracepoint)\n");
	return 0;
}

/* Phase 6: run.json's head: schema, time, topology, machine, engine, settings (with the
 * perf events and their scope), capabilities, doctor, and what the topology describes
 * (a guest and its doctor). */
static void run_json_head(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	json_t *run = json_object(), *set, *ev = json_array();
	char iso[32];

	c->run = run;
	json_object_set_new(run, "schema", json_string(RUN_SCHEMA));
	strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &c->tm);
	json_object_set_new(run, "created_utc", json_string(iso));
	json_object_set_new(run, "topology", json_string(o->topology));
	if (topology_find(o->topology)->sender_skb_apart)
		json_object_set_new(run, "sender_skb_apart", json_true());
	if (topology_find(o->topology)->timed)
		json_object_set_new(run, "timed", json_string(topology_find(o->topology)->timed));
	json_object_set_new(run, "machine", machine_json());
	json_object_set_new(run, "time_metric", json_string(c->time_key));
	json_object_set_new(run, "engine", engine_json(o, c->icount_dut ? &c->topo : NULL));
	set = settings_json(o);
	json_object_set_new(run, "settings", set);
	if (c->napi_sched)
		json_object_set_new(set, "napi_thread_sched", json_string(c->napi_sched));
	json_object_set_new(run, "capabilities",
			    capabilities_json(c->have_pmu, c->pmu_why, c->remote, &c->ci, c->time_key));
	/* the perf events asked for, their metrics, and the threads they count */
	for (int i = 0; i < c->perf_n; i++)
		json_array_append_new(ev, json_pack("{s:s, s:s}", "event", c->perf_events[i].event,
						    "metric", c->perf_events[i].metric));
	json_object_set_new(set, "perf_events", ev);
	json_object_set_new(set, "perf_scope",
			    !c->perf_n ? json_null()
			    : json_string(c->td->scope.perf_json ? c->td->scope.perf_json
					  : "the sender thread and the DUT's softirq/NAPI "
					    "threads, as cpu_ns_per_pkt"));
	if (!c->perf_n)
		json_object_set_new(set, "perf_events_reason", json_string(c->pmu_why));
	json_object_set_new(run, "doctor", c->doctor);
	c->doctor = NULL;
	if (c->td->json_describe)
		c->td->json_describe(c, run);
}

/* Phase 7: everything on the DUT's receive path before the first trial, recorded as
 * "dut_receive_path": nothing, on a topology of the run's own; each trial's attach
 * checks again (drop_attach). Returns 0, or -1 when it is not free (said what is
 * there). */
static int run_check_rx_path(struct run_ctx *c)
{
	json_t *path = dut_rx_path(&c->dut, c->why, sizeof(c->why)), *x;
	size_t i;

	if (!path) {
		fprintf(stderr, "xdptc: cannot read the DUT's receive path: %s\n", c->why);
		return -1;
	}
	json_object_set_new(c->run, "dut_receive_path", path);
	if (!json_array_size(path))
		return 0;
	fprintf(stderr, "xdptc: the DUT's receive path is not free; the run will not measure "
			"behind:");
	json_array_foreach(path, i, x)
		fprintf(stderr, "%s %s", i ? ";" : "", json_string_value(json_object_get(x, "what")));
	fprintf(stderr, "\n");
	return -1;
}

/* Phase 9: the summary, run.json, summary.md and the plots written; @incomplete (a
 * failure's sentence, or NULL) marks a run cut short. Returns 0 or -EIO. */
static int run_write(struct run_ctx *c, const char *incomplete)
{
	char perr[PATH_MAX + 128];

	if (incomplete)
		json_object_set_new(c->run, "incomplete", json_string(incomplete));
	/* the global settings the numbers depend on, again (the doctor's at the start) */
	json_object_set_new(c->run, "sysctls_at_end", doctor_sysctls());
	run_insns_write(&c->insns, &c->env, &c->o, c->run);
	json_object_set_new(c->run, "summary", summary_compute(c->run));
	/* the plots first: summary.md and index.html show those that were drawn */
	if (!incomplete && plots_write(c->run, c->dir, perr, sizeof(perr)) < 0)
		fprintf(stderr, "xdptc: plots: %s\n", perr);
	if (run_results_write(c->run, c->dir, incomplete ? 1 : c->o.quiet))
		return -EIO;
	c->keep_dir = true;
	if (incomplete) {
		fprintf(stderr, "xdptc: the trials measured before the failure are in %s/ "
				"(marked incomplete)\n", c->dir);
		return 0;
	}
	if (c->o.dir_out)
		snprintf(c->o.dir_out, c->o.dir_out_len, "%s", c->dir);
	fprintf(stderr, "xdptc: results in %s/ (run.json, summary.md, index.html, plots%s)\n",
		c->dir, c->o.flame ? ", flame graphs" : "");
	return 0;
}

/* Last phase, always: the DUT closed, the topology down, what was not kept removed, the
 * lock released. */
static void run_teardown(struct run_ctx *c)
{
	if (c->have_dut)
		dut_close(&c->dut);
	if (c->topology_tried) {
		fprintf(stderr, "xdptc: %s topology %s: down\n", c->o.topology, c->topo.prefix);
		run_topology_cmd(&c->o, c->td, "down", &c->topo);
	}
	json_decref(c->run);
	json_decref(c->doctor);
	run_insns_free(&c->insns);
	if (c->dir[0] && !c->keep_dir) /* nothing worth keeping: remove the empty (or partial)
					* directory */
		run_dir_remove(c->dir);
	if (c->lock_fd >= 0)
		close(c->lock_fd);
}

int run_main(const struct run_opts *opts)
{
	static struct run_ctx ctx; /* large; one run at a time (cmd_sweep runs them in turn) */
	struct run_ctx *c = &ctx;
	int status = 1, e;

	/* under icount a local DUT's whole experiment moves into a guest (engine_icount.c);
	 * a guest DUT boots under icount, driven from here as always */
	const struct topology_desc *td = topology_find(opts->topology);

	if (!td) {
		fprintf(stderr, "xdptc: no topology '%s' (%s)\n", opts->topology,
			topology_names(0, NULL, ", ", " or "));
		return 1;
	}
	if (opts->engine == ENGINE_ICOUNT && !opts->inside_icount && td->icount_inside)
		return icount_engine_run(opts);
	memset(c, 0, sizeof(*c));
	c->o = *opts;
	c->td = td;
	c->lock_fd = -1;
	c->remote = td->remote;
	c->icount_dut = c->remote && opts->engine == ENGINE_ICOUNT;
	c->icount_clock = c->icount_dut || opts->inside_icount;
	c->time_key = c->icount_clock ? "guest_instructions_per_pkt" : "cpu_ns_per_pkt";
	/* auto: alternating on a local DUT of the host engine; a guest DUT's attach takes
	 * longer than windows are worth there (docs/method.md), an icount clock has next to
	 * no noise */
	c->plan.alternating = !td->outside && (opts->schedule == SCHEDULE_ALTERNATING ||
			      (opts->schedule == SCHEDULE_AUTO && !c->icount_clock && !c->remote));
	if (run_prepare(c) || run_stopped() || run_topology_up(c) || run_trial_env(c))
		goto out;
	if (c->td->rx_prepare) /* phase 4: the topology readies its receive path */
		c->td->rx_prepare(c);
	if (run_metrics_plan(c))
		goto out;
	run_json_head(c);
	if (run_check_rx_path(c))
		goto out;
	e = run_passes(c); /* phase 8 (run_passes.c) */
	if (!e && c->td->after_passes) /* the topology's checks of what was measured */
		e = c->td->after_passes(c);
	if (!e && c->o.find_max_rate)
		e = run_rate_searches(&c->o, &c->env, c->remote, c->napi_pids, c->n_napi, c->run,
				      c->why, sizeof(c->why));
	if (run_stopped() || e == -EINTR) {
		fprintf(stderr, "\nxdptc: interrupted; cleaning up\n");
		status = 130;
	} else if (e) { /* keep what was measured, marked incomplete, unless nothing was */
		if (json_array_size(c->trials))
			run_write(c, c->why);
	} else if (!run_write(c, NULL)) {
		status = 0;
	}
out:
	run_teardown(c);
	if (run_stopped() && status != 0)
		status = 130;
	return status;
}
