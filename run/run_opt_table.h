/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_opt_table.h: every option of `xdptc run`, declared once (run_opt_table.c): its
 * name and short form, its type, where it lives in struct run_opts (offsetof), its
 * range and default, its key in the run's options as data and in run.json's settings,
 * its help, its make variable. From this one table come the parser (cmd_run.c, by type
 * and offset), `xdptc run --help`, the manual page, docs/settings.md's table of make variables
 * (cmd_run_table.c turns each row into a struct cli_opt), the icount engine's options
 * file and run.json's settings (run_opts_json.c, run_json.c), and the unit tests that
 * walk it (test_run_opts_json, test_cli_table).
 */
#ifndef XDPTC_RUN_OPT_TABLE_H
#define XDPTC_RUN_OPT_TABLE_H

#include <stddef.h>
#include <stdint.h>

#include "run_opts.h"

/* long-only options' keys (getopt's return; a row with a short form has its letter) */
enum {
	OPT_PACKETS = 256, OPT_CPU, OPT_SEED, OPT_RATE, OPT_GUEST_KERNEL, OPT_COUNTERS,
	OPT_CROSS_CHECK, OPT_NO_FLAME, OPT_AA, OPT_SENDER, OPT_FIND_MAX_RATE, OPT_THREADED_NAPI,
	OPT_NAPI_CPU, OPT_ENGINE, OPT_INSIDE_ICOUNT, OPT_PMU_EVENTS, OPT_HELD_LOCK,
	OPT_PROFILE_PERIOD, OPT_PROFILE_PACKETS, OPT_SCHEDULE, OPT_WINDOW_MS, OPT_TIMING_BUDGET, OPT_SEGMENTS,
	OPT_TARGET, OPT_WINDOWS_PER_ATTACH, OPT_DEV, OPT_NETNS, OPT_WINDOW, OPT_RATE_TOLERANCE,
	OPT_ALLOW_DEFAULT_ROUTE_DEV, OPT_NIC, OPT_QEMU, OPT_BATCH, OPT_VLAN,
};

/* How an option's value is typed and stored (struct run_opt.type). */
enum run_opt_type {
	RUN_OPT_FLAG,    /* no argument: the field (bool or int) becomes true */
	RUN_OPT_UNSET,   /* no argument: the bool field becomes false (--no-flame) */
	RUN_OPT_COUNT,   /* a whole number, k/M/G suffixes allowed, within [imin, imax]; the
			  * field an unsigned or int of 2, 4 or 8 bytes */
	RUN_OPT_REAL,    /* a number (double) within [min, max], in the unit its help says
			  * (seconds, milliseconds) */
	RUN_OPT_PERCENT, /* typed in percent within [min, max], stored as a share (/100) */
	RUN_OPT_STRING,  /* a const char *, as typed */
	RUN_OPT_ENUM,    /* one of the words of word_of (from index imin on), stored as its
			  * index in an int */
	RUN_OPT_LIST,    /* its own form (the modes' array, the counters' order): parsed in
			  * cmd_run.c, its JSON in run_opts_json.c */
};

/* struct run_opt.flags */
#define RUN_OPT_HIDDEN (1u << 0)       /* internal (--inside-icount): parsed, never
					* documented */
#define RUN_OPT_MAKE_CMDLINE (1u << 1) /* its make variable counts on make's command line
					* only (generic names: CPU, PORT, OUT) */
#define RUN_OPT_OWN_PARSER (1u << 2)   /* its value is checked by its own parser in
					* cmd_run.c (a topology's name, an online CPU, ...);
					* its type still says how it is stored */
#define RUN_OPT_OWN_JSON (1u << 3)     /* written and read by run_opts_json.c's own code
					* (a list; --cpu's null when not given) */
#define RUN_OPT_ALTERNATING (1u << 4)  /* a setting of the alternating timing pass only */
#define RUN_OPT_OUTSIDE (1u << 5)      /* a setting of a topology whose traffic comes
					* from outside (dev) only */
#define RUN_OPT_POW2 (1u << 6)         /* RUN_OPT_COUNT: a power of two */
#define RUN_OPT_LOCAL (1u << 7)        /* of this process only (where results go, what
					* it prints, a lock it holds): no JSON key */
#define RUN_OPT_ZERO_UNSET (1u << 8)   /* 0 means not given (the run chooses), outside
					* its range: allowed so in the JSON forms */

/* the field F of struct run_opts: its offset and size */
#define RUN_OPT_AT(f) .off = offsetof(struct run_opts, f), \
		      .size = sizeof(((struct run_opts *)0)->f)

/* One option of `xdptc run`. The first fields are a struct cli_opt's (cli_table.h), in
 * its order, so that a row reads as the other commands' rows do. */
struct run_opt {
	const char *name;       /* long name, without "--" */
	int key;                /* its short letter, or an OPT_* above */
	const char *arg;        /* the argument's name in the synopsis; NULL: none */
	const char *help;       /* what it does (paragraphs split by "\n"), for --help and
				 * the manual page */
	const char *deflt;      /* its default in words, or NULL */
	const char *make_var;   /* the make variable of `make run-*` that passes it, or NULL */
	const char *make_value; /* an option without argument: the value of make_var that
				 * passes it ("1") */
	const char *brief;      /* README's one-line meaning; NULL: the help */
	unsigned int flags;     /* RUN_OPT_* */
	enum run_opt_type type;
	size_t off, size;       /* its field (RUN_OPT_AT); size 0: no field of its own */
	int64_t imin, imax;     /* RUN_OPT_COUNT: the range; RUN_OPT_ENUM: imin is the
				 * first word a user may type */
	double min, max;        /* RUN_OPT_REAL, RUN_OPT_PERCENT: the range as typed */
	double dflt;            /* the field's default as typed (percent for a percentage;
				 * a flag's 0 or 1); 0 unless given */
	const char *dflt_str;   /* RUN_OPT_STRING: its default, or NULL */
	const char *(*word_of)(int i); /* RUN_OPT_ENUM: the word of value i, NULL past the
					* last */
	const char *what;       /* a refusal's words: what was expected ("1, 2, 4 or 8") */
	const char *json;       /* its key in the run's options as data and in run.json's
				 * settings; NULL only with RUN_OPT_LOCAL */
	unsigned int senders;   /* (1u << SENDER_*, loader/sender.h): the senders it applies
				 * to, refused with any other and where nothing is sent (traffic
				 * from outside); 0: not a sender's setting */
};

/* The options of `xdptc run`, ended by a row whose name is NULL. */
extern const struct run_opt run_opt_table[];

/* The number of rows of run_opt_table (without the end). */
#define RUN_OPT_MAX 64
int run_opt_count(void);

/* run_opt_find - the row whose key is @key, or NULL. */
const struct run_opt *run_opt_find(int key);

/* run_opt_defaults - every field of @o that a row declares, set to the row's default
 * (the defaults that depend on the machine, the topology or the engine are cmd_run.c's
 * and the topology's). */
void run_opt_defaults(struct run_opts *o);

/* run_opt_set_int - store @v into row @r's whole-number field of @o (a bool, a uint16_t,
 * an int or uint32_t, a uint64_t: by the row's size). Returns 0, or -1 when the row has
 * no such field (a real, a string, a list, none). */
int run_opt_set_int(const struct run_opt *r, struct run_opts *o, int64_t v);

/* run_opt_get_int - row @r's whole-number field of @o (0 when it has none). */
int64_t run_opt_get_int(const struct run_opt *r, const struct run_opts *o);

/* run_opt_real - row @r's double field of @o (RUN_OPT_REAL, RUN_OPT_PERCENT: a share),
 * as a pointer into @o. */
double *run_opt_real(const struct run_opt *r, struct run_opts *o);

/* run_opt_string - row @r's string field of @o (RUN_OPT_STRING), as a pointer into @o. */
const char **run_opt_string(const struct run_opt *r, struct run_opts *o);

#endif
