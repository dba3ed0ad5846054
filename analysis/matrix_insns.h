/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_insns.h: the kernel matrix's exact instruction figures, from the icount
 * engine's plugin (run.json insn_profiles and the retired_instructions_per_pkt deltas):
 * matrix.json keeps each entry's profiles as its run.json stores them, matrix.md gets a
 * table per experiment in both conventions and, per kernel and experiment, the functions
 * whose instructions per packet differ most between each mode and tc.
 */
#ifndef XDPTC_MATRIX_INSNS_H
#define XDPTC_MATRIX_INSNS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* The smallest difference of retired instructions per packet a function's row is
 * printed for in the per-function tables (below it the row reads 0.0). */
#define MATRIX_INSN_DIFF_MIN 0.05

/* matrix_insn_profiles - @run's "insn_profiles" as it stores them (each mode's largest
 * functions and "[other functions]"; never trimmed further: a difference between two
 * modes needs each one's whole stored list). A new reference; NULL when the run has
 * none. */
json_t *matrix_insn_profiles(const json_t *run);

/* matrix_has_insns - does some entry of @matrix hold the plugin's figures? */
bool matrix_has_insns(const json_t *matrix);

/* matrix_md_insns - matrix.md's sections of the plugin's figures: per experiment a row
 * per kernel with retired and every-iteration instructions per packet of tc and xdpdrv,
 * each mode's retired delta against tc with its interval, and the string iterations;
 * then per entry, for every other mode it profiled against tc (netkit included), at most
 * @rows functions whose retired instructions per packet differ most (by
 * MATRIX_INSN_DIFF_MIN or more), in both conventions, from both modes' whole stored
 * lists: a function one mode did not keep is shown as at most that mode's smallest kept
 * figure, and its difference as the range it can take. Nothing when no entry has them. */
void matrix_md_insns(const json_t *matrix, FILE *out, int rows);

#endif
