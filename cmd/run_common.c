/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_common.c: what the run driver (run.c), the rate search (run_rate.c) and the icount
 * engine (engine_icount.c) share (run_internal.h): the stop flag and signals, the run
 * lock, the topology scripts, the arms' names and order, directories.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"
#include "run_internal.h"
#include "stats.h"
#include "trial.h"

/* A run lock whose holder is gone: how often, and how many ms apart, to look again for
 * the children it left to die (docs: "waits up to 3 s") */
#define LOCK_WAIT_TRIES 60
#define LOCK_WAIT_MS 50

static volatile int g_stop;

bool run_stopped(void)
{
	return g_stop;
}

volatile int *run_stop_flag(void)
{
	return &g_stop;
}

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
		/* virtio.sh's settings, from the options (nothing inherited decides them) */
		setenv("ICOUNT", o->engine == ENGINE_ICOUNT ? "1" : "0", 1);
		if (o->guest_kernel)
			setenv("GUEST_KERNEL", o->guest_kernel, 1);
		if (t->share)
			setenv("XDPTC_SHARE", t->share, 1);
		else
			unsetenv("XDPTC_SHARE");
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

/* The run lock on @held, inherited from `xdptc matrix`, which holds it for its runs: it
 * must be the lock file and locked by this open file (flock succeeds again). Returns a
 * copy of it (close-on-exec), or -1. */
static int run_lock_inherited(int held)
{
	struct stat a, b;

	if (fstat(held, &a) || stat(XDPTC_RUN_LOCK, &b) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino || flock(held, LOCK_EX | LOCK_NB))
		return -1;
	return fcntl(held, F_DUPFD_CLOEXEC, 3);
}

int run_lock_take(int *holder)
{
	char buf[32];
	int fd, n;

	*holder = 0;
	if (mkdir(XDPTC_RUN_LOCK_DIR, 01777) == 0) /* a system without one: as Debian's */
		chmod(XDPTC_RUN_LOCK_DIR, 01777);
	fd = open(XDPTC_RUN_LOCK, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
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
		if (*holder > 0 && kill(*holder, 0) && errno == ESRCH && tries < LOCK_WAIT_TRIES) {
			struct timespec ts = { 0, LOCK_WAIT_MS * 1000 * 1000 };

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

	lock_fd = o->held_lock > 0 ? run_lock_inherited(o->held_lock) : run_lock_take(&holder);
	if (lock_fd < 0 && o->held_lock > 0) {
		fprintf(stderr, "xdptc: --held-lock %d is not the run lock held for this run\n",
			o->held_lock);
		return -1;
	}
	if (lock_fd < 0) {
		char who[32] = "";

		if (holder > 0)
			snprintf(who, sizeof(who), " (pid %d)", holder);
		fprintf(stderr, "xdptc: another xdptc run%s is measuring on this machine; runs at "
				"the same time bias each other's numbers, so this one will not start. "
				"Wait for it to finish.\n", who);
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
