/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The fault test: what proves that a run killed with SIGKILL at any point leaves
 * nothing behind, and that cleaning up touches nothing the suite did not make.
 *
 *  - veth: K runs (default 8, one per phase; 16 gives every phase both ways on) are
 *    killed with SIGKILL, each at a seeded random moment
 *    of a chosen phase (a random delay; right after a trial starts, i.e. while it
 *    attaches; inside a timing window; in the count pass; in the BPF-statistics pass;
 *    while the topology is built; while it is torn down; while a run's start removes a
 *    dead run's leftovers), found from the run's progress lines on stderr. After every
 *    other kill (which ones, the seed says) `xdptc cleanup` runs; after the others the
 *    next run starts at once, and
 *    its own start must remove the dead run's topology (checked by name as soon as it
 *    prints its first line; the last such run is run to completion).
 *  - virtio: 3 runs killed 2-15 s in (while the TCG guest boots), each followed by
 *    `xdptc cleanup`: no qemu, tap, namespace, socket or /run/xdptc file may remain.
 *  - a first virtio run (no kernel in the guest-kernel cache, only the package lists):
 *    4 runs killed in the phases of
 *    its preparation (download, unpack, initramfs, boot: one each), followed in turn by `xdptc
 *    cleanup` or by the next run started at once; no helper (download, dpkg-deb, the
 *    initramfs build, qemu) may outlive its run, and nothing partial stays in the cache.
 *  - two runs at once: a second run refuses with a sentence about the other run, and
 *    neither it nor a `xdptc cleanup` meanwhile disturbs the first, which completes
 *    with valid results.
 *
 * After each kill and its cleanup the system is compared with a snapshot taken before
 * the first run (namespaces, root-namespace links and their XDP programs, qdiscs, XDP,
 * TC and tcx attachments, BPF links and programs, pins under /sys/fs/bpf, files under
 * /run/xdptc other than the run lock and the KVM probe's cache, qemu processes, unix
 * sockets under /run/xdptc, kernel.bpf_stats_enabled), and every process of the killed
 * run's process group must be gone: zero leftovers are allowed. A decoy the suite did
 * not make (a namespace faultdecoy-PID and a veth pair fdecoyPIDa/b with clsact qdiscs,
 * 198.19.254.0/30) must stay intact throughout; it is removed at the end, also on
 * failure. Things of other people's live runs (a topology whose owner lives, a BPF
 * program a live process holds) are not counted; while someone else's xdptc activity
 * could explain a difference the test waits for it to end.
 *
 * XDPTC_FAULT_SEED, XDPTC_FAULT_VETH_KILLS and XDPTC_FAULT_VIRTIO_KILLS repeat or resize
 * it; the seed and both numbers are printed. Ends with
 * "fault test: N kills (veth X, virtio Y), 0 leftovers".
 * Needs root and qemu. Run from the repository root.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>
#include "stats.h"
#include "test_main.h"

#define STATE_DIR "/run/xdptc"
#define MAX_OURS 256

static char xdptc[PATH_MAX];
static char base[] = "/tmp/xdptc-fault-XXXXXX";
static char decoy_ns[40], decoy_a[16], decoy_b[16];
static bool decoy_made;
static unsigned long long seed;
static uint64_t rng;
static int veth_kills_wanted = 8, virtio_kills_wanted = 3;
static int kills_veth, kills_virtio, leftovers;

/* the process groups of the runs this test started whose processes may still live (a
 * run's pid is its group; dropped once the group is seen empty, as pids get reused),
 * every run's pid, and the topology prefixes they announced */
static pid_t ours[MAX_OURS], all_pids[4 * MAX_OURS];
static int nours, nall;
static char our_prefixes[MAX_OURS][16];
static int nprefixes;

/* ---- small things ---- */

static double now_s(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sleep_s(double s)
{
	struct timespec t;

	if (s <= 0)
		return;
	t.tv_sec = (time_t)s;
	t.tv_nsec = (long)((s - (double)t.tv_sec) * 1e9);
	while (nanosleep(&t, &t) && errno == EINTR)
		;
}

/* Uniform in [lo, hi). */
static double uniform(double lo, double hi)
{
	return lo + (hi - lo) * (double)(stats_splitmix64(&rng) >> 11) / 9007199254740992.0;
}

/* Run @cmd through sh; its output (stdout and stderr) into @out; its exit status. */
static int sh_out(const char *cmd, char *out, size_t len)
{
	char full[4096];
	FILE *p;
	size_t n = 0;
	int st;

	snprintf(full, sizeof(full), "%s 2>&1", cmd);
	p = popen(full, "r");
	if (!p)
		return -1;
	if (out && len) {
		n = fread(out, 1, len - 1, p);
		out[n] = '\0';
	}
	{
		char sink[4096];

		while (fread(sink, 1, sizeof(sink), p) > 0)
			;
	}
	st = pclose(p);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static bool is_ours(pid_t pgid)
{
	for (int i = 0; i < nours; i++)
		if (ours[i] == pgid)
			return true;
	return false;
}

static bool pid_alive(pid_t pid)
{
	return pid > 0 && (kill(pid, 0) == 0 || errno == EPERM);
}

/* The process group and comm of @pid from /proc; -1 when it is gone (or a zombie). */
static pid_t proc_pgrp(pid_t pid, char *comm, size_t len)
{
	char path[64], buf[512], *rp;
	char state;
	int ppid, pgrp;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	rp = strrchr(buf, ')');
	if (!rp || sscanf(rp + 2, "%c %d %d", &state, &ppid, &pgrp) != 3 || state == 'Z')
		return -1;
	if (comm) {
		char *lp = strchr(buf, '(');

		snprintf(comm, len, "%.*s", lp ? (int)(rp - lp - 1) : 0, lp ? lp + 1 : "");
	}
	return pgrp;
}

/* Is @pid a live process that belongs to none of this test's runs? */
static bool foreign_pid(pid_t pid)
{
	pid_t g = proc_pgrp(pid, NULL, 0);

	return g >= 0 && !is_ours(g) && g != getpgrp() && pid != getpid();
}

/* The pid holding the run lock now (from /proc/locks, without touching the lock), or 0. */
static pid_t lock_holder(void)
{
	struct stat st;
	char line[256];
	pid_t holder = 0;
	FILE *f;

	if (stat("/run/lock/xdptc-run.lock", &st))
		return 0;
	f = fopen("/proc/locks", "r");
	while (f && fgets(line, sizeof(line), f)) {
		char type[16];
		unsigned int maj, min;
		unsigned long ino;
		int pid;

		if (sscanf(line, "%*d: %15s %*s %*s %d %x:%x:%lu", type, &pid, &maj, &min, &ino) == 5 &&
		    !strcmp(type, "FLOCK") && ino == (unsigned long)st.st_ino && pid > 0)
			holder = pid;
	}
	if (f)
		fclose(f);
	return holder;
}

/* The owner pid recorded for topology @prefix, or 0. */
static pid_t owner_of(const char *prefix)
{
	char path[128];
	int pid = 0;
	FILE *f;

	snprintf(path, sizeof(path), STATE_DIR "/%s.owner", prefix);
	f = fopen(path, "r");
	if (f) {
		if (fscanf(f, "%d", &pid) != 1)
			pid = 0;
		fclose(f);
	}
	return pid;
}

/* The first "xdptc-XXXX" name in @s, into @p ("" when none). */
static void prefix_in(const char *s, char *p, size_t len)
{
	const char *x = strstr(s, "xdptc-");
	size_t n = 6;

	p[0] = '\0';
	if (!x)
		return;
	while (isalnum((unsigned char)x[n]) && n < len - 1)
		n++;
	if (n > 6)
		snprintf(p, len, "%.*s", (int)n, x);
}

/* Does @line name a topology of this test's runs (theirs or their doctor's)? */
static bool names_ours(const char *line)
{
	char p[32];

	prefix_in(line, p, sizeof(p));
	if (!p[0])
		return false;
	for (int i = 0; i < nprefixes; i++)
		if (!strcmp(p, our_prefixes[i]))
			return true;
	for (int i = 0; i < nall; i++) {
		char d[16];

		snprintf(d, sizeof(d), "xdptc-d%05x", (unsigned int)all_pids[i] & 0xfffff);
		if (!strcmp(p, d))
			return true;
	}
	return false;
}

/* Does @line belong to a topology whose owner is a live process not of this test
 * (someone else's run or shell)? Such things are not this test's business. */
static bool belongs_to_someone_else(const char *line)
{
	char p[32];
	pid_t o;

	prefix_in(line, p, sizeof(p));
	if (!p[0])
		return false;
	o = owner_of(p);
	return o > 0 && pid_alive(o) && foreign_pid(o);
}

/* Someone else's xdptc activity now (the run lock, a live topology, an xdptc or test
 * process, a topology script): the reason in @why, or false. */
static bool foreign_activity(char *why, size_t len)
{
	pid_t h = lock_holder();
	DIR *d;
	struct dirent *de;

	if (h > 0 && foreign_pid(h)) {
		snprintf(why, len, "the run lock is held by pid %d", (int)h);
		return true;
	}
	d = opendir(STATE_DIR);
	while (d && (de = readdir(d))) {
		char p[64];
		pid_t o;
		size_t n = strlen(de->d_name);

		if (n < 7 || strcmp(de->d_name + n - 6, ".owner"))
			continue;
		snprintf(p, sizeof(p), "%.*s", (int)(n - 6), de->d_name);
		o = owner_of(p);
		if (o > 0 && pid_alive(o) && foreign_pid(o)) {
			snprintf(why, len, "topology %s belongs to the live pid %d", p, (int)o);
			closedir(d);
			return true;
		}
	}
	if (d)
		closedir(d);
	d = opendir("/proc");
	while (d && (de = readdir(d))) {
		char comm[64], path[64], cmdline[512] = "";
		pid_t pid = (pid_t)atoi(de->d_name), g;
		FILE *f;
		size_t n;

		if (pid <= 0 || pid == getpid())
			continue;
		g = proc_pgrp(pid, comm, sizeof(comm));
		if (g < 0 || is_ours(g))
			continue;
		snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
		f = fopen(path, "r");
		if (f) {
			n = fread(cmdline, 1, sizeof(cmdline) - 1, f);
			fclose(f);
			for (size_t i = 0; i < n; i++)
				if (!cmdline[i])
					cmdline[i] = ' ';
			cmdline[n] = '\0';
		}
		if (!strcmp(comm, "xdptc") || !strncmp(comm, "test_", 5) ||
		    strstr(cmdline, "topologies/veth.sh") || strstr(cmdline, "topologies/virtio.sh")) {
			snprintf(why, len, "process %d (%s) is not this test's", (int)pid, comm);
			closedir(d);
			return true;
		}
	}
	if (d)
		closedir(d);
	return false;
}

/* ---- the snapshot of everything a run could touch ---- */

struct lines {
	char **v;
	size_t n, cap;
};

static void lines_add(struct lines *l, const char *s)
{
	if (belongs_to_someone_else(s))
		return;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 64;
		l->v = realloc(l->v, l->cap * sizeof(*l->v));
		assert_non_null(l->v);
	}
	l->v[l->n++] = strdup(s);
}

static void lines_free(struct lines *l)
{
	for (size_t i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool lines_has(const struct lines *l, const char *s)
{
	return bsearch(&s, l->v, l->n, sizeof(*l->v), cmp_str) != NULL;
}

/* Each line @cmd prints, with @tag in front. */
static void snap_cmd(struct lines *l, const char *tag, const char *cmd)
{
	char line[1024], full[1100];
	FILE *p = popen(cmd, "r");

	while (p && fgets(line, sizeof(line), p)) {
		line[strcspn(line, "\n")] = '\0';
		if (!line[0])
			continue;
		snprintf(full, sizeof(full), "%s %s", tag, line);
		lines_add(l, full);
	}
	if (p)
		pclose(p);
}

/* A bpftool JSON listing held by a live process of someone else's is theirs. */
static bool held_by_someone_else(json_t *o)
{
	size_t i;
	json_t *p;

	json_array_foreach(json_object_get(o, "pids"), i, p) {
		pid_t pid = (pid_t)json_integer_value(json_object_get(p, "pid"));

		if (pid_alive(pid) && foreign_pid(pid))
			return true;
	}
	return false;
}

static const char *str_or(json_t *o, const char *key, const char *dflt)
{
	const char *s = json_string_value(json_object_get(o, key));

	return s ? s : dflt;
}

/* The JSON a command prints (bpftool -j ...), or NULL. */
static json_t *command_json(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	json_t *j = p ? json_loadf(p, 0, NULL) : NULL;

	if (p)
		pclose(p);
	return j;
}

static void snap_bpftool(struct lines *l)
{
	char line[1024];
	json_t *j, *o, *a;
	size_t i, k;
	const char *key;

	j = command_json("bpftool -j prog show 2>/dev/null");
	json_array_foreach(j, i, o) {
		if (held_by_someone_else(o))
			continue;
		snprintf(line, sizeof(line), "bpf-prog %lld %s %s",
			 (long long)json_integer_value(json_object_get(o, "id")),
			 str_or(o, "type", "?"), str_or(o, "name", ""));
		lines_add(l, line);
	}
	json_decref(j);
	j = command_json("bpftool -j link show 2>/dev/null");
	json_array_foreach(j, i, o) {
		if (held_by_someone_else(o))
			continue;
		snprintf(line, sizeof(line), "bpf-link %lld %s prog %lld",
			 (long long)json_integer_value(json_object_get(o, "id")),
			 str_or(o, "type", "?"),
			 (long long)json_integer_value(json_object_get(o, "prog_id")));
		lines_add(l, line);
	}
	json_decref(j);
	/* XDP, TC (cls_bpf) and tcx attachments in the root namespace */
	j = command_json("bpftool -j net show 2>/dev/null");
	json_array_foreach(j, i, o) {
		json_object_foreach(o, key, a) {
			json_t *e;

			json_array_foreach(a, k, e) {
				char *s = json_dumps(e, JSON_COMPACT | JSON_SORT_KEYS);

				snprintf(line, sizeof(line), "bpf-net %s %s", key, s ? s : "?");
				free(s);
				lines_add(l, line);
			}
		}
	}
	json_decref(j);
}

static void snap_take(struct lines *l)
{
	memset(l, 0, sizeof(*l));
	snap_cmd(l, "netns", "ip netns list 2>/dev/null | awk '{print $1}'");
	/* the links of the root namespace (taps included), with any XDP program on them */
	snap_cmd(l, "link", "ip -o link show 2>/dev/null | awk -F': ' '{n=$2; sub(/@.*/,\"\",n); "
			    "x=\"\"; if (match($0, /prog\\/xdp[a-z]* id [0-9]+/)) "
			    "x=\" \" substr($0, RSTART, RLENGTH); print n x}'");
	snap_cmd(l, "qdisc", "tc qdisc show 2>/dev/null | sed 's/ refcnt.*//'");
	snap_cmd(l, "pin", "find /sys/fs/bpf -mindepth 1 2>/dev/null");
	snap_cmd(l, "state", "find " STATE_DIR " -mindepth 1 2>/dev/null | "
			     "grep -v -e '^" STATE_DIR "/accel-'");
	snap_cmd(l, "qemu", "pgrep -a qemu-system 2>/dev/null | cut -c1-120");
	snap_cmd(l, "socket", "ss -xlnH 2>/dev/null | grep -o '" STATE_DIR "[^ ]*'");
	snap_cmd(l, "sysctl", "echo bpf_stats_enabled=$(sysctl -n kernel.bpf_stats_enabled 2>/dev/null)");
	snap_bpftool(l);
	qsort(l->v, l->n, sizeof(*l->v), cmp_str);
}

static struct lines before;

/* ---- the decoy: a namespace and a veth pair the suite did not make ---- */

static int decoy_cmd(const char *verb)
{
	char cmd[2048];

	if (!strcmp(verb, "make"))
		snprintf(cmd, sizeof(cmd),
			 "set -e; ip netns add %1$s; "
			 "ip link add %2$s type veth peer name %3$s netns %1$s; "
			 "sysctl -qw net.ipv6.conf.%2$s.disable_ipv6=1; "
			 "ip netns exec %1$s sysctl -qw net.ipv6.conf.%3$s.disable_ipv6=1; "
			 "ip addr add 198.19.254.1/30 dev %2$s; ip link set %2$s up; "
			 "ip -n %1$s addr add 198.19.254.2/30 dev %3$s; ip -n %1$s link set %3$s up; "
			 "tc qdisc add dev %2$s clsact; tc -n %1$s qdisc add dev %3$s clsact",
			 decoy_ns, decoy_a, decoy_b);
	else if (!strcmp(verb, "check"))
		snprintf(cmd, sizeof(cmd),
			 "ip netns list | awk '{print $1}' | grep -qx %1$s && "
			 "ip -o addr show dev %2$s | grep -q 'inet 198.19.254.1/30' && "
			 "ip -n %1$s -o addr show dev %3$s | grep -q 'inet 198.19.254.2/30' && "
			 "tc qdisc show dev %2$s | grep -q '^qdisc clsact' && "
			 "tc -n %1$s qdisc show dev %3$s | grep -q '^qdisc clsact'",
			 decoy_ns, decoy_a, decoy_b);
	else
		snprintf(cmd, sizeof(cmd), "ip link delete %s; ip netns delete %s", decoy_a, decoy_ns);
	return sh_out(cmd, NULL, 0);
}

/* ---- a run this test starts ---- */

struct run {
	pid_t pid;
	int fd;                 /* its stderr */
	FILE *log;
	char logpath[PATH_MAX];
	char buf[16384];
	size_t len;
	char prefix[32];        /* announced by "... topology xdptc-XXXXXX: up" */
	double t0;
	int status;
	bool reaped, eof, booting;
};

static struct run *live_runs[4];

/* The stderr of killed runs whose helpers may still write: kept open and read, as a
 * terminal would be (a closed pipe would make their last words fail, and them with it). */
static struct pending {
	int fd;
	FILE *log;
} pend[64];
static int npend;

static void drain_pending(void)
{
	for (int i = 0; i < npend;) {
		struct pollfd p = { .fd = pend[i].fd, .events = POLLIN };
		char buf[4096];
		ssize_t n = 1;

		while (poll(&p, 1, 0) > 0 && (n = read(pend[i].fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, pend[i].log);
		if (n <= 0) {
			close(pend[i].fd);
			fclose(pend[i].log);
			pend[i] = pend[--npend];
			continue;
		}
		fflush(pend[i].log);
		i++;
	}
}

/* Start `xdptc ARGS` (in @base, in its own process group, stderr to us). */
static void run_start(struct run *r, const char *args, const char *logname)
{
	int fds[2];

	memset(r, 0, sizeof(*r));
	snprintf(r->logpath, sizeof(r->logpath), "%s/%s", base, logname);
	r->log = fopen(r->logpath, "w");
	assert_non_null(r->log);
	assert_int_equal(pipe2(fds, O_CLOEXEC), 0);
	r->t0 = now_s();
	r->pid = fork();
	assert_true(r->pid >= 0);
	if (r->pid == 0) {
		char cmd[2048];
		int null = open("/dev/null", O_RDWR);

		setpgid(0, 0);
		if (chdir(base))
			_exit(126);
		dup2(null, 0);
		dup2(null, 1);
		dup2(fds[1], 2);
		snprintf(cmd, sizeof(cmd), "exec '%s' %s", xdptc, args);
		execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
		_exit(127);
	}
	setpgid(r->pid, r->pid);
	close(fds[1]);
	r->fd = fds[0];
	assert_true(nours < MAX_OURS && nall < 4 * MAX_OURS);
	ours[nours++] = r->pid;
	all_pids[nall++] = r->pid;
	for (int i = 0; i < 4; i++)
		if (!live_runs[i]) {
			live_runs[i] = r;
			break;
		}
}

/* The next line the run wrote, waiting until @deadline (monotonic seconds).
 * 1: a line in @line; 0: none yet; -1: its stderr is closed (it and its helpers ended). */
static int run_line(struct run *r, double deadline, char *line, size_t len)
{
	for (;;) {
		char *nl = memchr(r->buf, '\n', r->len);
		struct pollfd pfd = { .fd = r->fd, .events = POLLIN };
		double left;
		ssize_t n;

		if (nl) {
			size_t k = (size_t)(nl - r->buf) + 1;

			snprintf(line, len, "%.*s", (int)(k - 1), r->buf);
			fwrite(r->buf, 1, k, r->log);
			fflush(r->log);
			memmove(r->buf, r->buf + k, r->len - k);
			r->len -= k;
			if (!r->prefix[0] && strstr(line, "topology xdptc-") && strstr(line, ": up")) {
				prefix_in(strstr(line, "topology ") + 9, r->prefix, sizeof(r->prefix));
				if (nprefixes < MAX_OURS)
					snprintf(our_prefixes[nprefixes++], sizeof(our_prefixes[0]),
						 "%s", r->prefix);
			}
			if (strstr(line, "booting guest"))
				r->booting = true;
			return 1;
		}
		if (r->eof)
			return -1;
		left = deadline - now_s();
		if (poll(&pfd, 1, left > 0 ? (int)(left * 1000) + 1 : 0) <= 0)
			return 0;
		if (r->len == sizeof(r->buf) - 1) { /* a line longer than the buffer: cut */
			r->buf[r->len++] = '\n';
			continue;
		}
		n = read(r->fd, r->buf + r->len, sizeof(r->buf) - 1 - r->len);
		if (n <= 0) {
			r->eof = true;
			if (r->len && r->buf[r->len - 1] != '\n')
				r->buf[r->len++] = '\n';
			continue;
		}
		r->len += (size_t)n;
		if (now_s() >= deadline && !memchr(r->buf, '\n', r->len))
			return 0;
	}
}

/* Read what is already there without waiting (kept in the log). */
static void run_drain(struct run *r)
{
	char line[1024];

	while (run_line(r, 0, line, sizeof(line)) == 1)
		;
}

static void run_reap(struct run *r)
{
	if (r->reaped)
		return;
	while (waitpid(r->pid, &r->status, 0) < 0 && errno == EINTR)
		;
	r->reaped = true;
}

static void run_close(struct run *r)
{
	run_drain(r);
	if (r->eof || npend == (int)(sizeof(pend) / sizeof(pend[0]))) {
		close(r->fd);
		fclose(r->log);
	} else {
		fwrite(r->buf, 1, r->len, r->log);
		pend[npend].fd = r->fd;
		pend[npend++].log = r->log;
	}
	for (int i = 0; i < 4; i++)
		if (live_runs[i] == r)
			live_runs[i] = NULL;
}

static void print_tail(const char *path, int n)
{
	char cmd[PATH_MAX + 64];

	snprintf(cmd, sizeof(cmd), "tail -n %d '%s' | sed 's/^/#   | /'", n, path);
	fflush(stdout);
	if (system(cmd) < 0)
		return;
	fflush(stdout);
}

/* Does live process @pid carry XDPTC_TOPOLOGY=P in its environment, P one of this test's
 * topologies (@only: that one)? The topology scripts tag every process an `up` starts so
 * (topologies/lib.sh), whatever process group it is in. The prefix into @p. */
static bool tagged_ours(pid_t pid, const char *only, char *p, size_t plen)
{
	char path[64], env[16384];
	size_t n;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/environ", (int)pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	n = fread(env, 1, sizeof(env) - 1, f);
	fclose(f);
	env[n] = '\0';
	for (size_t i = 0; i < n; i += strlen(env + i) + 1) {
		const char *v = env + i;

		if (strncmp(v, "XDPTC_TOPOLOGY=", 15))
			continue;
		v += 15;
		if (only && strcmp(v, only))
			return false;
		for (int k = 0; k < nprefixes; k++)
			if (!strcmp(v, our_prefixes[k])) {
				snprintf(p, plen, "%s", v);
				return true;
			}
		return false;
	}
	return false;
}

/* Live processes of topology @prefix (tagged_ours) into @out; how many. */
static int tagged_processes(const char *prefix, char *out, size_t len)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0;

	out[0] = '\0';
	while (d && (de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name);
		char comm[64], p[32];

		if (pid <= 0 || pid == getpid() || proc_pgrp(pid, comm, sizeof(comm)) < 0 ||
		    !tagged_ours(pid, prefix, p, sizeof(p)))
			continue;
		n++;
		snprintf(out + strlen(out), len - strlen(out), "%sprocess %d (%s) of topology %s",
			 n > 1 ? "; " : "", (int)pid, comm, p);
	}
	if (d)
		closedir(d);
	return n;
}

/* Processes still alive in the process groups of this test's runs, or started by their
 * topology scripts (tagged_ours) in a group of their own ("" when none). A group seen
 * empty is forgotten: its pid may be someone else's next. */
static int survivors(char *out, size_t len)
{
	DIR *d = opendir("/proc");
	struct dirent *de;
	int n = 0, alive[MAX_OURS] = { 0 }, k = 0;

	out[0] = '\0';
	while (d && (de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name), g;
		char comm[64];

		if (pid <= 0)
			continue;
		char p[32];

		g = proc_pgrp(pid, comm, sizeof(comm));
		if (g >= 0 && !is_ours(g) && pid != getpid() && tagged_ours(pid, NULL, p, sizeof(p))) {
			n++;
			snprintf(out + strlen(out), len - strlen(out), "%sprocess %d (%s) of topology %s",
				 n > 1 ? "; " : "", (int)pid, comm, p);
			continue;
		}
		if (g < 0 || !is_ours(g))
			continue;
		for (int i = 0; i < nours; i++)
			alive[i] += ours[i] == g;
		n++;
		snprintf(out + strlen(out), len - strlen(out), "%sprocess %d (%s) of the run %d",
			 n > 1 ? "; " : "", (int)pid, comm, (int)g);
	}
	if (d)
		closedir(d);
	for (int i = 0; i < nours; i++)
		if (alive[i])
			ours[k++] = ours[i];
	nours = k;
	return n;
}

static void kill_survivors(void)
{
	DIR *d = opendir("/proc");
	struct dirent *de;

	while (d && (de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name), g;
		char p[32];

		if (pid > 0 && pid != getpid() && (g = proc_pgrp(pid, NULL, 0)) >= 0 &&
		    (is_ours(g) || tagged_ours(pid, NULL, p, sizeof(p))))
			kill(pid, SIGKILL); /* a process of a run this test started, or its helper */
	}
	if (d)
		closedir(d);
}

/* Wait while someone else's run holds the run lock (polling every 10 s). */
static void wait_for_the_lock(void)
{
	double start = now_s();
	pid_t h;

	while ((h = lock_holder()) > 0 && foreign_pid(h)) {
		printf("# the run lock is held by pid %d (not this test's): waiting\n", (int)h);
		fflush(stdout);
		assert_true(now_s() - start < 1800);
		sleep_s(10);
	}
}

/* Did this run refuse because someone else's run holds the lock? Then wait for it. */
static bool refused_for_someone_else(struct run *r, const char *line)
{
	const char *p = strstr(line, "another xdptc run (pid ");
	pid_t h;

	if (!p)
		return false;
	h = (pid_t)atoi(p + 23);
	run_reap(r);
	run_close(r);
	if (is_ours(h) && h != r->pid) {
		printf("# refused because of this test's own run %d\n", (int)h);
		fail();
	}
	printf("# refused: pid %d (not this test's) is measuring; waiting for it\n", (int)h);
	fflush(stdout);
	while (pid_alive(h) || ((h = lock_holder()) > 0 && foreign_pid(h)))
		sleep_s(10);
	return true;
}

/* `xdptc cleanup` (in @base, so that ./results is this test's); what it removed into
 * @said (its "removing" lines, shortened). */
static void xdptc_cleanup(char *said, size_t len)
{
	char cmd[PATH_MAX + 64], out[8192];
	char *l, *save = NULL;
	int st;

	wait_for_the_lock(); /* its removal of empty run directories waits for no run */
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' cleanup", base, xdptc);
	st = sh_out(cmd, out, sizeof(out));
	if (st != 0) {
		printf("# xdptc cleanup failed (exit %d):\n%s\n", st, out);
		fail();
	}
	said[0] = '\0';
	for (l = strtok_r(out, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
		if (!strncmp(l, "removing ", 9) || strstr(l, "removed "))
			snprintf(said + strlen(said), len - strlen(said), "%s%s",
				 said[0] ? ", " : "", !strncmp(l, "removing ", 9) ? l + 9 : l);
	if (!said[0])
		snprintf(said, len, "nothing");
}

/* Run directories under @base/results: each must hold a readable run.json (a killed
 * run's empty one is removed by cleanup or the next run). Problems into @out. */
static int bad_run_dirs(char *out, size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX + 300];
	struct dirent *de;
	int bad = 0;
	DIR *d;

	snprintf(dir, sizeof(dir), "%s/results", base);
	d = opendir(dir);
	while (d && (de = readdir(d))) {
		json_t *j;

		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "%s/%s/run.json", dir, de->d_name);
		j = json_load_file(path, 0, NULL);
		if (!j) {
			bad++;
			snprintf(out + strlen(out), len - strlen(out), "%srun directory %s without "
				 "a readable run.json", out[0] ? "; " : "", de->d_name);
		}
		json_decref(j);
	}
	if (d)
		closedir(d);
	return bad;
}

/*
 * Compare the system with the snapshot taken before the first run until nothing new is
 * left, or @settle seconds pass (what a killed run's helpers do in their last moments);
 * then, while someone else's xdptc activity could explain what differs, wait for it.
 * The decoy must be intact. Returns the number of leftovers, each printed.
 */
static int compare_with_before(const char *when, double settle)
{
	double deadline = now_s() + settle, waited_from = 0;
	char procs[4096], dirs[4096], why[256];

	for (;;) {
		struct lines now;
		int n_new = 0, n_named = 0, n_procs, n_dirs, decoy_ok;

		drain_pending();
		snap_take(&now);
		for (size_t i = 0; i < now.n; i++)
			if (!lines_has(&before, now.v[i])) {
				n_new++;
				n_named += names_ours(now.v[i]);
			}
		n_procs = survivors(procs, sizeof(procs));
		dirs[0] = '\0';
		n_dirs = bad_run_dirs(dirs, sizeof(dirs));
		decoy_ok = decoy_cmd("check") == 0;
		if (!n_new && !n_procs && !n_dirs && decoy_ok) {
			lines_free(&now);
			return 0;
		}
		if (now_s() < deadline) {
			lines_free(&now);
			sleep_s(0.25);
			continue;
		}
		/* what names none of this test's topologies may be someone else's, for a while */
		if (n_new && !n_named && foreign_activity(why, sizeof(why)) &&
		    (!waited_from || now_s() - waited_from < 900)) {
			if (!waited_from)
				waited_from = now_s();
			printf("# %s: %d thing(s) differ while someone else's xdptc activity goes on "
			       "(%s): waiting for it to end\n", when, n_new, why);
			fflush(stdout);
			lines_free(&now);
			sleep_s(10);
			continue;
		}
		printf("# LEFTOVERS %s:\n", when);
		for (size_t i = 0; i < now.n; i++)
			if (!lines_has(&before, now.v[i]))
				printf("#   new: %s\n", now.v[i]);
		if (n_procs)
			printf("#   still running: %s\n", procs);
		if (n_dirs)
			printf("#   %s\n", dirs);
		if (!decoy_ok)
			printf("#   the decoy (%s, %s, %s) was touched\n", decoy_ns, decoy_a, decoy_b);
		fflush(stdout);
		lines_free(&now);
		kill_survivors();
		return n_new + n_procs + n_dirs + !decoy_ok;
	}
}

/* What is left of topology @p by name (namespaces, root-namespace links, its state). */
static int named_leftovers(const char *p, char *out, size_t len)
{
	static const char *const fmts[] = { "/run/netns/%s-snd", "/run/netns/%s-dut",
					    "/run/netns/%s-host", "/sys/class/net/%s-s",
					    "/sys/class/net/%s-d", "/sys/class/net/%s-t",
					    STATE_DIR "/%s.owner", STATE_DIR "/%s" };
	int n = 0;

	out[0] = '\0';
	for (size_t i = 0; p[0] && i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		char path[128];

		snprintf(path, sizeof(path), fmts[i], p);
		if (!access(path, F_OK)) {
			n++;
			snprintf(out + strlen(out), len - strlen(out), "%s%s", n > 1 ? ", " : "", path);
		}
	}
	return n;
}

/* ---- veth: kills aimed at the phases of a run ---- */

enum phase {
	PH_RANDOM, PH_ATTACH, PH_START_CLEANUP, PH_UP, PH_WINDOW, PH_COUNT, PH_BPFSTATS,
	PH_TEARDOWN, PH_NR
};

static const struct phase_def {
	const char *name;
	const char *match;         /* a line with this arms the kill (NULL: the start) */
	int occ_lo, occ_hi;        /* on the how-many-th such line (drawn) */
	double lo_ms, hi_ms;       /* that long after it (drawn) */
} phases[PH_NR] = {
	[PH_RANDOM] = { "random moment", NULL, 1, 1, 0, 2300 },
	/* a trial attaches its program as soon as the one before it is printed */
	[PH_ATTACH] = { "attach", "] timing ", 1, 5, 0, 3 },
	/* the run's start removing what the dead run before it left */
	[PH_START_CLEANUP] = { "start-of-run cleanup", "now gone: removing", 1, 1, 0, 30 },
	[PH_UP] = { "topology up", ": up", 1, 1, 0, 120 },
	[PH_WINDOW] = { "timing window", "] timing ", 1, 5, 12, 45 },
	[PH_COUNT] = { "count pass", "] count ", 1, 2, 0, 70 },
	[PH_BPFSTATS] = { "bpfstats pass", "] bpfstats ", 1, 2, 0, 60 },
	[PH_TEARDOWN] = { "teardown", "results in ", 1, 1, 0, 40 },
};

struct dead_run {
	char prefix[32], doctor_prefix[32];
};

/* The check that a run's start removed what the dead run before it left: by name, from
 * the run's first line after its start cleanup ("host doctor") on, for up to 3 s (the
 * dead run's last helper may still be finishing). */
struct prev_check {
	bool active, armed, done;
	double deadline;
	struct dead_run dead;
	char left[512];
};

static void prev_check_poll(struct prev_check *c)
{
	char a[256], b[256];

	drain_pending();
	if (!c->active || !c->armed || c->done)
		return;
	c->left[0] = '\0';
	if (!named_leftovers(c->dead.prefix, a, sizeof(a)) &&
	    !named_leftovers(c->dead.doctor_prefix, b, sizeof(b))) {
		c->done = true;
		return;
	}
	snprintf(c->left, sizeof(c->left), "%s%s%s", a, a[0] && b[0] ? ", " : "", b);
}

/* Start a veth run and kill it in @ph (the kill point drawn from the seed). Fills
 * @dead; returns 1 when it was killed, 0 when it ended by itself first. */
static int veth_kill_one(int i, enum phase ph, struct prev_check *pc, struct dead_run *dead,
			 char *what, size_t wlen)
{
	const struct phase_def *d = &phases[ph];
	char args[512], logname[64], line[1024], armed_by[160] = "";
	const char *match = d->match;
	double delay, kill_at = 0, killed_t = 0;
	int occ, seen = 0, killed = 0;
	struct run r;

	occ = d->occ_lo + (int)uniform(0, d->occ_hi - d->occ_lo + 1);
	delay = uniform(d->lo_ms, d->hi_ms) / 1000.0;
	/* after a kill without cleanup a run's start has work: random moments count from
	 * its end, so that the check of that work always happens */
	if (ph == PH_RANDOM && pc->active) {
		match = "host doctor";
		delay = uniform(0, 1700) / 1000.0;
	}
	snprintf(args, sizeof(args), "run --topology veth --packets 20k --reps 6 --count-reps 1 --timing-budget 1 "
		 "--no-flame --modes tc,xdpdrv,tcx --quiet --out results --seed %u",
		 (unsigned int)(stats_splitmix64(&rng) & 0xffff));
again:
	wait_for_the_lock();
	snprintf(logname, sizeof(logname), "veth-%02d.log", i + 1);
	run_start(&r, args, logname);
	if (!match)
		kill_at = r.t0 + delay;
	for (;;) {
		double t = now_s(), until;
		int got;

		if (kill_at && kill_at - t < 0.004) { /* close: sleep the rest, then kill */
			sleep_s(kill_at - t);
			kill(r.pid, SIGKILL);
			killed_t = now_s() - r.t0;
			break;
		}
		until = kill_at ? kill_at - 0.003 : t + 60;
		if (pc->active && !pc->done)
			until = fmin(until, t + 0.02);
		got = run_line(&r, until, line, sizeof(line));
		if (got == 1 && strstr(line, "another xdptc run (pid ")) {
			if (refused_for_someone_else(&r, line))
				goto again;
		}
		if (got == 1 && strstr(line, "host doctor") && pc->active && !pc->armed) {
			pc->armed = true;
			pc->deadline = now_s() + 3;
		}
		if (got == 1 && !kill_at && match && strstr(line, match) && ++seen == occ) {
			kill_at = now_s() + delay;
			snprintf(armed_by, sizeof(armed_by), "%.120s", line);
		}
		/* a start cleanup with nothing to remove: a random moment after it */
		if (got == 1 && !kill_at && ph == PH_START_CLEANUP && strstr(line, "host doctor")) {
			match = "host doctor";
			delay = uniform(0, 1700) / 1000.0;
			kill_at = now_s() + delay;
			snprintf(armed_by, sizeof(armed_by), "%.120s (nothing to clean)", line);
		}
		prev_check_poll(pc);
		if (got < 0)
			break; /* it ended by itself */
		assert_true(now_s() - r.t0 < 120);
	}
	run_reap(&r);
	killed = WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGKILL;
	run_drain(&r);
	snprintf(dead->prefix, sizeof(dead->prefix), "%s", r.prefix);
	snprintf(dead->doctor_prefix, sizeof(dead->doctor_prefix), "xdptc-d%05x",
		 (unsigned int)r.pid & 0xfffff);
	if (killed)
		snprintf(what, wlen, "killed %.3f s in, %.1f ms after %s%s%s", killed_t,
			 delay * 1000, armed_by[0] ? "'" : "its start", armed_by,
			 armed_by[0] ? "'" : "");
	else
		snprintf(what, wlen, "ended by itself (exit %d) before its kill point",
			 WIFEXITED(r.status) ? WEXITSTATUS(r.status) : -1);
	if (!killed && !(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0)) {
		printf("# veth run %d failed by itself:\n", i + 1);
		print_tail(r.logpath, 20);
		run_close(&r);
		fail();
	}
	run_close(&r);
	return killed;
}

/* Finish the check that a run's start removed what the dead run before it left. */
static int prev_check_finish(struct prev_check *c, int i)
{
	if (!c->active)
		return 0;
	if (!c->armed) {
		printf("# veth %d: killed before its start cleanup ended; what run %d left goes "
		       "with the next cleanup\n", i + 1, i);
		memset(c, 0, sizeof(*c));
		return 0;
	}
	while (!c->done && now_s() < c->deadline) {
		sleep_s(0.05);
		prev_check_poll(c);
	}
	if (!c->done) {
		printf("# LEFTOVERS: the start of run %d did not remove what the killed run %d "
		       "left: %s\n", i + 1, i, c->left);
		memset(c, 0, sizeof(*c));
		return 1;
	}
	memset(c, 0, sizeof(*c));
	return 0;
}

static void test_sigkill_veth_leaves_nothing(void **state)
{
	struct prev_check pc;
	struct dead_run dead;
	int by_phase[PH_NR] = { 0 }, found = 0, ended = 0;

	(void)state;
	memset(&pc, 0, sizeof(pc));
	printf("# veth: %d kills, seed %llu\n", veth_kills_wanted, seed);
	for (int i = 0; i < veth_kills_wanted; i++) {
		/* every phase once, its way on (a cleanup, or the next run) chosen by the seed;
		 * 16 = 8 phases x 2 gives every phase both */
		enum phase ph = (enum phase)((i + i / PH_NR) % PH_NR);
		bool direct = (i + (int)(seed & 1)) % 2 == 1;
		char what[512], said[1024] = "";
		int n, killed;

		killed = veth_kill_one(i, ph, &pc, &dead, what, sizeof(what));
		kills_veth += killed;
		by_phase[ph] += killed;
		n = prev_check_finish(&pc, i);
		if (!killed && ended < veth_kills_wanted) {
			/* it ended, and cleaned up, before its kill point: draw again */
			printf("# veth %2d/%d: %s, %s; again\n", i + 1, veth_kills_wanted,
			       phases[ph].name, what);
			leftovers += n;
			found += n;
			assert_int_equal(found, 0);
			ended++;
			i--;
			continue;
		}
		if (direct) {
			/* no cleanup: the next run's start must remove what this one left */
			pc.active = true;
			pc.dead = dead;
			printf("# veth %2d/%d: %s, %s; next run starts at once\n", i + 1,
			       veth_kills_wanted, phases[ph].name, what);
		} else {
			xdptc_cleanup(said, sizeof(said));
			printf("# veth %2d/%d: %s, %s; xdptc cleanup removed: %s\n", i + 1,
			       veth_kills_wanted, phases[ph].name, what, said);
			n += compare_with_before("after a veth kill and xdptc cleanup", 8);
		}
		fflush(stdout);
		leftovers += n;
		found += n;
		assert_int_equal(found, 0);
	}
	if (pc.active) { /* the last kill had no cleanup: a run to completion must clean */
		char line[1024];
		struct run r;

		do {
			wait_for_the_lock();
			run_start(&r, "run --topology veth --packets 5k --reps 2 --count-reps 1 --schedule classic "
				  "--no-flame --modes tc --quiet --out results --seed 1", "veth-final.log");
			while (run_line(&r, now_s() + 0.02, line, sizeof(line)) >= 0) {
				if (strstr(line, "another xdptc run (pid ") &&
				    refused_for_someone_else(&r, line))
					break;
				if (strstr(line, "host doctor") && !pc.armed) {
					pc.armed = true;
					pc.deadline = now_s() + 3;
				}
				prev_check_poll(&pc);
				assert_true(now_s() - r.t0 < 120);
			}
		} while (!r.eof);
		run_reap(&r);
		run_close(&r);
		if (!WIFEXITED(r.status) || WEXITSTATUS(r.status)) {
			print_tail(r.logpath, 20);
			fail();
		}
		found += prev_check_finish(&pc, veth_kills_wanted);
		printf("# veth: a run to completion after the last kill (exit 0)\n");
		found += compare_with_before("after the last veth kill and a complete run", 8);
		leftovers += found;
		assert_int_equal(found, 0);
	}
	printf("# veth: %d kills (", kills_veth);
	for (int p = 0; p < PH_NR; p++)
		printf("%s%s %d", p ? ", " : "", phases[p].name, by_phase[p]);
	printf("), %d run(s) ended before their kill point, 0 leftovers\n", ended);
}

/* ---- virtio: kills while the guest boots ---- */

static void test_sigkill_virtio_during_boot_leaves_nothing(void **state)
{
	(void)state;
	if (system("command -v qemu-system-x86_64 >/dev/null") != 0) {
		printf("# qemu-system-x86_64 is not installed (Debian package qemu-system-x86)\n");
		fail();
	}
	printf("# virtio: %d kills while the guest boots, seed %llu\n", virtio_kills_wanted, seed);
	for (int i = 0; i < virtio_kills_wanted; i++) {
		/* the first while virtio.sh prepares the guest (kernel, initramfs, accelerator)
		 * and launches qemu, right after the run announced the topology; the others at
		 * a random 2-15 s, mostly while the guest boots */
		bool aimed = i == 0;
		double at = aimed ? uniform(0, 0.4) : uniform(2, 15), killed_at;
		char logname[64], line[1024], said[1024], left[512], cmd[256];
		struct run r;
		int n = 0;

again:
		wait_for_the_lock();
		snprintf(logname, sizeof(logname), "virtio-%d.log", i + 1);
		run_start(&r, "run --topology virtio --packets 2k --reps 2 --count-reps 1 "
			  "--modes tc,xdpdrv --quiet --out results", logname);
		{
			double kill_at = aimed ? 0 : r.t0 + at;

			while (!kill_at || now_s() < kill_at) {
				int got = run_line(&r, kill_at ? kill_at : now_s() + 60, line, sizeof(line));

				if (got == 1 && strstr(line, "another xdptc run (pid ") &&
				    refused_for_someone_else(&r, line))
					goto again;
				if (got == 1 && !kill_at && r.prefix[0])
					kill_at = now_s() + at;
				if (got < 0)
					break;
				assert_true(now_s() - r.t0 < 120);
			}
		}
		if (r.eof) { /* it must still be building its guest */
			run_reap(&r);
			printf("# virtio run %d ended by itself:\n", i + 1);
			print_tail(r.logpath, 20);
			run_close(&r);
			fail();
		}
		kill(r.pid, SIGKILL);
		killed_at = now_s() - r.t0;
		run_reap(&r);
		kills_virtio++;
		run_close(&r); /* its stderr stays open and read while its helpers live */
		xdptc_cleanup(said, sizeof(said));
		printf("# virtio %d/%d: killed %.2f s in (%s%s), topology %s; xdptc cleanup removed: "
		       "%s\n", i + 1, virtio_kills_wanted, killed_at,
		       aimed ? "aimed at the guest's preparation, " : "",
		       r.booting ? "while the guest booted" : r.prefix[0] ? "while the topology was built"
							       : "before the topology",
		       r.prefix[0] ? r.prefix : "not yet announced", said);
		n += compare_with_before("after a virtio kill and xdptc cleanup", 15);
		{ /* what the killed run's virtio.sh said after its owner was gone */
			char grep[PATH_MAX + 64], said2[512] = "";

			snprintf(grep, sizeof(grep), "grep -h 'is gone' '%s'", r.logpath);
			if (sh_out(grep, said2, sizeof(said2)) == 0)
				printf("#   its orphaned helper, by itself: %s", said2);
		}
		/* by name as well: no namespace, tap, socket, state, qemu of this guest */
		if (r.prefix[0]) {
			if (named_leftovers(r.prefix, left, sizeof(left))) {
				printf("# LEFTOVERS of %s: %s\n", r.prefix, left);
				n++;
			}
			snprintf(cmd, sizeof(cmd), "pgrep -f '[q]emu-system-x86_64 -name %s' >/dev/null",
				 r.prefix);
			if (system(cmd) == 0) {
				printf("# LEFTOVERS: the qemu of %s still runs\n", r.prefix);
				n++;
			}
		}
		leftovers += n;
		assert_int_equal(n, 0);
	}
}

/* ---- virtio: kills aimed at the preparation of a first run (empty cache) ---- */

static const struct first_phase {
	const char *name, *match; /* a virtio.sh line that starts the phase */
	double lo, hi;            /* the kill that long after it (s, drawn) */
} first_phases[] = {
	/* as measured here: the download takes about 1.5 s, the unpack 4.4 s, the
	 * initramfs 2.1 s, the TCG boot 11 s */
	{ "download", "fetching guest kernel", 0.0, 1.2 },
	{ "unpack", "virtio.sh: unpacking", 0.0, 3.5 },
	{ "initramfs", "building the guest initramfs", 0.0, 1.6 },
	{ "boot", "booting guest", 0.3, 8.0 },
};

/* What a first run's preparation may leave in the guest-kernel cache @cache that a guest
 * does not need (a partial download, a half-unpacked tree, an initramfs being built). */
static int partial_cache_entries(const char *cache, char *out, size_t len)
{
	char cmd[PATH_MAX + 128];

	snprintf(cmd, sizeof(cmd), "cd '%s' && { ls -A | grep '^\\.'; "
				   "find . -name '*.tmp'; } 2>/dev/null | tr '\\n' ' '", cache);
	out[0] = '\0';
	sh_out(cmd, out, len);
	return out[0] != '\0';
}

/*
 * A first run (the guest-kernel cache empty, as on a new machine) killed in each phase of
 * its preparation: kills alternate between an `xdptc cleanup` afterwards and the next
 * run started at once, whose own start must remove everything of the dead one (checked
 * by name and by the dead topology's processes as soon as it prints its doctor line).
 * Nothing may remain: no namespace, tap, state file, qemu or helper process (topology
 * scripts tag every process they start, tagged_ours), and nothing partial in the cache.
 * XDPTC_FAULT_FIRST_RUN_KILLS sets how many (default 4, one per phase, their follow-ups
 * alternating; 8 gives each phase both).
 */
static void test_sigkill_first_virtio_run_leaves_nothing(void **state)
{
	int kills = 4, nphases = (int)(sizeof(first_phases) / sizeof(first_phases[0]));
	const char *e = getenv("XDPTC_FAULT_FIRST_RUN_KILLS");
	char *saved_cache = getenv("XDPTC_CACHE") ? strdup(getenv("XDPTC_CACHE")) : NULL;
	char prev_prefix[32] = "", prev_cache[PATH_MAX] = "";
	int by_phase[8] = { 0 };

	(void)state;
	if (e)
		kills = atoi(e);
	printf("# first virtio run: %d kills aimed at its preparation, each with an empty "
	       "guest-kernel cache (XDPTC_FAULT_FIRST_RUN_KILLS), seed %llu\n", kills, seed);
	for (int i = 0; i < kills; i++) {
		const struct first_phase *ph = &first_phases[i % nphases];
		bool then_cleanup = (i + (int)(seed & 1)) % 2 == 1 || i == kills - 1;
		char cache[PATH_MAX], logname[64], line[1024], said[1024], left[1024];
		double kill_at = 0, killed_at, phase_at = 0;
		struct run r;
		int n = 0;

		snprintf(cache, sizeof(cache), "%s/cache-%d", base, i + 1);
		assert_int_equal(mkdir(cache, 0755), 0);
		{ /* no kernel in it, but Debian's package lists as the suite's cache has them
		   * (metadata, fetched once a day): what a first run does is still all there,
		   * without 20 s of list fetching before each kill */
			char cp[2 * PATH_MAX + 64];

			snprintf(cp, sizeof(cp), "[ ! -d '%s/apt' ] || cp -a '%s/apt' '%s/apt'",
				 saved_cache ? saved_cache : "/var/cache/xdptc",
				 saved_cache ? saved_cache : "/var/cache/xdptc", cache);
			assert_int_equal(system(cp), 0);
		}
		setenv("XDPTC_CACHE", cache, 1);
		wait_for_the_lock();
		snprintf(logname, sizeof(logname), "first-%d.log", i + 1);
		run_start(&r, "run --topology virtio --packets 2k --reps 2 --count-reps 1 "
			  "--modes tc,xdpdrv --quiet --out results", logname);
		while (!kill_at || now_s() < kill_at) {
			int got = run_line(&r, kill_at ? kill_at : now_s() + 120, line, sizeof(line));

			if (got == 1 && prev_prefix[0] && strstr(line, "host doctor")) {
				/* this run's start has removed what the dead run before it left */
				char a[512], b[512];
				int la = named_leftovers(prev_prefix, a, sizeof(a));
				int lb = tagged_processes(prev_prefix, b, sizeof(b));

				if (la || lb || partial_cache_entries(prev_cache, b + strlen(b),
								      sizeof(b) - strlen(b))) {
					printf("# LEFTOVERS of %s when the next run had started: %s %s\n",
					       prev_prefix, a, b);
					n++;
				}
				prev_prefix[0] = '\0';
			}
			if (got == 1 && !kill_at && strstr(line, ph->match)) {
				phase_at = now_s();
				kill_at = phase_at + uniform(ph->lo, ph->hi);
			}
			if (got < 0)
				break;
			assert_true(now_s() - r.t0 < 180);
		}
		if (r.eof || !kill_at) {
			run_reap(&r);
			printf("# first virtio run %d ended before its %s phase:\n", i + 1, ph->name);
			print_tail(r.logpath, 20);
			run_close(&r);
			fail();
		}
		kill(r.pid, SIGKILL);
		killed_at = now_s();
		run_reap(&r);
		kills_virtio++;
		by_phase[i % nphases]++;
		run_close(&r);
		if (then_cleanup) {
			xdptc_cleanup(said, sizeof(said));
			n += compare_with_before("after a first virtio run's kill and xdptc cleanup", 15);
			if (partial_cache_entries(cache, left, sizeof(left))) {
				printf("# LEFTOVERS in the guest-kernel cache: %s\n", left);
				n++;
			}
		} else {
			snprintf(said, sizeof(said), "nothing yet: the next run starts at once");
			snprintf(prev_prefix, sizeof(prev_prefix), "%s", r.prefix);
			snprintf(prev_cache, sizeof(prev_cache), "%s", cache);
		}
		printf("# first %d/%d: %s, killed %.2f s into it (%.2f s after the start), topology "
		       "%s; %s%s\n", i + 1, kills, ph->name, killed_at - phase_at, killed_at - r.t0,
		       r.prefix[0] ? r.prefix : "not yet announced",
		       then_cleanup ? "xdptc cleanup removed: " : "", said);
		fflush(stdout);
		leftovers += n;
		assert_int_equal(n, 0);
		if (then_cleanup) {
			char rm[PATH_MAX + 16];

			snprintf(rm, sizeof(rm), "rm -rf '%s'", cache);
			assert_int_equal(system(rm), 0);
			if (prev_cache[0]) {
				snprintf(rm, sizeof(rm), "rm -rf '%s'", prev_cache);
				assert_int_equal(system(rm), 0);
				prev_cache[0] = '\0';
			}
		}
	}
	if (saved_cache)
		setenv("XDPTC_CACHE", saved_cache, 1);
	else
		unsetenv("XDPTC_CACHE");
	free(saved_cache);
	printf("# first virtio run: %d kills (", kills);
	for (int p = 0; p < nphases; p++)
		printf("%s%s %d", p ? ", " : "", first_phases[p].name, by_phase[p]);
	printf("), 0 leftovers\n");
}

/* ---- two runs at once ---- */

static void test_second_run_refuses_and_the_first_completes(void **state)
{
	char line[1024], out[8192], cmd[PATH_MAX + 256], path[PATH_MAX + 64], left[512];
	json_t *run, *t, *m;
	size_t i;
	struct run a;
	int st, n;

	(void)state;
	do {
		wait_for_the_lock();
		run_start(&a, "run --topology veth --packets 100k --reps 5 --count-reps 1 --no-flame --schedule classic "
			  "--modes tc,xdpdrv --quiet --out results-a --seed 5", "first.log");
		/* until it measures */
		while ((n = run_line(&a, now_s() + 60, line, sizeof(line))) == 1 &&
		       !strstr(line, "] timing ")) {
			if (strstr(line, "another xdptc run (pid ") &&
			    refused_for_someone_else(&a, line))
				break;
		}
	} while (a.reaped);
	assert_int_equal(n, 1);
	assert_true(a.prefix[0]);
	/* the second: refused, in a sentence, at once */
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' run --topology veth --packets 5k --reps 2 --schedule classic "
		 "--modes tc --out results-b", base, xdptc);
	{
		double t = now_s();

		st = sh_out(cmd, out, sizeof(out));
		printf("# the second run (exit %d, %.2f s): %s", st, now_s() - t, out);
		assert_true(now_s() - t < 5);
	}
	assert_int_equal(st, 1);
	snprintf(line, sizeof(line), "another xdptc run (pid %d) is measuring", (int)a.pid);
	assert_non_null(strstr(out, line));
	assert_non_null(strstr(out, "will not start"));
	snprintf(path, sizeof(path), "%s/results-b", base);
	assert_int_not_equal(access(path, F_OK), 0); /* it made nothing */
	/* the first is undisturbed: its topology is all there, and a cleanup leaves it */
	assert_int_equal(named_leftovers(a.prefix, left, sizeof(left)), 3); /* snd, dut, owner */
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' cleanup", base, xdptc);
	st = sh_out(cmd, out, sizeof(out));
	assert_int_equal(st, 0);
	assert_int_equal(waitpid(a.pid, &st, WNOHANG), 0); /* still measuring */
	printf("# xdptc cleanup meanwhile: %s", out);
	snprintf(line, sizeof(line), "leaving %s alone", a.prefix);
	assert_non_null(strstr(out, line));
	assert_int_equal(named_leftovers(a.prefix, left, sizeof(left)), 3);
	/* ... and it completes */
	while (run_line(&a, now_s() + 120, line, sizeof(line)) >= 0)
		assert_true(now_s() - a.t0 < 120);
	run_reap(&a);
	run_close(&a);
	if (!WIFEXITED(a.status) || WEXITSTATUS(a.status)) {
		print_tail(a.logpath, 20);
		fail();
	}
	snprintf(cmd, sizeof(cmd), "ls -d '%s'/results-a/*-veth/run.json 2>/dev/null | head -n 1", base);
	assert_int_equal(sh_out(cmd, path, sizeof(path)), 0);
	path[strcspn(path, "\n")] = '\0';
	run = json_load_file(path, 0, NULL);
	assert_non_null(run);
	assert_int_equal(json_array_size(json_object_get(run, "trials")), 2 * (5 + 1 + 1));
	json_array_foreach(json_object_get(run, "trials"), i, t)
		assert_true(json_is_true(json_object_get(t, "valid")));
	json_array_foreach(json_object_get(json_object_get(run, "summary"), "modes"), i, m) {
		const char *mode = json_string_value(json_object_get(m, "mode"));
		double at = json_number_value(json_object_get(m, "pkts_at_dut"));
		double stack = json_number_value(json_object_get(m, "stack_entries_per_pkt"));

		printf("# the first run: %s pkts_at_dut %.0f stack/pkt %.3f\n", mode, at, stack);
		assert_true(fabs(at - 100000) <= 100);
		if (!strcmp(mode, "tc"))
			assert_true(stack >= 0.99);
		else
			assert_true(stack <= 0.01);
	}
	assert_int_equal(json_array_size(json_object_get(json_object_get(run, "summary"), "modes")), 2);
	json_decref(run);
	n = compare_with_before("after two runs at once", 8);
	leftovers += n;
	assert_int_equal(n, 0);
}

/* ---- setup and teardown ---- */

static void remove_decoy_and_runs(void)
{
	for (int i = 0; i < 4; i++)
		if (live_runs[i] && !live_runs[i]->reaped)
			kill(live_runs[i]->pid, SIGKILL); /* a run this test started */
	kill_survivors();
	if (decoy_made) {
		decoy_cmd("remove");
		decoy_made = false;
	}
}

static void on_signal(int sig)
{
	remove_decoy_and_runs();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int setup(void **state)
{
	const char *e;

	(void)state;
	e = getenv("XDPTC_BIN");
	if (!realpath(e ? e : "./build/xdptc", xdptc)) {
		fprintf(stderr, "test_fault_kill: no xdptc binary (run from the repository root)\n");
		return -1;
	}
	e = getenv("XDPTC_FAULT_SEED");
	seed = e ? strtoull(e, NULL, 0) : (unsigned long long)time(NULL) ^ (unsigned long long)getpid();
	rng = seed;
	if ((e = getenv("XDPTC_FAULT_VETH_KILLS")))
		veth_kills_wanted = atoi(e);
	if ((e = getenv("XDPTC_FAULT_VIRTIO_KILLS")))
		virtio_kills_wanted = atoi(e);
	printf("# fault test: seed %llu, veth kills %d, virtio kills %d "
	       "(XDPTC_FAULT_SEED, XDPTC_FAULT_VETH_KILLS, XDPTC_FAULT_VIRTIO_KILLS)\n",
	       seed, veth_kills_wanted, virtio_kills_wanted);
	if (!mkdtemp(base))
		return -1;
	snprintf(decoy_ns, sizeof(decoy_ns), "faultdecoy-%d", (int)getpid());
	snprintf(decoy_a, sizeof(decoy_a), "fdecoy%da", (int)getpid());
	snprintf(decoy_b, sizeof(decoy_b), "fdecoy%db", (int)getpid());
	signal(SIGINT, on_signal);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	decoy_made = true;
	if (decoy_cmd("make") || decoy_cmd("check")) {
		fprintf(stderr, "test_fault_kill: cannot make the decoy %s\n", decoy_ns);
		remove_decoy_and_runs();
		return -1;
	}
	printf("# decoy: namespace %s, veth %s (198.19.254.1/30) / %s (198.19.254.2/30), "
	       "clsact on both\n", decoy_ns, decoy_a, decoy_b);
	snap_take(&before);
	printf("# before: %zu things noted (namespaces, links, qdiscs, BPF programs, links and "
	       "attachments, pins, /run/xdptc, qemu, sockets)\n", before.n);
	fflush(stdout);
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 64];
	int e;

	(void)state;
	remove_decoy_and_runs();
	drain_pending();
	while (npend) {
		close(pend[npend - 1].fd);
		fclose(pend[npend - 1].log);
		npend--;
	}
	snprintf(cmd, sizeof(cmd), "cd '%s' && '%s' cleanup >/dev/null 2>&1", base, xdptc);
	e = system(cmd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	e |= system(cmd);
	lines_free(&before);
	printf("fault test: %d kills (veth %d, virtio %d), %d leftovers\n",
	       kills_veth + kills_virtio, kills_veth, kills_virtio, leftovers);
	fflush(stdout);
	return e ? -1 : 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_sigkill_veth_leaves_nothing),
		cmocka_unit_test(test_sigkill_virtio_during_boot_leaves_nothing),
		cmocka_unit_test(test_sigkill_first_virtio_run_leaves_nothing),
		cmocka_unit_test(test_second_run_refuses_and_the_first_completes),
	};

	INTEGRATION_MAIN("test_fault_kill", tests, setup, teardown, NULL);
}
