/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cleanup.h: remove what killed runs left behind, and nothing else. */
#ifndef XDPTC_CLEANUP_H
#define XDPTC_CLEANUP_H

/*
 * cleanup_leftovers - remove the topologies whose owning run is gone (veth.sh and
 * virtio.sh cleanup: namespaces, links, guests and their files; a topology whose run
 * still goes is left alone), xdptc's clsact markers of namespaces that no longer exist,
 * and empty run directories under @results_dir (NULL: none).
 * Each removal is reported on stderr with @tag in front. Returns how many things were
 * removed, or -errno when a cleanup script could not be run.
 */
int cleanup_leftovers(const char *topologies_dir, const char *results_dir, const char *tag);

#endif
