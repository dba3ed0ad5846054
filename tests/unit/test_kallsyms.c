/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* Unit tests of kallsyms resolution (probes/kallsyms.c) on kallsyms files written here. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "kallsyms.h"

static char path[64];

static int write_kallsyms(void **state)
{
	int fd;
	FILE *f;

	(void)state;
	snprintf(path, sizeof(path), "/tmp/xdptc-kallsyms-XXXXXX");
	fd = mkstemp(path);
	if (fd < 0)
		return -1;
	f = fdopen(fd, "w");
	/* lines as the kernel prints them, from a 6.1 kernel and made-up clones */
	fputs("ffffffffa4bde470 t __netif_receive_skb_core.constprop.0\n"
	      "ffffffffa4bdf370 t __netif_receive_skb_list_core\n"
	      "ffffffffa4bdf630 t __netif_receive_skb_one_core\n"
	      "ffffffffa4bbc610 T __alloc_skb\n"
	      "ffffffffa4bbe350 t kfree_skbmem\n"
	      "ffffffffa4bbe400 t kfree_skbmem.cold\n"
	      "ffffffffa4bc0000 t foo.isra.0\n"
	      "ffffffffa4bc0100 t foo.part.12\n"
	      "ffffffffa4bc0200 t foo.isra.0.constprop.3\n"
	      "ffffffffa4bc0300 t foo\n"
	      "ffffffffa4bc0300 t foo\n"
	      "ffffffffa4bc0400 t foobar\n"
	      "ffffffffa4bc0500 t foo.constprop\n"
	      "ffffffffa4bc0600 d foo.isra.1\n"
	      "ffffffffc0a01000 t virtnet_poll\t[virtio_net]\n",
	      f);
	fclose(f);
	return 0;
}

static int remove_kallsyms(void **state)
{
	(void)state;
	unlink(path);
	return 0;
}

static void test_clone_is_found(void **state)
{
	char out[8][KSYM_NAME_MAX];

	(void)state;
	assert_int_equal(kallsyms_resolve(path, "__netif_receive_skb_core", out, 8), 1);
	assert_string_equal(out[0], "__netif_receive_skb_core.constprop.0");
}

static void test_plain_symbol(void **state)
{
	char out[8][KSYM_NAME_MAX];

	(void)state;
	assert_int_equal(kallsyms_resolve(path, "__alloc_skb", out, 8), 1);
	assert_string_equal(out[0], "__alloc_skb");
	/* .cold is not an entry point */
	assert_int_equal(kallsyms_resolve(path, "kfree_skbmem", out, 8), 1);
	assert_string_equal(out[0], "kfree_skbmem");
	/* module symbols count */
	assert_int_equal(kallsyms_resolve(path, "virtnet_poll", out, 8), 1);
}

static void test_several_matches(void **state)
{
	char out[8][KSYM_NAME_MAX];
	int n;

	(void)state;
	n = kallsyms_resolve(path, "foo", out, 8);
	/* foo, foo.isra.0, foo.part.12, foo.isra.0.constprop.3; not foobar, not
	 * "foo.constprop" without a number, not the data symbol, foo only once */
	assert_int_equal(n, 4);
	assert_string_equal(out[0], "foo.isra.0");
	assert_string_equal(out[1], "foo.part.12");
	assert_string_equal(out[2], "foo.isra.0.constprop.3");
	assert_string_equal(out[3], "foo");
	/* a limit is kept */
	assert_int_equal(kallsyms_resolve(path, "foo", out, 2), 2);
}

static void test_none(void **state)
{
	char out[8][KSYM_NAME_MAX];

	(void)state;
	assert_int_equal(kallsyms_resolve(path, "no_such_function", out, 8), 0);
	assert_int_equal(kallsyms_resolve(path, "__netif_receive_skb", out, 8), 0);
	assert_int_equal(kallsyms_resolve("/nonexistent/kallsyms", "foo", out, 8), -ENOENT);
}

static void test_is_clone_of(void **state)
{
	(void)state;
	assert_true(kallsyms_is_clone_of("foo", "foo"));
	assert_true(kallsyms_is_clone_of("foo.constprop.0", "foo"));
	assert_true(kallsyms_is_clone_of("foo.lto_priv.7", "foo"));
	assert_false(kallsyms_is_clone_of("foo.cold", "foo"));
	assert_false(kallsyms_is_clone_of("foo_bar", "foo"));
	assert_false(kallsyms_is_clone_of("fo", "foo"));
	assert_false(kallsyms_is_clone_of("foo.isra", "foo"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_clone_is_found),
		cmocka_unit_test(test_plain_symbol),
		cmocka_unit_test(test_several_matches),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_is_clone_of),
	};

	return cmocka_run_group_tests(tests, write_kallsyms, remove_kallsyms);
}
