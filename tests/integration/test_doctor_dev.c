/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * `xdptc doctor --dev IFACE` on a veth pair of the test's own (a stand-in for a user's
 * NIC, in its namespace): the driver the kernel names, native XDP from the kernel's own
 * xdp-features, the queues, no IRQ of its own (a software device), the hooks as they are
 * (free, then xdptc's tc filter once attached), the default route once one is added
 * through it, and exit 2 for a device that does not exist; nothing on the device is
 * changed by the report itself. And `xdptc send --duration`, the generator of a run on
 * another machine. Needs root. Run from the repository root.
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "test_main.h"
#include "test_topology.h"

static const char *xdptc = "./build/xdptc";
static struct test_topology topo;

/* Run `xdptc doctor --dev @dev --netns NS --json` there; its exit status in *@st, its
 * report (NULL unless exit 0 and JSON). */
static json_t *doctor_dev_more(const char *dev, const char *more, int *st)
{
	char cmd[512], buf[65536];
	size_t n;
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s doctor --dev %s --netns %s --json%s 2>/dev/null", xdptc,
		 dev, topo.dut_ns, more);
	p = popen(cmd, "r");
	assert_non_null(p);
	n = fread(buf, 1, sizeof(buf) - 1, p);
	buf[n] = '\0';
	*st = pclose(p);
	*st = WIFEXITED(*st) ? WEXITSTATUS(*st) : -1;
	return *st ? NULL : json_loads(buf, 0, NULL);
}

static json_t *doctor_dev(const char *dev, int *st)
{
	return doctor_dev_more(dev, "", st);
}

static int sh(const char *fmt, const char *a, const char *b)
{
	char cmd[512];

	snprintf(cmd, sizeof(cmd), fmt, a, b);
	return system(cmd);
}

static int setup(void **state)
{
	(void)state;
	return test_topology_up(&topo, 'D');
}

static int teardown(void **state)
{
	(void)state;
	return test_topology_down(&topo);
}

static void test_veth_as_named_device(void **state)
{
	int st;
	json_t *r = doctor_dev(topo.dut_dev, &st), *q;

	(void)state;
	assert_int_equal(st, 0);
	assert_non_null(r);
	/* the kernel's answers: ETHTOOL_GDRVINFO, the netdev family's xdp-features */
	assert_string_equal(json_string_value(json_object_get(r, "driver")), "veth");
	assert_true(json_is_true(json_object_get(r, "xdp_native")));
	q = json_object_get(r, "queues");
	assert_true(json_integer_value(json_object_get(q, "rx")) >= 1);
	/* a software device: no IRQ, so no receive CPU of its own, said why */
	assert_int_equal(json_array_size(json_object_get(r, "irqs")), 0);
	assert_true(json_is_null(json_object_get(r, "receive_cpus")));
	assert_non_null(json_string_value(json_object_get(r, "receive_cpus_reason")));
	assert_int_equal(json_array_size(json_object_get(r, "hooks")), 0);
	assert_true(json_is_false(json_object_get(r, "default_route")));
	assert_true(json_is_null(json_object_get(r, "attach_warning")));
	printf("# %s: driver veth, native XDP, %lld rx queue(s), hooks free\n", topo.dut_dev,
	       json_integer_value(json_object_get(q, "rx")));
	json_decref(r);

	/* lo has no native XDP: the kernel says so */
	r = doctor_dev("lo", &st);
	assert_int_equal(st, 0);
	assert_true(json_is_false(json_object_get(r, "xdp_native")));
	assert_non_null(json_string_value(json_object_get(r, "xdp_native_reason")));
	json_decref(r);
}

/* --try-attach: the attach's own answer (what a kernel before 6.3 gives instead of
 * xdp-features): veth attaches in xdpdrv and nothing is left on its hooks; lo's refusal
 * is the kernel's own words; without --dev it is refused before anything is touched. */
static void test_try_attach_answers(void **state)
{
	char cmd[512];
	int st;
	json_t *r = doctor_dev_more(topo.dut_dev, " --try-attach", &st), *a;

	(void)state;
	assert_int_equal(st, 0);
	a = json_object_get(r, "xdp_attach");
	assert_true(json_is_true(json_object_get(a, "ok")));
	json_decref(r);
	r = doctor_dev(topo.dut_dev, &st); /* undone: the hooks are free again */
	assert_int_equal(st, 0);
	assert_int_equal(json_array_size(json_object_get(r, "hooks")), 0);
	json_decref(r);
	r = doctor_dev_more("lo", " --try-attach", &st);
	assert_int_equal(st, 0);
	a = json_object_get(r, "xdp_attach");
	assert_true(json_is_false(json_object_get(a, "ok")));
	printf("# lo: %s\n", json_string_value(json_object_get(a, "reason")));
	assert_non_null(strstr(json_string_value(json_object_get(a, "reason")),
			       "does not support XDP in native mode"));
	json_decref(r);
	snprintf(cmd, sizeof(cmd), "%s doctor --try-attach 2>/dev/null", xdptc);
	st = system(cmd);
	assert_int_equal(WEXITSTATUS(st), 2);
}

static void test_hooks_and_default_route_are_seen(void **state)
{
	int st;
	json_t *r, *h;

	(void)state;
	{
		char cmd[512];

		snprintf(cmd, sizeof(cmd), "%s attach --netns %s --dev %s --mode tc >/dev/null",
			 xdptc, topo.dut_ns, topo.dut_dev);
		assert_int_equal(system(cmd), 0);
	}
	r = doctor_dev(topo.dut_dev, &st);
	assert_int_equal(st, 0);
	assert_int_equal(json_array_size(json_object_get(r, "hooks")), 1);
	h = json_array_get(json_object_get(r, "hooks"), 0);
	assert_string_equal(json_string_value(json_object_get(h, "hook")), "tc");
	printf("# hooks: %s\n", json_string_value(json_object_get(h, "what")));
	json_decref(r);
	{
		char cmd[512];

		snprintf(cmd, sizeof(cmd), "%s detach --netns %s --dev %s --mode tc >/dev/null",
			 xdptc, topo.dut_ns, topo.dut_dev);
		assert_int_equal(system(cmd), 0);
	}
	/* a default route through it, in the test's own namespace: said before any attach */
	assert_int_equal(sh("ip netns exec %s ip route add default via 198.18.0.1 dev %s",
			    topo.dut_ns, topo.dut_dev), 0);
	r = doctor_dev(topo.dut_dev, &st);
	assert_int_equal(st, 0);
	assert_true(json_is_true(json_object_get(r, "default_route")));
	assert_non_null(strstr(json_string_value(json_object_get(r, "attach_warning")),
			       "the link goes down"));
	assert_int_equal(json_array_size(json_object_get(r, "hooks")), 0);
	json_decref(r);
	assert_int_equal(sh("ip netns exec %s ip route del default dev %s", topo.dut_ns,
			    topo.dut_dev), 0);
}

static void test_no_such_device_is_exit_2(void **state)
{
	int st;

	(void)state;
	assert_null(doctor_dev("xdptc-nosuch0", &st));
	assert_int_equal(st, 2);
}

/* The DUT's received packets (its driver counter, read in its namespace). */
static long long dut_rx(void)
{
	char cmd[256], buf[64] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "ip netns exec %s cat /sys/class/net/%s/statistics/rx_packets",
		 topo.dut_ns, topo.dut_dev);
	p = popen(cmd, "r");
	assert_non_null(p);
	if (!fgets(buf, sizeof(buf), p))
		buf[0] = '\0';
	pclose(p);
	return atoll(buf);
}

/* `xdptc send --netns SND --dst 198.18.0.2 @args` (@what names it in the log): it exits
 * 0 and says how many packets it sent (*@sent) in how long (*@secs). */
static void send_ok(const char *what, const char *args, long long *sent, double *secs)
{
	char cmd[512], out[512] = "";
	FILE *p;

	snprintf(cmd, sizeof(cmd), "%s send --netns %s --dst 198.18.0.2 %s", xdptc, topo.snd_ns,
		 args);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(out, sizeof(out), p));
	assert_int_equal(pclose(p), 0);
	assert_int_equal(sscanf(out, "sent %lld packets to %*s port %*u in %lf s", sent, secs), 2);
	printf("# %s: %s", what, out);
}

/* `xdptc send --duration`: the generator of a run on another machine. Paced, it sends
 * exactly rate x duration packets over that long; unpaced, for that long. */
static void test_send_for_a_duration(void **state)
{
	char cmd[512], out[512] = "";
	long long before = dut_rx(), sent = -1;
	double secs = -1;
	FILE *p;

	(void)state;
	send_ok("paced", "--rate 20k --duration 0.5", &sent, &secs);
	assert_int_equal(sent, 10000);
	assert_true(secs > 0.45 && secs < 3); /* at the pace, not faster; a loaded machine may be slower */
	assert_int_equal(dut_rx() - before, 10000);

	send_ok("unpaced", "--duration 0.3", &sent, &secs);
	assert_true(sent > 0);
	assert_true(secs > 0.29 && secs < 3); /* until the timer, not shorter */

	/* a low rate is a steady pace (a packet per call), not bursts of 64 */
	send_ok("slow", "--rate 100 --duration 0.5", &sent, &secs);
	assert_int_equal(sent, 50);
	assert_true(secs > 0.45);

	/* Ctrl-C: what went out of what was asked, exit 130 */
	snprintf(cmd, sizeof(cmd), "%s send --netns %s --dst 198.18.0.2 --rate 1k --duration 30 & "
		 "pid=$!; sleep 0.5; kill -INT $pid; wait $pid; echo \"exit $?\"", xdptc,
		 topo.snd_ns);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(out, sizeof(out), p));
	printf("# %s", out);
	assert_non_null(strstr(out, "interrupted after"));
	assert_non_null(strstr(out, "of 30000 packets"));
	assert_non_null(fgets(out, sizeof(out), p));
	assert_string_equal(out, "exit 130\n");
	pclose(p);

	/* one of --count and --duration; a duration out of range; a rate and a duration that
	 * make no packet */
	snprintf(cmd, sizeof(cmd), "%s send --dst 198.18.0.2 --rate 1 --duration 0.1 2>/dev/null",
		 xdptc);
	assert_int_equal(WEXITSTATUS(system(cmd)), 2);
	snprintf(cmd, sizeof(cmd), "%s send --netns %s --dst 198.18.0.2 --count 5 --duration 1 "
		 "2>/dev/null", xdptc, topo.snd_ns);
	assert_int_equal(WEXITSTATUS(system(cmd)), 2);
	snprintf(cmd, sizeof(cmd), "%s send --dst 198.18.0.2 --duration 0 2>/dev/null", xdptc);
	assert_int_equal(WEXITSTATUS(system(cmd)), 2);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_veth_as_named_device),
		cmocka_unit_test(test_try_attach_answers),
		cmocka_unit_test(test_hooks_and_default_route_are_seen),
		cmocka_unit_test(test_no_such_device_is_exit_2),
		cmocka_unit_test(test_send_for_a_duration),
	};

	INTEGRATION_MAIN("test_doctor_dev", tests, setup, teardown, &xdptc);
}
