/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of the CLI value parsers (cmd/cli_parse.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "cli_parse.h"

static void test_parse_count(void **state)
{
	uint64_t v = 0;

	(void)state;
	assert_int_equal(parse_count("1000000", UINT64_MAX, &v), 0);
	assert_int_equal(v, 1000000);
	assert_int_equal(parse_count("1M", UINT64_MAX, &v), 0);
	assert_int_equal(v, 1000000);
	assert_int_equal(parse_count("250k", UINT64_MAX, &v), 0);
	assert_int_equal(v, 250000);
	assert_int_equal(parse_count("2G", UINT64_MAX, &v), 0);
	assert_int_equal(v, 2000000000ull);
	assert_int_equal(parse_count("0", 10, &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(parse_count("-1", UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_count("", UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_count("12x", UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_count("1Mk", UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_count(" 5", UINT64_MAX, &v), -EINVAL);
	assert_int_equal(parse_count("11", 10, &v), -ERANGE);
	assert_int_equal(parse_count("99999999999999999999999", UINT64_MAX, &v), -ERANGE);
	assert_int_equal(parse_count("20000000000G", UINT64_MAX, &v), -ERANGE);
}

static void test_parse_port(void **state)
{
	uint16_t p = 0;

	(void)state;
	assert_int_equal(parse_port("9999", &p), 0);
	assert_int_equal(p, 9999);
	assert_int_equal(parse_port("1", &p), 0);
	assert_int_equal(parse_port("65535", &p), 0);
	assert_int_equal(p, 65535);
	assert_int_equal(parse_port("0", &p), -EINVAL);
	assert_int_equal(parse_port("65536", &p), -EINVAL);
	assert_int_equal(parse_port("http", &p), -EINVAL);
}

static void test_parse_modes(void **state)
{
	enum drop_mode m[4];

	(void)state;
	assert_int_equal(parse_modes("tc,xdpdrv", m, 4), 2);
	assert_int_equal(m[0], MODE_TC);
	assert_int_equal(m[1], MODE_XDPDRV);
	assert_int_equal(parse_modes("none,xdpgeneric,tc,xdpdrv", m, 4), 4);
	assert_int_equal(m[0], MODE_NONE);
	assert_int_equal(m[1], MODE_XDPGENERIC);
	assert_int_equal(parse_modes("tc,tc", m, 4), -EEXIST);
	assert_int_equal(parse_modes("tc,bogus", m, 4), -EINVAL);
	assert_int_equal(parse_modes("", m, 4), -EINVAL);
	assert_int_equal(parse_modes(",", m, 4), -EINVAL);
	assert_int_equal(parse_modes("tc,xdpdrv,none", m, 2), -E2BIG);
}

static void test_mode_names_round_trip(void **state)
{
	(void)state;
	for (int i = 0; i < MODE_NR; i++) {
		enum drop_mode m;

		assert_int_equal(drop_mode_parse(drop_mode_name((enum drop_mode)i), &m), 0);
		assert_int_equal(m, i);
	}
	assert_string_equal(drop_mode_choices(), "none, xdpdrv, xdpgeneric, tc, tcx, netkit");
}

/* found by fuzz_size_rate: "1K" passed the check and then ran as atoi's 1 byte */
static void test_parse_sweep_values(void **state)
{
	char v[17][SWEEP_VALUE_LEN];

	(void)state;
	assert_int_equal(parse_sweep_values("size", "18,1k,1K", v, 16), 3);
	assert_string_equal(v[0], "18");
	assert_string_equal(v[1], "1000");
	assert_string_equal(v[2], "1000");
	assert_int_equal(parse_sweep_values("size", "000000000000000000000000000000000018", v, 16), 1);
	assert_string_equal(v[0], "18");
	assert_int_equal(parse_sweep_values("size", "1473", v, 16), -EINVAL);
	assert_int_equal(parse_sweep_values("size", "1,2,3", v, 2), -E2BIG);
	assert_int_equal(parse_sweep_values("size", ",", v, 16), -EINVAL);
	assert_int_equal(parse_sweep_values("sender", "udp,xdp-live", v, 16), 2);
	assert_string_equal(v[1], "xdp-live");
	assert_int_equal(parse_sweep_values("sender", "udp,tcp", v, 16), -EINVAL);
}

/* what --guest-kernel and --kernels accept: Debian kernel versions, nothing a shell or
 * apt would read as more */
static void test_guest_kernel_spec(void **state)
{
	static const char *const good[] = { "6.1", "6.18", "7.3", "6.12.95", "6.12.95-1~bpo12+1",
					    "6.1.192-3" };
	static const char *const bad[] = { "", "v6.1", "6.1;rm", "6.1 ", "6.1/..", "6.1'",
					   "-6.1", "6.1$x", "6.1=1" };

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		assert_true(guest_kernel_spec_ok(good[i]));
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (guest_kernel_spec_ok(bad[i]))
			fail_msg("'%s' accepted", bad[i]);
	assert_false(guest_kernel_spec_ok("66666666666666666666666666666666666666666666666666666666666666666"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_count),
		cmocka_unit_test(test_parse_port),
		cmocka_unit_test(test_parse_modes),
		cmocka_unit_test(test_mode_names_round_trip),
		cmocka_unit_test(test_parse_sweep_values),
		cmocka_unit_test(test_guest_kernel_spec),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
