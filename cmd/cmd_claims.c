/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* cmd_claims.c: xdptc claims, every number of the docs against its committed source
 * (analysis/claims.h). */
#include <stdbool.h>
#include <stdio.h>
#include <unistd.h>

#include "claims.h"
#include "cli.h"
#include "cli_parse.h"
#include "cli_table.h"

enum { OPT_ROOT = 256, OPT_CLAIMS, OPT_LIST };

static int cmd_claims(int argc, char **argv)
{
	const char *root = ".", *file = NULL;
	struct claims_result r;
	bool list = false;
	int c, e;

	while ((c = cli_next(&cli_cmd_claims, argc, argv)) > 0) {
		switch (c) {
		case OPT_ROOT: root = optarg; break;
		case OPT_CLAIMS: file = optarg; break;
		case OPT_LIST: list = true; break;
		}
	}
	if (c < 0)
		return cli_exit(c);
	if (optind != argc)
		return bad_value("claims", argv[optind], "options only");
	e = claims_check(root, file, list, stdout, &r);
	if (e < 0)
		return 1;
	printf("xdptc claims: %d numbers in the docs: %d found in the runs they cite, %d "
	       "computed by %d claims; %d failed\n", r.numbers, r.cited, r.claimed, r.claims,
	       r.failed);
	return e ? 1 : 0;
}

static const struct cli_opt claims_opts[] = {
	{ "root", OPT_ROOT, "DIR", "the source tree whose docs are checked", "." },
	{ "claims", OPT_CLAIMS, "FILE", "the claims file, relative to the root",
	  "docs/claims.txt" },
	{ "list", OPT_LIST, NULL, "also print every number with how it is covered" },
	{ NULL },
};

const struct cli_command cli_cmd_claims = {
	.name = "claims",
	.fn = cmd_claims,
	.brief = "check every number of the docs against its committed source",
	.about = "Read README.md, docs/*.md and results/examples/README.md. Every number "
		 "there that looks measured (a sign, a decimal point, commas grouping "
		 "thousands, or a unit: %, pp, min, s, ms, ns, Mpps) must appear digit for "
		 "digit in a committed run that its paragraph cites (its summary.md, "
		 "matrix.md, boots.md, sweep.md, test-times.txt, wall-time.txt or progress "
		 "log) or in a file a source comment names, or be computed by a "
		 "line of docs/claims.txt from a committed file (a JSON path, arithmetic, a "
		 "#define of the code), rounded as the doc shows it. Prints each number that "
		 "is neither, with its file and line, and each claim whose text or value no "
		 "longer holds; exit status 1 when there is one. Versions, `code`, fenced "
		 "blocks and generated tables are left out. It checks digits, not meaning: a "
		 "cited number is found anywhere in the cited files, whatever row or sentence "
		 "holds it there, and words (always, every, the same) are for a reader to "
		 "check. Needs no privilege.",
	.opts = claims_opts,
};
