/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The dev topology on a real driver: inside a qemu guest (topologies/virtio.sh), the
 * guest's own virtio-net eth0 is the DUT of `xdptc run --topology dev --dev eth0`, run in
 * the guest through its agent, while this host sends into the tap with `xdptc send
 * --duration`, a separate process the run knows nothing about. The mechanism must show
 * as on the virtio topology: tc builds one skb per packet and enters the stack, xdpdrv
 * builds none (virtio-net runs XDP before it builds the skb); every trial measured its
 * offered rate; xdpdrv's CPU time per packet against tc's is computed and printed beside
 * the committed `make run-virtio` example's on the same guest kernel (not asserted:
 * under TCG at 10 kpps it is noise); the counts come from fentry
 * (--counters fentry,tracepoint: what a kernel without kprobes gives). With
 * XDPTC_KEEP_RUN=DIR the run's
 * directory is copied there (the committed example of the dev topology is one).
 * Needs root, qemu and the guest kernel (fetched into the cache). Run from the
 * repository root.
 */
#include <dirent.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <math.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

static const char *xdptc = "./build/xdptc";

#include "run_helpers.h"
#include "test_generator.h"
#include "test_main.h"

/* The committed `make run-virtio` example this run's sign is compared with (guest kernel
 * 6.1.0-57-amd64, the virtio topology's default) */
#define VIRTIO_EXAMPLE "results/examples/20261202T003542Z-virtio/run.json"
#define GUEST_RATE_PPS 10000 /* what a TCG guest drops with the count pass's probes on */
#define GUEST_RUN_TIMEOUT_S 600

static char prefix[16], snd_ns[48], dut_addr[48], share[64];

static void value_of(const char *line, const char *key, char *dst, size_t len)
{
	size_t k = strlen(key);

	if (!strncmp(line, key, k) && line[k] == '=') {
		snprintf(dst, len, "%s", line + k + 1);
		dst[strcspn(dst, "\n")] = '\0';
	}
}

static int setup(void **state)
{
	char cmd[512], line[512];
	FILE *p;

	(void)state;
	snprintf(prefix, sizeof(prefix), "xdptc-G%05x", (unsigned int)getpid() & 0xfffff);
	snprintf(share, sizeof(share), "/tmp/xdptc-gtest-XXXXXX");
	if (!mkdtemp(share))
		return -1;
	/* TCG without probing KVM first (20 s on a host where guests hang under it): the
	 * accelerator is the virtio topology's tests' subject, not this one's */
	snprintf(cmd, sizeof(cmd), "XDPTC_OWNER_PID=%d XDPTC_SHARE=%s ICOUNT=0 ACCEL=tcg sh "
		 "topologies/virtio.sh up %s", (int)getpid(), share, prefix);
	p = popen(cmd, "r");
	if (!p)
		return -1;
	while (fgets(line, sizeof(line), p)) {
		value_of(line, "SND_NS", snd_ns, sizeof(snd_ns));
		value_of(line, "DUT_ADDR", dut_addr, sizeof(dut_addr));
	}
	return pclose(p) || !snd_ns[0] || !dut_addr[0] ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[256];

	(void)state;
	snprintf(cmd, sizeof(cmd), "sh topologies/virtio.sh down %s; rm -rf '%s'", prefix, share);
	return system(cmd) ? -1 : 0;
}

/*
 * The tc -> xdpdrv delta of cpu_ns_per_pkt in a run's summary, or NULL.
 * Under TCG at 10 kpps that figure is noise: the committed example's interval
 * (-7.6% .. +0.3%) holds zero, and runs of this test gave +3.1% and -14.8%.
 * The test prints it beside the example's and asserts only that the summary
 * computed it; the mechanism (skbs built, stack entries, XDP drops) is exact.
 */
static json_t *cpu_delta(json_t *run)
{
	json_t *d;
	size_t i;

	json_array_foreach(json_object_get(json_object_get(run, "summary"), "deltas"), i, d)
		if (!strcmp(json_string_value(json_object_get(d, "metric")), "cpu_ns_per_pkt") &&
		    !strcmp(json_string_value(json_object_get(d, "a")), "tc") &&
		    !strcmp(json_string_value(json_object_get(d, "b")), "xdpdrv"))
			return d;
	return NULL;
}

static void test_dev_on_the_guests_virtio_net(void **state)
{
	char self[PATH_MAX], root[PATH_MAX], cmd[3 * PATH_MAX], path[PATH_MAX], rc[64] = "";
	json_t *run, *t, *tc, *xdp, *ex;
	json_error_t je;
	size_t i;
	pid_t gen;
	int waited, with_rate = 0;
	FILE *f;

	(void)state;
	assert_non_null(realpath(xdptc, self));
	assert_non_null(getcwd(root, sizeof(root)));
	/* the host's generator into the tap */
	gen = generator_start(xdptc, snd_ns, dut_addr, GUEST_RATE_PPS, 900);
	/* in the guest, in the background (the agent answers each request within its
	 * timeout; the run takes minutes in a TCG guest): its log and exit status in the
	 * share */
	snprintf(cmd, sizeof(cmd), "sh topologies/virtio.sh exec %s \"cd '%s' && (('%s' run "
		 "--topology dev --dev eth0 --window 1 --reps 3 --count-reps 1 --no-flame "
		 "--counters fentry,tracepoint "
		 "--modes tc,xdpdrv --seed 7 --quiet --out /run/xdptc-share 2>&1; echo \\$? > "
		 "/run/xdptc-share/guest-run.rc) | while IFS= read -r l; do echo \\\"\\$(date "
		 "+%%T) \\$l\\\"; done > /run/xdptc-share/guest-run.log) </dev/null >/dev/null "
		 "2>&1 &\"", prefix, root, self);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/guest-run.rc", share);
	for (waited = 0; waited < GUEST_RUN_TIMEOUT_S && access(path, R_OK); waited += 5)
		sleep(5);
	generator_stop(gen);
	snprintf(cmd, sizeof(cmd), "tail -n 25 '%s/guest-run.log'", share);
	if (system(cmd))
		printf("# no log from the guest's run\n");
	f = fopen(path, "r");
	assert_non_null(f);
	assert_non_null(fgets(rc, sizeof(rc), f));
	fclose(f);
	printf("# the guest's run took about %d s, exit %s", waited, rc);
	assert_int_equal(atoi(rc), 0);
	run = load_run_json(share, path, sizeof(path));
	assert_non_null(run);
	assert_string_equal(json_string_value(json_object_get(run, "topology")), "dev");
	assert_string_equal(json_string_value(json_object_get(json_object_get(run, "device"),
							      "driver")), "virtio_net");
	/* the offered rate measured in each trial, from the NIC's own counters */
	json_array_foreach(json_object_get(run, "trials"), i, t)
		with_rate += num(t, "offered_pps") > 0.5 * GUEST_RATE_PPS;
	printf("# %d of %zu trials with their offered rate; median %.0f pps\n", with_rate,
	       json_array_size(json_object_get(run, "trials")),
	       num(json_object_get(run, "offered_rate"), "median_pps"));
	assert_int_equal(with_rate, (int)json_array_size(json_object_get(run, "trials")));
	/* the driver's own words (ethtool -S): in xdpdrv's trials virtio-net counts the
	 * program's drops as its queue's XDP drops */
	{
		int said = 0, xdp_trials = 0;

		json_array_foreach(json_object_get(run, "trials"), i, t) {
			const char *k;
			json_t *v;

			if (strcmp(json_string_value(json_object_get(t, "mode")), "xdpdrv"))
				continue;
			xdp_trials++;
			json_object_foreach(json_object_get(t, "nic_counters"), k, v)
				if (strstr(k, "xdp_drops") &&
				    fabs((double)json_integer_value(v) - num(t, "dropped")) <=
					    0.01 * num(t, "dropped") + 256)
					said++;
		}
		printf("# %d of %d xdpdrv trials with the queue's XDP drops (ethtool -S) as the "
		       "program's\n", said, xdp_trials);
		assert_int_equal(said, xdp_trials);
	}
	/* counted without kprobes: fentry on Debian's guest kernel */
	{
		const json_t *cnt = json_object_get(json_object_get(run, "capabilities"), "counters");

		printf("# counters: stack_entries %s, skbs_freed %s, skbs_built %s\n",
		       json_string_value(json_object_get(json_object_get(cnt, "stack_entries"), "backend")),
		       json_string_value(json_object_get(json_object_get(cnt, "skbs_freed"), "backend")),
		       json_string_value(json_object_get(json_object_get(cnt, "skbs_built"), "backend")));
		assert_string_equal(json_string_value(json_object_get(json_object_get(cnt, "skbs_freed"),
								      "backend")), "fentry");
		assert_string_equal(json_string_value(json_object_get(json_object_get(cnt, "skbs_built"),
								      "backend")), "fentry");
	}
	/* the mechanism, as on the virtio topology */
	tc = mode_summary(run, "tc");
	xdp = mode_summary(run, "xdpdrv");
	assert_non_null(tc);
	assert_non_null(xdp);
	printf("# skbs built per packet: tc %.3f, xdpdrv %.3f; stack entries: tc %.3f, xdpdrv "
	       "%.3f\n", num(tc, "skbs_built_per_pkt"), num(xdp, "skbs_built_per_pkt"),
	       num(tc, "stack_entries_per_pkt"), num(xdp, "stack_entries_per_pkt"));
	assert_true(fabs(num(tc, "skbs_built_per_pkt") - 1) < 0.01);
	assert_true(num(xdp, "skbs_built_per_pkt") < 0.01);
	assert_true(num(tc, "stack_entries_per_pkt") >= 0.99);
	assert_true(num(xdp, "stack_entries_per_pkt") <= 0.01);
	/* `make run-virtio`'s delta on the same guest kernel, beside this run's */
	ex = json_load_file(VIRTIO_EXAMPLE, 0, &je);
	assert_non_null(ex);
	assert_string_equal(json_string_value(json_object_get(json_object_get(ex, "guest"),
							      "kernel_release")),
			    json_string_value(json_object_get(json_object_get(run, "machine"),
							      "kernel_release")));
	{
		json_t *here = cpu_delta(run), *there = cpu_delta(ex);

		assert_non_null(here);
		assert_non_null(there);
		printf("# xdpdrv vs tc, cpu_ns_per_pkt (TCG: noise, not asserted): this run %+.1f%% "
		       "[%+.1f%%, %+.1f%%], the example %+.1f%% [%+.1f%%, %+.1f%%]\n",
		       100 * num(here, "rel_delta"), 100 * num(here, "ci95_lo"),
		       100 * num(here, "ci95_hi"), 100 * num(there, "rel_delta"),
		       100 * num(there, "ci95_lo"), 100 * num(there, "ci95_hi"));
		assert_true(isfinite(num(here, "rel_delta")));
	}
	json_decref(ex);
	json_decref(run);
	if (getenv("XDPTC_KEEP_RUN")) {
		snprintf(cmd, sizeof(cmd), "cp -r '%s'/*-dev '%s'/", share, getenv("XDPTC_KEEP_RUN"));
		assert_int_equal(system(cmd), 0);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_dev_on_the_guests_virtio_net),
	};

	INTEGRATION_MAIN("test_run_dev_guest", tests, setup, teardown, &xdptc);
}
