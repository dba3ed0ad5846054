/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topologies.h: the table of topologies (topology.h's TOPOLOGY_LIST), and what is read
 * from it: a name's descriptor, the list of names and of what each is, the scripts.
 */
#ifndef XDPTC_TOPOLOGIES_H
#define XDPTC_TOPOLOGIES_H

#include "topology.h"

/* The topologies in TOPOLOGY_LIST's order, ended by NULL. */
extern const struct topology_desc *const topologies[];

/* topology_find - the topology named @name, or NULL. */
const struct topology_desc *topology_find(const char *name);

/* topology_names - the names of the topologies that allow all of @allows (TOPOLOGY_*; 0:
 * every one), each written by printf format @fmt (NULL: "%s"), joined by @sep, with
 * @last_sep between the last two when not NULL ("veth|virtio", "veth or virtio",
 * "`veth` or `virtio`"); in one of four static buffers, used in turn. */
const char *topology_names(unsigned int allows, const char *fmt, const char *sep,
			   const char *last_sep);

/* topology_mode_owner - the first topology that owns drop mode @mode (its own_modes:
 * no other runs it), or NULL: every topology may run it. */
const struct topology_desc *topology_mode_owner(int mode);

/* topology_mode_owners - the names of the topologies that own @mode, in
 * topology_names' words and buffers ("" when none does). */
const char *topology_mode_owners(int mode, const char *fmt, const char *sep,
				 const char *last_sep);

/* topology_sender_owner - the topology that owns sender @kind (SENDER_*: its own_sender),
 * or NULL: every topology may send with it. */
const struct topology_desc *topology_sender_owner(int kind);

/* topology_help - "NAME: what it is; NAME: ..." for --help and the manual, in a static
 * buffer. */
const char *topology_help(void);

/* topology_scripts - every topology's script, ended by NULL (for cleanup_leftovers). */
const char *const *topology_scripts(void);

#endif
