/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "run_insns.h"

#include "run_arms.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void run_insns_add(struct insn_funcs *acc, struct trial_result *r)
{
	if (r->insn_funcs && r->valid)
		insn_funcs_merge(acc, r->insn_funcs);
	trial_result_release(r);
}

static json_t *func_json(const char *name, const char *where, bool background, double insns,
			 double retired, double pkts)
{
	return json_pack("{s:s, s:s, s:b, s:f, s:f}", "name", name, "where", where,
			 "background", background, "insns_per_pkt", insns / pkts,
			 "retired_per_pkt", retired / pkts);
}

json_t *run_insns_json(const struct insn_funcs *acc, const char *label)
{
	const struct insn_func **v;
	double ti = 0, tr = 0, oi = 0, orr = 0, bi = 0, br = 0;
	json_t *fs, *p;

	if (!acc->windows || acc->pkts <= 0 || !(v = insn_funcs_sorted(acc)))
		return NULL;
	fs = json_array();
	for (size_t i = 0; i < acc->n; i++) {
		bool bg = insn_func_background(v[i]);

		ti += (double)v[i]->insns;
		tr += (double)v[i]->retired;
		if (bg) {
			bi += (double)v[i]->insns;
			br += (double)v[i]->retired;
		}
		/* a remainder already summed (a guest's window past its 1,000 largest)
		 * joins this one's */
		if (i < RUN_INSNS_TOP && strcmp(v[i]->name, "[other functions]")) {
			json_array_append_new(fs, func_json(v[i]->name, v[i]->where, bg,
							    (double)v[i]->insns,
							    (double)v[i]->retired, acc->pkts));
		} else {
			oi += (double)v[i]->insns;
			orr += (double)v[i]->retired;
		}
	}
	if (oi != 0 || orr != 0)
		json_array_append_new(fs, func_json("[other functions]", "various", false, oi, orr,
						    acc->pkts));
	free(v);
	p = json_pack("{s:s, s:i, s:f, s:f, s:f, s:f, s:f, s:i}", "mode", label, "windows",
		      acc->windows, "pkts", acc->pkts, "insns_per_pkt", ti / acc->pkts,
		      "retired_per_pkt", tr / acc->pkts, "background_insns_per_pkt",
		      bi / acc->pkts, "background_retired_per_pkt", br / acc->pkts,
		      "functions_counted", (int)acc->n);
	json_object_set_new(p, "functions", fs);
	return p;
}

int run_insns_selfcheck(const char *path, struct dut *dut, json_t **out)
{
	struct insn_check c[2];
	char why[300];
	json_t *arr;
	int e = path ? insn_selfcheck(path, 100000, 4096, c, why, sizeof(why))
		     : dut_insns_selfcheck(dut, c, why, sizeof(why));

	*out = NULL;
	if (e < 0) {
		fprintf(stderr, "xdptc: the instruction-counting plugin's self-check: %s\n", why);
		return -1;
	}
	arr = json_array();
	for (int k = 0; k < 2; k++) {
		json_array_append_new(arr, json_pack(
			"{s:s, s:I, s:I, s:I, s:I, s:I, s:I, s:i, s:b}", "what", c[k].what,
			"expect_insns", (json_int_t)c[k].expect_insns, "expect_retired",
			(json_int_t)c[k].expect_retired, "insns", (json_int_t)c[k].insns, "retired",
			(json_int_t)c[k].retired, "user_insns", (json_int_t)c[k].user_insns,
			"user_retired", (json_int_t)c[k].user_retired, "attempts", c[k].attempts,
			"exact", c[k].exact));
		fprintf(stderr, "xdptc: plugin self-check, %s: %llu instructions (%llu retired), "
				"expected %llu (%llu): %s\n", c[k].what,
			(unsigned long long)c[k].insns, (unsigned long long)c[k].retired,
			(unsigned long long)c[k].expect_insns,
			(unsigned long long)c[k].expect_retired, c[k].exact ? "exact" : "NOT exact");
	}
	*out = json_pack("{s:b, s:o}", "exact", !e, "checks", arr);
	return e ? -1 : 0;
}

int run_insns_setup(struct run_insns *ri, struct trial_env *env, struct dut *dut)
{
	env->insn_functions = true;
	if (dut) {
		env->insns_remote = true;
	} else {
		env->insns_path = getenv("XDPTC_INSNS");
		if (!env->insns_path || !*env->insns_path) {
			fprintf(stderr, "xdptc: this icount guest has no instruction-counting "
					"plugin (XDPTC_INSNS unset)\n");
			return -1;
		}
	}
	/* the instrument first: known work must count exactly */
	if (run_insns_selfcheck(env->insns_path, dut, &ri->check)) {
		fprintf(stderr, "xdptc: the plugin does not count known work exactly%s; no trial "
				"is run\n", dut ? " in the guest" : "");
		return -1;
	}
	return 0;
}

void run_insns_write(struct run_insns *ri, const struct trial_env *env,
		     const struct run_opts *o, json_t *run)
{
	if (env->insns_path || env->insns_remote) { /* where the instructions went */
		json_t *ip = json_array();

		for (int i = 0; i < o->nmodes; i++) {
			json_t *e = run_insns_json(&ri->arm[i], arm_label(o, i));

			if (e)
				json_array_append_new(ip, e);
			insn_funcs_free(&ri->arm[i]);
		}
		json_object_set_new(run, "insn_profiles", ip);
	}
	if (ri->check) {
		json_object_set_new(run, "insn_selfcheck", ri->check);
		ri->check = NULL;
	}
}

void run_insns_free(struct run_insns *ri)
{
	for (int i = 0; i < RUN_MAX_MODES; i++)
		insn_funcs_free(&ri->arm[i]);
	json_decref(ri->check);
	ri->check = NULL;
}
