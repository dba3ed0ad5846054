/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* dut_remote.c: a DUT in a guest (the virtio topology): each operation one line to the
 * guest's agent (`xdptc agent`, dut_agent.c) over its control socket, one JSON line back. */
#include "dut_remote.h"
#include "dut_wire.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* Is @j the answer to request @cmd? The agent names the request it answers ("re": the
 * request's name, e.g. "counters open" for "counters open kprobe cross"). */
static bool answers(const json_t *j, const char *cmd)
{
	const char *re = json_string_value(json_object_get(j, "re"));
	size_t n = re ? strlen(re) : 0;

	return re && !strncmp(cmd, re, n) && (cmd[n] == '\0' || cmd[n] == ' ');
}

/* Send @cmd and return the reply as JSON (a new reference), or NULL with *@e set. */
static json_t *rpc(struct dut *d, const char *cmd, int *e)
{
	static char line[262144]; /* an insns close reply: every function of a window */
	char out[1024];
	json_error_t jerr;
	json_t *j;
	int n;

	snprintf(out, sizeof(out), "%s\n", cmd);
	*e = dut_write_all(d->fd, out, strlen(out));
	if (*e)
		return NULL;
	for (;;) {
		n = dut_read_line(d->fd, d->buf, &d->buflen, sizeof(d->buf), line, sizeof(line),
			      d->timeout_ms);
		if (n < 0) {
			*e = n;
			return NULL;
		}
		j = json_loads(line, 0, &jerr);
		if (j && json_is_object(j) && json_object_get(j, "ok") && answers(j, cmd))
			return j;
		/* guest console noise, a stale sync, or the late answer to a request given up
		 * on (a slow guest): skip */
		json_decref(j);
	}
}

static const struct dut_ops dut_remote_ops;

int dut_remote_connect(struct dut *d, const char *sock_path, int timeout_ms, char *err,
		       size_t errlen)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	char token[32], cmd[64], line[4096];
	struct timespec t0, t;
	int e;

	memset(d, 0, sizeof(*d));
	d->ops = &dut_remote_ops;
	d->remote = true;
	d->stats_fd = -1;
	d->timeout_ms = timeout_ms;
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", sock_path);
	d->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (d->fd < 0 || connect(d->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		e = -errno;
		snprintf(err, errlen, "cannot connect to the guest's control socket %s: %s",
			 sock_path, strerror(-e));
		if (d->fd >= 0)
			close(d->fd);
		d->fd = -1;
		return e;
	}
	/* lines sent before the agent listened are lost: ask until it answers */
	snprintf(token, sizeof(token), "%ld", (long)getpid() ^ (long)time(NULL));
	snprintf(cmd, sizeof(cmd), "sync %s\n", token);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int n;

		if ((e = dut_write_all(d->fd, cmd, strlen(cmd))))
			break;
		n = dut_read_line(d->fd, d->buf, &d->buflen, sizeof(d->buf), line, sizeof(line), 1000);
		if (n >= 0 && strstr(line, "\"sync\"") && strstr(line, token)) {
			/* drop replies to earlier syncs still in flight */
			while (dut_read_line(d->fd, d->buf, &d->buflen, sizeof(d->buf), line,
					 sizeof(line), 200) >= 0)
				;
			return 0;
		}
		if (n == -EPIPE) {
			e = -EPIPE;
			break;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 > timeout_ms) {
			e = -ETIMEDOUT;
			break;
		}
	}
	snprintf(err, errlen, "the guest's agent does not answer on %s: %s", sock_path, strerror(-e));
	close(d->fd);
	d->fd = -1;
	return e;
}

static int reply_error(json_t *j, char *err, size_t errlen)
{
	int e = (int)json_integer_value(json_object_get(j, "errno"));
	const char *msg = json_string_value(json_object_get(j, "error"));

	if (err)
		snprintf(err, errlen, "%s", msg ? msg : "the agent refused");
	return e < 0 ? e : -EIO;
}

static int remote_simple(struct dut *d, const char *cmd, char *err, size_t errlen, json_t **keep)
{
	int e;
	json_t *j = rpc(d, cmd, &e);

	if (!j) {
		if (err)
			snprintf(err, errlen, "the guest's agent did not answer '%s': %s", cmd,
				 strerror(-e));
		return e;
	}
	if (!json_is_true(json_object_get(j, "ok"))) {
		e = reply_error(j, err, errlen);
		json_decref(j);
		return e;
	}
	if (keep)
		*keep = j;
	else
		json_decref(j);
	return 0;
}

static int remote_attach(struct dut *d, enum drop_mode mode, uint16_t port, uint32_t *prog_id,
			 char kernel_mode[16], char *err, size_t errlen)
{
	char cmd[64];
	json_t *j;
	int e;

	snprintf(cmd, sizeof(cmd), "attach %s %u", drop_mode_name(mode), port);
	e = remote_simple(d, cmd, err, errlen, &j);
	if (e)
		return e;
	*prog_id = (uint32_t)json_integer_value(json_object_get(j, "prog_id"));
	snprintf(kernel_mode, 16, "%s", json_string_value(json_object_get(j, "kernel_mode"))
						? json_string_value(json_object_get(j, "kernel_mode"))
						: "?");
	json_decref(j);
	d->attached = true;
	return 0;
}

static int remote_detach(struct dut *d)
{
	if (!d->attached)
		return 0;
	d->attached = false;
	return remote_simple(d, "detach", NULL, 0, NULL);
}

static int remote_keep(struct dut *d, bool on)
{
	return remote_simple(d, on ? "keep on" : "keep off", NULL, 0, NULL);
}

static int remote_snapshot(struct dut *d, enum dut_pass pass, struct dut_snapshot *s)
{
	char cmd[64];
	json_t *j;
	int e;

	snprintf(cmd, sizeof(cmd), "snapshot %s", dut_pass_name(pass));
	e = remote_simple(d, cmd, NULL, 0, &j);
	if (e)
		return e;
	e = dut_snapshot_from_json(j, s);
	json_decref(j);
	return e;
}

static int remote_counters_open(struct dut *d, const int *order, bool cross_check,
				struct dut_counters_info *info, char *err, size_t errlen)
{
	static const int all[] = { BACKEND_KPROBE, BACKEND_FENTRY, BACKEND_TRACEPOINT, BACKEND_NONE };
	char cmd[128] = "counters open";
	json_t *j;
	int e;

	if (!order)
		order = all;
	for (int i = 0; order[i] != BACKEND_NONE; i++) {
		strcat(cmd, i ? "," : " ");
		strcat(cmd, counter_backend_name(order[i]));
	}
	if (cross_check)
		strcat(cmd, " cross");
	e = remote_simple(d, cmd, err, errlen, &j);
	if (e)
		return e;
	e = counters_plan_from_json(j, &info->plan);
	json_decref(j);
	if (e)
		return e;
	d->counters_open = true;
	return 0;
}

static void remote_counters_close(struct dut *d)
{
	if (d->counters_open)
		remote_simple(d, "counters close", NULL, 0, NULL);
	d->counters_open = false;
}

static int remote_bpf_stats(struct dut *d, bool on)
{
	return remote_simple(d, on ? "bpfstats on" : "bpfstats off", NULL, 0, NULL);
}

static int remote_exec(struct dut *d, const char *cmd, int *status, char *out, size_t outlen)
{
	char line[1024];
	json_t *j;
	int e;

	snprintf(line, sizeof(line), "exec %s", cmd);
	e = remote_simple(d, line, out, outlen, &j);
	if (e)
		return e;
	*status = (int)json_integer_value(json_object_get(j, "status"));
	snprintf(out, outlen, "%s", json_string_value(json_object_get(j, "output")) ?: "");
	json_decref(j);
	return 0;
}

static json_t *remote_rx_path(struct dut *d, char *err, size_t errlen)
{
	json_t *j, *a;
	int e = remote_simple(d, "rxpath", err, errlen, &j);

	if (e)
		return NULL;
	a = json_incref(json_object_get(j, "receive_path"));
	json_decref(j);
	if (!a)
		snprintf(err, errlen, "the agent sent no receive path");
	return a;
}

static void remote_close(struct dut *d)
{
	if (d->fd >= 0)
		close(d->fd);
	d->fd = -1;
}

static uint64_t jnum(const json_t *a, size_t i)
{
	return (uint64_t)json_integer_value(json_array_get(a, i));
}

static int remote_insns(struct dut *d, bool open, struct dut_insns *out, char *err,
			size_t errlen)
{
	const json_t *w, *f;
	json_t *j;
	size_t i;
	int e = remote_simple(d, open ? "insns open" : "insns close", err, errlen, &j);

	if (e || open) {
		if (!e)
			json_decref(j);
		return e;
	}
	memset(out, 0, sizeof(*out));
	w = json_object_get(j, "window");
	out->w.seq = (uint64_t)json_integer_value(json_object_get(w, "seq"));
	out->w.insns = (uint64_t)json_integer_value(json_object_get(w, "insns"));
	out->w.retired = (uint64_t)json_integer_value(json_object_get(w, "retired"));
	out->w.iterations = (uint64_t)json_integer_value(json_object_get(w, "iterations"));
	out->w.halts = (uint64_t)json_integer_value(json_object_get(w, "halts"));
	out->tsc = (uint64_t)json_integer_value(json_object_get(w, "tsc"));
	out->funcs = calloc(1, sizeof(*out->funcs));
	if (!out->funcs) {
		json_decref(j);
		return -ENOMEM;
	}
	json_array_foreach(json_object_get(j, "functions"), i, f) {
		struct insn_funcs one = { 0 };
		struct insn_func x = { 0 };

		snprintf(x.name, sizeof(x.name), "%s", json_string_value(json_array_get(f, 0)));
		snprintf(x.where, sizeof(x.where), "%s", json_string_value(json_array_get(f, 1)));
		x.insns = (int64_t)jnum(f, 2);
		x.retired = (int64_t)jnum(f, 3);
		one.f = &x;
		one.n = one.cap = 1;
		insn_funcs_merge(out->funcs, &one);
	}
	out->funcs->windows = 1;
	json_decref(j);
	return 0;
}

static int remote_insns_selfcheck(struct dut *d, struct insn_check c[2], char *err,
				  size_t errlen)
{
	static const char *const what[2] = { "loop", "rep stosb" };
	json_t *j;
	int e = remote_simple(d, "insns selfcheck", err, errlen, &j);

	if (e)
		return e;
	for (size_t k = 0; k < 2; k++) {
		const json_t *a = json_array_get(json_object_get(j, "checks"), k);

		c[k].what = what[k];
		c[k].expect_insns = jnum(a, 1);
		c[k].expect_retired = jnum(a, 2);
		c[k].insns = jnum(a, 3);
		c[k].retired = jnum(a, 4);
		c[k].user_insns = jnum(a, 5);
		c[k].user_retired = jnum(a, 6);
		c[k].attempts = (int)jnum(a, 7);
		c[k].exact = json_is_true(json_array_get(a, 8));
	}
	json_decref(j);
	return c[0].exact && c[1].exact ? 0 : 1;
}

static const struct dut_ops dut_remote_ops = {
	.attach = remote_attach,
	.detach = remote_detach,
	.snapshot = remote_snapshot,
	.counters_open = remote_counters_open,
	.counters_close = remote_counters_close,
	.bpf_stats = remote_bpf_stats,
	.exec = remote_exec,
	.rx_path = remote_rx_path,
	.insns = remote_insns,
	.insns_selfcheck = remote_insns_selfcheck,
	.keep = remote_keep,
	.close = remote_close,
};
