/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* topology_script.c: running a topology script and reading what it printed
 * (topology_script.h). */
#include "topology_script.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "nic_models.h"
#include "run_signals.h"
#include "self_exe.h"

static void copy_val(char *dst, size_t len, const char *line, const char *key)
{
	size_t k = strlen(key);

	if (!strncmp(line, key, k) && line[k] == '=') {
		snprintf(dst, len, "%s", line + k + 1);
		dst[strcspn(dst, "\n")] = '\0';
	}
}

int run_topology_cmd(const struct run_opts *o, const char *script, const char *verb,
		     struct topology *t)
{
	char path[PATH_MAX], line[256], owner[16];
	pid_t parent = getpid(), pid;
	int fds[2], st = 0;
	FILE *p;

	snprintf(path, sizeof(path), "%s/%s", o->topologies_dir, script);
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
		/* dev.sh's device, named by the user */
		if (o->dev)
			setenv("XDPTC_DEV", o->dev, 1);
		if (o->dev_netns)
			setenv("XDPTC_DEV_NETNS", o->dev_netns, 1);
		{ /* this binary, for a script that asks it to make what iproute2 cannot */
			char self[PATH_MAX];

			if (!self_exe(self, sizeof(self)))
				setenv("XDPTC_BIN", self, 1);
		}
		if (t->feed)
			setenv("FEED", t->feed, 1);
		else
			unsetenv("FEED");
		{ /* the nic topology's DUT: its qemu model and its driver's modules */
			const struct nic_model *m = nic_model_find(o->nic);

			if (m) {
				setenv("DUT_NIC", m->device, 1);
				setenv("DUT_MODULES", m->modules, 1);
			} else {
				unsetenv("DUT_NIC");
				unsetenv("DUT_MODULES");
			}
		}
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
		run_signals_group(pid);
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
			copy_val(t->nk_snd_dev, sizeof(t->nk_snd_dev), line, "NETKIT_SND_DEV");
			copy_val(t->nk_dut_dev, sizeof(t->nk_dut_dev), line, "NETKIT_DUT_DEV");
			copy_val(t->nk_snd_addr, sizeof(t->nk_snd_addr), line, "NETKIT_SND_ADDR");
			copy_val(t->nk_dut_addr, sizeof(t->nk_dut_addr), line, "NETKIT_DUT_ADDR");
			copy_val(t->nk_reason, sizeof(t->nk_reason), line, "NETKIT_REASON");
		}
		fclose(p);
	}
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	run_signals_group(0);
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : -EIO;
}
