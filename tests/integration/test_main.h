/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test_main.h: the opening every integration test shares: refuse to run without root
 * (the tests make namespaces, attach programs and send packets), take the xdptc binary
 * from $XDPTC_BIN when set, and run the group (only the tests whose names match the
 * pattern $XDPTC_TEST_FILTER when that is set: cmocka_set_test_filter).
 * Include after <cmocka.h>, <stdio.h>, <stdlib.h>, <unistd.h>.
 */
#ifndef XDPTC_TEST_MAIN_H
#define XDPTC_TEST_MAIN_H

/* integration_main - the test program @name's main: exit 1 unless root; *@xdptc (when
 * not NULL) becomes $XDPTC_BIN when that is set; then run @tests with @setup and
 * @teardown. Returns cmocka's exit status. */
static inline int integration_main(const char *name, const struct CMUnitTest *tests, size_t n,
				   CMFixtureFunction setup, CMFixtureFunction teardown,
				   const char **xdptc)
{
	if (geteuid() != 0) {
		fprintf(stderr, "%s needs root\n", name);
		return 1;
	}
	if (xdptc && getenv("XDPTC_BIN"))
		*xdptc = getenv("XDPTC_BIN");
	if (getenv("XDPTC_TEST_FILTER"))
		cmocka_set_test_filter(getenv("XDPTC_TEST_FILTER"));
	return _cmocka_run_group_tests(name, tests, n, setup, teardown);
}

/* INTEGRATION_MAIN - return integration_main for the array @tests */
#define INTEGRATION_MAIN(name, tests, setup, teardown, xdptc)                              \
	return integration_main(name, tests, sizeof(tests) / sizeof((tests)[0]), setup,      \
				teardown, xdptc)

#endif
