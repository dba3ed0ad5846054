/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * cli.h: what the xdptc commands share: privilege check, the sentences for bad input
 * (exit status EXIT_USAGE, with the valid choices), entering a namespace with its
 * device checked, and where the topology scripts are.
 */
#ifndef XDPTC_CLI_H
#define XDPTC_CLI_H

#include <stdio.h>

#define EXIT_USAGE 2

/* -v/--verbose of the command being run: libbpf's messages are printed */
extern int verbose;

/* check_privilege - 0 when this process may load BPF and change networking (root, or
 * CAP_BPF + CAP_NET_ADMIN + CAP_SYS_ADMIN); else prints one sentence and returns 1. */
int check_privilege(void);

/* enter_and_check - check_privilege(), then enter network namespace @netns (NULL: stay)
 * and check @dev (NULL: none) exists there; on failure the valid choices are printed.
 * Returns 0, or the exit status (EXIT_USAGE for a missing namespace or device, 1
 * otherwise, as for a lack of privilege). */
int enter_and_check(const char *netns, const char *dev, int *saved);

void list_netns(FILE *f);
void list_devs(FILE *f);

/* One sentence each on stderr; they return EXIT_USAGE. */
int bad_mode(const char *s);
int bad_port(const char *s);
int bad_value(const char *opt, const char *s, const char *what);
int need_opt(const char *cmd, const char *opt);

/* Where the topology scripts were found (topologies_dir_for's return). */
enum { TOPODIR_ENV, TOPODIR_CHECKOUT, TOPODIR_PREFIX };

/* topologies_dir_for - the directory of the topology scripts into @buf (@len bytes):
 * @env when set and not empty ($XDPTC_TOPOLOGIES); else, when the binary @exe (a path,
 * or NULL when unknown) lies in a checkout's build/ (its directory's parent holds
 * topologies/lib.sh), that checkout's topologies/; else @prefix/share/xdptc/topologies,
 * where `make install` puts them. Returns which of the three it chose (TOPODIR_*);
 * never fails (a path that does not exist shows when a script is run). */
int topologies_dir_for(const char *env, const char *exe, const char *prefix, char *buf,
		       size_t len);

/* default_topologies_dir - topologies_dir_for with $XDPTC_TOPOLOGIES, this binary's
 * path and the prefix compiled in (Makefile's PREFIX, default /usr/local). */
void default_topologies_dir(char *buf, size_t len);

/* The commands: each takes the arguments after "xdptc" (argv[0] is the command name)
 * and returns the process exit status. */
int cmd_attach(int argc, char **argv);
int cmd_detach(int argc, char **argv);
int cmd_status(int argc, char **argv);
int cmd_send(int argc, char **argv);
int cmd_agent(int argc, char **argv);
int cmd_guest_exec(int argc, char **argv);
int cmd_netkit_pair(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_sweep(int argc, char **argv);
int cmd_matrix(int argc, char **argv);
int cmd_cleanup(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
int cmd_report(int argc, char **argv);
int cmd_compare(int argc, char **argv);

struct run_opts;
/* run_opts_parse - `xdptc run`'s options into @o. Returns -1 to go on, or the exit
 * status (0 after --help). */
int run_opts_parse(int argc, char **argv, struct run_opts *o, char *topodir, size_t len);

/* Their options and documentation (cli_table.h), one table each in its cmd_*.c */
struct cli_command;
extern const struct cli_command cli_cmd_attach, cli_cmd_detach, cli_cmd_status, cli_cmd_send,
	cli_cmd_run, cli_cmd_sweep, cli_cmd_matrix, cli_cmd_cleanup, cli_cmd_doctor, cli_cmd_report,
	cli_cmd_compare, cli_cmd_repeat, cli_cmd_agent, cli_cmd_guest_exec,
	cli_cmd_netkit_pair;

#endif
