/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cli_parse.h: parsers for the values users type (counts, ports, mode lists). */
#ifndef XDPTC_CLI_PARSE_H
#define XDPTC_CLI_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "drop_prog.h"
#include "sweep.h" /* SWEEP_VALUE_LEN */

/* parse_count - a non-negative integer with an optional k (1e3), M (1e6) or G (1e9)
 * suffix: "1000000", "1M", "250k". Returns 0, or -EINVAL (not a number, trailing
 * text, negative) / -ERANGE (beyond @max). */
int parse_count(const char *s, uint64_t max, uint64_t *out);

/* parse_port - a UDP port, 1-65535. Returns 0 or -EINVAL. */
int parse_port(const char *s, uint16_t *out);

/* parse_modes - a comma-separated list of distinct modes ("tc,xdpdrv"), at most
 * @max of them (probes/name_list.c). Returns the number parsed, or -EINVAL (unknown
 * mode, empty list) / -EEXIST (a mode given twice) / -E2BIG (too many). */
int parse_modes(const char *s, enum drop_mode *out, int max);

/* guest_kernel_spec_ok - is @s the shape of a Debian kernel version a user may name for a
 * guest (`--guest-kernel`, `xdptc matrix --kernels`): a digit first, then at most 63
 * characters of [0-9a-z.+~-] ("6.1", "7.3", "6.12.95-1~bpo12+1")? Whether such a kernel
 * exists is for topologies/guest_kernel.sh to say. Returns true or false. */
bool guest_kernel_spec_ok(const char *s);


/* parse_sweep_values - `xdptc sweep --values`: a comma list of payload sizes (@over
 * "size", 0-1472 with parse_count's suffixes) or sender kinds (@over "sender"), at most
 * @max. Each goes into @vals as a plain number ("1k": "1000") or the sender's name.
 * Returns the number of values, or -EINVAL (a bad value, a list of 512 bytes or more)
 * / -E2BIG (more than @max). */
int parse_sweep_values(const char *over, const char *list, char vals[][SWEEP_VALUE_LEN], int max);

/* cli_count_words - @v as parse_count would read it back, shortest first: "200k" for
 * 200000, "1M", "21"; into @buf. */
void cli_count_words(uint64_t v, char *buf, size_t len);

/* cli_packets_range - "1 to 10^12": the range of --packets (RUN_PACKETS_MIN to
 * RUN_PACKETS_MAX, run_opts.h), for help texts and refusals; a static buffer. */
const char *cli_packets_range(void);

#endif
