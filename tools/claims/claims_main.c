/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * claims_main.c: build/tools/claims, a tool of this repository (not of xdptc): every
 * number of the docs against its committed source (claims.h). `make check` runs it.
 * Exit status: 0 when every number and claim holds, 1 when one does not or a file
 * cannot be read, 2 for a wrong call.
 */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>

#include "claims.h"

static void usage(FILE *f)
{
	fputs("usage: build/tools/claims [--root DIR] [--claims FILE] [--list]\n\n"
	      "Read README.md, docs/*.md and results/examples/README.md. Every number there\n"
	      "that looks measured (a sign, a decimal point, commas grouping thousands, or a\n"
	      "unit: %, pp, min, s, ms, ns, Mpps) must appear digit for digit in a committed\n"
	      "run that its paragraph cites (its summary.md, matrix.md, boots.md, sweep.md,\n"
	      "test-times.txt, wall-time.txt or progress log) or in a file a source comment\n"
	      "names, or be computed by a line of docs/claims.txt from a committed file (a JSON\n"
	      "path, arithmetic, a #define of the code), rounded as the doc shows it. Prints\n"
	      "each number that is neither, with its file and line, and each claim whose text\n"
	      "or value no longer holds; exit status 1 when there is one. Versions, `code`,\n"
	      "fenced blocks and generated tables are left out. It checks digits, not\n"
	      "meaning: a cited number is found anywhere in the cited files, whatever row or\n"
	      "sentence holds it there, and words (always, every, the same) are for a reader\n"
	      "to check. Needs no privilege.\n\n"
	      "  --root DIR      the source tree whose docs are checked (default: .)\n"
	      "  --claims FILE   the claims file, relative to the root (default:\n"
	      "                  docs/claims.txt)\n"
	      "  --list          also print every number with how it is covered\n"
	      "  -h, --help      this text\n", f);
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "root", required_argument, NULL, 'r' },
		{ "claims", required_argument, NULL, 'c' },
		{ "list", no_argument, NULL, 'l' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *root = ".", *file = NULL;
	struct claims_result r;
	bool list = false;
	int c, e;

	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'r': root = optarg; break;
		case 'c': file = optarg; break;
		case 'l': list = true; break;
		case 'h': usage(stdout); return 0;
		default: fprintf(stderr, "see 'claims --help'\n"); return 2;
		}
	}
	if (optind != argc) {
		fprintf(stderr, "claims: '%s': expected options only\n", argv[optind]);
		return 2;
	}
	e = claims_check(root, file, list, stdout, &r);
	if (e < 0)
		return 1;
	printf("claims: %d numbers in the docs: %d found in the runs they cite, %d computed "
	       "by %d claims; %d failed\n", r.numbers, r.cited, r.claimed, r.claims, r.failed);
	return e ? 1 : 0;
}
