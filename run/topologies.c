/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* topologies.c: the table of topologies, made from TOPOLOGY_LIST (topology.h). */
#include "topologies.h"

#include <stdio.h>
#include <string.h>

#define TOPOLOGY_ROW(n) &topology_##n,
const struct topology_desc *const topologies[] = { TOPOLOGY_LIST(TOPOLOGY_ROW) NULL };
#undef TOPOLOGY_ROW

#define NTOPOLOGIES ((int)(sizeof(topologies) / sizeof(topologies[0])) - 1)

const struct topology_desc *topology_find(const char *name)
{
	for (int i = 0; name && topologies[i]; i++)
		if (!strcmp(topologies[i]->name, name))
			return topologies[i];
	return NULL;
}

/* The names of @t[0..@nt), each by @fmt, joined (topology_names' words), in one of four
 * static buffers, used in turn. */
static const char *names_join(const struct topology_desc *const *t, int nt, const char *fmt,
			      const char *sep, const char *last_sep)
{
	static char buf[4][256];
	static int next;
	char *b = buf[next++ % 4];
	size_t n = 0;

	b[0] = '\0';
	for (int i = 0; i < nt && n < sizeof(buf[0]); i++) {
		n += (size_t)snprintf(b + n, sizeof(buf[0]) - n, "%s",
				      !i ? "" : last_sep && i == nt - 1 ? last_sep : sep);
		if (n < sizeof(buf[0]))
			n += (size_t)snprintf(b + n, sizeof(buf[0]) - n, fmt ? fmt : "%s",
					      t[i]->name);
	}
	return b;
}

const char *topology_names(unsigned int allows, const char *fmt, const char *sep,
			   const char *last_sep)
{
	const struct topology_desc *t[NTOPOLOGIES];
	int nt = 0;

	for (int i = 0; topologies[i]; i++)
		if ((topologies[i]->allows & allows) == allows)
			t[nt++] = topologies[i];
	return names_join(t, nt, fmt, sep, last_sep);
}

const struct topology_desc *topology_mode_owner(int mode)
{
	for (int i = 0; topologies[i]; i++)
		if (topologies[i]->own_modes & (1u << mode))
			return topologies[i];
	return NULL;
}

const char *topology_mode_owners(int mode, const char *fmt, const char *sep,
				 const char *last_sep)
{
	const struct topology_desc *t[NTOPOLOGIES];
	int nt = 0;

	for (int i = 0; topologies[i]; i++)
		if (topologies[i]->own_modes & (1u << mode))
			t[nt++] = topologies[i];
	return names_join(t, nt, fmt, sep, last_sep);
}

const struct topology_desc *topology_sender_owner(int kind)
{
	for (int i = 0; topologies[i]; i++)
		if (kind && topologies[i]->own_sender == kind)
			return topologies[i];
	return NULL;
}

const char *topology_help(void)
{
	static char buf[1024];
	size_t n = 0;

	buf[0] = '\0';
	for (int i = 0; topologies[i] && n < sizeof(buf); i++)
		n += (size_t)snprintf(buf + n, sizeof(buf) - n, "%s%s: %s", i ? "; " : "",
				      topologies[i]->name, topologies[i]->help);
	return buf;
}

const char *const *topology_scripts(void)
{
	static const char *scripts[NTOPOLOGIES + 1];

	for (int i = 0; i < NTOPOLOGIES; i++)
		scripts[i] = topologies[i]->script;
	return scripts;
}
