/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "run_insns.h"

#include <stdlib.h>

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
		if (i < RUN_INSNS_TOP) {
			json_array_append_new(fs, func_json(v[i]->name, v[i]->where, bg,
							    (double)v[i]->insns,
							    (double)v[i]->retired, acc->pkts));
		} else {
			oi += (double)v[i]->insns;
			orr += (double)v[i]->retired;
		}
	}
	if (acc->n > RUN_INSNS_TOP)
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
