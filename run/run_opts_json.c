/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_opts_json.c: a run's options as data, for the icount engine's inner run (run.h). */
#include "run_opts_json.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sender.h"
#include "skb_counters.h"

#define OPTS_SCHEMA "xdptc.run-options/1"

json_t *run_opts_to_json(const struct run_opts *o, const struct run_icount_host *host)
{
	json_t *j = json_object(), *modes = json_array();
	char cwd[PATH_MAX], order[128] = "";

	for (int i = 0; i < o->nmodes; i++)
		json_array_append_new(modes, json_string(drop_mode_name(o->modes[i])));
	/* as --counters spells them: parse_counter_backends reads them back */
	for (int i = 0; o->counter_order && o->counter_order[i] != BACKEND_NONE; i++)
		snprintf(order + strlen(order), sizeof(order) - strlen(order), "%s%s", i ? "," : "",
			 counter_backend_name(o->counter_order[i]));
	json_object_set_new(j, "schema", json_string(OPTS_SCHEMA));
	json_object_set_new(j, "topology", json_string(o->topology));
	json_object_set_new(j, "modes", modes);
	json_object_set_new(j, "aa_arm", json_integer(o->aa_arm));
	json_object_set_new(j, "packets", json_integer((json_int_t)o->packets));
	json_object_set_new(j, "warmup", json_integer((json_int_t)o->warmup));
	json_object_set_new(j, "reps", json_integer(o->reps));
	json_object_set_new(j, "count_reps", json_integer(o->count_reps));
	json_object_set_new(j, "port", json_integer(o->port));
	json_object_set_new(j, "payload_len", json_integer(o->payload_len));
	/* the CPU the user chose, or null: the inner run's machine has its own CPUs */
	json_object_set_new(j, "sender_cpu", o->sender_cpu_set ? json_integer(o->sender_cpu)
							       : json_null());
	json_object_set_new(j, "rate_pps", json_integer((json_int_t)o->rate_pps));
	json_object_set_new(j, "counters", order[0] ? json_string(order) : json_null());
	json_object_set_new(j, "cross_check", json_boolean(o->cross_check));
	json_object_set_new(j, "flame", json_boolean(o->flame));
	json_object_set_new(j, "profile_period", json_integer((json_int_t)o->profile_period));
	json_object_set_new(j, "profile_packets", json_integer((json_int_t)o->profile_packets));
	json_object_set_new(j, "sender", json_string(sender_name(o->sender)));
	json_object_set_new(j, "seed", json_integer((json_int_t)o->seed));
	json_object_set_new(j, "pmu_events", json_string(o->pmu_events));
	json_object_set_new(j, "host", json_pack("{s:s, s:s, s:s, s:s}", "qemu", host->qemu,
						 "icount", host->icount, "cpu_model",
						 host->host_cpu_model, "kernel", host->host_kernel));
	json_object_set_new(j, "host_time", json_integer((json_int_t)time(NULL)));
	json_object_set_new(j, "cwd", json_string(getcwd(cwd, sizeof(cwd)) ? cwd : "/"));
	return j;
}

/* an integer field of @j within [lo, hi] into *@v, or -EINVAL with why */
static int int_field(const json_t *j, const char *k, long long lo, long long hi, long long *v,
		     char *err, size_t errlen)
{
	const json_t *x = json_object_get(j, k);

	if (!json_is_integer(x) || json_integer_value(x) < lo || json_integer_value(x) > hi) {
		snprintf(err, errlen, "the run options lack %s, or it is out of range", k);
		return -EINVAL;
	}
	*v = json_integer_value(x);
	return 0;
}

static const char *str_field(const json_t *j, const char *k)
{
	return json_string_value(json_object_get(j, k));
}

/* The strings of @j, copied once: the options point into them for the run's life. */
static char strings[8][256];

static const char *keep(int slot, const char *s)
{
	snprintf(strings[slot], sizeof(strings[slot]), "%s", s ? s : "");
	return strings[slot];
}

/* the arms and counter backends of @j into @o */
static int lists_from_json(const json_t *j, struct run_opts *o, char *err, size_t errlen)
{
	static int order[BACKEND_NR + 1];
	const json_t *x;
	size_t i;

	o->nmodes = 0;
	json_array_foreach(json_object_get(j, "modes"), i, x) {
		enum drop_mode m;

		if (o->nmodes >= RUN_MAX_MODES || !json_is_string(x) ||
		    drop_mode_parse(json_string_value(x), &m)) {
			snprintf(err, errlen, "the run options' modes are not modes");
			return -EINVAL;
		}
		o->modes[o->nmodes++] = m;
	}
	x = json_object_get(j, "counters"); /* null: the default order */
	if (json_is_string(x) && parse_counter_backends(json_string_value(x), order) < 0) {
		snprintf(err, errlen, "the run options' counters are not counter backends");
		return -EINVAL;
	}
	o->counter_order = json_is_string(x) ? order : NULL;
	return o->nmodes ? 0 : -EINVAL;
}

int run_opts_from_json(const json_t *j, struct run_opts *o, char *err, size_t errlen)
{
	const json_t *host = json_object_get(j, "host");
	long long v[10];
	enum sender_kind sk;
	struct timespec now = { 0, 0 };
	int e = 0;

	if (!str_field(j, "schema") || strcmp(str_field(j, "schema"), OPTS_SCHEMA)) {
		snprintf(err, errlen, "not xdptc's run options (schema %s)", OPTS_SCHEMA);
		return -EINVAL;
	}
	e |= int_field(j, "aa_arm", -1, RUN_MAX_MODES - 1, &v[0], err, errlen);
	e |= int_field(j, "packets", (long long)RUN_PACKETS_MIN, (long long)RUN_PACKETS_MAX, &v[1], err, errlen);
	e |= int_field(j, "warmup", 0, (long long)RUN_PACKETS_MAX, &v[2], err, errlen);
	e |= int_field(j, "reps", RUN_REPS_MIN, RUN_REPS_MAX, &v[3], err, errlen);
	e |= int_field(j, "count_reps", RUN_COUNT_REPS_MIN, RUN_COUNT_REPS_MAX, &v[4], err, errlen);
	e |= int_field(j, "port", 1, 65535, &v[5], err, errlen);
	e |= int_field(j, "payload_len", 0, RUN_PAYLOAD_MAX, &v[6], err, errlen);
	v[7] = sysconf(_SC_NPROCESSORS_ONLN) - 1; /* null: this machine's last CPU */
	if (!json_is_null(json_object_get(j, "sender_cpu")))
		e |= int_field(j, "sender_cpu", 0, sysconf(_SC_NPROCESSORS_ONLN) - 1, &v[7], err,
			       errlen);
	e |= int_field(j, "rate_pps", 0, 100000000, &v[8], err, errlen);
	e |= int_field(j, "seed", 0, LLONG_MAX, &v[9], err, errlen);
	if (e)
		return -EINVAL;
	if (lists_from_json(j, o, err, errlen) ||
	    !str_field(j, "sender") || sender_parse(str_field(j, "sender"), &sk) ||
	    !str_field(j, "topology") || !str_field(j, "pmu_events") || !json_is_object(host)) {
		if (!err[0])
			snprintf(err, errlen, "the run options are incomplete");
		return -EINVAL;
	}
	o->aa_arm = (int)v[0];
	o->packets = (uint64_t)v[1];
	o->warmup = (uint64_t)v[2];
	o->reps = (int)v[3];
	o->count_reps = (int)v[4];
	o->port = (uint16_t)v[5];
	o->payload_len = (uint32_t)v[6];
	o->sender_cpu = (int)v[7];
	o->sender_cpu_set = !json_is_null(json_object_get(j, "sender_cpu"));
	o->rate_pps = (uint64_t)v[8];
	o->seed = (uint64_t)v[9];
	o->sender = sk;
	o->topology = keep(0, str_field(j, "topology"));
	o->pmu_events = keep(1, str_field(j, "pmu_events"));
	o->cross_check = json_is_true(json_object_get(j, "cross_check"));
	o->flame = json_is_true(json_object_get(j, "flame"));
	o->profile_period = (uint64_t)json_integer_value(json_object_get(j, "profile_period"));
	o->profile_packets = (uint64_t)json_integer_value(json_object_get(j, "profile_packets"));
	if (!o->profile_packets)
		o->profile_packets = o->packets;
	o->inside_icount = true;
	snprintf(o->icount_host.qemu, sizeof(o->icount_host.qemu), "%s", str_field(host, "qemu") ?: "unknown");
	snprintf(o->icount_host.icount, sizeof(o->icount_host.icount), "%s", str_field(host, "icount") ?: "unknown");
	snprintf(o->icount_host.host_cpu_model, sizeof(o->icount_host.host_cpu_model), "%s",
		 str_field(host, "cpu_model") ?: "unknown");
	snprintf(o->icount_host.host_kernel, sizeof(o->icount_host.host_kernel), "%s",
		 str_field(host, "kernel") ?: "unknown");
	/* the guest's clock ran ahead while idle time was skipped during boot: the results
	 * directory's name comes from it */
	now.tv_sec = (time_t)json_integer_value(json_object_get(j, "host_time"));
	if (now.tv_sec > 0 && clock_settime(CLOCK_REALTIME, &now))
		fprintf(stderr, "xdptc: note: cannot set the guest's clock to the host's\n");
	if (str_field(j, "cwd") && chdir(str_field(j, "cwd"))) {
		snprintf(err, errlen, "cannot change to the host's directory %s", str_field(j, "cwd"));
		return -EINVAL;
	}
	return 0;
}
