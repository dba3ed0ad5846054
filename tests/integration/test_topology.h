/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * test_topology.h: a veth topology of a test's own (topologies/veth.sh), owned by the
 * test process: namespaces PREFIX-snd and PREFIX-dut, devices PREFIX-s and PREFIX-d,
 * 198.18.0.1 -> 198.18.0.2, with PREFIX = xdptc-TAGNNNNN from the test's pid.
 * Include after <stdio.h>, <string.h>, <unistd.h>. Run from the repository root.
 */
#ifndef XDPTC_TEST_TOPOLOGY_H
#define XDPTC_TEST_TOPOLOGY_H

struct test_topology {
	char prefix[16], snd_ns[32], dut_ns[32], snd_dev[16], dut_dev[16];
	unsigned char dut_mac[6];
};

/* test_topology_up - make it (tag: one letter that names the test). Returns 0 or -1
 * (what veth.sh said is on stderr). */
static inline int test_topology_up(struct test_topology *t, char tag)
{
	char cmd[256], line[128];
	FILE *p;

	memset(t, 0, sizeof(*t));
	snprintf(t->prefix, sizeof(t->prefix), "xdptc-%c%05x", tag, (unsigned int)getpid() & 0xfffff);
	snprintf(cmd, sizeof(cmd), "XDPTC_OWNER_PID=%d sh topologies/veth.sh up %s", (int)getpid(),
		 t->prefix);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		unsigned m[6];

		line[strcspn(line, "\n")] = '\0';
		if (!strncmp(line, "SND_NS=", 7))
			snprintf(t->snd_ns, sizeof(t->snd_ns), "%s", line + 7);
		else if (!strncmp(line, "DUT_NS=", 7))
			snprintf(t->dut_ns, sizeof(t->dut_ns), "%s", line + 7);
		else if (!strncmp(line, "SND_DEV=", 8))
			snprintf(t->snd_dev, sizeof(t->snd_dev), "%s", line + 8);
		else if (!strncmp(line, "DUT_DEV=", 8))
			snprintf(t->dut_dev, sizeof(t->dut_dev), "%s", line + 8);
		else if (sscanf(line, "DUT_MAC=%x:%x:%x:%x:%x:%x", &m[0], &m[1], &m[2], &m[3], &m[4],
				&m[5]) == 6)
			for (int i = 0; i < 6; i++)
				t->dut_mac[i] = (unsigned char)m[i];
	}
	return pclose(p) || !t->dut_dev[0] ? -1 : 0;
}

/* test_topology_down - remove it. Returns 0 or -1. */
static inline int test_topology_down(const struct test_topology *t)
{
	char cmd[128];

	if (!t->prefix[0])
		return 0;
	snprintf(cmd, sizeof(cmd), "sh topologies/veth.sh down %s", t->prefix);
	return system(cmd) ? -1 : 0;
}

#endif
