/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* dut_agent.c: `xdptc agent` inside a guest: the DUT protocol (dut.h) served on a
 * virtio-serial port, each request done by the local DUT (dut_local.c). */
#include "dut_local.h"
#include "dut_wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <time.h>

/* The agent's state between requests. */
struct agent {
	struct dut d;           /* the guest's DUT, local to the agent */
	const char *dev;
	struct utsname u;
};

static json_t *ok(void)
{
	json_t *j = json_object();

	json_object_set_new(j, "ok", json_true());
	return j;
}

static json_t *fail(int e, const char *msg)
{
	json_t *j = json_object();

	json_object_set_new(j, "ok", json_false());
	json_object_set_new(j, "errno", json_integer(e));
	json_object_set_new(j, "error", json_string(msg && *msg ? msg : strerror(-e)));
	return j;
}

/* sync TOKEN: the host's way to find where its replies start (no "ok": never taken for
 * the answer to a request) */
static json_t *do_sync(struct agent *a, char *args)
{
	json_t *j = json_object();

	(void)a;
	json_object_set_new(j, "sync", json_string(args));
	return j;
}

/* attach MODE PORT */
static json_t *do_attach(struct agent *a, char *args)
{
	char mode[64], err[512] = "", km[16] = "";
	unsigned int port;
	enum drop_mode m;
	uint32_t id = 0;
	json_t *j;
	int e;

	if (sscanf(args, "%63s %u", mode, &port) != 2 || drop_mode_parse(mode, &m) || !port ||
	    port > 65535)
		return fail(-EINVAL, "bad attach arguments");
	if (a->d.attached)
		dut_detach(&a->d);
	e = dut_attach(&a->d, m, (uint16_t)port, &id, km, err, sizeof(err));
	if (e)
		return fail(e, err);
	j = ok();
	json_object_set_new(j, "prog_id", json_integer(id));
	json_object_set_new(j, "kernel_mode", json_string(km));
	return j;
}

static json_t *do_rxpath(struct agent *a, char *args)
{
	char err[512] = "";
	json_t *p = dut_rx_path(&a->d, err, sizeof(err)), *j;

	(void)args;
	if (!p)
		return fail(-EIO, err);
	j = ok();
	json_object_set_new(j, "receive_path", p);
	return j;
}

static json_t *do_detach(struct agent *a, char *args)
{
	int e = dut_detach(&a->d);

	(void)args;
	return e ? fail(e, NULL) : ok();
}

/* snapshot timing|count|bpfstats|settle */
static json_t *do_snapshot(struct agent *a, char *args)
{
	struct dut_snapshot s;
	int p = dut_pass_parse(args), e;

	if (p < 0)
		return fail(-EINVAL, "snapshot timing, count, bpfstats or settle");
	e = dut_snapshot(&a->d, (enum dut_pass)p, &s);
	return e ? fail(e, NULL) : dut_snapshot_to_json(&s);
}

/* insns open | insns close | insns selfcheck: the icount engine's plugin (dut_insns):
 * on close the window's figures and its functions, [name, where, insns, retired] each
 * (past the 1,000 largest, which a window has never reached, the rest summed as
 * "[other functions]") */
static json_t *do_insns(struct agent *a, char *args)
{
	char err[512] = "";
	struct dut_insns di;
	json_t *j, *fs;
	int e;

	if (!strcmp(args, "selfcheck")) {
		struct insn_check c[2];

		e = dut_insns_selfcheck(&a->d, c, err, sizeof(err));
		if (e < 0)
			return fail(e, err);
		j = ok();
		fs = json_array();
		for (int k = 0; k < 2; k++)
			json_array_append_new(fs, json_pack(
				"[s, I, I, I, I, I, I, i, b]", c[k].what,
				(json_int_t)c[k].expect_insns, (json_int_t)c[k].expect_retired,
				(json_int_t)c[k].insns, (json_int_t)c[k].retired,
				(json_int_t)c[k].user_insns, (json_int_t)c[k].user_retired,
				c[k].attempts, c[k].exact));
		json_object_set_new(j, "checks", fs);
		return j;
	}
	if (strcmp(args, "open") && strcmp(args, "close"))
		return fail(-EINVAL, "insns open, close or selfcheck");
	e = dut_insns(&a->d, !strcmp(args, "open"), &di, err, sizeof(err));
	if (e)
		return fail(e, err);
	j = ok();
	if (!strcmp(args, "open"))
		return j;
	json_object_set_new(j, "window", json_pack("{s:I, s:I, s:I, s:I, s:I, s:I}", "seq",
		(json_int_t)di.w.seq, "insns", (json_int_t)di.w.insns, "retired",
		(json_int_t)di.w.retired, "iterations", (json_int_t)di.w.iterations, "halts",
		(json_int_t)di.w.halts, "tsc", (json_int_t)di.tsc));
	fs = json_array();
	if (di.funcs) {
		const struct insn_func **v = insn_funcs_sorted(di.funcs);
		json_int_t oi = 0, orr = 0;

		for (size_t i = 0; v && i < di.funcs->n; i++) {
			if (i < 1000)
				json_array_append_new(fs, json_pack("[s, s, I, I]", v[i]->name,
					v[i]->where, (json_int_t)v[i]->insns,
					(json_int_t)v[i]->retired));
			else {
				oi += v[i]->insns;
				orr += v[i]->retired;
			}
		}
		if (v && di.funcs->n > 1000)
			json_array_append_new(fs, json_pack("[s, s, I, I]", "[other functions]",
							    "various", oi, orr));
		free(v);
		insn_funcs_free(di.funcs);
		free(di.funcs);
	}
	json_object_set_new(j, "functions", fs);
	return j;
}

/* counters open [BACKEND,...[ cross]] */
static json_t *do_counters_open(struct agent *a, char *args)
{
	struct dut_counters_info info;
	int order[BACKEND_NR + 1], *op = NULL, e;
	char err[512] = "";
	bool cross = false;

	if (*args) {
		char *sp = strchr(args, ' ');

		if (sp) {
			cross = !strcmp(sp + 1, "cross");
			*sp = '\0';
		}
		if (parse_counter_backends(args, order) < 0)
			return fail(-EINVAL, "bad counter backends");
		op = order;
	}
	if (a->d.counters_open)
		dut_counters_close(&a->d);
	e = dut_counters_open(&a->d, op, cross, &info, err, sizeof(err));
	return e ? fail(e, err) : counters_plan_to_json(&info.plan);
}

static json_t *do_counters_close(struct agent *a, char *args)
{
	(void)args;
	dut_counters_close(&a->d);
	return ok();
}

/* bpfstats on|off */
static json_t *do_bpfstats(struct agent *a, char *args)
{
	int e;

	if (strcmp(args, "on") && strcmp(args, "off"))
		return fail(-EINVAL, "bpfstats on or off");
	e = dut_bpf_stats(&a->d, !strcmp(args, "on"));
	return e ? fail(e, NULL) : ok();
}

/* exec SHELL-COMMAND: its status and output (stdout and stderr, at most 30,000 bytes, so
 * that the reply, escaped as JSON, fits in the host's 64 KiB line) */
static json_t *do_exec(struct agent *a, char *args)
{
	static char out[30000];
	char full[1100];
	size_t n;
	FILE *p;
	int st;
	json_t *j;

	(void)a;
	snprintf(full, sizeof(full), "%s 2>&1", args);
	p = popen(full, "r");
	if (!p)
		return fail(-errno, NULL);
	n = fread(out, 1, sizeof(out) - 1, p);
	out[n] = '\0';
	st = pclose(p);
	j = ok();
	json_object_set_new(j, "status", json_integer(WIFEXITED(st) ? WEXITSTATUS(st) : -1));
	json_object_set_new(j, "output", json_string(out));
	return j;
}

/* keep on|off: each mode's program kept loaded between attaches (dut_keep_programs) */
static json_t *do_keep(struct agent *a, char *args)
{
	int e;

	if (strcmp(args, "on") && strcmp(args, "off"))
		return fail(-EINVAL, "keep on or off");
	e = dut_keep_programs(&a->d, !strcmp(args, "on"));
	return e ? fail(e, NULL) : ok();
}

static json_t *do_quit(struct agent *a, char *args)
{
	(void)a, (void)args;
	return ok();
}

/* The requests: a line is NAME, or NAME and its arguments after a space. */
static const struct {
	const char *name;
	json_t *(*fn)(struct agent *a, char *args);
} requests[] = {
	{ "sync", do_sync },
	{ "attach", do_attach },     { "rxpath", do_rxpath },
	{ "detach", do_detach },     { "snapshot", do_snapshot },
	{ "insns", do_insns },
	{ "counters open", do_counters_open }, { "counters close", do_counters_close },
	{ "bpfstats", do_bpfstats }, { "exec", do_exec },
	{ "keep", do_keep },
	{ "quit", do_quit },
};

static void reply(int fd, json_t *j)
{
	char *s = json_dumps(j, JSON_COMPACT);

	if (s) {
		if (dut_write_all(fd, s, strlen(s)) == 0)
			dut_write_all(fd, "\n", 1);
		free(s);
	}
	json_decref(j);
}

int dut_agent_serve(int fd, const char *dev)
{
	static char line[4096];
	static struct agent a;
	char buf[8192];
	size_t buflen = 0;

	dut_local_init(&a.d, NULL, dev);
	a.dev = dev;
	uname(&a.u);
	for (;;) {
		int n = dut_read_line(fd, buf, &buflen, sizeof(buf), line, sizeof(line), -1);
		size_t i, len;

		if (n == -EPIPE) {
			/* a virtio-serial port reads as end of input while no host is
			 * connected: wait for one */
			struct timespec ts = { .tv_sec = 0, .tv_nsec = 100000000L };

			nanosleep(&ts, NULL);
			continue;
		}
		if (n < 0)
			break;
		if (!n)
			continue;
		for (i = 0; i < sizeof(requests) / sizeof(requests[0]); i++) {
			len = strlen(requests[i].name);
			if (!strncmp(line, requests[i].name, len) &&
			    (line[len] == '\0' || line[len] == ' '))
				break;
		}
		if (i == sizeof(requests) / sizeof(requests[0])) {
			reply(fd, fail(-EINVAL, "unknown command"));
			continue;
		}
		{
			json_t *j = requests[i].fn(&a, line + len + (line[len] == ' '));

			/* which request this answers: a host that gave up on a slow one must
			 * not take its late answer for the next one's */
			json_object_set_new(j, "re", json_string(requests[i].name));
			reply(fd, j);
		}
		if (requests[i].fn == do_quit)
			break;
	}
	dut_close(&a.d);
	return 0;
}
