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

#include "dut_remote.h"
#include "report.h"
#include "engine_icount.h"
#include "run_begin.h"
#include "run_dirs.h"
#include "run_json.h"
#include "run_opts_json.h"
#include "run_signals.h"
#include "self_exe.h"
#include "topology.h"
#include "topologies.h"
#include "topology_script.h"

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
		if (!r)
			r = strstr(full, "results will be in /run/xdptc-share/");
		if (r) {
			r = strstr(r, "/run/xdptc-share/") + strlen("/run/xdptc-share/");
			snprintf(result_dir, len, "%s", r);
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


/* One icount engine run: its guest, the files it shares with the inner run. */
struct icount_run {
	struct topology topo;
	struct dut dut;
	bool have_dut;
	char share[PATH_MAX];                   /* the results directory, shared */
	char tag[48];                           /* icount-PREFIX */
	char optp[PATH_MAX + 64], logp[PATH_MAX + 64], statp[PATH_MAX + 64];
	char result_dir[256];                   /* the inner run's directory in the share */
};

/* Boot the icount guest and reach its agent. Returns 0, or the exit status (said why). */
static int icount_boot(const struct run_opts *o, struct icount_run *ir)
{
	char why[512];

	ir->topo.share = ir->share; /* virtio.sh: XDPTC_SHARE, the guest's /run/xdptc-share */
	ir->topo.feed = topology_find(o->topology)->icount_feed;
	fprintf(stderr, "xdptc: icount engine: booting a TCG guest with -icount shift=0,sleep=off "
			"(the %s experiment runs inside it; results into %s)\n", o->topology, ir->share);
	if (run_topology_cmd(o, &topology_virtio, "up", &ir->topo) || !ir->topo.ctl_sock[0]) {
		fprintf(stderr, run_stopped() ? "\nxdptc: interrupted; cleaning up\n"
					      : "xdptc: the icount guest did not start (see above)\n");
		return run_stopped() ? 130 : 1;
	}
	ir->topo.up = 1;
	fprintf(stderr, "xdptc: icount guest %s up: kernel %s, %s, %s\n", ir->topo.prefix,
		ir->topo.guest_kernel, ir->topo.qemu_version, ir->topo.icount);
	if (dut_remote_connect(&ir->dut, ir->topo.ctl_sock, 30000, why, sizeof(why))) {
		fprintf(stderr, "xdptc: %s\n", why);
		return 1;
	}
	ir->have_dut = true;
	return 0;
}

/* Write the inner run's options and start it in the guest: the host's root is the
 * guest's, so the same binary runs there, its options from the file; in the background,
 * detached (the agent's exec returns at once), its output to the log this side relays
 * and its exit status to a file. Returns 0 or 1 (said why). */
static int icount_start(const struct run_opts *o, struct icount_run *ir)
{
	char exe[PATH_MAX], cmd[PATH_MAX + 300], out[512];
	int e, st = 0;

	e = write_inner_options(o, &ir->topo, ir->optp);
	if (e) {
		fprintf(stderr, "xdptc: cannot write %s: %s\n", ir->optp, strerror(-e));
		return 1;
	}
	unlink(ir->logp);
	unlink(ir->statp);
	self_exe(exe, sizeof(exe)); /* the host's root is the guest's: the same path */
	snprintf(cmd, sizeof(cmd), "setsid sh -c '\"%s\" run --inside-icount "
		 "/run/xdptc-share/.%s.json >/run/xdptc-share/.%s.log 2>&1; echo $? "
		 ">/run/xdptc-share/.%s.status' </dev/null >/dev/null 2>&1 &", exe, ir->tag, ir->tag,
		 ir->tag);
	e = dut_exec(&ir->dut, cmd, &st, out, sizeof(out));
	if (e || st) {
		fprintf(stderr, "xdptc: starting the run in the guest failed: %s\n",
			e ? strerror(-e) : out);
		return 1;
	}
	return 0;
}

/* Relay the inner run's log until its exit status appears. Returns that status, 130 when
 * interrupted, or -1 when the guest is gone. */
static int icount_wait(struct icount_run *ir)
{
	struct relay rl = { .started = false };
	FILE *log = NULL;
	int st = -1;

	for (;;) {
		FILE *sf;

		if (!log)
			log = fopen(ir->logp, "r");
		if (log)
			relay_log(log, &rl, ir->result_dir, sizeof(ir->result_dir));
		sf = fopen(ir->statp, "r");
		if (sf) {
			if (fscanf(sf, "%d", &st) != 1)
				st = -1;
			fclose(sf);
			if (st >= 0) {
				if (log)
					relay_log(log, &rl, ir->result_dir, sizeof(ir->result_dir));
				break;
			}
		}
		if (run_stopped()) {
			fprintf(stderr, "\nxdptc: interrupted; stopping the guest\n");
			st = 130;
			break;
		}
		if (kill(atoi(ir->topo.qemu_pid), 0)) {
			fprintf(stderr, "xdptc: the icount guest (qemu pid %s) is gone\n",
				ir->topo.qemu_pid);
			st = -1;
			break;
		}
		usleep(300000);
	}
	if (log)
		fclose(log);
	return st;
}

/* The inner run's results: its log kept beside them, its summary printed. */
static void icount_keep(const struct run_opts *o, struct icount_run *ir)
{
	char path[PATH_MAX + 300];

	snprintf(path, sizeof(path), "%s/%s/guest-run.log", ir->share, ir->result_dir);
	if (rename(ir->logp, path))
		fprintf(stderr, "xdptc: note: cannot keep the guest's log: %s\n", strerror(errno));
	if (!o->quiet) { /* the summary as a host run prints it, the answer last */
		char err[512];
		json_t *run;

		snprintf(path, sizeof(path), "%s/%s", ir->share, ir->result_dir);
		if (!report_load(path, &run, err, sizeof(err))) {
			report_print(run, stdout);
			json_decref(run);
		} else {
			fprintf(stderr, "xdptc: %s\n", err);
		}
	}
	if (o->dir_out)
		snprintf(o->dir_out, o->dir_out_len, "%s/%s", o->out_dir, ir->result_dir);
	fprintf(stderr, "xdptc: results in %s/%s/ (run.json, summary.md, index.html, plots, "
			"%sguest-run.log)\n",
		o->out_dir, ir->result_dir, o->flame ? "flame graphs, " : "");
}

int icount_engine_run(const struct run_opts *o)
{
	static struct icount_run ir;
	int lock_fd, e, st, status = 1;

	memset(&ir, 0, sizeof(ir));
	lock_fd = run_begin(o, &ir.topo);
	if (lock_fd < 0)
		return 1;
	e = run_make_parents(o->out_dir);
	if (e || !realpath(o->out_dir, ir.share)) {
		fprintf(stderr, "xdptc: cannot create the results directory '%s': %s\n", o->out_dir,
			strerror(e ? -e : errno));
		close(lock_fd);
		return 1;
	}
	snprintf(ir.tag, sizeof(ir.tag), "icount-%s", ir.topo.prefix);
	snprintf(ir.optp, sizeof(ir.optp), "%s/.%s.json", ir.share, ir.tag);
	snprintf(ir.logp, sizeof(ir.logp), "%s/.%s.log", ir.share, ir.tag);
	snprintf(ir.statp, sizeof(ir.statp), "%s/.%s.status", ir.share, ir.tag);
	status = icount_boot(o, &ir);
	if (!status)
		status = icount_start(o, &ir);
	if (!status) {
		st = icount_wait(&ir);
		if (st == 0 && ir.result_dir[0]) {
			icount_keep(o, &ir);
		} else if (st == 130) {
			status = 130;
		} else {
			if (st >= 0)
				fprintf(stderr, "xdptc: the run inside the icount guest failed (exit "
						"status %d)\n", st);
			status = st > 0 ? st : 1;
		}
	}
	if (ir.have_dut)
		dut_close(&ir.dut);
	if (ir.topo.up || ir.topo.prefix[0]) {
		run_topology_cmd(o, &topology_virtio, "down", &ir.topo);
		fprintf(stderr, "xdptc: icount guest %s: down\n", ir.topo.prefix);
	}
	/* interrupted: the guest was stopped under the inner run, which could not remove its
	 * directory as an interrupted host run does; it goes now, from here (nothing writes
	 * into it any more) */
	if (status == 130 && ir.result_dir[0]) {
		char path[PATH_MAX + 300];

		snprintf(path, sizeof(path), "%s/%s", ir.share, ir.result_dir);
		run_dir_remove(path);
	}
	unlink(ir.optp);
	unlink(ir.logp);
	unlink(ir.statp);
	close(lock_fd);
	return status;
}
