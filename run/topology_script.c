/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* topology_script.c: running a topology script and reading what it printed
 * (topology_script.h). */
#include "topology_script.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nic_models.h"
#include "run_signals.h"
#include "self_exe.h"

/* The keys more than one topology's script prints: where each goes in struct topology. */
#define KEY(k, f) { k, offsetof(struct topology, f), sizeof(((struct topology *)0)->f) }
static const struct {
	const char *key;
	size_t off, len;
} shared_keys[] = {
	KEY("SND_NS", snd_ns), KEY("DUT_NS", dut_ns), KEY("SND_DEV", snd_dev),
	KEY("DUT_DEV", dut_dev), KEY("SND_ADDR", snd_addr), KEY("DUT_ADDR", dut_addr),
	KEY("DUT_MAC", dut_mac), KEY("CTL_SOCK", ctl_sock), KEY("ACCEL", accel),
	KEY("ACCEL_REASON", accel_reason), KEY("GUEST_KERNEL", guest_kernel),
	KEY("QEMU_VERSION", qemu_version), KEY("QEMU_PID", qemu_pid), KEY("ICOUNT", icount),
};
#undef KEY

/* When @line is "@key=VALUE\n", VALUE into @dst (@len bytes, cut to fit). */
static void copy_val(char *dst, size_t len, const char *line, const char *key)
{
	size_t k = strlen(key);

	if (!strncmp(line, key, k) && line[k] == '=') {
		snprintf(dst, len, "%s", line + k + 1);
		dst[strcspn(dst, "\n")] = '\0';
	}
}

/* One line the script printed, into @t's field or @td's own key that it names (none:
 * ignored). */
static void read_key(const char *line, const struct topology_desc *td, struct topology *t)
{
	for (size_t i = 0; i < sizeof(shared_keys) / sizeof(shared_keys[0]); i++)
		copy_val((char *)t + shared_keys[i].off, shared_keys[i].len, line,
			 shared_keys[i].key);
	for (const struct topology_key *k = td->keys; k && k->key; k++)
		copy_val(k->val, k->len, line, k->key);
}

/* Every line of the script's standard output @fd to its end (a signal meanwhile: read
 * on), its keys into @t and @td's own; @fd is closed. */
static void read_keys(int fd, const struct topology_desc *td, struct topology *t)
{
	char line[256];
	FILE *p = fdopen(fd, "r");

	if (!p) {
		close(fd);
		return;
	}
	for (;;) {
		if (!fgets(line, sizeof(line), p)) {
			if (ferror(p) && errno == EINTR) { /* a signal: read on to the end */
				clearerr(p);
				continue;
			}
			break;
		}
		read_key(line, td, t);
	}
	fclose(p);
}

/* @name set to @val, or unset when @val is NULL (nothing inherited decides it). */
static void env_set(const char *name, const char *val)
{
	if (val)
		setenv(name, val, 1);
	else
		unsetenv(name);
}

/* In the script's process: its settings in the environment, from @o and @t, the owner
 * being process @owner. */
static void script_env(const struct run_opts *o, const struct topology *t, const char *owner)
{
	const struct nic_model *m = nic_model_find(o->nic);
	char self[PATH_MAX];

	setenv("XDPTC_OWNER_PID", owner, 1);
	/* virtio.sh's settings, from the options (nothing inherited decides them) */
	setenv("ICOUNT", o->engine == ENGINE_ICOUNT ? "1" : "0", 1);
	if (o->guest_kernel)
		setenv("GUEST_KERNEL", o->guest_kernel, 1);
	/* dev.sh's device, named by the user */
	if (o->dev)
		setenv("XDPTC_DEV", o->dev, 1);
	if (o->dev_netns)
		setenv("XDPTC_DEV_NETNS", o->dev_netns, 1);
	/* this binary, for a script that asks it to make what iproute2 cannot */
	if (!self_exe(self, sizeof(self)))
		setenv("XDPTC_BIN", self, 1);
	env_set("FEED", t->feed);
	/* the nic topology's DUT: its qemu model and its driver's modules */
	env_set("DUT_NIC", m ? m->device : NULL);
	env_set("DUT_MODULES", m ? m->modules : NULL);
	/* the guests' qemu: bookworm-backports' (virtio.sh's QEMU_FROM) or the installed */
	env_set("QEMU_FROM", o->qemu == QEMU_BACKPORTS ? "backports" : NULL);
	env_set("XDPTC_SHARE", t->share);
}

/* In the forked child: become the script `sh @path @verb PREFIX`, its standard output
 * @out, owned by process @parent. Never returns. */
static _Noreturn void script_exec(const struct run_opts *o, const char *path, const char *verb,
				  const struct topology *t, pid_t parent, int out)
{
	int null = open("/dev/null", O_RDONLY | O_CLOEXEC);
	char owner[16];

	/* a process group of its own: the script and everything it starts are told of a stop
	 * together; a terminal's ^C reaches them through on_signal */
	setpgid(0, 0);
	/* this run killed (SIGKILL): the script hears it at once, stops whatever it was
	 * doing and removes what it made (topologies/lib.sh watches too) */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != parent)
		_exit(1);
	if (null < 0 || dup2(null, STDIN_FILENO) < 0 || dup2(out, STDOUT_FILENO) < 0)
		_exit(126);
	snprintf(owner, sizeof(owner), "%d", (int)parent);
	script_env(o, t, owner);
	execlp("sh", "sh", path, verb, t->prefix, (char *)NULL);
	_exit(127);
}

int run_topology_cmd(const struct run_opts *o, const struct topology_desc *td,
		     const char *verb, struct topology *t)
{
	char path[PATH_MAX];
	pid_t parent = getpid(), pid;
	int fds[2], st = 0;
	bool up = !strcmp(verb, "up");

	snprintf(path, sizeof(path), "%s/%s", o->topologies_dir, td->script);
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
	if (pid == 0)
		script_exec(o, path, verb, t, parent, fds[1]);
	setpgid(pid, pid);
	close(fds[1]);
	/* only `up` is stopped early: a `down` always runs to its end */
	if (up) {
		run_signals_group(pid);
		for (const struct topology_key *k = td->keys; k && k->key; k++)
			k->val[0] = '\0'; /* this build's, not an earlier one's */
	}
	read_keys(fds[0], td, t);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	run_signals_group(0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}
