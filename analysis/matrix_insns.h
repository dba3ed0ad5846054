/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix_insns.h: the kernel matrix's exact instruction figures, from the icount
 * engine's plugin (run.json insn_profiles and the retired_instructions_per_pkt deltas):
 * matrix.json keeps each entry's profiles (trimmed), matrix.md gets a table per
 * experiment in both conventions and, per kernel and experiment, the functions whose
 * instructions per packet differ most between each mode and tc.
 */
#ifndef XDPTC_MATRIX_INSNS_H
#define XDPTC_MATRIX_INSNS_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* The functions an entry keeps per mode (the rest summed into "[other functions]"). */
#define MATRIX_INSN_FUNCS 40

/* matrix_insn_profiles - @run's "insn_profiles", each mode's functions trimmed to
 * MATRIX_INSN_FUNCS (what is cut summed into "[other functions]", so that the rows
 * still add up to the mode's total). NULL when the run has none. */
json_t *matrix_insn_profiles(const json_t *run);

/* matrix_has_insns - does some entry of @matrix hold the plugin's figures? */
bool matrix_has_insns(const json_t *matrix);

/* matrix_md_insns - matrix.md's sections of the plugin's figures: per experiment a row
 * per kernel with retired and every-iteration instructions per packet of tc and xdpdrv,
 * each mode's retired delta against tc with its interval, and the string iterations;
 * then per entry, for each mode against tc, the @rows functions whose retired
 * instructions per packet differ most, in both conventions, and what the functions add
 * up to. Nothing when no entry has them. */
void matrix_md_insns(const json_t *matrix, FILE *out, int rows);

#endif
