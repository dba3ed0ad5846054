/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* name_list.h: a comma list of distinct names from a table ("tc,xdpdrv",
 * "fentry,tracepoint"): the one parser of the options that take one. It stands in
 * probes/, the lowest layer that reads such a list (the counter backends:
 * parse_counter_backends, for --counters, the guest's agent, the icount engine's options
 * and a test hook); cmd/cli_parse.c's parse_modes reads --modes with it. */
#ifndef XDPTC_NAME_LIST_H
#define XDPTC_NAME_LIST_H

#include <stdbool.h>

/* name_list_parse - the indices in @names (@nnames of them) of the comma list @s, in its
 * order, into @out (at most @max). Returns how many, -EINVAL for an empty list, an
 * unknown name or a list of 255 bytes or more, -EEXIST for a name given twice, -E2BIG for
 * more than @max. */
int name_list_parse(const char *s, const char *const *names, int nnames, int *out, int max);

/* name_list_has - is @word an item of the comma list @list (NULL: none)? A word that is
 * part of an item ("veth" of "veth-udp") is not. */
bool name_list_has(const char *list, const char *word);

#endif
