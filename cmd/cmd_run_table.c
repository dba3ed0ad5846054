/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_run_table.c: the options of `xdptc run` as the CLI's table (cmd_run_table.h), made
 * from their declaration (run_opt_table.c), and the words of the rows that name the
 * topologies and their defaults, from the table of topologies. */
#include "cmd_run_table.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cli_parse.h"
#include "cli_table.h"
#include "drop_mode.h"
#include "run_opts.h"
#include "topologies.h"

/* The option table of `xdptc run`, made from the declaration of its options
 * (run_opt_table.c) before anything reads it (run_opts_table_topologies) */
struct cli_opt run_opts_table[RUN_OPT_MAX + 1];

/* Each row of the declaration as a struct cli_opt: the same words, the CLI's flags. */
static void run_opts_table_fill(void)
{
	int n = run_opt_count();

	for (int i = 0; i < n && i < RUN_OPT_MAX; i++) {
		const struct run_opt *r = &run_opt_table[i];

		run_opts_table[i] = (struct cli_opt){
			.name = r->name, .key = r->key, .arg = r->arg, .help = r->help,
			.deflt = r->deflt, .make_var = r->make_var, .make_value = r->make_value,
			.brief = r->brief,
			.flags = (r->flags & RUN_OPT_HIDDEN ? CLI_HIDDEN : 0) |
				 (r->flags & RUN_OPT_MAKE_CMDLINE ? CLI_MAKE_CMDLINE : 0),
		};
	}
}

/* A default's words, from the topologies' (@off: the field of struct topology_defaults,
 * @is_rate: a uint64_t of packets/s, 0 written "unpaced"; else packets or repetitions):
 * the first topology's on the host engine, then each other's where it differs, then the
 * icount engine's ("icount V" when every topology has the same, else "NAME under icount
 * V" for each that has one). */
static const char *default_words(size_t off, bool is_int)
{
	static char bufs[3][160];
	static int next;
	char *b = bufs[next++ % 3];
	const struct topology_desc *first = topologies[0];
	size_t n = 0;
	bool same = true;

#define DEFAULT_OF(t, eng) (is_int ? (uint64_t)*(const int *)((const char *)&(t)->eng + off) \
				   : *(const uint64_t *)((const char *)&(t)->eng + off))
	for (int i = 0; topologies[i]; i++) {
		uint64_t v = DEFAULT_OF(topologies[i], host);
		char num[32];

		if ((topologies[i]->outside && !is_int) || /* windows of time: no count, no pace */
		    topologies[i]->icount_only)
			continue;
		if (i && v == DEFAULT_OF(first, host))
			continue;
		cli_count_words(v, num, sizeof(num));
		n += (size_t)snprintf(b + n, sizeof(bufs[0]) - n, "%s%s%s%s", i ? "; " : "",
				      i ? topologies[i]->name : "", i ? " " : "",
				      v || is_int ? num : "unpaced");
		same &= topologies[i]->outside || topologies[i]->icount_as || /* none of its own */
			DEFAULT_OF(topologies[i], icount) == DEFAULT_OF(first, icount);
	}
	for (int i = 0; topologies[i] && n < sizeof(bufs[0]); i++) {
		uint64_t v = DEFAULT_OF(topologies[i], icount);
		char num[32];

		if (topologies[i]->outside || topologies[i]->icount_as || (same && i) ||
		    (!same && !v))
			continue;
		cli_count_words(v, num, sizeof(num));
		n += (size_t)snprintf(b + n, sizeof(bufs[0]) - n, "; %s%sicount %s",
				      same ? "" : topologies[i]->name, same ? "" : " under ",
				      v || is_int ? num : "unpaced");
	}
#undef DEFAULT_OF
	return b;
}

/* Option @x's help with @token replaced by @text, into @buf (the help as it is when it
 * has no @token). */
static void help_with(struct cli_opt *x, const char *token, const char *text, char *buf,
		      size_t len)
{
	const char *at = strstr(x->help, token);

	if (!at)
		return;
	snprintf(buf, len, "%.*s%s%s", (int)(at - x->help), x->help, text, at + strlen(token));
	x->help = buf;
}

/* The names of the topologies @keep says yes to, ", "-separated, into @buf. */
static const char *topologies_where(bool (*keep)(const struct topology_desc *), char *buf,
				    size_t len)
{
	buf[0] = '\0';
	for (int i = 0; topologies[i]; i++)
		if (keep(topologies[i]))
			snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", buf[0] ? ", " : "",
				 topologies[i]->name);
	return buf;
}

/* the topologies whose DUT this machine's perf sees */
static bool profiles(const struct topology_desc *td)
{
	return !td->no_flame;
}

/* the topologies the alternating pass's segments build anew */
static bool rebuilds(const struct topology_desc *td)
{
	return td->allows & TOPOLOGY_REBUILD;
}

/* --modes's help, default and brief: every mode of drop_mode.c, the topologies that take
 * a mode only some allow (a topology's own_modes), and each topology's default modes. */
static void modes_words(struct cli_opt *x)
{
	static char help[384], deflt[256], brief[256];
	size_t h = 0, d = 0, b = 0;

	h += (size_t)snprintf(help, sizeof(help), "comma list of the modes measured, each an arm "
			      "of every repetition: ");
	for (int m = 0; m < MODE_NR; m++) {
		const char *sep = m ? (m == MODE_NR - 1 ? " or " : ", ") : "";

		h += (size_t)snprintf(help + h, sizeof(help) - h, "%s%s", sep, drop_mode_name(m));
		b += (size_t)snprintf(brief + b, sizeof(brief) - b, "%s`%s`", m ? ", " : "comma list of ",
				      drop_mode_name(m));
	}
	for (int m = 0; m < MODE_NR; m++) { /* a mode some topology owns (its own_modes) */
		if (!topology_mode_owner(m) || h >= sizeof(help) || b >= sizeof(brief))
			continue;
		h += (size_t)snprintf(help + h, sizeof(help) - h, " (%s: the %s topology only)",
				      drop_mode_name(m), topology_mode_owners(m, NULL, ", ", NULL));
		b += (size_t)snprintf(brief + b, sizeof(brief) - b, " (`%s`: %s only)",
				      drop_mode_name(m), topology_mode_owners(m, "`%s`", ", ", NULL));
	}
	d += (size_t)snprintf(deflt, sizeof(deflt), "%s", topologies[0]->modes ?: "tc,xdpdrv");
	for (int i = 1; topologies[i]; i++)
		if (topologies[i]->modes)
			d += (size_t)snprintf(deflt + d, sizeof(deflt) - d, "; %s %s",
					      topologies[i]->name, topologies[i]->modes);
	x->help = help;
	x->deflt = deflt;
	x->brief = brief;
}

/* The option rows that name the topologies (--topology) and their defaults (--packets,
 * --reps, --rate), and the modes (--modes), from the tables of topologies and modes,
 * before anything reads the table. */
__attribute__((constructor)) static void run_opts_table_topologies(void)
{
	static char brief[256], arg[128];

	run_opts_table_fill();
	for (struct cli_opt *x = run_opts_table; x->name; x++) {
		if (!strcmp(x->name, "topology")) {
			/* a copy: topology_names' buffers are used in turn by the rows after */
			snprintf(arg, sizeof(arg), "%s", topology_names(0, NULL, "|", NULL));
			x->arg = arg;
			x->help = topology_help();
			x->deflt = topologies[0]->name;
			snprintf(brief, sizeof(brief), "%s (what `make run-%s` pass)",
				 topology_names(0, "`%s`", ", ", " or "),
				 topology_names(0, NULL, "` / `run-", NULL));
			x->brief = brief;
		} else if (!strcmp(x->name, "packets")) {
			static char help[512];

			/* the range, from its one definition (run_opts.h) */
			help_with(x, "RANGE", cli_packets_range(), help, sizeof(help));
			x->deflt = default_words(offsetof(struct topology_defaults, packets), false);
		} else if (!strcmp(x->name, "no-flame")) {
			static char help[256], deflt[160];
			char names[128];

			topologies_where(profiles, names, sizeof(names));
			help_with(x, "FLAME_TOPOLOGIES", names, help, sizeof(help));
			snprintf(deflt, sizeof(deflt), "%s (%s)", x->deflt, names);
			x->deflt = deflt;
		} else if (!strcmp(x->name, "segments")) {
			static char help[384];
			char names[128];

			help_with(x, "REBUILD_TOPOLOGIES", topologies_where(rebuilds, names,
					sizeof(names)), help, sizeof(help));
		} else if (!strcmp(x->name, "modes")) {
			modes_words(x);
		} else if (!strcmp(x->name, "reps")) {
			x->deflt = default_words(offsetof(struct topology_defaults, reps), true);
		} else if (!strcmp(x->name, "rate")) {
			x->deflt = default_words(offsetof(struct topology_defaults, rate_pps), false);
		}
	}
}

