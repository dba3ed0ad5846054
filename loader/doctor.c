/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "doctor.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <limits.h>
#include <net/if.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "bpf_log.h"
#include "drop_prog.h"
#include "netkit.h"
#include "sender.h"
#include "netns.h"
#include "perf_stat.h"
#include "skb_counters.h"

static void item(json_t *items, const char *name, bool ok, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static void item(json_t *items, const char *name, bool ok, const char *fmt, ...)
{
	char detail[600];
	json_t *i = json_object();
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(detail, sizeof(detail), fmt, ap);
	va_end(ap);
	json_object_set_new(i, "name", json_string(name));
	json_object_set_new(i, "ok", json_boolean(ok));
	json_object_set_new(i, "detail", json_string(detail));
	json_array_append_new(items, i);
}

/* First line of a command's output into @out ("" when it fails). */
static void first_line(const char *cmd, char *out, size_t len)
{
	FILE *p = popen(cmd, "r");

	out[0] = '\0';
	if (!p)
		return;
	if (!fgets(out, (int)len, p))
		out[0] = '\0';
	out[strcspn(out, "\n")] = '\0';
	pclose(p);
}

/* The XDP, clsact and tcx checks on a veth pair of the doctor's own. */
static void check_veth(json_t *items, const char *topodir)
{
	char cmd[PATH_MAX + 128], prefix[16], dut_ns[32], dut_dev[24], err[512];
	struct drop_attachment a;
	int saved, e;

	snprintf(prefix, sizeof(prefix), "xdptc-d%05x", (unsigned int)getpid() & 0xfffff);
	snprintf(dut_ns, sizeof(dut_ns), "%s-dut", prefix);
	snprintf(dut_dev, sizeof(dut_dev), "%s-d", prefix);
	snprintf(cmd, sizeof(cmd), "XDPTC_OWNER_PID=%d sh '%s/veth.sh' up %s >/dev/null 2>&1",
		 (int)getpid(), topodir, prefix);
	if (system(cmd) != 0 || netns_enter(dut_ns, &saved)) {
		item(items, "xdp_native_veth", false, "could not build a veth pair to try it on");
		item(items, "clsact", false, "could not build a veth pair to try it on");
		item(items, "tcx", false, "could not build a veth pair to try it on");
		goto out;
	}
	e = drop_attach(dut_dev, MODE_XDPDRV, 9999, &a, err, sizeof(err));
	if (e) {
		item(items, "xdp_native_veth", false, "%s", err);
	} else {
		item(items, "xdp_native_veth", true, "xdpdrv attached to and detached from a veth");
		drop_detach(&a);
	}
	e = drop_attach(dut_dev, MODE_TC, 9999, &a, err, sizeof(err));
	if (e) {
		item(items, "clsact", false, "%s", err);
	} else {
		item(items, "clsact", true, "cls_bpf direct-action on clsact ingress attached and detached");
		drop_detach(&a);
	}
	e = drop_attach(dut_dev, MODE_TCX, 9999, &a, err, sizeof(err));
	if (e) {
		item(items, "tcx", false, "%s", err);
	} else {
		item(items, "tcx", true, "BPF link on TC ingress attached and detached (libbpf %s)",
		     libbpf_version_string());
		drop_detach(&a);
	}
	netns_return(saved);
out:
	snprintf(cmd, sizeof(cmd), "sh '%s/veth.sh' down %s >/dev/null 2>&1", topodir, prefix);
	if (system(cmd) != 0)
		fprintf(stderr, "xdptc doctor: removing %s failed\n", prefix);
}

/* netkit (the container topology's netkit arm): the kernel makes a pair (tried in a
 * namespace of its own, loader/netkit.c), libbpf links a netkit program (1.3: the
 * netkit/peer section), and the pair is made over rtnetlink by xdptc itself (iproute2
 * makes one from 6.8 on: said for the person who wants to by hand). */
static void check_netkit(json_t *items)
{
	char why[256] = "";
	int ok = netkit_probe(why, sizeof(why));

	if (ok == 1)
		item(items, "netkit", true, "this kernel makes netkit pairs (xdptc makes them over "
		     "rtnetlink: `ip link add type netkit` needs iproute2 6.8); libbpf %u.%u links "
		     "netkit programs", libbpf_major_version(), libbpf_minor_version());
	else
		item(items, "netkit", false, "%s; the container topology measures its veth arms "
		     "here (netkit: --engine icount --guest-kernel 6.12)",
		     why[0] ? why : "netkit could not be tried");
}

/* XDP on live frames (the xdp-live sender's): tried on one frame that is dropped
 * (loader/sender.h). */
static void check_xdp_live(json_t *items)
{
	char why[256] = "";
	int ok = sender_xdp_live_probe(why, sizeof(why));

	if (ok == 1)
		item(items, "xdp_live", true, "XDP on live frames (BPF_F_TEST_XDP_LIVE_FRAMES): the "
		     "xdp-live sender runs here");
	else
		item(items, "xdp_live", false, "%s; --sender xdp-live is refused here, the udp, "
		     "packet and tap senders run", ok < 0 ? strerror(-ok) : why);
}

static void check_backend(json_t *items, const char *name, int backend)
{
	int order[2] = { backend, BACKEND_NONE };
	struct skb_counters c;
	char err[512], detail[1200] = "";
	bool any = false;
	int e = skb_counters_open(&c, 1, 0, order, false, err, sizeof(err));

	if (e) {
		item(items, name, false, "%s", err);
		return;
	}
	for (int k = 0; k < SKB_COUNT_NR; k++) {
		size_t n = strlen(detail);

		if (c.plan.backend[k] == backend) {
			any = true;
			snprintf(detail + n, sizeof(detail) - n, "%s%s: %s", n ? "; " : "",
				 skb_count_name((enum skb_count)k), c.plan.points[k]);
		} else {
			snprintf(detail + n, sizeof(detail) - n, "%s%s: no (%s)", n ? "; " : "",
				 skb_count_name((enum skb_count)k), c.plan.reason[k]);
		}
	}
	skb_counters_close(&c);
	if (!any && !strcmp(c.plan.reason[0], c.plan.reason[1]) &&
	    !strcmp(c.plan.reason[1], c.plan.reason[2]))
		snprintf(detail, sizeof(detail), "%s", c.plan.reason[0]); /* one reason for all */
	item(items, name, any, "%s", detail);
}

static void check_kvm(json_t *items, const char *topodir, bool boot)
{
	struct stat st;
	char cached[256] = "", cmd[PATH_MAX + 64];

	if (stat("/dev/kvm", &st) || !S_ISCHR(st.st_mode)) {
		item(items, "kvm", false, "TCG only: no /dev/kvm");
		return;
	}
	if (boot) {
		snprintf(cmd, sizeof(cmd), "sh '%s/virtio.sh' probe-accel 2>/dev/null", topodir);
		first_line(cmd, cached, sizeof(cached));
	} else {
		first_line("cat /run/xdptc/accel-* 2>/dev/null", cached, sizeof(cached));
	}
	if (!cached[0]) {
		item(items, "kvm", false, "/dev/kvm exists but is not proven (some hosts hang guests "
					  "under it): 'xdptc doctor --boot' or make run-virtio tries a "
					  "test boot");
		return;
	}
	item(items, "kvm", !strncmp(cached, "kvm|", 4), "%s", strchr(cached, '|') ? strchr(cached, '|') + 1 : cached);
}

/* The file system type mounted at @path (the last mount there wins), from
 * /proc/self/mounts, into @type; false when nothing is mounted there. */
bool mounted_type(const char *path, char *type, size_t len)
{
	char line[1024], dev[256], at[512], fs[64];
	FILE *f = fopen("/proc/self/mounts", "r");
	bool found = false;

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "%255s %511s %63s", dev, at, fs) == 3 && !strcmp(at, path)) {
			snprintf(type, len, "%s", fs);
			found = true;
		}
	if (f)
		fclose(f);
	return found;
}

/*
 * The pseudo file systems a freshly booted machine may not have mounted, and what of the
 * suite needs each. Nothing a run measures with does: every probe is a BTF or raw
 * tracepoint (raw_tp, tp_btf), a kprobe through the perf kprobe PMU, or an fentry
 * program, none of which needs tracefs or debugfs; only `xdptc attach` of XDP and tcx
 * pins its link in bpffs (mounting it when missing, and saying so). "ok" is "mounted".
 */
static void check_mounts(json_t *items)
{
	static const struct {
		const char *name, *path, *fstype, *needed_by;
	} fs[] = {
		{ "tracefs_mounted", "/sys/kernel/tracing", "tracefs",
		  "needed by no xdptc run (its probes are raw_tp/tp_btf, kprobes through the perf "
		  "kprobe PMU, fentry); the by-hand bpftrace scripts in probes/ and perf's "
		  "tracepoint events need it: mount -t tracefs tracefs /sys/kernel/tracing" },
		{ "debugfs_mounted", "/sys/kernel/debug", "debugfs",
		  "needed by nothing of xdptc (tracing under debugfs is the old place of tracefs)" },
		{ "bpffs_mounted", "/sys/fs/bpf", "bpf",
		  "needed by 'xdptc attach' of xdpdrv, xdpgeneric and tcx only (their BPF link is "
		  "pinned under /sys/fs/bpf/xdptc so it outlives the command; xdptc mounts bpffs "
		  "then and says so); runs pin nothing" },
	};
	char type[64];

	for (size_t i = 0; i < sizeof(fs) / sizeof(fs[0]); i++) {
		bool m = mounted_type(fs[i].path, type, sizeof(type)) && !strcmp(type, fs[i].fstype);

		item(items, fs[i].name, m, "%s at %s; %s", m ? "mounted" : "not mounted", fs[i].path,
		     fs[i].needed_by);
	}
}

/*
 * The global settings the numbers depend on, as they are: xdptc reads them and changes
 * none of them (BPF statistics are turned on for its own passes through a
 * BPF_ENABLE_STATS file descriptor, which goes with the process, never this sysctl).
 */
static const char *const global_sysctls[] = {
	"kernel.bpf_stats_enabled", "net.core.bpf_jit_enable", "kernel.perf_event_paranoid",
	"kernel.kptr_restrict", "kernel.nmi_watchdog", NULL,
};

json_t *doctor_sysctls(void)
{
	json_t *o = json_object();

	for (int i = 0; global_sysctls[i]; i++) {
		char path[96], buf[64];
		FILE *f;

		snprintf(path, sizeof(path), "/proc/sys/%s", global_sysctls[i]);
		for (char *c = path + 10; *c; c++)
			if (*c == '.')
				*c = '/';
		f = fopen(path, "r");
		if (f && fgets(buf, sizeof(buf), f))
			json_object_set_new(o, global_sysctls[i], json_integer(strtol(buf, NULL, 10)));
		else
			json_object_set_new(o, global_sysctls[i], json_null());
		if (f)
			fclose(f);
	}
	return o;
}

static long sysctl_of(const json_t *sysctls, const char *name)
{
	const json_t *v = json_object_get(sysctls, name);

	return json_is_integer(v) ? (long)json_integer_value(v) : -1;
}

static void check_sysctls(json_t *items, const json_t *sysctls)
{
	char d[512];
	long v;

	v = sysctl_of(sysctls, "kernel.bpf_stats_enabled");
	if (v == 0)
		snprintf(d, sizeof(d), "kernel.bpf_stats_enabled=0: BPF run-time statistics are off "
				       "unless a pass of xdptc turns them on for itself");
	else if (v > 0)
		snprintf(d, sizeof(d), "kernel.bpf_stats_enabled=%ld, set by someone else: every BPF "
				       "program run reads the clock twice, so timing passes include "
				       "that cost; xdptc does not change it (runs record it)", v);
	else
		snprintf(d, sizeof(d), "kernel.bpf_stats_enabled cannot be read");
	item(items, "bpf_stats_off", v == 0, "%s", d);

	v = sysctl_of(sysctls, "net.core.bpf_jit_enable");
	if (v == 1)
		snprintf(d, sizeof(d), "net.core.bpf_jit_enable=1: BPF programs run JIT-compiled");
	else if (v == 0)
		snprintf(d, sizeof(d), "net.core.bpf_jit_enable=0: BPF programs are interpreted, "
				       "several times slower than JIT code: the drop program's cost "
				       "is not what a production kernel pays");
	else if (v == 2)
		snprintf(d, sizeof(d), "net.core.bpf_jit_enable=2: JIT with debug output to the "
				       "kernel log");
	else
		snprintf(d, sizeof(d), "net.core.bpf_jit_enable cannot be read");
	item(items, "bpf_jit_on", v == 1, "%s", d);

	v = sysctl_of(sysctls, "kernel.perf_event_paranoid");
	snprintf(d, sizeof(d), "kernel.perf_event_paranoid=%ld: %s", v,
		 geteuid() == 0 ? "no limit for root, which xdptc runs as"
		 : v > 1	? "unprivileged users may count only their own user-space events"
				: "unprivileged users may count kernel events");
	item(items, "perf_events", true, "%s", d);

	v = sysctl_of(sysctls, "kernel.kptr_restrict");
	if (v >= 2)
		snprintf(d, sizeof(d), "kernel.kptr_restrict=%ld: /proc/kallsyms shows no addresses "
				       "even to root: perf cannot name kernel functions in flame "
				       "graphs (the probes resolve names only and are not affected)", v);
	else
		snprintf(d, sizeof(d), "kernel.kptr_restrict=%ld: root sees kernel addresses; flame "
				       "graphs name kernel functions", v);
	item(items, "kernel_symbols", v >= 0 && v < 2, "%s", d);
}

bool doctor_perf_counts(const char *cpus, char *d, size_t dlen)
{
	struct perf_stat_value v[2];
	char cmd[640];
	FILE *p;
	int e;

	snprintf(v[0].event, sizeof(v[0].event), "cycles");
	snprintf(v[1].event, sizeof(v[1].event), "instructions");
	snprintf(cmd, sizeof(cmd), "perf stat -x, %s%s%s-e cycles,instructions -- %s 2>&1 >/dev/null",
		 !cpus ? "" : *cpus ? "-C " : "-a ", cpus && *cpus ? cpus : "",
		 cpus && *cpus ? " " : "", cpus ? "sleep 0.01" : "true");
	p = popen(cmd, "r");
	if (!p) {
		snprintf(d, dlen, "cannot run perf: %s", strerror(errno));
		return false;
	}
	e = perf_stat_parse(p, ',', v, 2);
	pclose(p);
	if (e) {
		snprintf(d, dlen, "perf stat printed what this cannot read");
		return false;
	}
	snprintf(d, dlen, "cycles %s, instructions %s", v[0].counted ? "counted" : v[0].reason,
		 v[1].counted ? "counted" : v[1].reason);
	return v[0].counted && v[1].counted;
}

/* Hardware counters through perf stat, per task (what a run counts) and per CPU, the
 * NMI watchdog that holds one of them, and what that means for a run. */
static void check_pmu(json_t *items, const json_t *sysctls)
{
	char d[300], d2[300];
	bool task, cpu;
	long wd = (long)json_integer_value(json_object_get(sysctls, "kernel.nmi_watchdog"));

	if (system("command -v perf >/dev/null 2>&1")) {
		item(items, "pmu", false, "perf is not installed (linux-perf): no perf events");
		return;
	}
	task = doctor_perf_counts(NULL, d, sizeof(d));
	cpu = doctor_perf_counts("", d2, sizeof(d2));
	item(items, "pmu", task, task ? "hardware events count per task (%s): a run's "
				       "cycles_per_pkt and instructions_per_pkt come from perf stat"
				     : "no hardware events per task (%s; perf stat): a run's "
				       "cycles_per_pkt and instructions_per_pkt are null with that "
				       "reason; software events (task-clock, context-switches) still "
				       "count", d);
	item(items, "pmu_per_cpu", cpu, "per CPU (perf stat -a): %s", d2);
	item(items, "nmi_watchdog_off", wd == 0,
	     wd > 0 ? "kernel.nmi_watchdog=%ld: the watchdog holds a hardware counter on each "
		      "CPU, so with more events than free counters perf multiplexes them (a "
		      "run records and shows each event's running percentage)"
		    : "kernel.nmi_watchdog=%ld: every hardware counter is free for perf", wd);
}

json_t *doctor_report(const char *topologies_dir, bool boot, bool in_guest)
{
	static const char *const pkgs[] = { "libbpf1", "libbpf-dev", "bpftool", "clang", "iproute2",
					    "qemu-system-x86", "busybox-static", "linux-perf",
					    "bpftrace", NULL };
	json_t *r = json_object(), *items = json_array(), *p = json_object();
	json_t *sysctls = doctor_sysctls();
	struct utsname u;
	char buf[512];
	int fd;

	bpf_log_clear();
	uname(&u);
	item(items, "kernel", true, "%s %s %s", u.release, u.version, u.machine);
	item(items, "btf", access("/sys/kernel/btf/vmlinux", R_OK) == 0,
	     access("/sys/kernel/btf/vmlinux", R_OK) == 0 ? "/sys/kernel/btf/vmlinux present"
							  : "no /sys/kernel/btf/vmlinux: CO-RE "
							    "programs cannot load");
	fd = libbpf_probe_bpf_prog_type(BPF_PROG_TYPE_SOCKET_FILTER, NULL);
	item(items, "bpf_syscall", fd == 1, fd == 1 ? "a BPF program loads" : "BPF program load "
									    "refused: %s",
	     fd == 1 ? "" : strerror(fd < 0 ? -fd : EPERM));
	if (topologies_dir) /* what a veth run needs: a pair built to try native XDP on */
		check_veth(items, topologies_dir);
	check_netkit(items);
	check_xdp_live(items);
	check_backend(items, "kprobes", BACKEND_KPROBE);
	check_backend(items, "fentry", BACKEND_FENTRY);
	check_backend(items, "tracepoints", BACKEND_TRACEPOINT);
	check_pmu(items, sysctls);
	fd = bpf_enable_stats(BPF_STATS_RUN_TIME);
	item(items, "bpf_stats", fd >= 0, fd >= 0 ? "BPF_ENABLE_STATS (run_time_ns, run_cnt) works"
						  : "BPF_ENABLE_STATS refused: %s",
	     fd >= 0 ? "" : strerror(errno));
	if (fd >= 0)
		close(fd);
	check_mounts(items);
	check_sysctls(items, sysctls);
	first_line("perf --version 2>/dev/null", buf, sizeof(buf));
	item(items, "perf", buf[0] != '\0', "%s", buf[0] ? buf : "perf is not installed (linux-perf)");
	if (!in_guest) {
		first_line("qemu-system-x86_64 --version 2>/dev/null", buf, sizeof(buf));
		item(items, "qemu", buf[0] != '\0', "%s",
		     buf[0] ? buf : "qemu-system-x86_64 is not installed (qemu-system-x86)");
		check_kvm(items, topologies_dir, boot);
	}
	for (int i = 0; pkgs[i]; i++) {
		char cmd[160];

		snprintf(cmd, sizeof(cmd), "dpkg-query -W -f='${Version}' %s 2>/dev/null", pkgs[i]);
		first_line(cmd, buf, sizeof(buf));
		json_object_set_new(p, pkgs[i], buf[0] ? json_string(buf) : json_null());
	}
	json_object_set_new(p, "libbpf (linked)", json_string(libbpf_version_string()));
	json_object_set_new(r, "items", items);
	json_object_set_new(r, "sysctls", sysctls);
	json_object_set_new(r, "packages", p);
	return r;
}

static const json_t *find_item(const json_t *report, const char *name)
{
	size_t i;
	json_t *it;

	json_array_foreach(json_object_get(report, "items"), i, it)
		if (!strcmp(json_string_value(json_object_get(it, "name")), name))
			return it;
	return NULL;
}

bool doctor_item_ok(const json_t *report, const char *name)
{
	return json_is_true(json_object_get(find_item(report, name), "ok"));
}

const char *doctor_item_detail(const json_t *report, const char *name)
{
	const char *d = json_string_value(json_object_get(find_item(report, name), "detail"));

	return d ? d : "";
}

/* The bottom line of @r: what runs here, and what will be n/a and why. */
static void bottom_line(const json_t *r, FILE *out)
{
	bool veth = doctor_item_ok(r, "bpf_syscall") && doctor_item_ok(r, "xdp_native_veth") &&
		    doctor_item_ok(r, "clsact");
	bool qemu = doctor_item_ok(r, "qemu"), guest = find_item(r, "qemu") != NULL;

	fprintf(out, "bottom line:\n");
	fprintf(out, "  make run-veth      %s\n", veth ? "runs here" :
		"will fail: native XDP or clsact is missing on veth (see above)");
	if (guest) {
		fprintf(out, "  make run-virtio    %s\n", !qemu ? "will fail: no qemu" :
			doctor_item_ok(r, "kvm") ? "runs here, under KVM"
						 : "runs here, under TCG (emulated: times are emulation times, "
						   "only within-run deltas and counts mean anything)");
		fprintf(out, "  ENGINE=icount      %s\n", qemu ? "runs here (TCG with -icount: "
			"instructions per packet, whatever the host's speed)" : "will fail: no qemu");
		fprintf(out, "  make matrix        %s\n", qemu ? "runs here (the icount engine on "
			"each guest kernel; fetching kernels needs Debian's archive)"
			: "will fail: no qemu");
	}
	if (!doctor_item_ok(r, "pmu"))
		fprintf(out, "  cycles_per_pkt, instructions_per_pkt: n/a (%s); CPU time per "
			     "packet is measured instead\n", doctor_item_detail(r, "pmu"));
	if (!doctor_item_ok(r, "kprobes") && !doctor_item_ok(r, "fentry"))
		fprintf(out, "  skbs_built: n/a on this kernel (no kprobes, fentry refused; no "
			     "tracepoint marks skb construction); stack entries and skbs freed "
			     "come from %s\n", doctor_item_ok(r, "tracepoints") ? "tracepoints"
										: "nowhere: n/a too");
	if (!doctor_item_ok(r, "bpf_stats"))
		fprintf(out, "  bpf_ns_per_run: n/a (%s)\n", doctor_item_detail(r, "bpf_stats"));
	if (!doctor_item_ok(r, "bpf_stats_off"))
		fprintf(out, "  BPF statistics are on by someone else's setting: runs say so, and "
			     "their timing pass includes that cost\n");
}

void doctor_print(const json_t *report, FILE *out)
{
	size_t i;
	json_t *it;
	const char *k;
	json_t *v;

	fprintf(out, "xdptc doctor: what this machine and kernel offer (each tried for real; "
		     "yes/no answers the item's name)\n");
	json_array_foreach(json_object_get(report, "items"), i, it)
		fprintf(out, "  %-3s  %-18s %s\n", json_is_true(json_object_get(it, "ok")) ? "yes" : "no",
			json_string_value(json_object_get(it, "name")),
			json_string_value(json_object_get(it, "detail")));
	bottom_line(report, out);
	fprintf(out, "packages:\n");
	json_object_foreach((json_t *)json_object_get(report, "packages"), k, v)
		fprintf(out, "  %-16s %s\n", k, json_is_string(v) ? json_string_value(v) : "not installed");
}
