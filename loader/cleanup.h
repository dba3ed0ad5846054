/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cleanup.h: remove what killed runs left behind, and nothing else. */
#ifndef XDPTC_CLEANUP_H
#define XDPTC_CLEANUP_H

/*
 * cleanup_leftovers - remove the topologies whose owning run is gone (`SCRIPT cleanup` of
 * each of @scripts, a NULL-ended list of topologies/ scripts: namespaces, links, guests
 * and their files; a topology whose run still goes is left alone), xdptc's clsact markers of namespaces that no longer exist,
 * and empty run directories under @results_dir (NULL: none; skipped while a run holds
 * the run lock, since a live run's directory stays empty until it ends).
 * Each removal is reported on stderr with @tag in front. Returns how many things were
 * removed, or -errno when a cleanup script could not be run.
 */
int cleanup_leftovers(const char *topologies_dir, const char *const *scripts,
		      const char *results_dir, const char *tag);

/* cleanup_empty_run_dirs - remove the empty run directories under @results_dir (what a
 * killed run leaves). Call only while no run is live (its own directory is empty until
 * it ends). Returns how many were removed, or -errno. */
int cleanup_empty_run_dirs(const char *results_dir, const char *tag);

#endif
