/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_opts_json.h: a run's options as data, each row of their declaration
 * (run_opt_table.h) with a JSON key by its type: for the icount engine's inner run (the
 * host writes them, run_opts_to_json; the guest's `xdptc run --inside-icount FILE` reads
 * them) and for run.json's settings (run_json.c).
 */
#ifndef XDPTC_RUN_OPTS_JSON_H
#define XDPTC_RUN_OPTS_JSON_H

#include <stddef.h>

#include "run_opt_table.h"
#include "run_opts.h"

struct json_t;

/* run_opt_json - row @r's setting in @o as JSON, under the row's key: a flag a boolean, a
 * count an integer, a real or a percentage (as a share) a number, a string a string or
 * null, an enum its word; --modes an array of mode names, --counters the list as typed
 * or null (the default order), --cpu the CPU or null (not given), --aa the A/A twin's
 * arm or -1. Returns a new reference. */
struct json_t *run_opt_json(const struct run_opt *r, const struct run_opts *o);

/* run_opt_from_json - row @r's setting from @v (what run_opt_json wrote) into @o, checked
 * against the row's range (0 allowed where it means not given, RUN_OPT_ZERO_UNSET); a
 * string is copied (it stays valid for the process's life). The rows of their own form
 * (RUN_OPT_OWN_JSON) are run_opts_from_json's. Returns 0, or -EINVAL with a sentence
 * naming the key in @err. */
int run_opt_from_json(const struct run_opt *r, const struct json_t *v, struct run_opts *o,
		      char *err, size_t errlen);

/* run_opts_to_json - the options of a run as the inner run of the icount engine needs
 * them (run_opts_json.c): every row of the declaration with a JSON key (run_opt_json),
 * @host (the host's qemu, icount arguments, CPU model and
 * kernel), this host's time (the guest's clock is set from it) and working directory.
 * Returns a new reference. */
struct json_t *run_opts_to_json(const struct run_opts *o, const struct run_icount_host *host);

/* run_opts_from_json - @o from what run_opts_to_json wrote, with inside_icount set; the
 * guest's clock set to the host's time and the working directory changed to the
 * host's. Returns 0, or -EINVAL with a sentence in @err for a field missing or out of
 * range. */
int run_opts_from_json(const struct json_t *j, struct run_opts *o, char *err, size_t errlen);

#endif
