/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * engine_icount.c: the host side of `xdptc run --engine icount`.
 *
 * qemu's -icount shift=0,sleep=off makes a TCG guest's clock advance exactly 1 ns per
 * guest instruction (2^shift), and skip idle time instead of waiting it out. Time read
 * inside such a guest is therefore an instruction count, the same on every host and
 * free of the host's noise. This engine boots one (topologies/virtio.sh with ICOUNT=1:
 * the virtio topology's guest kernel, initramfs, 9p root and agent) and runs the whole
 * veth experiment inside it: `xdptc run --inside-icount FILE`, FILE holding the user's
 * options as data (run_opts_to_json). The
 * inner run writes its results straight into the host's results directory, shared
 * read-write over 9p (XDPTC_SHARE), and its progress to a log there, which this side
 * relays with a host-time ETA (the guest's clock is no guide to host time).
 *
 * One run at a time (the run lock), the guest belongs to this process (its owner pid
 * file), and it is shut down on success, error and Ctrl-C.
 */
#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "dut.h"
#include "run_internal.h"

/*
 * The inner run's options, written into the share as data (run_opts_to_json): every
 * setting of the user's run, where it runs (qemu, its -icount arguments, this host's CPU
 * and kernel), this host's time (the guest's clock ran ahead while idle time was skipped
 * during boot: the results directory's name comes from it) and working directory.
 * Returns 0 or -errno.
 */
static int write_inner_options(const struct run_opts *o, const struct topology *t,
			       const char *path)
{
	struct run_icount_host host;
	struct utsname u;
	json_t *j;
	int e;

	uname(&u);
	snprintf(host.qemu, sizeof(host.qemu), "%s", t->qemu_version);
	snprintf(host.icount, sizeof(host.icount), "%s", t->icount);
	machine_cpu_model(host.host_cpu_model, sizeof(host.host_cpu_model));
	snprintf(host.host_kernel, sizeof(host.host_kernel), "%s", u.release);
	j = run_opts_to_json(o, &host);
	e = json_dump_file(j, path, JSON_INDENT(2)) ? -EIO : 0;
	json_decref(j);
	return e;
}

/* What relay_log keeps between calls: a line the guest has not finished writing, and
 * when the first progress line came (the ETA's start: boot and set-up are not trials). */
struct relay {
	char partial[1024];
	struct timespec first;
	bool started;
};

/* Relay the complete new lines of the inner run's log, each "[ n/N]" progress line with
 * an ETA in host time. Remembers the results directory the inner run names. */
static void relay_log(FILE *log, struct relay *rl, char *result_dir, size_t len)
{
	char line[1024];
	int done, total;

	while (fgets(line, sizeof(line), log)) {
		char full[2048];
		const char *r;

		if (!strchr(line, '\n')) { /* the rest is still being written */
			size_t have = strlen(rl->partial);

			snprintf(rl->partial + have, sizeof(rl->partial) - have, "%s", line);
			continue;
		}
		snprintf(full, sizeof(full), "%s%s", rl->partial, line);
		rl->partial[0] = '\0';
		r = strstr(full, "results in /run/xdptc-share/");
		if (r) {
			snprintf(result_dir, len, "%s", r + strlen("results in /run/xdptc-share/"));
			result_dir[strcspn(result_dir, "/ \n")] = '\0';
			continue; /* the host says where they are */
		}
		if (sscanf(full, "[%d/%d]", &done, &total) == 2 && done > 0 && total >= done) {
			struct timespec now;
			double el;

			clock_gettime(CLOCK_MONOTONIC, &now);
			if (!rl->started) {
				rl->first = now;
				rl->started = true;
			}
			el = (double)(now.tv_sec - rl->first.tv_sec) +
			     (double)(now.tv_nsec - rl->first.tv_nsec) / 1e9;
			full[strcspn(full, "\n")] = '\0';
			/* the first trial's time is not known: it started before its line */
			if (done > 1)
				fprintf(stderr, "%s, ETA %.0fs (host time)\n", full,
					el / (done - 1) * (total - done));
			else
				fprintf(stderr, "%s\n", full);
			continue;
		}
		fputs(full, stderr);
	}
	clearerr(log);
}

static void print_file(const char *path)
{
	char buf[4096];
	size_t n;
	FILE *f = fopen(path, "r");

	if (!f)
		return;
	while ((n = fread(buf, 1, sizeof(buf), f)) > 0)
		if (fwrite(buf, 1, n, stdout) != n)
			break;
	fclose(f);
}

int icount_engine_run(const struct run_opts *o)
{
	struct topology topo;
	struct dut dut;
	char share[PATH_MAX], optp[PATH_MAX + 64], logp[PATH_MAX + 64], statp[PATH_MAX + 64];
	char exe[PATH_MAX];
	char tag[48], why[512], out[512], result_dir[256] = "", path[PATH_MAX + 300];
	struct relay rl = { .started = false };
	FILE *log = NULL;
	int lock_fd, e, st = -1, status = 1;
	bool have_dut = false;

	lock_fd = run_begin(o, &topo);
	if (lock_fd < 0)
		return 1;
	e = run_make_parents(o->out_dir);
	if (e || !realpath(o->out_dir, share)) {
		fprintf(stderr, "xdptc: cannot create the results directory '%s': %s\n", o->out_dir,
			strerror(e ? -e : errno));
		close(lock_fd);
		return 1;
	}
	snprintf(tag, sizeof(tag), "icount-%s", topo.prefix);
	snprintf(optp, sizeof(optp), "%s/.%s.json", share, tag);
	snprintf(logp, sizeof(logp), "%s/.%s.log", share, tag);
	snprintf(statp, sizeof(statp), "%s/.%s.status", share, tag);
	topo.share = share; /* virtio.sh: XDPTC_SHARE, the guest's /run/xdptc-share */
	fprintf(stderr, "xdptc: icount engine: booting a TCG guest with -icount shift=0,sleep=off "
			"(the veth experiment runs inside it; results into %s)\n", share);
	if (run_topology_cmd(o, "virtio", "up", &topo) || !topo.ctl_sock[0]) {
		fprintf(stderr, run_stopped() ? "\nxdptc: interrupted; cleaning up\n"
					      : "xdptc: the icount guest did not start (see above)\n");
		status = run_stopped() ? 130 : 1;
		goto out;
	}
	topo.up = 1;
	fprintf(stderr, "xdptc: icount guest %s up: kernel %s, %s, %s\n", topo.prefix,
		topo.guest_kernel, topo.qemu_version, topo.icount);
	e = dut_remote_connect(&dut, topo.ctl_sock, 30000, why, sizeof(why));
	if (e) {
		fprintf(stderr, "xdptc: %s\n", why);
		goto out;
	}
	have_dut = true;
	e = write_inner_options(o, &topo, optp);
	if (e) {
		fprintf(stderr, "xdptc: cannot write %s: %s\n", optp, strerror(-e));
		goto out;
	}
	unlink(logp);
	unlink(statp);
	/* the host's root is the guest's: the same binary runs there, its options from the
	 * file; in the background, detached (the agent's exec returns at once), its output
	 * to the log this side relays and its exit status to a file */
	e = (int)readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	exe[e > 0 ? e : 0] = '\0';
	snprintf(path, sizeof(path), "setsid sh -c '\"%s\" run --inside-icount "
		 "/run/xdptc-share/.%s.json >/run/xdptc-share/.%s.log 2>&1; echo $? "
		 ">/run/xdptc-share/.%s.status' </dev/null >/dev/null 2>&1 &", exe, tag, tag, tag);
	e = dut_exec(&dut, path, &st, out, sizeof(out));
	if (e || st) {
		fprintf(stderr, "xdptc: starting the run in the guest failed: %s\n",
			e ? strerror(-e) : out);
		goto out;
	}
	for (;;) {
		FILE *sf;

		if (!log)
			log = fopen(logp, "r");
		if (log)
			relay_log(log, &rl, result_dir, sizeof(result_dir));
		sf = fopen(statp, "r");
		if (sf) {
			if (fscanf(sf, "%d", &st) != 1)
				st = -1;
			fclose(sf);
			if (st >= 0) {
				if (log)
					relay_log(log, &rl, result_dir, sizeof(result_dir));
				break;
			}
		}
		if (run_stopped()) {
			fprintf(stderr, "\nxdptc: interrupted; stopping the guest\n");
			status = 130;
			goto out;
		}
		if (kill(atoi(topo.qemu_pid), 0)) {
			fprintf(stderr, "xdptc: the icount guest (qemu pid %s) is gone\n", topo.qemu_pid);
			goto out;
		}
		usleep(300000);
	}
	if (st != 0 || !result_dir[0]) {
		fprintf(stderr, "xdptc: the run inside the icount guest failed (exit status %d)\n", st);
		status = st > 0 ? st : 1;
		goto out;
	}
	/* the guest's log belongs with its results */
	snprintf(path, sizeof(path), "%s/%s/guest-run.log", share, result_dir);
	if (rename(logp, path))
		fprintf(stderr, "xdptc: note: cannot keep the guest's log: %s\n", strerror(errno));
	if (!o->quiet) {
		snprintf(path, sizeof(path), "%s/%s/summary.md", share, result_dir);
		print_file(path);
	}
	if (o->dir_out)
		snprintf(o->dir_out, o->dir_out_len, "%s/%s", o->out_dir, result_dir);
	fprintf(stderr, "xdptc: results in %s/%s/ (run.json, summary.md, plots, guest-run.log)\n",
		o->out_dir, result_dir);
	status = 0;
out:
	if (log)
		fclose(log);
	if (have_dut)
		dut_close(&dut);
	if (topo.up || topo.prefix[0]) {
		run_topology_cmd(o, "virtio", "down", &topo);
		fprintf(stderr, "xdptc: icount guest %s: down\n", topo.prefix);
	}
	unlink(optp);
	unlink(logp);
	unlink(statp);
	close(lock_fd);
	return status;
}
