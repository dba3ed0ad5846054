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

#include "report.h" /* RUN_SCHEMA */
#include "run_internal.h"

static volatile int g_stop;

bool run_stopped(void)
{
	return g_stop;
}
/* the trials' time metric: CPU time, or inside the icount engine's guest instructions */
static const char *g_time_key = "cpu_ns_per_pkt";

/* a topology script's `up` running now: its process group (its own, see
 * run_topology_cmd), told of a stop so that it removes what it made and ends */
static volatile pid_t g_topology_up_pgid;

static void on_signal(int sig)
{
	(void)sig;
	g_stop = 1;
	if (trial_child_pid > 0)
		kill(trial_child_pid, SIGKILL);
	if (g_topology_up_pgid > 0)
		kill(-g_topology_up_pgid, SIGTERM);
}

void run_signals_install(void)
{
	struct sigaction sa;

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	/* a closed stdout (| head) or a dead sender's pipe: write() fails instead, and the
	 * run goes on to its normal end and cleanup */
	signal(SIGPIPE, SIG_IGN);
}

/* ---- topology ---- */


static void copy_val(char *dst, size_t len, const char *line, const char *key)
{
	size_t k = strlen(key);

	if (!strncmp(line, key, k) && line[k] == '=') {
		snprintf(dst, len, "%s", line + k + 1);
		dst[strcspn(dst, "\n")] = '\0';
	}
}

int run_topology_cmd(const struct run_opts *o, const char *topology, const char *verb,
		     struct topology *t)
{
	char path[PATH_MAX], line[256], owner[16];
	pid_t parent = getpid(), pid;
	int fds[2], st = 0;
	FILE *p;

	snprintf(path, sizeof(path), "%s/%s.sh", o->topologies_dir, topology);
	snprintf(owner, sizeof(owner), "%d", (int)parent);
	if (pipe2(fds, O_CLOEXEC))
		return -errno;
	fflush(stdout);
	fflush(stderr);
	pid = fork();
	if (pid < 0) {
		int e = -errno;

		close(fds[0]);
		close(fds[1]);
		return e;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDONLY | O_CLOEXEC);

		/* a process group of its own: the script and everything it starts are told of
		 * a stop together; a terminal's ^C reaches them through on_signal */
		setpgid(0, 0);
		/* this run killed (SIGKILL): the script hears it at once, stops whatever it
		 * was doing and removes what it made (topologies/lib.sh watches too) */
		prctl(PR_SET_PDEATHSIG, SIGTERM);
		if (getppid() != parent)
			_exit(1);
		if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(fds[1], STDOUT_FILENO) < 0)
			_exit(126);
		setenv("XDPTC_OWNER_PID", owner, 1);
		execlp("sh", "sh", path, verb, t->prefix, (char *)NULL);
		_exit(127);
	}
	setpgid(pid, pid);
	close(fds[1]);
	/* only `up` is stopped early: a `down` always runs to its end */
	if (!strcmp(verb, "up"))
		g_topology_up_pgid = pid;
	p = fdopen(fds[0], "r");
	if (!p) {
		close(fds[0]);
	} else {
		for (;;) {
			if (!fgets(line, sizeof(line), p)) {
				if (ferror(p) && errno == EINTR) { /* a signal: read on to the end */
					clearerr(p);
					continue;
				}
				break;
			}
			copy_val(t->snd_ns, sizeof(t->snd_ns), line, "SND_NS");
			copy_val(t->dut_ns, sizeof(t->dut_ns), line, "DUT_NS");
			copy_val(t->snd_dev, sizeof(t->snd_dev), line, "SND_DEV");
			copy_val(t->dut_dev, sizeof(t->dut_dev), line, "DUT_DEV");
			copy_val(t->snd_addr, sizeof(t->snd_addr), line, "SND_ADDR");
			copy_val(t->dut_addr, sizeof(t->dut_addr), line, "DUT_ADDR");
			copy_val(t->dut_mac, sizeof(t->dut_mac), line, "DUT_MAC");
			copy_val(t->ctl_sock, sizeof(t->ctl_sock), line, "CTL_SOCK");
			copy_val(t->accel, sizeof(t->accel), line, "ACCEL");
			copy_val(t->accel_reason, sizeof(t->accel_reason), line, "ACCEL_REASON");
			copy_val(t->guest_kernel, sizeof(t->guest_kernel), line, "GUEST_KERNEL");
			copy_val(t->qemu_version, sizeof(t->qemu_version), line, "QEMU_VERSION");
			copy_val(t->qemu_pid, sizeof(t->qemu_pid), line, "QEMU_PID");
			copy_val(t->icount, sizeof(t->icount), line, "ICOUNT");
		}
		fclose(p);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	g_topology_up_pgid = 0;
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}

/* ---- machine and capabilities ---- */

void machine_cpu_model(char *buf, size_t len)
{
	char line[256];
	FILE *f = fopen("/proc/cpuinfo", "r");

	snprintf(buf, len, "unknown");
	while (f && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!strncmp(line, "model name", 10) && colon) {
			snprintf(buf, len, "%s", colon + 2);
			buf[strcspn(buf, "\n")] = '\0';
			break;
		}
	}
	if (f)
		fclose(f);
}

static json_t *machine_json(void)
{
	struct utsname u;
	char model[160];
	json_t *m = json_object();

	machine_cpu_model(model, sizeof(model));
	uname(&u);
	json_object_set_new(m, "cpu_model", json_string(model));
	json_object_set_new(m, "cpus", json_integer(sysconf(_SC_NPROCESSORS_ONLN)));
	json_object_set_new(m, "kernel_release", json_string(u.release));
	json_object_set_new(m, "kernel_version", json_string(u.version));
	json_object_set_new(m, "arch", json_string(u.machine));
	return m;
}

/* Where the run measured: "host", or "icount" with what the guest, qemu and the host
 * were. The virtio engine knows them here (@icount_guest, its topology); inside the veth
 * engine's guest the host passes them in the environment (XDPTC_ICOUNT_*, set by
 * engine_icount.c). */
static json_t *engine_json(const struct run_opts *o, const struct topology *icount_guest)
{
	struct utsname u;
	char cpu[160];
	json_t *e = json_object();
	const char *qemu = getenv("XDPTC_ICOUNT_QEMU"), *args = getenv("XDPTC_ICOUNT_ARGS");
	const char *host_cpu = getenv("XDPTC_ICOUNT_HOST_CPU");
	const char *host_kernel = getenv("XDPTC_ICOUNT_HOST_KERNEL");
	const char *guest_kernel;

	if (!icount_guest && !o->inside_icount) {
		json_object_set_new(e, "name", json_string("host"));
		return e;
	}
	uname(&u);
	guest_kernel = u.release;
	if (icount_guest) { /* this host is the host */
		machine_cpu_model(cpu, sizeof(cpu));
		qemu = icount_guest->qemu_version;
		args = icount_guest->icount;
		guest_kernel = icount_guest->guest_kernel;
		host_cpu = cpu;
		host_kernel = u.release;
	}
	json_object_set_new(e, "name", json_string("icount"));
	json_object_set_new(e, "guest_kernel", json_string(guest_kernel));
	json_object_set_new(e, "qemu", json_string(qemu ? qemu : "unknown"));
	json_object_set_new(e, "icount", json_string(args ? args : "unknown"));
	json_object_set_new(e, "host_cpu_model", json_string(host_cpu ? host_cpu : "unknown"));
	json_object_set_new(e, "host_kernel", json_string(host_kernel ? host_kernel : "unknown"));
	json_object_set_new(e, "conversion",
			    json_string(icount_guest
				? "-icount shift=0: the guest clock advances 1 ns per guest "
				  "instruction, so the guest's NAPI thread and ksoftirqd CPU time in "
				  "ns counts instructions; guest_instructions_per_pkt = those ns over "
				  "pkts_at_dut"
				: "-icount shift=0: the guest clock advances 2^0 = 1 ns per guest "
				  "instruction, so per-task CPU time in ns (schedstat, "
				  "CLOCK_THREAD_CPUTIME_ID) counts instructions; "
				  "guest_instructions_per_pkt = those ns over pkts_at_dut"));
	return e;
}

/* ---- trials as JSON ---- */

/* @v per packet; NaN when no packet reached the DUT: unknown, never 0 */
static double per_pkt(uint64_t v, uint64_t pkts)
{
	return pkts ? (double)v / (double)pkts : NAN;
}

/* A number for run.json: null when unknown (NaN; jansson has no NaN) */
static json_t *real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

/* The perf stat figures of timing trial @r into @t: "perf" (per event its value, unit,
 * running percentage and the lines summed, or null with perf's reason), and per event
 * E_per_pkt over pkts_at_dut (null when uncounted), E_pct_running when below 100,
 * "ipc" when cycles and instructions both counted, "perf_enabled_ns" (the counted
 * window) and "perf_error" when perf stat failed. */
static void perf_json(json_t *t, const struct trial_result *r)
{
	json_t *pj = json_object();
	double cyc = NAN, ins = NAN;

	for (int i = 0; i < r->perf_n; i++) {
		const struct perf_stat_value *v = &r->perf[i];
		json_t *o = json_object();
		bool ok = r->have_perf && v->counted;
		char k[112];

		json_object_set_new(o, "value", ok ? json_real(v->value) : json_null());
		if (ok) {
			json_object_set_new(o, "unit", json_string(v->unit));
			json_object_set_new(o, "pct_running", json_real(v->pct_running));
			json_object_set_new(o, "lines", json_integer(v->lines));
			if (v->user_only) /* perf's :u fallback: user space only */
				json_object_set_new(o, "user_only", json_true());
		} else {
			json_object_set_new(o, "reason", json_string(r->perf_error[0] ? r->perf_error
										: v->reason));
		}
		json_object_set_new(pj, v->event, o);
		json_object_set_new(t, v->metric,
				    ok && r->pkts_at_dut ? json_real(v->value / (double)r->pkts_at_dut)
							 : json_null());
		if (ok && v->pct_running < 100) {
			snprintf(k, sizeof(k), "%.*s_pct_running",
				 (int)(strlen(v->metric) - strlen("_per_pkt")), v->metric);
			json_object_set_new(t, k, json_real(v->pct_running));
		}
		if (ok && !strcmp(v->event, "cycles"))
			cyc = v->value;
		if (ok && !strcmp(v->event, "instructions"))
			ins = v->value;
	}
	json_object_set_new(t, "perf", pj);
	if (isfinite(cyc) && isfinite(ins) && cyc > 0)
		json_object_set_new(t, "ipc", json_real(ins / cyc));
	if (r->perf_enabled_ns)
		json_object_set_new(t, "perf_enabled_ns", json_integer((json_int_t)r->perf_enabled_ns));
	if (r->perf_error[0])
		json_object_set_new(t, "perf_error", json_string(r->perf_error));
}

static json_t *trial_json(const struct trial_result *r, const char *label, int rep, int seq,
			  const struct skb_counters_plan *plan)
{
	json_t *t = json_object();
	const uint64_t *c = r->counts.v;

#define SETI(k, v) json_object_set_new(t, k, json_integer((json_int_t)(v)))
#define SETR(k, v) json_object_set_new(t, k, real_or_null(v))
	json_object_set_new(t, "pass", json_string(trial_pass_name(r->pass)));
	SETI("rep", rep);
	SETI("seq", seq);
	json_object_set_new(t, "mode", json_string(label));
	json_object_set_new(t, "kernel_mode", json_string(r->kernel_mode));
	SETI("prog_id", r->prog_id);
	SETI("sent", r->sent);
	SETI("dropped", r->dropped);
	SETI("passed", r->passed);
	SETI("dut_rx_packets", r->dut_rx_packets);
	SETI("dut_rx_dropped", r->dut_rx_dropped);
	SETI("snd_tx_dropped", r->snd_tx_dropped);
	SETI("lost_before_dut", r->lost_before_dut);
	SETI("pkts_at_dut", r->pkts_at_dut);
	SETI("unexplained_loss", r->unexplained);
	json_object_set_new(t, "valid", json_boolean(r->valid));
	if (!r->valid)
		json_object_set_new(t, "invalid_reason", json_string(r->invalid_reason));
	if (r->bpf_stats_on)
		json_object_set_new(t, "bpf_stats_on", json_true());
	SETI("wall_ns", r->wall_ns);
	SETI("sender_cpu_ns", r->sender_cpu_ns);
	SETI("softirq_thread_cpu_ns", r->softirq_cpu_ns);
	SETI("cpus_busy_ns", r->cpus_busy_ns);
	if (!r->vcpu_ns && g_time_key[0] != 'g') { /* the host's own measured tasks */
		SETI("steal_ns", r->steal_ns);
		SETI("other_busy_ns", r->other_busy_ns);
		json_object_set_new(t, "other_load", json_boolean(r->other_load));
		json_object_set_new(t, "host_steal", json_boolean(r->host_steal));
	}
	if (r->vcpu_ns)
		SETI("guest_vcpu_ns", r->vcpu_ns);
	SETR(g_time_key, r->cpu_ns_per_pkt);
	SETR("pps", r->wall_ns ? (double)r->sent * 1e9 / (double)r->wall_ns : 0.0);
	if (r->perf_n) /* perf stat over the window: each event, and it per packet */
		perf_json(t, r);
	if (r->have_counts) {
		char backends[128] = "";

		for (int k = 0; k < SKB_COUNT_NR; k++) {
			const char *name = skb_count_name((enum skb_count)k);
			char key[64];

			snprintf(backends + strlen(backends), sizeof(backends) - strlen(backends),
				 "%s%s=%s", k ? "," : "", name, counter_backend_name(plan->backend[k]));
			if (plan->backend[k] == BACKEND_NONE) {
				json_object_set_new(t, name, json_null());
				continue;
			}
			uint64_t v = skb_count_value(c, (enum skb_count)k, plan->backend[k]);

			SETI(name, v);
			snprintf(key, sizeof(key), "%s_per_pkt", name);
			SETR(key, per_pkt(v, r->pkts_at_dut));
			if (plan->also[k]) { /* the same count from the other backends */
				json_t *by = json_object();

				for (int b = 0; b < BACKEND_NR; b++)
					if (b == plan->backend[k] || (plan->also[k] & (1u << b)))
						json_object_set_new(by, counter_backend_name(b),
							json_integer((json_int_t)skb_count_value(
								c, (enum skb_count)k, b)));
				snprintf(key, sizeof(key), "%s_by_backend", name);
				json_object_set_new(t, key, by);
			}
		}
		json_object_set_new(t, "counters_backend", json_string(backends));
		/* the tracepoints' detail, where they were attached */
		if (plan->backend[SKB_STACK_ENTRIES] == BACKEND_TRACEPOINT)
			SETI("stack_entries_any_dev", c[CNT_TP_STACK_ALL]);
		if (plan->backend[SKB_FREED] == BACKEND_TRACEPOINT) {
			SETI("kfree_skb", c[CNT_TP_KFREE_ALL]);
			SETI("consume_skb", c[CNT_TP_CONSUME_ALL]);
			SETI("kfree_skb_on_dut", c[CNT_TP_KFREE_DUT]);
			SETI("consume_skb_on_dut", c[CNT_TP_CONSUME_DUT]);
		}
	}
	if (r->have_bpf_stats) {
		SETI("bpf_run_time_ns", r->bpf_run_time_ns);
		SETI("bpf_run_cnt", r->bpf_run_cnt);
		SETR("bpf_ns_per_run", r->bpf_run_cnt ? (double)r->bpf_run_time_ns /
								 (double)r->bpf_run_cnt
						      : 0.0);
	}
#undef SETI
#undef SETR
	return t;
}

/* ---- order ---- */


const char *arm_label(const struct run_opts *o, int arm)
{
	static char buf[RUN_MAX_MODES][24];

	if (arm == o->aa_arm) {
		snprintf(buf[arm], sizeof(buf[arm]), "%s-aa", drop_mode_name(o->modes[arm]));
		return buf[arm];
	}
	return drop_mode_name(o->modes[arm]);
}

void shuffle_arms(const struct run_opts *o, int pass, int rep, int *out)
{
	uint64_t s = o->seed ^ ((uint64_t)pass << 40) ^ ((uint64_t)rep << 20);

	for (int i = 0; i < o->nmodes; i++)
		out[i] = i;
	for (int i = o->nmodes - 1; i > 0; i--) {
		int j = (int)(stats_splitmix64(&s) % (uint64_t)(i + 1));
		int tmp = out[i];

		out[i] = out[j];
		out[j] = tmp;
	}
}

/* ---- the run ---- */

static json_t *settings_json(const struct run_opts *o)
{
	json_t *s = json_object(), *modes = json_array();

	for (int i = 0; i < o->nmodes; i++)
		json_array_append_new(modes, json_string(arm_label(o, i)));
	json_object_set_new(s, "modes", modes);
	json_object_set_new(s, "packets", json_integer((json_int_t)o->packets));
	json_object_set_new(s, "warmup", json_integer((json_int_t)o->warmup));
	json_object_set_new(s, "reps", json_integer(o->reps));
	json_object_set_new(s, "count_reps", json_integer(o->count_reps));
	json_object_set_new(s, "port", json_integer(o->port));
	json_object_set_new(s, "payload_len", json_integer(o->payload_len));
	/* Ethernet + IPv4 + UDP headers + payload, without the 4-byte FCS */
	json_object_set_new(s, "frame_len", json_integer(o->payload_len + 42));
	json_object_set_new(s, "sender", json_string(sender_name(o->sender)));
	json_object_set_new(s, "sender_cpu", json_integer(o->sender_cpu));
	json_object_set_new(s, "rate_pps", json_integer((json_int_t)o->rate_pps));
	json_object_set_new(s, "seed", json_integer((json_int_t)o->seed));
	json_object_set_new(s, "order", json_string("seeded shuffle per repetition"));
	json_object_set_new(s, "aa", o->aa_arm >= 0 ? json_string(arm_label(o, o->aa_arm)) : json_null());
	json_object_set_new(s, "passes", json_string(o->flame ? "timing, count, bpfstats, profile"
							       : "timing, count, bpfstats"));
	json_object_set_new(s, "flame_graphs", json_boolean(o->flame));
	json_object_set_new(s, "threaded_napi", json_boolean(o->threaded_napi));
	if (o->threaded_napi)
		json_object_set_new(s, "napi_cpu", o->napi_cpu >= 0 ? json_integer(o->napi_cpu)
								  : json_string("not the sender's"));
	return s;
}

static int write_results(json_t *run, const char *dir, int quiet)
{
	char path[PATH_MAX + 32];
	FILE *f;

	snprintf(path, sizeof(path), "%s/run.json", dir);
	if (json_dump_file(run, path, JSON_INDENT(2) | JSON_REAL_PRECISION(17))) {
		fprintf(stderr, "xdptc: cannot write %s\n", path);
		return -EIO;
	}
	snprintf(path, sizeof(path), "%s/summary.md", dir);
	f = fopen(path, "w");
	if (!f || summary_render_md(run, f)) {
		fprintf(stderr, "xdptc: cannot write %s\n", path);
		if (f)
			fclose(f);
		return -EIO;
	}
	fclose(f);
	if (!quiet && !summary_render_md(run, stdout) && /* the answer last, again */
	    json_array_size(json_object_get(json_object_get(run, "summary"), "deltas"))) {
		printf("\n");
		summary_headline(run, stdout);
	}
	fflush(stdout); /* before the lines that follow on stderr */
	return 0;
}

int run_make_parents(const char *path)
{
	char tmp[PATH_MAX];

	snprintf(tmp, sizeof(tmp), "%s", path);
	for (char *p = tmp + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(tmp, 0755) && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return mkdir(tmp, 0755) && errno != EEXIST ? -errno : 0;
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

/* One run at a time per machine: concurrent runs would share CPUs and bias each
 * other's numbers. Returns the lock fd, or -1 with the holder's pid in *@holder. */
static int run_lock_take(int *holder)
{
	char buf[32];
	int fd, n;

	*holder = 0;
	mkdir(XDPTC_STATE_DIR, 0755);
	fd = open(XDPTC_STATE_DIR "/run.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		return -1;
	for (int tries = 0; flock(fd, LOCK_EX | LOCK_NB); tries++) {
		n = (int)pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			*holder = atoi(buf);
		}
		/* a holder that is gone (killed): the lock lives on in the forked children it
		 * left (a sender), which PR_SET_PDEATHSIG is killing; wait up to 3 s for them */
		if (*holder > 0 && kill(*holder, 0) && errno == ESRCH && tries < 60) {
			struct timespec ts = { 0, 50 * 1000 * 1000 };

			nanosleep(&ts, NULL);
			continue;
		}
		close(fd);
		return -1;
	}
	n = snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	if (ftruncate(fd, 0) || pwrite(fd, buf, (size_t)n, 0) != n)
		fprintf(stderr, "xdptc: note: cannot record the run lock's owner\n");
	return fd;
}

int run_begin(const struct run_opts *o, struct topology *t)
{
	int lock_fd, holder;

	lock_fd = run_lock_take(&holder);
	if (lock_fd < 0) {
		fprintf(stderr, "xdptc: another xdptc run (pid %d) is measuring on this machine; "
				"runs at the same time bias each other's numbers, so this one will "
				"not start. Wait for it to finish.\n", holder);
		return -1;
	}
	run_signals_install();
	/* what earlier, killed runs left (a run still going keeps what it has); we hold the
	 * run lock: the empty run directories under out_dir are killed runs' */
	if (cleanup_leftovers(o->topologies_dir, NULL, "xdptc: left by a run or a person now gone: ") < 0 ||
	    cleanup_empty_run_dirs(o->out_dir, "xdptc: left by a killed run: ") < 0)
		fprintf(stderr, "xdptc: note: the cleanup of earlier runs failed\n");
	memset(t, 0, sizeof(*t));
	snprintf(t->prefix, sizeof(t->prefix), "xdptc-%06x",
		 (unsigned int)(((unsigned long)getpid() * 2654435761ul) ^ (unsigned long)time(NULL)) &
			 0xffffff);
	return lock_fd;
}

struct progress {
	int done, total;
	struct timespec start;
	bool no_eta; /* inside the icount guest: its clock is no guide to host time (the
		      * host relaying the lines adds its own ETA) */
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
	if ((r->pass == PASS_TIMING || r->pass == PASS_PROFILE) && g_time_key[0] == 'g')
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
		fprintf(stderr, "%8.1f ns/BPF run  ",
			r->bpf_run_cnt ? (double)r->bpf_run_time_ns / (double)r->bpf_run_cnt : 0.0);
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

/* Fold @dir/perf-@mode.data into @dir/flame-@mode.folded and draw
 * @dir/flame-@mode.svg; remove the perf data. Returns the samples drawn or -errno. */
static long make_flamegraph(const char *dir, const char *mode, const char *subtitle)
{
	char data[PATH_MAX + 64], folded[PATH_MAX + 64], svg[PATH_MAX + 64], cmd[PATH_MAX + 128];
	char title[128], sub[320];
	FILE *in, *out;
	long n, idle = 0;

	snprintf(data, sizeof(data), "%s/perf-%s.data", dir, mode);
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

/* Capabilities of this run: the PMU (local DUT only) and the count pass's probes. */
static json_t *capabilities_json(bool have_pmu, const char *pmu_why, bool remote,
				 const struct dut_counters_info *ci)
{
	json_t *caps = json_object(), *pmu_j = json_object(), *cnt_j = json_object();

	/* hardware events counting per task (doctor's perf stat try); what each asked-for
	 * event gave is in every timing trial's "perf" */
	json_object_set_new(pmu_j, "available", json_boolean(have_pmu));
	if (!have_pmu)
		json_object_set_new(pmu_j, "reason", json_string(pmu_why));
	json_object_set_new(caps, "pmu", pmu_j);
	json_object_set_new(caps, "time_metric",
			    json_string(g_time_key[0] == 'g'
				? "guest_instructions_per_pkt (guest CPU time at -icount shift=0: 1 ns = 1 instruction)"
				: remote ? "cpu_ns_per_pkt (host CPU time of the guest's vCPU thread)"
				: "cpu_ns_per_pkt (per-task CPU time, schedstat)"));
	json_decref(cnt_j);
	cnt_j = counters_plan_to_json(&ci->plan);
	json_object_del(cnt_j, "ok");
	json_object_set_new(caps, "counters", cnt_j);
	return caps;
}

static json_t *guest_json(const struct topology *t)
{
	json_t *g = json_object();

	json_object_set_new(g, "kernel_release", json_string(t->guest_kernel));
	json_object_set_new(g, "accelerator", json_string(t->accel));
	json_object_set_new(g, "accelerator_reason", json_string(t->accel_reason));
	json_object_set_new(g, "qemu", json_string(t->qemu_version));
	json_object_set_new(g, "vcpus", json_integer(1));
	json_object_set_new(g, "emulated_time", json_boolean(strcmp(t->accel, "kvm") != 0));
	return g;
}

int run_main(const struct run_opts *opts)
{
	struct run_opts local = *opts;
	const struct run_opts *o = &local;
	struct topology topo;
	struct trial_env env;
	struct perf_stat_value perf_events[PERF_STAT_MAX_EVENTS];
	int perf_n = 0;
	struct progress prog;
	struct dut dut;
	struct dut_counters_info ci;
	char why[512], pmu_why[256] = "", dir[PATH_MAX], stamp[32];
	json_t *run = NULL, *trials, *doctor = NULL, *flames;
	char profile_path[PATH_MAX + 64];
	bool have_pmu = false, counters_open = false, have_dir = false, have_dut = false;
	bool remote = !strcmp(o->topology, "virtio");
	const char *napi_sched = NULL; /* threaded NAPI: the DUT thread's scheduling */
	pid_t napi_pids[NAPI_DELAY_MAX_PIDS]; /* threaded NAPI: the DUT's NAPI threads */
	int n_napi = 0;
	/* virtio under the icount engine: the guest is the DUT, its clock counts instructions */
	bool icount_dut = remote && o->engine == ENGINE_ICOUNT;
	int status = 1, e = 0, seq = 0, lock_fd;
	time_t now = time(NULL);
	struct tm tm;

	/* veth under icount: the whole experiment moves into a guest (engine_icount.c);
	 * virtio under icount: the guest is the DUT, driven from here as always */
	if (o->engine == ENGINE_ICOUNT && !o->inside_icount && !strcmp(o->topology, "veth"))
		return icount_engine_run(o);
	lock_fd = run_begin(o, &topo);
	if (lock_fd < 0)
		return 1;
	gmtime_r(&now, &tm);
	strftime(stamp, sizeof(stamp), "%Y%m%dT%H%M%SZ", &tm);
	/* before anything is measured: a results directory that cannot be made fails now */
	if (o->inside_icount || icount_dut) {
		g_time_key = "guest_instructions_per_pkt"; /* never a PMU's instructions_per_pkt */
		setenv("ICOUNT", "1", 1); /* virtio.sh: boot the guest under icount */
	}
	e = make_run_dir(o->out_dir, stamp,
			 o->inside_icount ? "veth-icount" : icount_dut ? "virtio-icount" : o->topology,
			 dir, sizeof(dir));
	if (e) {
		fprintf(stderr, "xdptc: cannot create a results directory under '%s': %s\n",
			o->out_dir, strerror(-e));
		close(lock_fd);
		return 1;
	}
	have_dir = true;

	/* what this machine offers; the lines that decide this run's metrics */
	doctor = doctor_report(o->topologies_dir, false, false);
	fprintf(stderr, "xdptc: %s doctor: pmu %s; kprobes %s; fentry %s; tracepoints %s%s%s\n",
		o->inside_icount ? "icount guest's" : "host",
		doctor_item_ok(doctor, "pmu") ? "yes" : "no",
		doctor_item_ok(doctor, "kprobes") ? "yes" : "no",
		doctor_item_ok(doctor, "fentry") ? "yes" : "no",
		doctor_item_ok(doctor, "tracepoints") ? "yes" : "no",
		remote ? "; kvm " : "",
		remote ? (doctor_item_ok(doctor, "kvm") ? "yes" : "no") : "");
	if (local.flame && remote) {
		local.flame = false;
		fprintf(stderr, "xdptc: flame graphs: not for a guest (the host's perf sees qemu, "
				"not the guest's kernel)\n");
	} else if (local.flame && !doctor_item_ok(doctor, "perf")) {
		local.flame = false;
		fprintf(stderr, "xdptc: flame graphs: skipped, %s\n", doctor_item_detail(doctor, "perf"));
	}
	if (!remote && !doctor_item_ok(doctor, "xdp_native_veth"))
		fprintf(stderr, "xdptc: doctor: native XDP on veth: %s\n",
			doctor_item_detail(doctor, "xdp_native_veth"));
	if (g_stop)
		goto out;
	fprintf(stderr, "xdptc: %s topology %s: up\n", o->topology, topo.prefix);
	if (run_topology_cmd(o, o->topology, "up", &topo) || !topo.dut_dev[0]) {
		if (g_stop)
			fprintf(stderr, "\nxdptc: interrupted; cleaning up\n");
		else
			fprintf(stderr, "xdptc: building the %s topology failed (see above)\n",
				o->topology);
		goto out;
	}
	topo.up = 1;
	if (g_stop)
		goto out;

	if (remote) {
		e = dut_remote_connect(&dut, topo.ctl_sock, 30000, why, sizeof(why));
		if (e) {
			fprintf(stderr, "xdptc: %s\n", why);
			goto out;
		}
		fprintf(stderr, "xdptc: guest kernel %s under %s%s\n", topo.guest_kernel, topo.accel,
			strcmp(topo.accel, "kvm") ? ": times are emulation times" : "");
	} else {
		dut_local_init(&dut, topo.dut_ns, topo.dut_dev);
	}
	have_dut = true;

	memset(&env, 0, sizeof(env));
	env.dut = &dut;
	env.cpu_source = remote ? (icount_dut ? CPU_GUEST_SOFTIRQ : CPU_GUEST_VCPU)
				: CPU_SENDER_AND_SOFTIRQ;
	if (remote) {
		env.qemu_pid = atoi(topo.qemu_pid);
		if (env.qemu_pid <= 0 || vcpu_threads_find(env.qemu_pid, &env.vcpus) <= 0) {
			fprintf(stderr, "xdptc: cannot find the guest's vCPU threads (qemu pid '%s')\n",
				topo.qemu_pid);
			goto out;
		}
		/* keep the guest's vCPU off the sender's CPU: they would take turns */
		for (int i = 0; i < env.vcpus.n; i++) {
			cpu_set_t set;
			long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

			CPU_ZERO(&set);
			for (long c = 0; c < ncpu; c++)
				if (c != o->sender_cpu)
					CPU_SET((int)c, &set);
			sched_setaffinity(env.vcpus.pid[i], sizeof(set), &set);
		}
	}
	env.snd_netns = topo.snd_ns;
	env.snd_dev = topo.snd_dev;
	env.veth_pair = !remote;
	env.dst_addr = topo.dut_addr;
	env.src_addr = topo.snd_addr;
	env.dst_mac = topo.dut_mac;
	env.sender = o->sender;
	env.port = o->port;
	env.send_port = o->port;
	env.payload_len = o->payload_len;
	env.sender_cpu = o->sender_cpu;
	env.warmup = o->warmup;
	env.rate_pps = o->rate_pps;
	env.stop = &g_stop;

	if ((o->sender == SENDER_XDP_LIVE || o->threaded_napi) && !remote) {
		/* XDP frames, and a threaded NAPI, need NAPI on the receiving veth: GRO on gives
		 * it without a program */
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "ip netns exec '%s' ethtool -K '%s' gro on >/dev/null",
			 topo.dut_ns, topo.dut_dev);
		if (system(cmd))
			fprintf(stderr, "xdptc: note: turning GRO on for %s failed\n", topo.dut_dev);
		else
			fprintf(stderr, "xdptc: GRO on for %s (veth's NAPI mode, for XDP frames or a "
					"threaded NAPI)\n", topo.dut_dev);
	}
	if (o->threaded_napi && !remote) {
		/* the DUT's NAPI in a kernel thread of its own, free to run on another CPU than
		 * the sender: the receive path can then fall behind, and loss shows capacity */
		char cmd[256];

		snprintf(cmd, sizeof(cmd), "ip netns exec '%s' sh -c 'echo 1 > /sys/class/net/%s/threaded'",
			 topo.dut_ns, topo.dut_dev);
		if (system(cmd)) {
			fprintf(stderr, "xdptc: note: threaded NAPI could not be turned on for %s\n",
				topo.dut_dev);
		} else {
			/* and keep that thread off the sender's CPU, or it only takes turns */
			struct softirq_tasks t;
			long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
			char want[64];
			int pinned = 0, fifo = 0;

			snprintf(want, sizeof(want), "napi/%s", topo.dut_dev);
			softirq_tasks_find(&t);
			for (int i = 0; i < t.n; i++) {
				char path[64], comm[64] = "";
				FILE *f;
				cpu_set_t set;

				snprintf(path, sizeof(path), "/proc/%d/comm", t.pid[i]);
				f = fopen(path, "r");
				if (!f)
					continue;
				if (!fgets(comm, sizeof(comm), f))
					comm[0] = '\0';
				fclose(f);
				if (strncmp(comm, want, strlen(want) < 15 ? strlen(want) : 15))
					continue;
				CPU_ZERO(&set);
				for (long c = 0; c < ncpu; c++)
					if (o->napi_cpu >= 0 ? c == o->napi_cpu : c != o->sender_cpu)
						CPU_SET((int)c, &set);
				pinned += !sched_setaffinity(t.pid[i], sizeof(set), &set);
				if (n_napi < NAPI_DELAY_MAX_PIDS)
					napi_pids[n_napi++] = t.pid[i];
				/* real-time priority: the DUT gets its CPU when packets wait, so a
				 * rate search measures the receive path, not how long unrelated
				 * tasks on that CPU keep it waiting (a 3 ms time slice overflows a
				 * 256-frame veth ring at ~85 kpps) */
				{
					struct sched_param sp = { .sched_priority = 50 };

					fifo += !sched_setscheduler(t.pid[i], SCHED_FIFO, &sp);
				}
			}
			if (o->napi_cpu >= 0)
				fprintf(stderr, "xdptc: threaded NAPI on for %s (%d thread(s) pinned to "
						"CPU %d%s, %d at SCHED_FIFO 50)\n",
					topo.dut_dev, pinned, o->napi_cpu,
					o->napi_cpu == o->sender_cpu ? ", the sender's" : "", fifo);
			else
				fprintf(stderr, "xdptc: threaded NAPI on for %s (%d thread(s) kept off "
						"CPU %d, %d at SCHED_FIFO 50)\n",
					topo.dut_dev, pinned, o->sender_cpu, fifo);
			napi_sched = fifo ? "SCHED_FIFO 50" : "SCHED_OTHER";
			/* and this process stays on the sender's CPU: its own work between trials
			 * must not keep the DUT's thread waiting */
			if (o->sender_cpu >= 0) {
				cpu_set_t self;

				CPU_ZERO(&self);
				CPU_SET(o->sender_cpu, &self);
				if (sched_setaffinity(0, sizeof(self), &self))
					fprintf(stderr, "xdptc: note: cannot keep xdptc on CPU %d: %s\n",
						o->sender_cpu, strerror(errno));
			}
			/* its CPU time is the packets' cost too */
			softirq_tasks_find(&dut.softirq);
		}
	}
	/* the lines that decide this run's metrics */
	if (icount_dut || o->inside_icount)
		snprintf(pmu_why, sizeof(pmu_why), "not counted in an icount guest (its time metric "
						   "is guest instructions)");
	else if (!o->pmu_events[0])
		snprintf(pmu_why, sizeof(pmu_why), "no perf events asked for (--pmu-events none)");
	else if (!doctor_item_ok(doctor, "perf"))
		snprintf(pmu_why, sizeof(pmu_why), "perf is not installed (linux-perf)");
	else
		perf_n = perf_stat_split_events(o->pmu_events, perf_events, PERF_STAT_MAX_EVENTS);
	if (perf_n < 0)
		perf_n = 0;
	if (!pmu_why[0]) { /* hardware events per task: what doctor's perf stat try found */
		have_pmu = doctor_item_ok(doctor, "pmu");
		if (!have_pmu)
			snprintf(pmu_why, sizeof(pmu_why), "%s", doctor_item_detail(doctor, "pmu"));
	}
	fprintf(stderr, "xdptc: time per packet from %s\n",
		icount_dut ? "the guest's NAPI thread and ksoftirqd time (icount: instructions)"
		: o->inside_icount ? "per-task CPU time in the icount guest (instructions)"
		: remote ? "the guest's vCPU thread time" : "per-task CPU time");
	if (perf_n)
		fprintf(stderr, "xdptc: perf stat counts %s over each timing window on %s%s%s\n",
			o->pmu_events, remote ? "the guest's vCPU threads" : "the sender thread and the "
			"softirq/NAPI threads", have_pmu ? "" : "; hardware events: ",
			have_pmu ? "" : pmu_why);
	else
		fprintf(stderr, "xdptc: perf events not counted: %s\n", pmu_why);
	/* the count pass's probes: loaded once now so their capability is known up front,
	 * then again only for the count pass */
	e = dut_counters_open(&dut, o->counter_order, o->cross_check, &ci, why, sizeof(why));
	if (e) {
		fprintf(stderr, "xdptc: %s\n", why);
		goto out;
	}
	dut_counters_close(&dut);
	{
		int none = 0;

		for (int k = 0; k < SKB_COUNT_NR; k++) {
			const char *name = skb_count_name((enum skb_count)k);

			if (ci.plan.backend[k] == BACKEND_NONE) {
				none++;
				fprintf(stderr, "xdptc: %s unavailable: %s\n", name, ci.plan.reason[k]);
				continue;
			}
			fprintf(stderr, "xdptc: %s from %s (%s)\n", name,
				counter_backend_name(ci.plan.backend[k]), ci.plan.points[k]);
			if (*ci.plan.reason[k])
				fprintf(stderr, "xdptc:   passed over: %s\n", ci.plan.reason[k]);
		}
		if (none == SKB_COUNT_NR)
			fprintf(stderr, "xdptc: warning: no count is available with these counter "
					"backends; the count pass will record none (try --counters "
					"kprobe,fentry,tracepoint)\n");
	}

	run = json_object();
	json_object_set_new(run, "schema", json_string(RUN_SCHEMA));
	{
		char iso[32];

		strftime(iso, sizeof(iso), "%Y-%m-%dT%H:%M:%SZ", &tm);
		json_object_set_new(run, "created_utc", json_string(iso));
	}
	json_object_set_new(run, "topology", json_string(o->topology));
	json_object_set_new(run, "machine", machine_json());
	json_object_set_new(run, "time_metric", json_string(g_time_key));
	json_object_set_new(run, "engine", engine_json(o, icount_dut ? &topo : NULL));
	if (remote)
		json_object_set_new(run, "guest", guest_json(&topo));
	json_object_set_new(run, "settings", settings_json(o));
	if (napi_sched)
		json_object_set_new(json_object_get(run, "settings"), "napi_thread_sched",
				    json_string(napi_sched));
	json_object_set_new(run, "capabilities", capabilities_json(have_pmu, pmu_why, remote, &ci));
	{ /* the perf events asked for, their metrics, and the threads they count */
		json_t *set = json_object_get(run, "settings"), *ev = json_array();

		for (int i = 0; i < perf_n; i++)
			json_array_append_new(ev, json_pack("{s:s, s:s}", "event", perf_events[i].event,
							    "metric", perf_events[i].metric));
		json_object_set_new(set, "perf_events", ev);
		json_object_set_new(set, "perf_scope",
				    perf_n ? json_string(remote ? "the guest's vCPU threads (host side)"
								: "the sender thread and the DUT's "
								  "softirq/NAPI threads, as "
								  "cpu_ns_per_pkt")
					   : json_null());
		if (!perf_n)
			json_object_set_new(set, "perf_events_reason", json_string(pmu_why));
	}
	json_object_set_new(run, "doctor", doctor);
	doctor = NULL;
	if (remote) { /* the guest's own report, from inside */
		char out[65536], self[PATH_MAX - 32], cmd[PATH_MAX];
		ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
		int st = 0;
		json_t *gd;

		/* the host's root is the guest's: the same path runs there */
		self[n > 0 ? n : 0] = '\0';
		snprintf(cmd, sizeof(cmd), "%s doctor --json --guest", self);
		fprintf(stderr, "xdptc: asking the guest what its kernel offers\n");
		if (n > 0 && !dut_exec(&dut, cmd, &st, out, sizeof(out)) && !st &&
		    (gd = json_loads(out, 0, NULL))) {
			fprintf(stderr, "xdptc: guest doctor: kprobes %s; fentry %s; tracepoints %s; "
					"bpf_stats %s\n",
				doctor_item_ok(gd, "kprobes") ? "yes" : "no",
				doctor_item_ok(gd, "fentry") ? "yes" : "no",
				doctor_item_ok(gd, "tracepoints") ? "yes" : "no",
				doctor_item_ok(gd, "bpf_stats") ? "yes" : "no");
			json_object_set_new(run, "guest_doctor", gd);
		}
	}
	{ /* everything on the DUT's receive path before the first trial: nothing, on a
	   * topology of the run's own; each trial's attach checks again (drop_attach) */
		json_t *path = dut_rx_path(&dut, why, sizeof(why));

		if (!path) {
			fprintf(stderr, "xdptc: cannot read the DUT's receive path: %s\n", why);
			goto out;
		}
		json_object_set_new(run, "dut_receive_path", path);
		if (json_array_size(path)) {
			size_t i;
			json_t *x;

			fprintf(stderr, "xdptc: the DUT's receive path is not free; the run will not "
					"measure behind:");
			json_array_foreach(path, i, x)
				fprintf(stderr, "%s %s", i ? ";" : "",
					json_string_value(json_object_get(x, "what")));
			fprintf(stderr, "\n");
			goto out;
		}
	}
	trials = json_array();
	json_object_set_new(run, "trials", trials);
	flames = json_array();
	json_object_set_new(run, "flamegraphs", flames);

	memset(&prog, 0, sizeof(prog));
	prog.no_eta = o->inside_icount;
	for (int p = 0; p < PASS_NR; p++)
		prog.total += pass_reps(o, p) * pass_modes(o, p);
	clock_gettime(CLOCK_MONOTONIC, &prog.start);

	for (int p = 0; p < PASS_NR && !g_stop; p++) {
		bool stats_on = false;

		/* perf stat in the timing pass only (never beside probes or BPF statistics) */
		env.perf_events = perf_events;
		env.perf_nevents = p == PASS_TIMING ? perf_n : 0;
		env.perf_event_list = o->pmu_events;
		if (p == PASS_BPFSTATS) {
			e = dut_bpf_stats(&dut, true);
			if (e) {
				fprintf(stderr, "xdptc: BPF statistics cannot be enabled (%s); "
						"bpf_ns_per_run will be n/a\n", strerror(-e));
				prog.total -= pass_reps(o, p) * pass_modes(o, p);
				continue;
			}
			stats_on = true;
		}
		if (p == PASS_PROFILE && !pass_reps(o, p))
			continue;
		if (p == PASS_COUNT) {
			e = dut_counters_open(&dut, o->counter_order, o->cross_check, &ci, why, sizeof(why));
			if (e) {
				fprintf(stderr, "xdptc: %s\n", why);
				goto out;
			}
			counters_open = true;
		}
		for (int rep = 0; rep < pass_reps(o, p) && !g_stop; rep++) {
			int order[RUN_MAX_MODES];

			shuffle_arms(o, p, rep, order);
			for (int i = 0; i < o->nmodes && !g_stop; i++) {
				struct trial_result r;
				enum drop_mode mode = o->modes[order[i]];
				const char *label = arm_label(o, order[i]);

				if (p == PASS_BPFSTATS && mode == MODE_NONE)
					continue;
				if (p == PASS_PROFILE && order[i] == o->aa_arm)
					continue; /* the same flame graph twice says nothing */
				if (p == PASS_PROFILE) {
					snprintf(profile_path, sizeof(profile_path), "%s/perf-%s.data", dir,
						 label);
					env.profile_path = profile_path;
				}
				e = trial_run(&env, mode, (enum trial_pass)p, o->packets, &r);
				if (e == -EINTR || g_stop)
					break;
				if (e) {
					snprintf(why, sizeof(why), "%s trial of %s (rep %d) failed: %s",
						 trial_pass_name((enum trial_pass)p),
						 label, rep + 1, r.error);
					fprintf(stderr, "xdptc: %s\n", why);
					goto failed;
				}
				json_array_append_new(trials, trial_json(&r, label, rep, seq++, &ci.plan));
				progress_line(&prog, &r, label, rep, pass_reps(o, p), &ci.plan);
				if (p == PASS_PROFILE) {
					char sub[200];
					long n;
					json_t *fg = json_object();

					snprintf(sub, sizeof(sub), "perf record -a -g -e cpu-clock -F 997%s; "
						 "%s packets; widths are samples", have_pmu ? "" :
						 " (software clock: this machine has no PMU)",
						 label);
					n = make_flamegraph(dir, label, sub);
					json_object_set_new(fg, "mode", json_string(label));
					json_object_set_new(fg, "event", json_string("cpu-clock"));
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
					json_array_append_new(flames, fg);
				}
			}
		}
		if (stats_on)
			dut_bpf_stats(&dut, false);
		if (counters_open) {
			dut_counters_close(&dut);
			counters_open = false;
		}
	}
	if (o->find_max_rate && !g_stop) {
		e = run_rate_searches(o, &env, remote, napi_pids, n_napi, run, why, sizeof(why));
		if (e && e != -EINTR)
			goto failed;
	}
	if (g_stop) {
		fprintf(stderr, "\nxdptc: interrupted; cleaning up\n");
		status = 130;
		goto out;
	}
	/* the global settings the numbers depend on, again (the doctor's at the start) */
	json_object_set_new(run, "sysctls_at_end", doctor_sysctls());
	json_object_set_new(run, "summary", summary_compute(run));
	if (write_results(run, dir, o->quiet))
		goto out;
	{
		char perr[PATH_MAX + 128];

		if (plots_write(run, dir, perr, sizeof(perr)) < 0)
			fprintf(stderr, "xdptc: plots: %s\n", perr);
	}
	if (o->dir_out)
		snprintf(o->dir_out, o->dir_out_len, "%s", dir);
	fprintf(stderr, "xdptc: results in %s/ (run.json, summary.md, plots%s)\n", dir,
		o->flame ? ", flame graphs" : "");
	have_dir = false; /* keep it */
	status = 0;
	goto out;
failed:
	/* keep what was measured, marked incomplete, unless nothing was */
	if (json_array_size(trials)) {
		json_object_set_new(run, "incomplete", json_string(why));
		json_object_set_new(run, "sysctls_at_end", doctor_sysctls());
		json_object_set_new(run, "summary", summary_compute(run));
		if (!write_results(run, dir, 1)) {
			fprintf(stderr, "xdptc: the trials measured before the failure are in %s/ "
					"(marked incomplete)\n", dir);
			have_dir = false;
		}
	}
out:
	if (have_dut)
		dut_close(&dut);
	if (topo.prefix[0]) {
		fprintf(stderr, "xdptc: %s topology %s: down\n", o->topology, topo.prefix);
		run_topology_cmd(o, o->topology, "down", &topo);
	}
	json_decref(run);
	json_decref(doctor);
	if (have_dir) /* nothing worth keeping: remove the empty (or partial) directory */
		remove_run_dir(dir);
	close(lock_fd);
	if (g_stop && status != 0)
		status = 130;
	return status;
}
