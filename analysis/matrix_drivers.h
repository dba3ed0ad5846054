/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_drivers.h: the "Ask your driver" table of a driver matrix, one Markdown table
 * that matrix.md (matrix_exp_nic.c), `xdptc matrix --table-drivers DIR` and docs/engines.md
 * (checked by tests/unit/test_claims.c) all take from here.
 */
#ifndef XDPTC_MATRIX_DRIVERS_H
#define XDPTC_MATRIX_DRIVERS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* matrix_has_drivers - has @matrix (matrix.json) an entry of an experiment with a NIC
 * model (matrix_exp.nic), that is a row of the table below? */
bool matrix_has_drivers(const json_t *matrix);

/* matrix_write_drivers - the "Ask your driver" table of @matrix (matrix.json) to @out:
 * its header line, then a row per entry of each experiment with a NIC model, in the
 * experiments' order (analysis/matrix_experiments.c) and the entries' within it. Per NIC
 * model (its driver) and guest kernel: whether the driver runs XDP natively (run.json's
 * dut_nic: the kernel's xdp-features, else whether xdpdrv attached), xdpdrv and
 * xdpgeneric against tc in retired instructions per packet with their intervals
 * (matrix_fmt_vs_tc), the skbs built at the DUT per packet per mode (skbs_built_per_pkt
 * less the sender's own skb where it builds one apart), and in words, from each mode's
 * exact per-function table (insn_profiles; a function counts when it retired at least
 * MATRIX_DRIVERS_MIN_RETIRED instructions per packet): the kernel function that built
 * the DUT's skb, or none, one that copied it again where tc's table has none, and the
 * function the frame was dropped in. No blank line inside: the table ends at the first.
 * A failed entry gets its reason in the row. Returns 0, or -EIO when @out fails. */
int matrix_write_drivers(const json_t *matrix, FILE *out);

/* A function of a per-function table counts as on the path of every packet from this
 * many retired instructions per packet on (a builder called once a packet retires tens). */
#define MATRIX_DRIVERS_MIN_RETIRED 10.0

#endif
