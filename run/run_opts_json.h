/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_opts_json.h: a run's options as data, for the icount engine's inner run: the host
 * writes them (run_opts_to_json), the guest's `xdptc run --inside-icount FILE` reads them.
 */
#ifndef XDPTC_RUN_OPTS_JSON_H
#define XDPTC_RUN_OPTS_JSON_H

#include <stddef.h>

#include "run_opts.h"

/* run_opts_to_json - the options of a run as the inner run of the icount engine needs
 * them (run_opts_json.c): every setting of @o (arms, packets, passes, sender, counters,
 * perf events, seed, ...), @host (the host's qemu, icount arguments, CPU model and
 * kernel), this host's time (the guest's clock is set from it) and working directory.
 * Returns a new reference. */
struct json_t;
struct json_t *run_opts_to_json(const struct run_opts *o, const struct run_icount_host *host);

/* run_opts_from_json - @o from what run_opts_to_json wrote, with inside_icount set; the
 * guest's clock set to the host's time and the working directory changed to the
 * host's. Returns 0, or -EINVAL with a sentence in @err for a field missing or out of
 * range. */
int run_opts_from_json(const struct json_t *j, struct run_opts *o, char *err, size_t errlen);

#endif
