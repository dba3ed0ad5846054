/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * claims.h: every number in the project's docs checked against its committed source
 * (`build/tools/claims`, a tool of the repository, not of xdptc; tests/unit/test_claims.c
 * and `make check` run it).
 *
 * The docs are README.md, docs/ (every .md) and results/examples/README.md. A number there that
 * looks measured (a sign, a decimal point, thousands grouped with commas, or a unit
 * after it: %, pp, min, s, ms, ns, Mpps) must be one of:
 *   - cited: the paragraph, list item or table row it stands in names a committed run
 *     (results/examples/NAME, a bare NAME such as 20261202T003258Z-veth, or ...SUFFIX
 *     of one), or a `<!-- source: PATH ... -->` comment in it or before its section's
 *     first paragraph (`<!-- sources: ... -->`, up to the next heading) does, and the
 *     number appears, digit for digit (and with its '+' when it shows one; a version in
 *     the source counts for nothing), in that run's summary.md, matrix.md, compare.md,
 *     boots.md, sweep.md, test-times.txt, wall-time.txt or progress log (a matrix: also its runs'
 *     summaries), or in the file a source comment names;
 *   - claimed: a line of docs/claims.txt (claims_expr.h) computes it from a committed
 *     file (a JSON path, arithmetic, a #define of the code) and the doc's digits are
 *     that value rounded to as many decimals as the doc shows;
 *   - a version (6.18, 7.2.22, 6.1.0-57), inside `code`, a fenced block or a generated
 *     table (from a `<!-- generated` comment to the next blank line).
 * Anything else fails, with the file, line and number. A cited number is found anywhere in
 * the cited files, whatever sentence holds it there: cite the narrowest source (the run,
 * not the matrix around it), and claim with a JSON path what a wide source could match
 * by chance.
 */
#ifndef XDPTC_CLAIMS_H
#define XDPTC_CLAIMS_H

#include <stdbool.h>
#include <stdio.h>

struct claims_result {
	int numbers;  /* measured-looking numbers in the docs */
	int cited;    /* found in a cited run's files */
	int claimed;  /* computed by a claim */
	int claims;   /* claims in the claims file */
	int failed;   /* numbers without a source, claims whose text or value is wrong */
};

/*
 * claims_check - check the docs under @root against @claims_file (relative to @root;
 * NULL: docs/claims.txt). Each failure goes to @report as "FILE:LINE: what"; with
 * @list, also every number with how it is covered. Returns 0 when nothing failed, 1 when
 * something did (counted in @r), -errno when a file cannot be read.
 */
int claims_check(const char *root, const char *claims_file, bool list, FILE *report,
		 struct claims_result *r);

#endif
