/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cli_table.c: getopt, --help, the manual page and docs/settings.md's table from the commands'
 * option tables (cli_table.h). */
#include "cli_table.h"

#include <ctype.h>
#include <getopt.h>
#include <string.h>

#include "drop_prog.h"
#include "metrics.h"
#include "topologies.h"

#define CLI_MAX_OPTS 48
#define WRAP_WIDTH 79
#define HELP_INDENT 16 /* where an option's help starts */

static const struct cli_opt help_opt = {
	.name = "help", .key = 'h', .help = "print this help and exit",
};

const struct cli_command *cli_command_find(const char *name)
{
	for (int i = 0; cli_commands[i]; i++)
		if (!strcmp(cli_commands[i]->name, name))
			return cli_commands[i];
	return NULL;
}

/* ---- getopt ---- */

int cli_next(const struct cli_command *cmd, int argc, char **argv)
{
	struct option lo[CLI_MAX_OPTS + 2];
	char so[3 * CLI_MAX_OPTS + 4];
	size_t n = 0, k = 0;
	int c;

	if (cmd->stop_at_operand)
		so[k++] = '+';
	so[k++] = ':'; /* a missing argument returns ':' */
	for (const struct cli_opt *o = cmd->opts; o && o->name && n < CLI_MAX_OPTS; o++) {
		lo[n++] = (struct option){ o->name, o->arg ? required_argument : no_argument, NULL,
					   o->key };
		if (o->key > 0 && o->key < 256 && isalpha(o->key)) {
			so[k++] = (char)o->key;
			if (o->arg)
				so[k++] = ':';
		}
	}
	lo[n++] = (struct option){ "help", no_argument, NULL, 'h' };
	lo[n] = (struct option){ NULL, 0, NULL, 0 };
	so[k++] = 'h';
	so[k] = '\0';
	opterr = 0; /* said here, with the command's name */
	c = getopt_long(argc, argv, so, lo, NULL);
	if (c == -1)
		return CLI_END;
	if (c == 'h') {
		cli_help(cmd, stdout);
		return CLI_HELP;
	}
	if (c == '?' || c == ':') {
		const char *what = argv[optind - 1];

		if (c == ':')
			fprintf(stderr, "xdptc %s: %s needs a value\n", cmd->name, what);
		else if (optopt && optopt < 256)
			fprintf(stderr, "xdptc %s: unknown option '-%c'\n", cmd->name, optopt);
		else
			fprintf(stderr, "xdptc %s: unknown option '%s'\n", cmd->name, what);
		fprintf(stderr, "see 'xdptc %s --help'\n", cmd->name);
		return CLI_BAD;
	}
	return c;
}

int cli_exit(int r)
{
	return r == CLI_HELP ? 0 : 2;
}

/* ---- --help ---- */

/* Print @text from column @col, wrapped at WRAP_WIDTH with lines after the first (and
 * each paragraph after a "\n") starting at column @indent. */
static void wrap(FILE *f, const char *text, int col, int indent)
{
	const char *p = text;

	while (*p) {
		size_t w = strcspn(p, " \n");

		if (col > indent && col + 1 + (int)w > WRAP_WIDTH) {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		} else if (col > indent) {
			fputc(' ', f);
			col++;
		}
		fwrite(p, 1, w, f);
		col += (int)w;
		p += w;
		if (*p == '\n') {
			fprintf(f, "\n%*s", indent, "");
			col = indent;
		}
		while (*p == ' ' || *p == '\n')
			p++;
	}
	fputc('\n', f);
}

/* "-t, --topology ARG" or "--aa" into @buf */
static void opt_term(const struct cli_opt *o, char *buf, size_t len)
{
	if (o->key > 0 && o->key < 256 && isalpha(o->key))
		snprintf(buf, len, "-%c, --%s%s%s", o->key, o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "");
	else
		snprintf(buf, len, "--%s%s%s", o->name, o->arg ? " " : "", o->arg ? o->arg : "");
}

static void help_option(FILE *f, const struct cli_opt *o)
{
	char term[96], text[2048];
	int col;

	opt_term(o, term, sizeof(term));
	col = fprintf(f, "  %s", term);
	if (col + 2 > HELP_INDENT) {
		fprintf(f, "\n%*s", HELP_INDENT, "");
		col = HELP_INDENT;
	} else {
		fprintf(f, "%*s", HELP_INDENT - col, "");
		col = HELP_INDENT;
	}
	snprintf(text, sizeof(text), "%s%s%s%s", o->help, o->deflt ? " (default: " : "",
		 o->deflt ? o->deflt : "", o->deflt ? ")" : "");
	/* col > indent would start a new line first: print the first word as is */
	wrap(f, text, col, HELP_INDENT);
}

static void usage_line(const struct cli_command *cmd, FILE *f)
{
	int col = fprintf(f, "usage: xdptc %s", cmd->name);
	int indent = col + 1;

	for (const struct cli_opt *o = cmd->opts; o && o->name; o++) {
		char term[96];
		int w;

		if (o->flags & CLI_HIDDEN)
			continue;
		w = snprintf(term, sizeof(term), o->flags & CLI_REQUIRED ? "--%s%s%s" : "[--%s%s%s]",
			     o->name, o->arg ? " " : "", o->arg ? o->arg : "");
		if (col + 1 + w > WRAP_WIDTH)
			col = fprintf(f, "\n%*s", indent, "") - 1;
		col += fprintf(f, " %s", term);
	}
	if (cmd->also)
		col += fprintf(f, " [%s OPTIONS]", cmd->also);
	if (cmd->operands) {
		if (col + 1 + (int)strlen(cmd->operands) > WRAP_WIDTH)
			fprintf(f, "\n%*s", indent - 1, "");
		fprintf(f, " %s", cmd->operands);
	}
	fputc('\n', f);
}

void cli_help(const struct cli_command *cmd, FILE *f)
{
	usage_line(cmd, f);
	wrap(f, cmd->about, 0, 0);
	fprintf(f, "\noptions:\n");
	for (const struct cli_opt *o = cmd->opts; o && o->name; o++)
		if (!(o->flags & CLI_HIDDEN))
			help_option(f, o);
	if (cmd->also)
		help_option(f, &(struct cli_opt){ .name = "...", .help = "every option of "
						  "`xdptc run` (xdptc run --help)" });
	help_option(f, &help_opt);
	if (cmd->notes) {
		fputc('\n', f);
		wrap(f, cmd->notes, 0, 0);
	}
}

void cli_synopsis(FILE *f)
{
	for (int i = 0; cli_commands[i]; i++)
		usage_line(cli_commands[i], f);
}

void cli_usage_main(FILE *f)
{
	fprintf(f, "usage: xdptc COMMAND [OPTIONS]\n\n"
		   "Measure how much work the kernel does when identical UDP-drop logic runs at\n"
		   "native XDP (xdpdrv) versus TC ingress (clsact, direct-action).\n\ncommands:\n");
	for (int i = 0; cli_commands[i]; i++)
		fprintf(f, "  %-11s %s\n", cli_commands[i]->name, cli_commands[i]->brief);
	fprintf(f, "  %-11s %s\n  %-11s %s\n", "help", "this list; COMMAND: its --help; --man: the "
		   "manual page (troff);", "", "--make-vars, --make-args, --metrics, --synopsis: generated blocks");
	fprintf(f, "\nmodes: %s\n"
		   "Run 'xdptc COMMAND --help' for a command's options, 'man -l build/xdptc.8'\n"
		   "for all of them. Needs root (or CAP_BPF, CAP_NET_ADMIN and CAP_SYS_ADMIN)\n"
		   "for everything but --help, report, compare and matrix --report,\n"
		   "--boots or --table.\n", drop_mode_choices());
}

/* ---- the manual page ---- */

/* @s in troff: backslashes and hyphens escaped, a line never starting with a control
 * character, "\n" a new indented paragraph (@para: the macro that starts one). */
static void man_text(FILE *f, const char *s, const char *para)
{
	bool bol = true;

	for (; *s; s++) {
		if (bol && (*s == '.' || *s == '\''))
			fputs("\\&", f);
		bol = false;
		if (*s == '\\')
			fputs("\\e", f);
		else if (*s == '-')
			fputs("\\-", f);
		else if (*s == '\n') {
			fprintf(f, "\n%s\n", para);
			bol = true;
		} else
			fputc(*s, f);
	}
	fputc('\n', f);
}

static void man_option(FILE *f, const struct cli_opt *o)
{
	char term[96], text[2048];

	opt_term(o, term, sizeof(term));
	fprintf(f, ".TP\n.B ");
	man_text(f, term, ".br");
	snprintf(text, sizeof(text), "%s%s%s%s", o->help, o->deflt ? " (default: " : "",
		 o->deflt ? o->deflt : "", o->deflt ? ")" : "");
	man_text(f, text, ".IP");
}

static void man_command(FILE *f, const struct cli_command *cmd)
{
	char syn[128];

	snprintf(syn, sizeof(syn), "xdptc %s [OPTIONS]%s%s", cmd->name,
		 cmd->operands ? " " : "", cmd->operands ? cmd->operands : "");
	fprintf(f, ".SS \"");
	man_text(f, syn, ".br");
	fprintf(f, ".PP\n");
	man_text(f, cmd->about, ".PP");
	for (const struct cli_opt *o = cmd->opts; o && o->name; o++)
		if (!(o->flags & CLI_HIDDEN))
			man_option(f, o);
	if (cmd->also) {
		fprintf(f, ".TP\n.I \"%s OPTIONS\"\n", cmd->also);
		man_text(f, "every option of xdptc run", ".IP");
	}
	fprintf(f, ".TP\n.B \"\\-h, \\-\\-help\"\n");
	man_text(f, "print this command's help and exit", ".IP");
	if (cmd->notes) {
		fprintf(f, ".PP\n");
		man_text(f, cmd->notes, ".PP");
	}
}

/* The make variables of @cmd's table, each with the option it passes. */
static void man_make_vars(FILE *f, const struct cli_command *cmd)
{
	for (const struct cli_opt *o = cmd->opts; o->name; o++) {
		char text[256];

		if (!o->make_var)
			continue;
		fprintf(f, ".TP\n.B ");
		snprintf(text, sizeof(text), "%s=%s", o->make_var,
			 o->make_value ? o->make_value : o->arg);
		man_text(f, text, ".br");
		snprintf(text, sizeof(text), "passes --%s%s%s%s", o->name, o->arg ? " " : "",
			 o->arg ? o->arg : "",
			 o->flags & CLI_MAKE_CMDLINE ? "; command line only" : "");
		man_text(f, text, ".IP");
	}
}

void cli_man(FILE *f)
{
	const struct cli_command *run = cli_command_find("run");

	fprintf(f, ".\\\" xdptc(8), generated by `xdptc help --man` from the option tables\n"
		   ".\\\" in cmd/cmd_*.c; edit those, not this.\n"
		   ".TH XDPTC 8 \"\" \"xdptc\" \"xdptc manual\"\n"
		   ".SH NAME\nxdptc \\- the kernel's work per dropped packet at native XDP "
		   "versus TC ingress, measured\n"
		   ".SH SYNOPSIS\n.B xdptc\n.I COMMAND\n.RI [ OPTIONS ]\n.br\n");
	/* a make target per topology (the Makefile's run-NAME), from the topology table */
	for (int i = 0; topologies[i]; i++)
		fprintf(f, ".B make run\\-%s\n.RI [ VARIABLE = VALUE ...]\n.br\n",
			topologies[i]->name);
	fprintf(f, ".B make matrix\n.RI [ VARIABLE = VALUE ...]\n.SH DESCRIPTION\n");
	man_text(f, "xdptc measures how much work the kernel does when identical UDP-drop "
		    "logic runs at native XDP (xdpdrv) versus TC ingress (clsact, "
		    "direct-action; or tcx), and why: skbs built and freed, stack entries, CPU "
		    "time per packet, BPF program time, perf events. It builds its own "
		    "topologies, named xdptc-XXXXXX with addresses from 198.18.0.0/15, and "
		    "removes them on success, error and Ctrl-C. It attaches only to devices it "
		    "made or that you name, and detaches only what it can prove is its own.",
		 ".PP");
	fprintf(f, ".PP\nThe topologies (\\fB\\-\\-topology\\fR, \\fBmake run\\-\\fINAME\\fR):\n");
	for (int i = 0; topologies[i]; i++) {
		fprintf(f, ".TP\n.B %s\n", topologies[i]->name);
		man_text(f, topologies[i]->help, ".PP");
	}
	fprintf(f, ".PP\n");
	man_text(f, "Deltas are compared within one run (the modes interleaved in a shuffled "
		    "order in every repetition), never absolute figures across runs or "
		    "machines.", ".PP");
	fprintf(f, ".SH COMMANDS\n");
	for (int i = 0; cli_commands[i]; i++)
		man_command(f, cli_commands[i]);
	fprintf(f, ".SS \"xdptc help [\\-\\-man|\\-\\-make\\-vars|\\-\\-make\\-args|\\-\\-metrics|\\-\\-synopsis|"
		   "COMMAND]\"\n.PP\n");
	man_text(f, "The command list; with COMMAND, that command's --help; --man, this manual "
		    "page (troff); --make-vars, docs/settings.md's table of make variables (Markdown); "
		    "--make-args, the Makefile's RUN_ARGS; --metrics, docs/metrics.md's table of every metric (Markdown); --synopsis, "
		    "every command's usage line (docs/cli.md).", ".PP");
	fprintf(f, ".SH MAKE VARIABLES\n");
	man_text(f, "make run-veth, make run-virtio and make sweep-veth pass these to xdptc "
		    "run. Each counts when given on make's command line or in the environment, "
		    "except those marked command line only.", ".PP");
	man_make_vars(f, run);
	fprintf(f, ".PP\n");
	man_text(f, "make matrix passes these to xdptc matrix:", ".PP");
	man_make_vars(f, cli_command_find("matrix"));
	fprintf(f, ".SH EXIT STATUS\n");
	man_text(f, "0 success; 1 a runtime failure or missing privilege; 2 bad usage "
		    "(unknown mode, missing device or namespace, a value out of range); 130 "
		    "interrupted (what the run made is removed).", ".PP");
	fprintf(f, ".SH FILES\n");
	man_text(f, "/run/lock/xdptc-run.lock: the run lock (one measuring run at a time). "
		    "/run/xdptc: running topologies and their owners, records of what xdptc "
		    "attached (attach/). /sys/fs/bpf/xdptc: the pinned links of attach. "
		    "results/TIMESTAMP-TOPOLOGY[-icount]/: a run's run.json, summary.md, plots, "
		    "flame graphs (flame-MODE.svg and .folded) and, for the icount engine, "
		    "guest-run.log; results/TIMESTAMP-sweep-OVER/: a sweep's sweep.md, sweep.csv "
		    "and plot; results/TIMESTAMP-matrix/: a matrix's matrix.json, matrix.md, "
		    "delta plots (matrix-delta*.svg, .png, .dat, .gp), progress.log, folded and "
		    "differential profiles (profiles/), runs (runs/) and logs (logs/). "
		    "$XDPTC_CACHE (default /var/cache/xdptc): guest kernels (what a guest needs "
		    "of each), initramfs images, and the private apt configuration that fetches "
		    "them (apt/), and an installed xdptc's icount plugin (plugin/). "
		    "PREFIX/share/xdptc (PREFIX of make install, /usr for the Debian package): "
		    "the topology and guest scripts ($XDPTC_TOPOLOGIES names others; a "
		    "checkout's build/xdptc takes the checkout's topologies/); PREFIX/lib/xdptc: "
		    "an icount plugin make install copied.", ".PP");
	fprintf(f, ".SH SEE ALSO\n");
	man_text(f, "README.md, docs/ and ARCHITECTURE.md in the source tree or, installed, "
		    "in PREFIX/share/doc/xdptc; bpftool(8), "
		    "tc-bpf(8), perf-stat(1).", ".PP");
}

/* ---- docs/settings.md's table ---- */

void cli_make_vars_md(FILE *f)
{
	const struct cli_command *run = cli_command_find("run");

	fprintf(f, "| variable | option | default | meaning |\n|---|---|---|---|\n");
	for (int pass = 0; pass < 2; pass++)
		for (const struct cli_opt *o = run->opts; o->name; o++) {
			if ((o->flags & CLI_HIDDEN) || (o->make_var == NULL) != pass)
				continue;
			if (o->make_var)
				fprintf(f, "| `%s%s%s` | ", o->make_var, o->make_value ? "=" : "",
					o->make_value ? o->make_value : "");
			else
				fprintf(f, "| | ");
			fprintf(f, "`--%s` | ", o->name);
			md_cell(f, o->deflt ? o->deflt : "");
			fprintf(f, " | ");
			md_cell(f, o->brief ? o->brief : o->help);
			fprintf(f, "%s |\n", o->flags & CLI_MAKE_CMDLINE ? "; command line only" : "");
		}
}

void cli_make_args(FILE *f)
{
	const struct cli_command *run = cli_command_find("run");

	fprintf(f, "RUN_ARGS = $(strip");
	for (const struct cli_opt *o = run->opts; o->name; o++) {
		if (!o->make_var)
			continue;
		if (o->make_value)
			fprintf(f, " \\\n\t$(if $(filter %s,$(%s)),--%s)", o->make_value, o->make_var,
				o->name);
		else
			fprintf(f, " \\\n\t$(if $(%s%s),--%s $(%s))",
				o->flags & CLI_MAKE_CMDLINE ? "call cmdline," : "", o->make_var,
				o->name, o->make_var);
	}
	fprintf(f, ")\nSWITCHES :=");
	for (const struct cli_opt *o = run->opts; o->name; o++)
		if (o->make_var && o->make_value)
			fprintf(f, " %s", o->make_var);
	fprintf(f, "\n");
}
