/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* matrix_drivers.c: the "Ask your driver" table of a driver matrix (matrix_drivers.h). */
#include "matrix_drivers.h"

#include <errno.h>
#include <math.h>
#include <string.h>

#include "json_read.h"
#include "matrix_entry.h"
#include "matrix_experiments.h"

/* Is @exp a row of the driver matrix (one with a NIC model)? */
static bool is_nic_exp(const char *exp)
{
	const struct matrix_exp *x = matrix_exp_find(exp);

	return x && x->nic;
}

bool matrix_has_drivers(const json_t *matrix)
{
	const json_t *e;
	size_t i;

	json_array_foreach(json_object_get(matrix, "entries"), i, e)
		if (is_nic_exp(json_str_of(e, "experiment", "")))
			return true;
	return false;
}

/* Is @name (a table's, perhaps with a .constprop.N, .isra.N or .part.N suffix) @want? */
static bool same_fn(const char *name, const char *want)
{
	size_t n = strlen(want);

	return !strncmp(name, want, n) && (name[n] == '\0' || name[n] == '.');
}

/* The first of @names (NULL-ended) that @prof's per-function table has on every
 * packet's path (MATRIX_DRIVERS_MIN_RETIRED), or NULL. */
static const char *first_on_path(const json_t *prof, const char *const *names)
{
	const json_t *f;
	size_t i;

	for (; *names; names++)
		json_array_foreach(json_object_get(prof, "functions"), i, f)
			if (same_fn(json_str_of(f, "name", ""), *names) &&
			    json_num_of(f, "retired_per_pkt") >= MATRIX_DRIVERS_MIN_RETIRED)
				return *names;
	return NULL;
}

/* Into @buf: the functions of driver @drv in @prof's table whose names hold "xdp" and
 * that lie on every packet's path, the biggest first, at most two, as `a`, `b`; or "".
 * Those are where a driver runs its XDP program (vmxnet3_run_xdp, virtnet_xdp_handler). */
static void driver_xdp_fns(char *buf, size_t len, const json_t *prof, const char *drv)
{
	const json_t *f;
	size_t i;
	int n = 0;

	*buf = '\0';
	json_array_foreach(json_object_get(prof, "functions"), i, f) {
		const char *name = json_str_of(f, "name", "");

		if (n < 2 && !strcmp(json_str_of(f, "where", ""), drv) && strstr(name, "xdp") &&
		    json_num_of(f, "retired_per_pkt") >= MATRIX_DRIVERS_MIN_RETIRED)
			snprintf(buf + strlen(buf), len - strlen(buf), "%s`%s`", n++ ? ", " : "",
				 name);
	}
}

/* The skbs built at the DUT per packet by @mode of @e ("-" where it did not run):
 * skbs_built_per_pkt less the sender's own skb where the sender's builds one apart. */
static void fmt_built(char *buf, size_t len, const json_t *e, const char *mode)
{
	const json_t *m = matrix_by_mode(json_object_get(e, "modes"), mode);
	double v = json_num_of(m, "skbs_built_per_pkt");

	if (!m || isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.2f", v - (json_is_true(json_object_get(e, "sender_skb_apart")) ? 1 : 0));
}

/* The kernel's skb builders a receive path calls, the one nearest the driver first. */
static const char *const builders[] = { "page_to_skb", "napi_alloc_skb", "__napi_alloc_skb",
	"__netdev_alloc_skb", "napi_build_skb", "__napi_build_skb", "build_skb", "__build_skb",
	NULL };
/* What copies an skb again for generic XDP (too little headroom, a cloned skb). */
static const char *const copiers[] = { "pskb_expand_head", "skb_cow_data_for_xdp", NULL };
/* Where each hook runs its program, per mode: cls_bpf (tc), tcx, generic XDP's entry. */
static const char *const tc_hooks[] = { "cls_bpf_classify", "tcx_run", "tcf_classify", NULL };
static const char *const generic_hooks[] = { "do_xdp_generic", "netif_receive_generic_xdp",
	NULL };

/* Where @mode of @e builds its skb and drops the frame, in words, into @buf ("" where it
 * did not run or has no per-function table), from its exact per-function table. */
static void fmt_where(char *buf, size_t len, const json_t *e, const char *mode)
{
	const json_t *profs = json_object_get(e, "insn_profiles");
	const json_t *p = matrix_by_mode(profs, mode);
	const char *drv = json_str_of(json_object_get(e, "dut_nic"), "driver", "?");
	const char *b, *c, *h = NULL;
	char built[16], hook[160];

	*buf = '\0';
	if (!p)
		return;
	b = first_on_path(p, builders);
	c = first_on_path(p, copiers);
	if (c && first_on_path(matrix_by_mode(profs, "tc"), copiers))
		c = NULL; /* tc copies as well: not generic XDP's own */
	if (!strcmp(mode, "tc") || !strcmp(mode, "tcx"))
		h = first_on_path(p, tc_hooks);
	else if (!strcmp(mode, "xdpgeneric"))
		h = first_on_path(p, generic_hooks);
	else
		driver_xdp_fns(hook, sizeof(hook), p, drv);
	if (h)
		snprintf(hook, sizeof(hook), "`%s`", h);
	else if (strcmp(mode, "xdpdrv"))
		snprintf(hook, sizeof(hook), "a function not named here");
	else if (!*hook) /* its XDP code inlined into its receive function */
		snprintf(hook, sizeof(hook), "%s's receive path (none of its functions in the "
			 "table is named for XDP)", drv);
	fmt_built(built, sizeof(built), e, mode);
	snprintf(buf, len, "%s: %s%s%s%s%s%s%s, dropped in %s", mode, b ? "skb by `" : "no skb",
		 b ? b : "", b ? "`" : "", b && !strcmp(built, "0.00") ? " (the probes counted "
		 "none)" : "", c ? ", copied by `" : "", c ? c : "", c ? "`" : "", hook);
}

/* Does @e's driver run XDP natively: its xdp-features' answer, or where the kernel has
 * none (before 6.3: xdp_native null) whether xdpdrv attached and ran? */
static const char *native_words(const json_t *e)
{
	const json_t *n = json_object_get(json_object_get(e, "dut_nic"), "xdp_native");

	if (json_is_boolean(n))
		return json_is_true(n) ? "yes" : "no";
	return matrix_by_mode(json_object_get(e, "modes"), "xdpdrv") ? "yes (it attached)"
								     : "no (refused)";
}

/* One row of the table: entry @e of the NIC experiment @x. */
static void driver_row(FILE *out, const json_t *e, const struct matrix_exp *x)
{
	const json_t *nic = json_object_get(e, "dut_nic");
	char dx[96], dg[96], bt[16], bg[16], bx[16], wt[320], wg[320], wx[320];

	if (strcmp(json_str_of(e, "status", ""), "ok")) {
		fprintf(out, "| %s | %s | failed: %s |||||\n", x->nic,
			json_str_of(e, "kernel", ""), json_str_of(e, "reason", ""));
		return;
	}
	matrix_fmt_vs_tc(dx, sizeof(dx), e, "xdpdrv");
	matrix_fmt_vs_tc(dg, sizeof(dg), e, "xdpgeneric");
	fmt_built(bt, sizeof(bt), e, "tc");
	fmt_built(bg, sizeof(bg), e, "xdpgeneric");
	fmt_built(bx, sizeof(bx), e, "xdpdrv");
	fmt_where(wt, sizeof(wt), e, "tc");
	fmt_where(wg, sizeof(wg), e, "xdpgeneric");
	fmt_where(wx, sizeof(wx), e, "xdpdrv");
	fprintf(out, "| %s (%s) | %s | %s | %s | %s | %s / %s / %s | %s%s%s%s%s |\n",
		x->nic, json_str_of(nic, "driver", "?"), json_str_of(e, "kernel", ""),
		native_words(e), dx, dg, bt, bg, bx, wt, *wg ? "; " : "", wg, *wx ? "; " : "", wx);
}

int matrix_write_drivers(const json_t *matrix, FILE *out)
{
	fprintf(out, "| NIC model (driver) | kernel | native XDP | xdpdrv vs tc | xdpgeneric vs tc "
		     "| skbs built at the DUT/pkt (tc / xdpgeneric / xdpdrv) | where each mode "
		     "builds the skb and drops |\n|---|---|---|---|---|---|---|\n");
	for (int x = 0; x < matrix_nexps; x++) {
		const json_t *e;
		size_t i;

		if (!matrix_exps[x].nic)
			continue;
		json_array_foreach(json_object_get(matrix, "entries"), i, e)
			if (!strcmp(json_str_of(e, "experiment", ""), matrix_exps[x].name))
				driver_row(out, e, &matrix_exps[x]);
	}
	return ferror(out) ? -EIO : 0;
}
