/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* run_opts_json.c: a run's options as data, every row of their declaration
 * (run_opt_table.c) by its type: the icount engine's inner run and run.json's settings
 * (run_opts_json.h). */
#include "run_opts_json.h"

#include <errno.h>
#include <jansson.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "sender.h"
#include "skb_counters.h"

#define OPTS_SCHEMA "xdptc.run-options/1"

json_t *run_opt_json(const struct run_opt *r, const struct run_opts *o)
{
	char order[128] = "";
	json_t *a;

	switch (r->key) { /* the rows of their own form (RUN_OPT_OWN_JSON) */
	case 'm':
		a = json_array();
		for (int i = 0; i < o->nmodes; i++)
			json_array_append_new(a, json_string(drop_mode_name(o->modes[i])));
		return a;
	case OPT_COUNTERS: /* as --counters spells them: parse_counter_backends reads them */
		for (int i = 0; o->counter_order && o->counter_order[i] != BACKEND_NONE; i++)
			snprintf(order + strlen(order), sizeof(order) - strlen(order), "%s%s",
				 i ? "," : "", counter_backend_name(o->counter_order[i]));
		return order[0] ? json_string(order) : json_null();
	case OPT_CPU: /* the CPU the user chose, or null: another machine has its own CPUs */
		return o->sender_cpu_set ? json_integer(o->sender_cpu) : json_null();
	case OPT_AA:
		return json_integer(o->aa_arm);
	}
	switch (r->type) {
	case RUN_OPT_FLAG:
	case RUN_OPT_UNSET:
		return json_boolean(run_opt_get_int(r, o));
	case RUN_OPT_COUNT:
		return json_integer((json_int_t)run_opt_get_int(r, o));
	case RUN_OPT_REAL:
	case RUN_OPT_PERCENT:
		return json_real(*run_opt_real(r, (struct run_opts *)o));
	case RUN_OPT_STRING: {
		const char *v = *run_opt_string(r, (struct run_opts *)o);

		return v ? json_string(v) : json_null();
	}
	case RUN_OPT_ENUM:
		return r->word_of((int)run_opt_get_int(r, o)) ? json_string(r->word_of((int)run_opt_get_int(r, o)))
							       : json_null();
	case RUN_OPT_LIST:
		break;
	}
	return json_null();
}

json_t *run_opts_to_json(const struct run_opts *o, const struct run_icount_host *host)
{
	json_t *j = json_object();
	char cwd[PATH_MAX];

	json_object_set_new(j, "schema", json_string(OPTS_SCHEMA));
	for (const struct run_opt *r = run_opt_table; r->name; r++)
		if (r->json)
			json_object_set_new(j, r->json, run_opt_json(r, o));
	json_object_set_new(j, "host", json_pack("{s:s, s:s, s:s, s:s}", "qemu", host->qemu,
						 "icount", host->icount, "cpu_model",
						 host->host_cpu_model, "kernel", host->host_kernel));
	json_object_set_new(j, "host_time", json_integer((json_int_t)time(NULL)));
	json_object_set_new(j, "cwd", json_string(getcwd(cwd, sizeof(cwd)) ? cwd : "/"));
	return j;
}

/* The strings of @j, copied once: the options point into them for the run's life. */
static char strings[RUN_OPT_MAX][256];

/* Is @v 0 for a row whose 0 means "not given" (RUN_OPT_ZERO_UNSET)? */
static bool zero_unset(const struct run_opt *r, double v)
{
	return (r->flags & RUN_OPT_ZERO_UNSET) && v == 0;
}

int run_opt_from_json(const struct run_opt *r, const json_t *v, struct run_opts *o, char *err,
		      size_t errlen)
{
	double scale = r->type == RUN_OPT_PERCENT ? 100 : 1;
	json_int_t i = json_integer_value(v);
	double d = json_number_value(v);

	switch (r->type) {
	case RUN_OPT_FLAG:
	case RUN_OPT_UNSET:
		if (!json_is_boolean(v))
			break;
		run_opt_set_int(r, o, json_is_true(v));
		return 0;
	case RUN_OPT_COUNT:
		if (!json_is_integer(v) || (!zero_unset(r, (double)i) && (i < r->imin || i > r->imax)))
			break;
		return run_opt_set_int(r, o, i) ? -EINVAL : 0;
	case RUN_OPT_REAL:
	case RUN_OPT_PERCENT:
		if (!json_is_number(v) || (!zero_unset(r, d) && !(d * scale >= r->min && d * scale <= r->max)))
			break;
		*run_opt_real(r, o) = d;
		return 0;
	case RUN_OPT_STRING:
		if (json_is_null(v)) {
			*run_opt_string(r, o) = NULL;
			return 0;
		}
		if (!json_is_string(v) || strlen(json_string_value(v)) >= sizeof(strings[0]))
			break;
		snprintf(strings[r - run_opt_table], sizeof(strings[0]), "%s", json_string_value(v));
		*run_opt_string(r, o) = strings[r - run_opt_table];
		return 0;
	case RUN_OPT_ENUM:
		for (int k = 0; json_is_string(v) && r->word_of(k); k++)
			if (!strcmp(json_string_value(v), r->word_of(k)))
				return run_opt_set_int(r, o, k) ? -EINVAL : 0;
		break;
	case RUN_OPT_LIST:
		return 0;
	}
	snprintf(err, errlen, "the run options lack %s, or it is out of range", r->json);
	return -EINVAL;
}

static const char *str_field(const json_t *j, const char *k)
{
	return json_string_value(json_object_get(j, k));
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

/* --cpu's and --aa's own forms (RUN_OPT_OWN_JSON) of @j into @o: the CPU the user
 * chose, or null for this machine's last; the A/A twin's arm or -1. */
static int cpu_aa_from_json(const json_t *j, struct run_opts *o, char *err, size_t errlen)
{
	const json_t *cpu = json_object_get(j, "sender_cpu"), *aa = json_object_get(j, "aa_arm");
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if ((!json_is_null(cpu) && (!json_is_integer(cpu) || json_integer_value(cpu) < 0 ||
				    json_integer_value(cpu) >= ncpu)) ||
	    !json_is_integer(aa) || json_integer_value(aa) < -1 ||
	    json_integer_value(aa) >= RUN_MAX_MODES) {
		snprintf(err, errlen, "the run options lack %s, or it is out of range",
			 json_is_integer(aa) ? "sender_cpu" : "aa_arm");
		return -EINVAL;
	}
	o->sender_cpu_set = !json_is_null(cpu);
	o->sender_cpu = o->sender_cpu_set ? (int)json_integer_value(cpu) : (int)ncpu - 1;
	o->aa_arm = (int)json_integer_value(aa);
	return 0;
}

int run_opts_from_json(const json_t *j, struct run_opts *o, char *err, size_t errlen)
{
	const json_t *host = json_object_get(j, "host");
	struct timespec now = { 0, 0 };

	if (!str_field(j, "schema") || strcmp(str_field(j, "schema"), OPTS_SCHEMA)) {
		snprintf(err, errlen, "not xdptc's run options (schema %s)", OPTS_SCHEMA);
		return -EINVAL;
	}
	for (const struct run_opt *r = run_opt_table; r->name; r++)
		if (r->json && !(r->flags & RUN_OPT_OWN_JSON) &&
		    run_opt_from_json(r, json_object_get(j, r->json), o, err, errlen))
			return -EINVAL;
	if (cpu_aa_from_json(j, o, err, errlen) || lists_from_json(j, o, err, errlen) ||
	    !o->topology || !o->pmu_events || !json_is_object(host)) {
		if (!err[0])
			snprintf(err, errlen, "the run options are incomplete");
		return -EINVAL;
	}
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
