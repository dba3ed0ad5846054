/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * block_delta.c: the Hodges-Lehmann estimate, the signed-rank interval's order statistic
 * against the published critical values, and the delta over blocks on known data.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "block_delta.h"

static void test_hodges_lehmann(void **state)
{
	const double a[] = { 1, 2, 3 }, b[] = { 0, 0, 0, 0, 100 };

	(void)state;
	/* Walsh averages of 1, 2, 3: 1, 1.5, 2, 2, 2.5, 3 */
	assert_true(fabs(hodges_lehmann(a, 3) - 2.0) < 1e-12);
	/* one outlier of five moves it no more than to 0 (10 of 15 averages are 0) */
	assert_true(fabs(hodges_lehmann(b, 5)) < 1e-12);
	assert_true(isnan(hodges_lehmann(a, 0)));
}

/* The two-sided 5% critical values of the signed-rank statistic T (reject when T <= T*):
 * n 6: 0, 10: 8, 15: 25, 20: 52, 21: 58, 25: 89, 30: 137 (e.g. Wilcoxon, Katti and
 * Wilcox 1963); the interval's order statistic is c = T* + 1. */
static void test_signed_rank_order(void **state)
{
	static const size_t n[] = { 6, 10, 15, 20, 21, 25, 30 }, tcrit[] = { 0, 8, 25, 52, 58, 89, 137 };
	size_t c;

	(void)state;
	for (int i = 0; i < 7; i++) {
		double cov = signed_rank_order(n[i], 0.95, &c);

		assert_int_equal(c, tcrit[i] + 1);
		assert_true(cov >= 0.95 && cov < 0.97);
	}
	assert_true(signed_rank_order(5, 0.95, &c) == 0 && c == 0);
}

static void test_delta_over_blocks(void **state)
{
	double d[60];
	size_t block[60];
	struct block_delta bd;

	(void)state;
	/* 10 blocks of 6 pairs; each block's pairs are ln(1.05) +- 0.01, the blocks' own
	 * offsets symmetric about 0: the estimate is +5% */
	for (int b = 0; b < 10; b++)
		for (int i = 0; i < 6; i++) {
			d[b * 6 + i] = log(1.05) + 0.002 * (b - 4.5) + (i % 2 ? 0.01 : -0.01);
			block[b * 6 + i] = (size_t)b;
		}
	assert_int_equal(block_delta_compute(d, block, 60, 0.95, &bd), 0);
	assert_int_equal(bd.blocks, 10);
	assert_int_equal(bd.pairs, 60);
	assert_true(fabs(bd.estimate - 0.05) < 1e-9);
	assert_true(bd.lo < 0.05 && bd.hi > 0.05 && bd.lo > 0.04 && bd.hi < 0.06);
	assert_true(bd.coverage >= 0.95);
	/* five blocks: no interval reaches 95% */
	assert_int_equal(block_delta_compute(d, block, 30, 0.95, &bd), -ERANGE);
	assert_true(isnan(bd.lo));
	assert_true(fabs(bd.estimate - (exp(log(1.05) - 0.002 * 2.5) - 1)) < 1e-9);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_hodges_lehmann),
		cmocka_unit_test(test_signed_rank_order),
		cmocka_unit_test(test_delta_over_blocks),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
