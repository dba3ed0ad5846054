/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `xdptc doctor`'s NICs (loader/nic_list.h), no root: the list holds exactly this
 * namespace's interfaces that a bus device backs (counted here apart, from sysfs), each
 * with its driver or why not, and a named one beside them; and a NIC's line says the
 * kernel's xdp-features, the attach's answer or why neither is known.
 */
#include <glob.h>
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "nic_list.h"

static void test_lists_the_bus_backed_interfaces(void **state)
{
	glob_t g;
	size_t want, i;
	const json_t *n;
	json_t *a = nic_list(NULL), *b;

	(void)state;
	want = glob("/sys/class/net/*/device", 0, NULL, &g) ? 0 : g.gl_pathc;
	printf("# %zu interface(s) with a bus device, %zu listed\n", want, json_array_size(a));
	assert_int_equal(json_array_size(a), want);
	json_array_foreach(a, i, n) {
		char path[128], line[1024];
		const char *dev = json_string_value(json_object_get(n, "dev"));

		assert_non_null(dev);
		snprintf(path, sizeof(path), "/sys/class/net/%s/device", dev);
		assert_int_equal(access(path, F_OK), 0);
		assert_true(json_is_string(json_object_get(n, "driver")) ||
			    json_is_string(json_object_get(n, "driver_reason")));
		nic_line(n, line, sizeof(line));
		printf("# %s\n", line);
		assert_int_equal(strncmp(line, dev, strlen(dev)), 0);
	}
	if (want)
		globfree(&g);
	/* a named device no bus backs (lo, ifindex 1) is among them, in ifindex order */
	b = nic_list("lo");
	assert_int_equal(json_array_size(b), want + 1);
	assert_string_equal(json_string_value(json_object_get(json_array_get(b, 0), "dev")),
			    "lo");
	json_decref(a);
	json_decref(b);
}

static void test_a_line_says_how_it_knows(void **state)
{
	char line[1024];
	json_t *n = json_loads("{\"dev\": \"eth9\", \"driver\": \"virtio_net\", \"xdp_native\": "
			       "true, \"xdp_features\": [\"basic\", \"redirect\"]}", 0, NULL);

	(void)state;
	nic_line(n, line, sizeof(line));
	assert_string_equal(line, "eth9: driver virtio_net, native XDP yes (xdp-features: "
				  "basic, redirect)");
	json_decref(n);
	/* a kernel before 6.3: no xdp-features; the attach answers where it was asked */
	n = json_loads("{\"dev\": \"eth1\", \"driver\": \"e1000e\", \"xdp_native\": null, "
		       "\"xdp_features\": [], \"xdp_native_reason\": \"no netdev family\"}",
		       0, NULL);
	nic_line(n, line, sizeof(line));
	assert_string_equal(line, "eth1: driver e1000e, native XDP unknown (no netdev family)");
	json_object_set_new(n, "xdp_attach", json_pack("{s:b, s:s}", "ok", 0, "reason",
						       "Operation not supported"));
	nic_line(n, line, sizeof(line));
	assert_string_equal(line, "eth1: driver e1000e, native XDP no (no netdev family; an "
				  "xdpdrv attach was refused: Operation not supported)");
	json_object_set_new(n, "xdp_attach", json_pack("{s:b}", "ok", 1));
	nic_line(n, line, sizeof(line));
	assert_non_null(strstr(line, "native XDP yes (no netdev family; an xdpdrv attach "
				     "succeeded"));
	json_decref(n);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_lists_the_bus_backed_interfaces),
		cmocka_unit_test(test_a_line_says_how_it_knows),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
