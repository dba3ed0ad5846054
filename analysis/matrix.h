/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * matrix.h: the kernel matrix's results (`xdptc matrix`): one entry per guest kernel x
 * experiment (topology and sender), each holding the per-mode summaries and deltas of
 * its run in the same shape as the run's own run.json; matrix.json, matrix.md (kernels
 * as rows) and the data of the plot of each delta against the kernel.
 *
 * matrix.json:
 *   { "schema": "xdptc.matrix/1", "host": {cpu_model, kernel_release, qemu},
 *     "settings": {packets, reps, count_reps, modes, jobs, profile_period},
 *     "kernels": [ {spec, package, version, suite, release, status ("ok" or "failed"),
 *                   reason, modes (what was measured), tcx_reason (when left out)} ],
 *     "entries": [ {kernel (its spec), experiment, topology, sender, status, reason,
 *                   run_dir, seconds, guest_kernel (the release the guest ran),
 *                   time_metric, modes: [...], deltas: [...], profiles: {...}} ],
 *   the profiles' folded stacks beside it in profiles/KERNEL-EXPERIMENT-MODE.folded
 *     "elapsed_s": N }
 */
#ifndef XDPTC_MATRIX_H
#define XDPTC_MATRIX_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

/* matrix_entry_from_run - an entry of matrix.json for @kernel's @experiment from the
 * run.json @run: its summary's modes and deltas (copied), its time metric and guest
 * kernel release. Returns a new reference. */
json_t *matrix_entry_from_run(const char *kernel, const char *experiment, const json_t *run);

/* matrix_profiles - the instruction profiles of the run in @run_dir (its run.json @run,
 * "flamegraphs": a folded profile per mode with its sampling period and packets):
 * per mode the folded stacks, copied to @out_dir/@name-MODE.folded and named in
 * "folded_file" (with the number of "stacks"), the samples (the profiler's own process
 * "perf" left out), the packets, what the samples sum to per packet at face value
 * (samples x period / packets: more than was measured, as each sample's own interrupt
 * costs instructions no sample sees), the instructions per packet measured, what one
 * sample stands for (measured per packet / samples: the profile scaled to the
 * measurement) and the UDP sender's own code per packet (the profile's check); when tc
 * and xdpdrv both have one, their differential flame graph (xdpdrv against tc, per
 * packet) drawn to @out_dir/@name-xdpdrv-vs-tc.svg, and the leaf functions whose
 * instructions per packet differ most (at most @top), each with its sampling error.
 * Returns a new reference, or NULL when the run has no profile. */
json_t *matrix_profiles(const json_t *run, const char *run_dir, const char *out_dir,
			const char *name, int top);

/* matrix_write_md - matrix.md for @matrix on @out: the host, the settings, the kernels
 * with their packages, then per experiment a table with a row per kernel: the time
 * metric of tc and xdpdrv, each mode's delta against tc with its interval, and the
 * mechanism counts per packet; the differential flame graphs linked where @dir (the
 * matrix's directory; NULL: not known, all linked) holds them (matrix_md_flame).
 * Returns 0 or -EIO. */
int matrix_write_md(const json_t *matrix, const char *dir, FILE *out);

/* matrix_write_files - the delta plots (gnuplot), matrix.md (matrix_write_md, then the
 * plots drawn embedded: matrix_pictures.h) and its page index.html (page_html.h, with
 * the settings and host) into @dir from matrix.json @matrix. The differential flame
 * graphs matrix.md links are drawn before (matrix_profiles, matrix_redraw_profiles).
 * Returns 0, or 1 when matrix.md or index.html cannot be written (said on stderr; a plot
 * that gnuplot cannot draw is said and left out). */
int matrix_write_files(const json_t *matrix, const char *dir);

#endif
