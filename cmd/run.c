/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "run.h"

#include <bpf/bpf.h>
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <net/if.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/prctl.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "doctor.h"
#include "flamegraph.h"
#include "plots.h"
#include "dut.h"
#include "napi_delay_user.h"
#include "netns.h"
#include "stats.h"
#include "summary.h"
#include "trial.h"
#include "run_json.h"
#include "run_insns.h"
#include "run_timing.h"

#include "report.h" /* RUN_SCHEMA */
#include "run_internal.h"

/* The alternating pass's settle wait after each window: the DUT's counters unchanged for
 * this long (us), on this machine's DUT and on a guest's (through its agent) */
#define SETTLE_US_LOCAL 500
#define SETTLE_US_REMOTE 10000

/* How long a guest's agent may take to answer a request (ms): under icount the guest's code
 * is retranslated, instrumented, when counters attach (docs/matrix.md) */
#define AGENT_TIMEOUT_MS 30000
#define AGENT_TIMEOUT_ICOUNT_MS 300000


/* ---- machine and capabilities ---- */

/* ---- order ---- */


/* run.json and summary.md into @dir (the summary on stdout unless @quiet). Returns 0 or
 * -errno (said). */
static int write_results(json_t *run, const char *dir, int quiet)
{
	char path[PATH_MAX + 32], err[PATH_MAX + 128];
	int e;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	e = report_write(run, dir, path, quiet, err, sizeof(err));
	if (e)
		fprintf(stderr, "xdptc: %s\n", err);
	return e;
}


/* Create a new, empty run directory @out_dir/@stamp-@topology (adding -2, -3, ... when
 * a run started in the same second has it) into @dir. Returns 0 or -errno. */
static int make_run_dir(const char *out_dir, const char *stamp, const char *topology,
			char *dir, size_t len)
{
	int e = run_make_parents(out_dir);

	if (e)
		return e;
	for (int i = 1; i < 100; i++) {
		if (i == 1)
			snprintf(dir, len, "%s/%s-%s", out_dir, stamp, topology);
		else
			snprintf(dir, len, "%s/%s-%s-%d", out_dir, stamp, topology, i);
		if (!mkdir(dir, 0755))
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* Remove what write_results may have written, and the directory itself. */
static void remove_run_dir(const char *dir)
{
	char path[PATH_MAX + 32];

	snprintf(path, sizeof(path), "%s/run.json", dir);
	unlink(path);
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	unlink(path);
	rmdir(dir);
}

struct progress {
	int done, total;
	struct timespec start;
	bool no_eta; /* inside the icount guest: its clock is no guide to host time (the
		      * host relaying the lines adds its own ETA) */
	bool instructions; /* the time metric counts guest instructions */
};

static void progress_line(struct progress *p, const struct trial_result *r, const char *label,
			  int rep, int reps, const struct skb_counters_plan *plan)
{
	/* on a terminal one line that updates itself; elsewhere one line per trial */
	bool tty = isatty(STDERR_FILENO);
	struct timespec now;
	double el, eta;

	p->done++;
	clock_gettime(CLOCK_MONOTONIC, &now);
	el = (double)(now.tv_sec - p->start.tv_sec) + (double)(now.tv_nsec - p->start.tv_nsec) / 1e9;
	eta = el / p->done * (p->total - p->done);
	fprintf(stderr, "%s[%3d/%d] %-8s rep %2d/%-2d %-10s ", tty ? "\r\033[K" : "", p->done,
		p->total, trial_pass_name(r->pass), rep + 1, reps, label);
	if ((r->pass == PASS_TIMING || r->pass == PASS_PROFILE) && p->instructions)
		fprintf(stderr, "%8.1f instr/pkt   ", r->cpu_ns_per_pkt);
	else if (r->pass == PASS_TIMING || r->pass == PASS_PROFILE)
		fprintf(stderr, "%8.1f ns/pkt      ", r->cpu_ns_per_pkt);
	else if (r->pass == PASS_COUNT && plan->backend[SKB_STACK_ENTRIES] == BACKEND_NONE)
		fprintf(stderr, "   n/a stack/pkt    ");
	else if (r->pass == PASS_COUNT)
		fprintf(stderr, "%6.3f stack/pkt    ",
			per_pkt(skb_count_value(r->counts.v, SKB_STACK_ENTRIES,
						plan->backend[SKB_STACK_ENTRIES]),
				r->pkts_at_dut));
	else
		fprintf(stderr, "%8.1f %s/BPF run  ",
			r->bpf_run_cnt ? (double)r->bpf_run_time_ns / (double)r->bpf_run_cnt : 0.0,
			p->instructions ? "instr" : "ns");
	fprintf(stderr, "pkts_at_dut %llu%s  %d left", (unsigned long long)r->pkts_at_dut,
		r->valid ? "" : " INVALID (packets not conserved)", p->total - p->done);
	if (!p->no_eta)
		fprintf(stderr, ", ETA %.0fs", eta);
	fprintf(stderr, "%s", tty && r->valid && p->done < p->total ? "" : "\n");
}

/* Repetitions of @pass: the timing pass needs many for its interval; the counts are
 * near-deterministic and BPF run time is read from the kernel, so fewer serve. */
static int pass_reps(const struct run_opts *o, int pass)
{
	if (pass == PASS_PROFILE)
		return o->flame ? 1 : 0;
	return pass == PASS_TIMING ? o->reps : o->count_reps;
}

/* Where the profile pass's perf data of arm @label goes: the run directory, or inside
 * the icount engine's guest its own /tmp (perf writing through the 9p share would
 * profile 9p). */
static void profile_data_path(const struct run_opts *o, const char *dir, const char *label,
			      char *buf, size_t len)
{
	if (o->inside_icount)
		snprintf(buf, len, "/tmp/xdptc-perf-%d-%s.data", (int)getpid(), label);
	else
		snprintf(buf, len, "%s/perf-%s.data", dir, label);
}

/* Fold the perf data @data into @dir/flame-@mode.folded and draw @dir/flame-@mode.svg;
 * remove the perf data. Returns the samples drawn or -errno. */
static long make_flamegraph(const char *data, const char *dir, const char *mode,
			    const char *subtitle)
{
	char folded[PATH_MAX + 64], svg[PATH_MAX + 64], cmd[PATH_MAX + 128];
	char title[128], sub[320];
	FILE *in, *out;
	long n, idle = 0;

	snprintf(folded, sizeof(folded), "%s/flame-%s.folded", dir, mode);
	snprintf(svg, sizeof(svg), "%s/flame-%s.svg", dir, mode);
	snprintf(cmd, sizeof(cmd), "perf script -i '%s' 2>/dev/null", data);
	in = popen(cmd, "r");
	out = fopen(folded, "w");
	if (!in || !out) {
		if (in)
			pclose(in);
		if (out)
			fclose(out);
		return -errno;
	}
	n = flame_fold(in, out, &idle);
	pclose(in);
	fclose(out);
	unlink(data);
	if (n <= 0)
		return n ? n : -ENODATA;
	snprintf(sub, sizeof(sub), "%s; %ld idle samples left out", subtitle, idle);
	in = fopen(folded, "r");
	out = fopen(svg, "w");
	if (!in || !out) {
		if (in)
			fclose(in);
		if (out)
			fclose(out);
		return -errno;
	}
	snprintf(title, sizeof(title), "xdptc: %s drop, every CPU during one window", mode);
	n = flame_svg(in, out, title, sub);
	fclose(in);
	fclose(out);
	return n;
}

static int pass_modes(const struct run_opts *o, int pass)
{
	int n = 0;

	for (int i = 0; i < o->nmodes; i++)
		n += !(pass == PASS_BPFSTATS && o->modes[i] == MODE_NONE) &&
		     !(pass == PASS_PROFILE && i == o->aa_arm);
	return n;
}

/* ---- the run, phase by phase ---- */

/* What one run carries from phase to phase. */
struct run_ctx {
	struct run_opts o;          /* the options; the run may turn the flame graphs off */
	bool remote;                /* virtio: the DUT is a guest, driven through its agent */
	bool icount_dut;            /* virtio under icount: the guest's clock counts
				     * instructions */
	bool icount_clock;          /* the time measured counts guest instructions: inside
				     * the icount engine's guest, or its virtio DUT */
	const char *time_key;       /* the trials' time metric: "cpu_ns_per_pkt", or
				     * "guest_instructions_per_pkt" (never a PMU's
				     * instructions_per_pkt) */
	int lock_fd;
	struct tm tm;               /* when the run started (UTC) */
	char dir[PATH_MAX];         /* the run directory */
	bool keep_dir;              /* written: keep it */
	struct topology topo;
	struct dut dut;
	bool have_dut;
	bool topology_tried;        /* its script's `up` ran: `down` runs at the end */
	struct trial_env env;
	struct run_insns insns;     /* the plugin's per-arm profiles and self-check */
	struct timing_plan plan;    /* the timing pass's schedule */
	char share[PATH_MAX];       /* virtio under icount: the run directory, shared */
	struct dut_counters_info ci;
	bool counters_open;
	struct perf_stat_value perf_events[PERF_STAT_MAX_EVENTS];
	int perf_n;
	bool have_pmu;
	char pmu_why[256];
	const char *napi_sched;     /* threaded NAPI: the DUT thread's scheduling */
	pid_t napi_pids[NAPI_DELAY_MAX_PIDS]; /* threaded NAPI: the DUT's NAPI threads */
	int n_napi;
	json_t *doctor, *run, *trials, *flames;
	struct progress prog;
	int seq;                    /* trials so far */
	char why[512];              /* why the run failed */
};

/* Phase 1: the run lock, the time metric, the results directory, and what this
 * machine offers (doctor). Returns 0, or -1 when the run cannot start (said why). */
static int run_prepare(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	time_t now = time(NULL);
	char stamp[32];
	int e;

	c->lock_fd = run_begin(o, &c->topo);
	if (c->lock_fd < 0)
		return -1;
	gmtime_r(&now, &c->tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &c->tm);
	/* before anything is measured: a results directory that cannot be made fails now */
	e = make_run_dir(o->out_dir, stamp,
			 o->inside_icount ? "veth-icount" : c->icount_dut ? "virtio-icount"
									: o->topology,
			 c->dir, sizeof(c->dir));
	if (e) {
		fprintf(stderr, "xdptc: cannot create a results directory under '%s': %s\n",
			o->out_dir, strerror(-e));
		c->dir[0] = '\0';
		return -1;
	}
	/* what this machine offers; the lines that decide this run's metrics */
	c->doctor = doctor_report(o->topologies_dir, false, false);
	fprintf(stderr, "xdptc: %s doctor: pmu %s; kprobes %s; fentry %s; tracepoints %s%s%s\n",
		o->inside_icount ? "icount guest's" : "host",
		doctor_item_ok(c->doctor, "pmu") ? "yes" : "no",
		doctor_item_ok(c->doctor, "kprobes") ? "yes" : "no",
		doctor_item_ok(c->doctor, "fentry") ? "yes" : "no",
		doctor_item_ok(c->doctor, "tracepoints") ? "yes" : "no",
		c->remote ? "; kvm " : "",
		c->remote ? (doctor_item_ok(c->doctor, "kvm") ? "yes" : "no") : "");
	if (c->o.flame && c->remote) {
		c->o.flame = false;
		fprintf(stderr, "xdptc: flame graphs: not for a guest (the host's perf sees qemu, "
				"not the guest's kernel)\n");
	} else if (c->o.flame && !doctor_item_ok(c->doctor, "perf")) {
		c->o.flame = false;
		fprintf(stderr, "xdptc: flame graphs: skipped, %s\n",
			doctor_item_detail(c->doctor, "perf"));
	}
	if (!c->remote && !doctor_item_ok(c->doctor, "xdp_native_veth"))
		fprintf(stderr, "xdptc: doctor: native XDP on veth: %s\n",
			doctor_item_detail(c->doctor, "xdp_native_veth"));
	return 0;
}

/* Phase 2: the topology up and the DUT reached (locally, or the guest's agent).
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
	if (run_topology_cmd(o, o->topology, "up", t) || !t->dut_dev[0]) {
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
	if (c->remote) {
		/* under icount with the plugin, code changes in the guest (kprobes, BPF
		 * trampolines) retranslate its code, instrumented: a request may take minutes
		 * (fentry's counters took over 30 s on 6.16 and 6.18) */
		if (dut_remote_connect(&c->dut, t->ctl_sock, c->icount_dut ? AGENT_TIMEOUT_ICOUNT_MS : AGENT_TIMEOUT_MS, c->why,
				       sizeof(c->why))) {
			fprintf(stderr, "xdptc: %s\n", c->why);
			return -1;
		}
		fprintf(stderr, "xdptc: guest kernel %s under %s%s\n", t->guest_kernel, t->accel,
			strcmp(t->accel, "kvm") ? ": times are emulation times" : "");
	} else {
		dut_local_init(&c->dut, t->dut_ns, t->dut_dev);
	}
	c->have_dut = true;
	return 0;
}

/* Keep every CPU but @cpu for task @pid (all CPUs when @cpu < 0). Returns 0 or -1. */
static int keep_off_cpu(pid_t pid, int cpu)
{
	cpu_set_t set;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	CPU_ZERO(&set);
	for (long i = 0; i < ncpu; i++)
		if (i != cpu)
			CPU_SET((int)i, &set);
	return sched_setaffinity(pid, sizeof(set), &set);
}

/* Phase 3: what every trial needs (struct trial_env): the sender's side, the DUT, and
 * where CPU time is read. Returns 0 or -1 (said why). */
static int run_trial_env(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	struct trial_env *env = &c->env;

	memset(env, 0, sizeof(*env));
	env->dut = &c->dut;
	env->cpu_source = c->remote ? (c->icount_dut ? CPU_GUEST_SOFTIRQ : CPU_GUEST_VCPU)
				    : CPU_SENDER_AND_SOFTIRQ;
	if (c->remote) {
		env->qemu_pid = atoi(c->topo.qemu_pid);
		if (env->qemu_pid <= 0 || vcpu_threads_find(env->qemu_pid, &env->vcpus) <= 0) {
			fprintf(stderr, "xdptc: cannot find the guest's vCPU threads (qemu pid '%s')\n",
				c->topo.qemu_pid);
			return -1;
		}
		/* keep the guest's vCPU off the sender's CPU: they would take turns */
		for (int i = 0; i < env->vcpus.n; i++)
			keep_off_cpu(env->vcpus.pid[i], o->sender_cpu);
	}
	/* veth: the receive path the sender starts runs on the sender's CPU (netif_rx's
	 * backlog and veth's NAPI are that CPU's), in its context or its ksoftirqd, or in a
	 * threaded NAPI's thread: the other CPUs' ksoftirqd run other work (this process's
	 * deferred frees after a detach among it), not the packets' */
	if (!c->remote && o->sender_cpu >= 0)
		softirq_tasks_find_cpu(o->sender_cpu, &c->dut.softirq);
	env->snd_netns = c->topo.snd_ns;
	env->snd_dev = c->topo.snd_dev;
	env->veth_pair = !c->remote;
	env->dst_addr = c->topo.dut_addr;
	env->src_addr = c->topo.snd_addr;
	env->dst_mac = c->topo.dut_mac;
	env->sender = o->sender;
	env->port = o->port;
	env->send_port = o->port;
	env->payload_len = o->payload_len;
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

/* Pin the DUT's threaded-NAPI threads (to --napi-cpu, or off the sender's CPU) at
 * SCHED_FIFO 50, record them for the stall probe, and keep this process on the sender's
 * CPU. */
static void napi_threads_pin(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	const char *dev = c->topo.dut_dev;
	struct softirq_tasks t;
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int pinned = 0, fifo = 0;

	napi_threads_find(dev, &t);
	for (int i = 0; i < t.n; i++) {
		cpu_set_t set;
		/* real-time priority: the DUT gets its CPU when packets wait, so a rate search
		 * measures the receive path, not how long unrelated tasks on that CPU keep it
		 * waiting (a 3 ms time slice overflows a 256-frame veth ring at ~85 kpps) */
		struct sched_param sp = { .sched_priority = 50 };

		CPU_ZERO(&set);
		for (long cpu = 0; cpu < ncpu; cpu++)
			if (o->napi_cpu >= 0 ? cpu == o->napi_cpu : cpu != o->sender_cpu)
				CPU_SET((int)cpu, &set);
		pinned += !sched_setaffinity(t.pid[i], sizeof(set), &set);
		if (c->n_napi < NAPI_DELAY_MAX_PIDS)
			c->napi_pids[c->n_napi++] = t.pid[i];
		fifo += !sched_setscheduler(t.pid[i], SCHED_FIFO, &sp);
	}
	if (o->napi_cpu >= 0)
		fprintf(stderr, "xdptc: threaded NAPI on for %s (%d thread(s) pinned to CPU %d%s, "
				"%d at SCHED_FIFO 50)\n",
			dev, pinned, o->napi_cpu, o->napi_cpu == o->sender_cpu ? ", the sender's" : "",
			fifo);
	else
		fprintf(stderr, "xdptc: threaded NAPI on for %s (%d thread(s) kept off CPU %d, %d "
				"at SCHED_FIFO 50)\n",
			dev, pinned, o->sender_cpu, fifo);
	c->napi_sched = fifo ? "SCHED_FIFO 50" : "SCHED_OTHER";
	/* and this process stays on the sender's CPU: its own work between trials must not
	 * keep the DUT's thread waiting */
	if (o->sender_cpu >= 0) {
		cpu_set_t self;

		CPU_ZERO(&self);
		CPU_SET(o->sender_cpu, &self);
		if (sched_setaffinity(0, sizeof(self), &self))
			fprintf(stderr, "xdptc: note: cannot keep xdptc on CPU %d: %s\n",
				o->sender_cpu, strerror(errno));
	}
	/* its CPU time is the packets' cost too */
	softirq_tasks_find_cpu(o->sender_cpu, &c->dut.softirq);
}

/* Phase 4 (veth): NAPI on the DUT's veth where the run needs it: GRO on for XDP frames
 * or a threaded NAPI, and the threaded NAPI itself (--threaded-napi), whose loss then
 * shows the receive path's capacity. */
static void run_veth_napi(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	const struct topology *t = &c->topo;
	char cmd[256];

	if (c->remote || (o->sender != SENDER_XDP_LIVE && !o->threaded_napi))
		return;
	/* XDP frames, and a threaded NAPI, need NAPI on the receiving veth: GRO on gives it
	 * without a program */
	snprintf(cmd, sizeof(cmd), "ip netns exec '%s' ethtool -K '%s' gro on >/dev/null",
		 t->dut_ns, t->dut_dev);
	if (system(cmd))
		fprintf(stderr, "xdptc: note: turning GRO on for %s failed\n", t->dut_dev);
	else
		fprintf(stderr, "xdptc: GRO on for %s (veth's NAPI mode, for XDP frames or a "
				"threaded NAPI)\n", t->dut_dev);
	if (!o->threaded_napi)
		return;
	snprintf(cmd, sizeof(cmd), "ip netns exec '%s' sh -c 'echo 1 > /sys/class/net/%s/threaded'",
		 t->dut_ns, t->dut_dev);
	if (system(cmd))
		fprintf(stderr, "xdptc: note: threaded NAPI could not be turned on for %s\n",
			t->dut_dev);
	else
		napi_threads_pin(c);
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
		: c->remote ? "the guest's vCPU thread time" : "per-task CPU time");
	if (c->perf_n)
		fprintf(stderr, "xdptc: perf stat counts %s over each timing window on %s%s%s\n",
			o->pmu_events, c->remote ? "the guest's vCPU threads"
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

/* The guest's own doctor report, from inside, as run.json's "guest_doctor" (nothing
 * when the guest cannot say). */
static void run_guest_doctor(struct run_ctx *c)
{
	char out[65536], self[PATH_MAX - 32], cmd[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	int st = 0, e;
	json_t *gd;

	/* the host's root is the guest's: the same path runs there */
	self[n > 0 ? n : 0] = '\0';
	snprintf(cmd, sizeof(cmd), "%s doctor --json --guest", self);
	fprintf(stderr, "xdptc: asking the guest what its kernel offers\n");
	e = n > 0 ? dut_exec(&c->dut, cmd, &st, out, sizeof(out)) : -ENOENT;
	if (e || st || !(gd = json_loads(out, 0, NULL))) {
		fprintf(stderr, "xdptc: note: the guest's doctor gave no report (%s); run.json will "
				"have no guest_doctor\n",
			e ? strerror(-e) : st ? "it failed" : "not JSON");
		return;
	}
	fprintf(stderr, "xdptc: guest doctor: kprobes %s; fentry %s; tracepoints %s; "
			"bpf_stats %s\n",
		doctor_item_ok(gd, "kprobes") ? "yes" : "no",
		doctor_item_ok(gd, "fentry") ? "yes" : "no",
		doctor_item_ok(gd, "tracepoints") ? "yes" : "no",
		doctor_item_ok(gd, "bpf_stats") ? "yes" : "no");
	json_object_set_new(c->run, "guest_doctor", gd);
}

/* Phase 6: run.json's head: schema, time, topology, machine, engine, guest, settings
 * (with the perf events and their scope), capabilities, doctor, the guest's doctor. */
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
	json_object_set_new(run, "machine", machine_json());
	json_object_set_new(run, "time_metric", json_string(c->time_key));
	json_object_set_new(run, "engine", engine_json(o, c->icount_dut ? &c->topo : NULL));
	if (c->remote)
		json_object_set_new(run, "guest", guest_json(&c->topo));
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
			    c->perf_n ? json_string(c->remote ? "the guest's vCPU threads (host side)"
							      : "the sender thread and the DUT's "
								"softirq/NAPI threads, as "
								"cpu_ns_per_pkt")
				      : json_null());
	if (!c->perf_n)
		json_object_set_new(set, "perf_events_reason", json_string(c->pmu_why));
	json_object_set_new(run, "doctor", c->doctor);
	c->doctor = NULL;
	if (c->remote)
		run_guest_doctor(c);
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

/* The profile pass's flame graph of arm @label (from its perf data in the run
 * directory, the trial @r), recorded in run.json's "flamegraphs": with the sampling
 * period ("period", in "period_unit") and the trial's packets at the DUT, a profile's
 * samples x period / packets is per packet. */
static void run_flamegraph(struct run_ctx *c, const char *label, const struct trial_result *r)
{
	const char *unit = c->icount_clock ? "guest instructions" : "ns";
	char sub[200], rate[96], data[PATH_MAX + 64];
	long n;
	json_t *fg = json_object();

	if (c->o.profile_period)
		snprintf(rate, sizeof(rate), "-c %llu (a sample every %llu %s)",
			 (unsigned long long)c->o.profile_period,
			 (unsigned long long)c->o.profile_period, unit);
	else
		snprintf(rate, sizeof(rate), "-F 997");
	snprintf(sub, sizeof(sub), "perf record -a -g -e cpu-clock %s%s; %s packets; widths "
		 "are samples", rate, c->have_pmu || c->icount_clock ? "" :
		 " (software clock: this machine has no PMU)", label);
	profile_data_path(&c->o, c->dir, label, data, sizeof(data));
	n = make_flamegraph(data, c->dir, label, sub);
	json_object_set_new(fg, "mode", json_string(label));
	json_object_set_new(fg, "event", json_string("cpu-clock"));
	json_object_set_new(fg, "period", c->o.profile_period ?
			    json_integer((json_int_t)c->o.profile_period) : json_null());
	json_object_set_new(fg, "period_unit", json_string(unit));
	json_object_set_new(fg, "pkts_at_dut", json_integer((json_int_t)r->pkts_at_dut));
	if (n > 0) {
		char f[64];

		snprintf(f, sizeof(f), "flame-%s.svg", label);
		json_object_set_new(fg, "svg", json_string(f));
		snprintf(f, sizeof(f), "flame-%s.folded", label);
		json_object_set_new(fg, "folded", json_string(f));
		json_object_set_new(fg, "samples", json_integer(n));
	} else {
		json_object_set_new(fg, "error", json_string(strerror((int)-n)));
	}
	json_array_append_new(c->flames, fg);
}

/* One repetition @rep of pass @p: every arm once, in the seeded order. Returns 0,
 * -EINTR when stopped, or -EIO when a trial failed (c->why says which and why). */
static int run_pass_rep(struct run_ctx *c, int p, int rep)
{
	const struct run_opts *o = &c->o;
	char profile_path[PATH_MAX + 64];
	int order[RUN_MAX_MODES];

	shuffle_arms(o, p, rep, order);
	for (int i = 0; i < o->nmodes && !run_stopped(); i++) {
		struct trial_result r;
		enum drop_mode mode = o->modes[order[i]];
		const char *label = arm_label(o, order[i]);
		int e;

		if (p == PASS_BPFSTATS && mode == MODE_NONE)
			continue;
		if (p == PASS_PROFILE && order[i] == o->aa_arm)
			continue; /* the same flame graph twice says nothing */
		if (p == PASS_PROFILE) {
			profile_data_path(o, c->dir, label, profile_path, sizeof(profile_path));
			c->env.profile_path = profile_path;
			c->env.profile_period = o->profile_period;
		}
		e = trial_run(&c->env, mode, (enum trial_pass)p,
			      p == PASS_PROFILE ? o->profile_packets : o->packets, &r);
		if (e)
			trial_result_release(&r);
		if (e == -EINTR || run_stopped())
			return -EINTR;
		if (e && p == PASS_PROFILE) {
			/* a flame graph is an explanation, not a measurement: its loss is said
			 * (run.json, summary) and the run goes on */
			fprintf(stderr, "xdptc: profile trial of %s failed, no flame graph: %s\n",
				label, r.error);
			json_array_append_new(c->flames, json_pack("{s:s, s:s, s:s}", "mode", label,
								   "event", "cpu-clock", "error",
								   r.error));
			continue;
		}
		if (e) {
			snprintf(c->why, sizeof(c->why), "%s trial of %s (rep %d) failed: %s",
				 trial_pass_name((enum trial_pass)p), label, rep + 1, r.error);
			fprintf(stderr, "xdptc: %s\n", c->why);
			return -EIO;
		}
		json_array_append_new(c->trials, trial_json(&r, label, rep, c->seq++, &c->ci.plan,
							    c->time_key));
		progress_line(&c->prog, &r, label, rep, pass_reps(o, p), &c->ci.plan);
		run_insns_add(&c->insns.arm[order[i]], &r);
		if (p == PASS_PROFILE)
			run_flamegraph(c, label, &r);
	}
	return run_stopped() ? -EINTR : 0;
}

/* The timing pass as an alternation of short windows (run_timing.h): one sender for the
 * whole pass, the noise measured and the schedule chosen, then every block's trials (one
 * per arm: its windows summed, listed in the trial's "windows"). Returns as
 * run_pass_rep. */
static int run_timing_alternating(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	struct trial_session s;
	uint64_t t0;
	int e;

	cpu_set_t saved_cpus;
	bool pinned = false;

	c->env.settle_us = c->remote ? SETTLE_US_REMOTE : SETTLE_US_LOCAL;
	/* each mode's program loaded once, not per window (a local DUT) */
	dut_keep_programs(&c->dut, true);
	/* this process (attach, detach, snapshots) off the sender's CPU: the work it leaves
	 * behind there (RCU callbacks, deferred frees) would run inside the next window */
	if (!o->threaded_napi && o->sender_cpu >= 0 &&
	    !sched_getaffinity(0, sizeof(saved_cpus), &saved_cpus))
		pinned = !keep_off_cpu(0, o->sender_cpu);
	e = trial_session_open(&c->env, PASS_TIMING, &s, c->why, sizeof(c->why));
	if (!e) { /* the noise without perf (its start per window would be the overhead) */
		int np = c->env.perf_nevents;

		c->env.perf_nevents = 0;
		e = timing_calibrate(o, &s, &c->plan, c->why, sizeof(c->why));
		c->env.perf_nevents = np;
	}
	if (!e)
		json_object_set_new(c->run, "timing_schedule", timing_plan_json(&c->plan));
	t0 = clock_ns(CLOCK_MONOTONIC);
	for (int b = 0; !e && b < c->plan.blocks && !run_stopped(); b++) {
		struct trial_result agg[RUN_MAX_MODES];
		json_t *win[RUN_MAX_MODES];

		/* the budget holds: when the blocks so far took longer than foreseen, the rest
		 * get fewer rounds (by the time alone, never by what was measured) */
		if (b) {
			double spent = (double)(clock_ns(CLOCK_MONOTONIC) - t0) / 1e9;
			double left = c->plan.budget_s - spent, per_round = spent / b /
									  c->plan.rounds_per_block;
			int fit = (int)(left / (c->plan.blocks - b) / per_round);

			fit -= fit % 2;
			if (fit < c->plan.rounds_per_block) {
				c->plan.rounds_per_block = fit > 2 ? fit : 2;
				c->plan.rounds_cut = true;
			}
		}
		e = timing_block(o, &s, &c->plan, b, t0, agg, win, c->why, sizeof(c->why));
		for (int a = 0; !e && a < o->nmodes; a++) {
			json_t *t = trial_json(&agg[a], arm_label(o, a), b, c->seq++, &c->ci.plan,
					       c->time_key);

			json_object_set_new(t, "windows", win[a]);
			json_array_append_new(c->trials, t);
			progress_line(&c->prog, &agg[a], arm_label(o, a), b, c->plan.blocks,
				      &c->ci.plan);
		}
	}
	if (c->plan.rounds_cut) { /* the schedule as planned, and what the budget left */
		json_t *ts = json_object_get(c->run, "timing_schedule");

		json_object_set_new(ts, "rounds_cut", json_true());
		json_object_set_new(ts, "rounds_last_block", json_integer(c->plan.rounds_per_block));
	}
	trial_session_close(&s);
	dut_keep_programs(&c->dut, false);
	if (pinned)
		sched_setaffinity(0, sizeof(saved_cpus), &saved_cpus);
	c->env.settle_us = 0;
	if (e == -EINTR || run_stopped())
		return -EINTR;
	if (e) {
		char w[sizeof(c->why)];

		snprintf(w, sizeof(w), "%s", c->why);
		snprintf(c->why, sizeof(c->why), "the timing pass failed: %s", w);
		fprintf(stderr, "xdptc: %s\n", c->why);
		return -EIO;
	}
	return 0;
}

/* Phase 8: the passes (timing, count, bpfstats, profile), each repeated with its arms
 * interleaved. Returns 0, -EINTR when stopped, or -EIO (c->why). */
static int run_passes(struct run_ctx *c)
{
	const struct run_opts *o = &c->o;
	int e = 0;

	c->trials = json_array();
	json_object_set_new(c->run, "trials", c->trials);
	c->flames = json_array();
	json_object_set_new(c->run, "flamegraphs", c->flames);
	memset(&c->prog, 0, sizeof(c->prog));
	c->prog.no_eta = o->inside_icount;
	c->prog.instructions = c->icount_clock;
	for (int p = 0; p < PASS_NR; p++)
		c->prog.total += pass_reps(o, p) * pass_modes(o, p);
	clock_gettime(CLOCK_MONOTONIC, &c->prog.start);

	for (int p = 0; p < PASS_NR && !e && !run_stopped(); p++) {
		bool stats_on = false;

		/* perf stat in the timing pass only (never beside probes or BPF statistics) */
		c->env.perf_events = c->perf_events;
		c->env.perf_nevents = p == PASS_TIMING ? c->perf_n : 0;
		c->env.perf_event_list = o->pmu_events;
		if (p == PASS_PROFILE && !pass_reps(o, p))
			continue;
		if (p == PASS_BPFSTATS) {
			e = dut_bpf_stats(&c->dut, true);
			if (e) {
				fprintf(stderr, "xdptc: BPF statistics cannot be enabled (%s); "
						"bpf_ns_per_run will be n/a\n", strerror(-e));
				c->prog.total -= pass_reps(o, p) * pass_modes(o, p);
				e = 0;
				continue;
			}
			stats_on = true;
		}
		if (p == PASS_COUNT) {
			if (dut_counters_open(&c->dut, o->counter_order, o->cross_check, &c->ci,
					      c->why, sizeof(c->why))) {
				fprintf(stderr, "xdptc: %s\n", c->why);
				return -EIO;
			}
			c->counters_open = true;
		}
		if (p == PASS_TIMING && c->plan.alternating)
			e = run_timing_alternating(c);
		for (int rep = 0; rep < pass_reps(o, p) && !e && !(p == PASS_TIMING &&
								  c->plan.alternating); rep++)
			e = run_pass_rep(c, p, rep);
		if (stats_on)
			dut_bpf_stats(&c->dut, false);
		if (c->counters_open) {
			dut_counters_close(&c->dut);
			c->counters_open = false;
		}
	}
	return e ? e : run_stopped() ? -EINTR : 0;
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
	if (write_results(c->run, c->dir, incomplete ? 1 : c->o.quiet))
		return -EIO;
	c->keep_dir = true;
	if (incomplete) {
		fprintf(stderr, "xdptc: the trials measured before the failure are in %s/ "
				"(marked incomplete)\n", c->dir);
		return 0;
	}
	if (plots_write(c->run, c->dir, perr, sizeof(perr)) < 0)
		fprintf(stderr, "xdptc: plots: %s\n", perr);
	if (c->o.dir_out)
		snprintf(c->o.dir_out, c->o.dir_out_len, "%s", c->dir);
	fprintf(stderr, "xdptc: results in %s/ (run.json, summary.md, plots%s)\n", c->dir,
		c->o.flame ? ", flame graphs" : "");
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
		run_topology_cmd(&c->o, c->o.topology, "down", &c->topo);
	}
	json_decref(c->run);
	json_decref(c->doctor);
	run_insns_free(&c->insns);
	if (c->dir[0] && !c->keep_dir) /* nothing worth keeping: remove the empty (or partial)
					* directory */
		remove_run_dir(c->dir);
	if (c->lock_fd >= 0)
		close(c->lock_fd);
}

int run_main(const struct run_opts *opts)
{
	static struct run_ctx ctx; /* large; one run at a time (cmd_sweep runs them in turn) */
	struct run_ctx *c = &ctx;
	int status = 1, e;

	/* veth under icount: the whole experiment moves into a guest (engine_icount.c);
	 * virtio under icount: the guest is the DUT, driven from here as always */
	if (opts->engine == ENGINE_ICOUNT && !opts->inside_icount && !strcmp(opts->topology, "veth"))
		return icount_engine_run(opts);
	memset(c, 0, sizeof(*c));
	c->o = *opts;
	c->lock_fd = -1;
	c->remote = !strcmp(opts->topology, "virtio");
	c->icount_dut = c->remote && opts->engine == ENGINE_ICOUNT;
	c->icount_clock = c->icount_dut || opts->inside_icount;
	c->time_key = c->icount_clock ? "guest_instructions_per_pkt" : "cpu_ns_per_pkt";
	/* auto: alternating on a local DUT of the host engine; a guest DUT's attach takes
	 * longer than windows are worth there (docs/method.md), an icount clock has next to
	 * no noise */
	c->plan.alternating = opts->schedule == SCHEDULE_ALTERNATING ||
			      (opts->schedule == SCHEDULE_AUTO && !c->icount_clock && !c->remote);
	if (run_prepare(c) || run_stopped() || run_topology_up(c) || run_trial_env(c))
		goto out;
	run_veth_napi(c);
	if (run_metrics_plan(c))
		goto out;
	run_json_head(c);
	if (run_check_rx_path(c))
		goto out;
	e = run_passes(c);
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
