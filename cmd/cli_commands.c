/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cli_commands.c: the xdptc commands, in the order `xdptc --help` and xdptc(8) list
 * them (each command's table is in its cmd_*.c). */
#include "cli.h"
#include "cli_table.h"

const struct cli_command *const cli_commands[] = {
	&cli_cmd_attach, &cli_cmd_detach, &cli_cmd_status, &cli_cmd_send,
	&cli_cmd_run,    &cli_cmd_sweep,  &cli_cmd_matrix,  &cli_cmd_cleanup, &cli_cmd_doctor,
	&cli_cmd_report, &cli_cmd_compare, &cli_cmd_repeat, &cli_cmd_agent, &cli_cmd_guest_exec,
	&cli_cmd_netkit_pair,
	NULL,
};
