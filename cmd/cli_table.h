/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cli_table.h: every xdptc command's options, written once (a table per command, in
 * its cmd_*.c) and turned into what each needs: getopt_long's arguments (cli_next),
 * the command's --help (cli_help), the manual page xdptc.8 (cli_man, `xdptc help
 * --man`, built by make), docs/settings.md's table of make variables (cli_make_vars_md,
 * `xdptc help --make-vars`) and the Makefile's RUN_ARGS (cli_make_args, `xdptc help
 * --make-args`). tests/unit/test_cli_table.c checks the Makefile's variable mapping,
 * its RUN_ARGS and docs/settings.md's table against these tables.
 */
#ifndef XDPTC_CLI_TABLE_H
#define XDPTC_CLI_TABLE_H

#include <stdio.h>

/* cli_opt.flags */
#define CLI_HIDDEN (1u << 0)       /* internal (--inside-icount) or a refusal
				    * (--absolute): parsed, never documented */
#define CLI_MAKE_CMDLINE (1u << 1) /* its make variable counts on make's command line
				    * only (generic names: CPU, PORT, OUT) */
#define CLI_REQUIRED (1u << 2)     /* the command needs it: shown without brackets */

/* One option of a command. */
struct cli_opt {
	const char *name;      /* long name, without "--" */
	int key;               /* getopt's return: its short letter, or >= 256 for a long
				* option only */
	const char *arg;       /* the argument's name in the synopsis ("N", "LIST"); NULL
				* when it takes none */
	const char *help;      /* what it does, one or more paragraphs ("\n" between them),
				* wrapped when printed */
	const char *deflt;     /* its default in words ("200k (virtio 50k)"), or NULL */
	const char *make_var;  /* the make variable of `make run-*` that passes it, or NULL */
	const char *make_value;/* for an option without argument: the value of make_var that
				* passes it ("1": AA=1 gives --aa) */
	const char *brief;     /* README's one-line meaning; NULL: the help */
	unsigned int flags;    /* CLI_* */
};

/* One command: its name, its function and its documentation. */
struct cli_command {
	const char *name;
	int (*fn)(int argc, char **argv); /* argv[0] is the command's name */
	const char *operands;  /* after the options in the synopsis ("DIR", "-- COMMAND..."),
				* or NULL */
	const char *brief;     /* one line for `xdptc --help` */
	const char *about;     /* what it does, paragraphs ("\n" between them) */
	const struct cli_opt *opts; /* ended by { NULL }; --help is added */
	const char *also;      /* a command whose options it takes as well ("run" for sweep),
				* or NULL */
	const char *notes;     /* after the options, or NULL */
	int stop_at_operand;   /* options end at the first operand (guest-exec's COMMAND) */
};

/* The commands, in the order `xdptc --help` and the manual list them; ended by NULL. */
extern const struct cli_command *const cli_commands[];

/* cli_command_find - the command named @name, or NULL. */
const struct cli_command *cli_command_find(const char *name);

/* Returns of cli_next besides an option's key. */
#define CLI_END 0
#define CLI_HELP (-1) /* --help was printed on stdout: exit 0 */
#define CLI_BAD (-2)  /* an unknown option or a missing argument, said on stderr: exit 2 */

/* cli_next - the next option of @cmd's command line (getopt_long over its table, with
 * --help/-h added; the argument in optarg). Returns its key, CLI_END when the options
 * end (operands from optind), CLI_HELP after printing the help, or CLI_BAD after saying
 * what was wrong and pointing to --help. */
int cli_next(const struct cli_command *cmd, int argc, char **argv);

/* cli_exit - the exit status for a CLI_HELP (0) or CLI_BAD (2) return of cli_next. */
int cli_exit(int r);

/* cli_help - @cmd's --help: usage line, what it does, each documented option with its
 * default, notes; wrapped to 79 columns. */
void cli_help(const struct cli_command *cmd, FILE *f);

/* cli_usage_main - `xdptc --help`: every command with its one line. */
void cli_usage_main(FILE *f);

/* cli_synopsis - every command's usage line (as its --help starts), one after another:
 * docs/cli.md's synopsis (`xdptc help --synopsis`). */
void cli_synopsis(FILE *f);

/* cli_man - the manual page xdptc(8) in man(7) macros: every command and every
 * documented option, the make variables, exit status, files. */
void cli_man(FILE *f);

/* cli_make_vars_md - docs/settings.md's table (Markdown) of `make run-*` variables and the
 * run options they pass, then the run options that have none. */
void cli_make_vars_md(FILE *f);

/* cli_make_args - the Makefile's RUN_ARGS (each make variable of `xdptc run`'s table as
 * the option it passes; a generic name from make's command line only, CLI_MAKE_CMDLINE)
 * and SWITCHES (the variables of options without argument, 1 or 0), as make reads them:
 * the Makefile's generated block (`xdptc help --make-args`, `make docs`). */
void cli_make_args(FILE *f);

#endif
