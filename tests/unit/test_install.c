/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test_install.c - where xdptc finds its scripts (cmd/cli.c: topologies_dir_for) and
 * what `make install` puts where and `make uninstall` removes (scripts/install.sh), in
 * temporary directories made here. The installed package as a whole is
 * tests/integration/test_install_deb.c's.
 */
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "cli.h"

static void touch(const char *path)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fclose(f);
}

/* XDPTC_TOPOLOGIES first, then a checkout's topologies/ beside its build/, then the
 * prefix; a binary elsewhere, or of unknown path, never takes the checkout's. */
static void test_topologies_dir(void **state)
{
	char tmp[] = "/tmp/xdptc-test-install.XXXXXX", p[PATH_MAX], exe[PATH_MAX], buf[PATH_MAX];

	(void)state;
	assert_non_null(mkdtemp(tmp));
	snprintf(p, sizeof(p), "%s/build", tmp);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(exe, sizeof(exe), "%s/build/xdptc", tmp);
	/* no topologies/ yet: not a checkout */
	assert_int_equal(topologies_dir_for(NULL, exe, "/usr", buf, sizeof(buf)), TOPODIR_PREFIX);
	assert_string_equal(buf, "/usr/share/xdptc/topologies");
	snprintf(p, sizeof(p), "%s/topologies", tmp);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/topologies/lib.sh", tmp);
	touch(p);
	assert_int_equal(topologies_dir_for(NULL, exe, "/usr", buf, sizeof(buf)), TOPODIR_CHECKOUT);
	snprintf(p, sizeof(p), "%s/build/../topologies", tmp);
	assert_string_equal(buf, p);
	assert_int_equal(topologies_dir_for("", exe, "/usr", buf, sizeof(buf)), TOPODIR_CHECKOUT);
	assert_int_equal(topologies_dir_for("/x/t", exe, "/usr", buf, sizeof(buf)), TOPODIR_ENV);
	assert_string_equal(buf, "/x/t");
	assert_int_equal(topologies_dir_for(NULL, NULL, "/opt/x", buf, sizeof(buf)),
			 TOPODIR_PREFIX);
	assert_string_equal(buf, "/opt/x/share/xdptc/topologies");
	assert_int_equal(topologies_dir_for(NULL, "/usr/bin/xdptc", "/usr", buf, sizeof(buf)),
			 TOPODIR_PREFIX);
	snprintf(p, sizeof(p), "rm -rf '%s'", tmp);
	assert_int_equal(system(p), 0);
}

/* The number of lines @cmd prints (-1: it could not run). */
static long lines_of(const char *cmd)
{
	FILE *p = popen(cmd, "r");
	char line[PATH_MAX];
	long n = 0;

	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p))
		n++;
	return pclose(p) ? -1 : n;
}

/* install.sh into a staging root: the binary, the manual page, every topology and guest
 * script (executable when it has a #! line), the plugin's source and the scripts that
 * build it, the docs; then uninstall leaves no file and none of xdptc's directories. */
static void test_install_uninstall(void **state)
{
	char tmp[] = "/tmp/xdptc-test-install.XXXXXX", cmd[PATH_MAX * 2], p[PATH_MAX];
	static const char *const want[] = { "bin/xdptc", "share/man/man8/xdptc.8",
		"share/xdptc/topologies/veth.sh", "share/xdptc/topologies/lib.sh",
		"share/xdptc/topologies/guest/guest-init.sh", "share/xdptc/plugins/insn_count.c",
		"share/xdptc/scripts/plugin-build.sh", "share/xdptc/scripts/qemu-plugin-header.sh",
		"share/doc/xdptc/README.md", "share/doc/xdptc/docs/tests.md", NULL };
	struct stat st;
	long scripts, installed;

	(void)state;
	assert_non_null(mkdtemp(tmp));
	snprintf(cmd, sizeof(cmd), "DESTDIR='%s' PREFIX=/p sh scripts/install.sh install >/dev/null",
		 tmp);
	assert_int_equal(system(cmd), 0);
	for (int i = 0; want[i]; i++) {
		snprintf(p, sizeof(p), "%s/p/%s", tmp, want[i]);
		if (stat(p, &st))
			fail_msg("%s was not installed", p);
	}
	snprintf(p, sizeof(p), "%s/p/bin/xdptc", tmp);
	assert_int_equal(access(p, X_OK), 0);
	snprintf(p, sizeof(p), "%s/p/share/xdptc/topologies/veth.sh", tmp);
	assert_int_equal(access(p, X_OK), 0);
	snprintf(p, sizeof(p), "%s/p/share/xdptc/topologies/lib.sh", tmp); /* sourced only */
	assert_int_equal(stat(p, &st), 0);
	assert_int_equal(st.st_mode & 0111, 0);
	/* every topology and guest script of the checkout, no more, no less */
	scripts = lines_of("ls topologies/*.sh topologies/guest/*");
	snprintf(cmd, sizeof(cmd), "find '%s/p/share/xdptc/topologies' -type f", tmp);
	installed = lines_of(cmd);
	assert_true(scripts > 5);
	assert_int_equal(installed, scripts);
	snprintf(cmd, sizeof(cmd), "DESTDIR='%s' PREFIX=/p sh scripts/install.sh uninstall >/dev/null",
		 tmp);
	assert_int_equal(system(cmd), 0);
	snprintf(cmd, sizeof(cmd), "find '%s' -type f -o -type l", tmp);
	assert_int_equal(lines_of(cmd), 0);
	snprintf(p, sizeof(p), "%s/p/share/xdptc", tmp);
	assert_int_not_equal(stat(p, &st), 0);
	snprintf(p, sizeof(p), "%s/p/share/doc/xdptc", tmp);
	assert_int_not_equal(stat(p, &st), 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_topologies_dir),
		cmocka_unit_test(test_install_uninstall),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
