/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration tests of the virtio topology: a CI-sized real run in a TCG guest whose
 * run.json must show the mechanism (TC builds an skb and enters the stack for every
 * packet; native XDP on virtio-net does neither), and a guest that does not boot in
 * time, which must fail clearly and leave nothing running.
 * Needs root, qemu and network access to Debian's archive on first use (the guest
 * kernel is cached in /var/cache/xdptc). Run from the repository root.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <math.h>
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

static const char *xdptc = "./build/xdptc";

#include "run_helpers.h"
#include "test_main.h"

/* Nothing of topology @prefix is left: namespace, qemu process, run directory. */
static void assert_guest_gone(const char *prefix)
{
	char cmd[256], path[128];
	int st;

	assert_int_equal(count_leftovers(prefix), 0);
	snprintf(cmd, sizeof(cmd), "pgrep -f '[q]emu-system-x86_64 -name %s' >/dev/null", prefix);
	st = system(cmd);
	assert_int_not_equal(WEXITSTATUS(st), 0); /* no such process */
	snprintf(path, sizeof(path), "/run/xdptc/%s", prefix);
	assert_int_not_equal(access(path, F_OK), 0);
}

static void test_virtio_run_shows_the_mechanism(void **state)
{
	char tmpl[] = "/tmp/xdptc-vtest-XXXXXX", cmd[512], path[600], prefix[16];
	json_t *run, *tc, *xdp, *guest;
	int st;

	(void)state;
	st = run_xdptc(xdptc, tmpl, "", "run --topology virtio --packets 10k --rate 20k --reps 2 "
					"--seed 3 --cross-check-counters --quiet", path, sizeof(path));
	run_prefix(path, prefix, sizeof(prefix));
	assert_run_ok(st, path);
	assert_int_equal(strncmp(prefix, "xdptc-", 6), 0);
	unlink(path);
	run = load_run_json(tmpl, path, sizeof(path));
	assert_string_equal(json_string_value(json_object_get(run, "topology")), "virtio");
	guest = json_object_get(run, "guest");
	assert_non_null(json_string_value(json_object_get(guest, "kernel_release")));
	assert_non_null(json_string_value(json_object_get(guest, "accelerator")));
	tc = mode_summary(run, "tc");
	xdp = mode_summary(run, "xdpdrv");
	assert_non_null(tc);
	assert_non_null(xdp);
	printf("# guest %s under %s\n", json_string_value(json_object_get(guest, "kernel_release")),
	       json_string_value(json_object_get(guest, "accelerator")));
	printf("# tc: pkts_at_dut %.0f built/pkt %.4f stack/pkt %.4f cpu_ns/pkt %.1f\n",
	       num(tc, "pkts_at_dut"), num(tc, "skbs_built_per_pkt"),
	       num(tc, "stack_entries_per_pkt"), num(tc, "cpu_ns_per_pkt"));
	printf("# xdpdrv: pkts_at_dut %.0f built/pkt %.4f stack/pkt %.4f cpu_ns/pkt %.1f\n",
	       num(xdp, "pkts_at_dut"), num(xdp, "skbs_built_per_pkt"),
	       num(xdp, "stack_entries_per_pkt"), num(xdp, "cpu_ns_per_pkt"));
	/* the mechanism: TC builds an skb and enters the stack for each packet ... */
	assert_true(num(tc, "skbs_built_per_pkt") >= 0.99);
	assert_true(num(tc, "stack_entries_per_pkt") >= 0.99);
	/* ... native XDP on virtio-net does neither */
	assert_true(num(xdp, "skbs_built_per_pkt") <= 0.01);
	assert_true(num(xdp, "stack_entries_per_pkt") <= 0.01);
	/* verdicts equal the packets that reached the guest, in every trial */
	{
		size_t i;
		json_t *t;

		json_array_foreach(json_object_get(run, "trials"), i, t) {
			double sent = num(t, "sent"), at = num(t, "pkts_at_dut"),
			       lost = num(t, "lost_before_dut");

			assert_true(json_is_true(json_object_get(t, "valid")));
			assert_true(fabs(sent - lost - at) <= sent * 0.001);
			assert_true(fabs(num(t, "dropped") - at) < 1); /* all to port 9999 */
		}
	}
	/* guest time measured for both */
	assert_true(num(tc, "cpu_ns_per_pkt") > 0);
	assert_true(num(xdp, "cpu_ns_per_pkt") > 0);
	/* the counter backends: Debian's guest kernel has kprobes, so they are chosen, and
	 * every backend that attached agrees with them on the same TC-drop trial */
	{
		const json_t *cnt = json_object_get(json_object_get(run, "capabilities"), "counters");
		size_t i, checked = 0;
		json_t *t;

		for (int k = 0; k < 3; k++) {
			static const char *const names[] = { "stack_entries", "skbs_freed", "skbs_built" };

			assert_string_equal(json_string_value(json_object_get(
						    json_object_get(cnt, names[k]), "backend")),
					    "kprobe");
		}
		json_array_foreach(json_object_get(run, "trials"), i, t) {
			static const char *const by[] = { "stack_entries_by_backend",
							  "skbs_freed_by_backend",
							  "skbs_built_by_backend" };
			int rep = (int)json_integer_value(json_object_get(t, "rep"));

			if (strcmp(json_string_value(json_object_get(t, "pass")), "count") ||
			    strcmp(json_string_value(json_object_get(t, "mode")), "tc"))
				continue;
			printf("# tc count trial, repetition %d, by backend:\n", rep + 1);
			for (int k = 0; k < 3; k++) {
				const json_t *m = json_object_get(t, by[k]);
				double ref = num((json_t *)m, "kprobe");
				const char *b;
				json_t *v;

				assert_true(ref >= 0.99 * num(t, "pkts_at_dut"));
				json_object_foreach((json_t *)m, b, v) {
					printf("#   %s %s %.0f\n", by[k], b, json_number_value(v));
					assert_true(fabs(json_number_value(v) - ref) <= 0.01 * ref);
					checked++;
				}
			}
		}
		/* stack: kprobe + tracepoint; freed: + fentry; built: kprobe + fentry */
		assert_true(checked >= 2 * 7);
	}
	json_decref(run);
	assert_guest_gone(prefix);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
}

static void test_guest_boot_timeout_fails_cleanly(void **state)
{
	char tmpl[] = "/tmp/xdptc-vtest-XXXXXX", cmd[512], path[600], prefix[16], out[4096] = "";
	FILE *f;
	int st;

	(void)state;
	st = run_xdptc(xdptc, tmpl, "BOOT_TIMEOUT=1", "run --topology virtio --reps 2", path,
		       sizeof(path));
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 1);
	f = fopen(path, "r");
	assert_non_null(f);
	if (!fread(out, 1, sizeof(out) - 1, f))
		out[0] = '\0';
	fclose(f);
	{ /* what the run said, marked as the failure this test asks for */
		static char copy[sizeof(out)];
		char *l, *save = NULL;

		memcpy(copy, out, sizeof(out));
		l = strstr(copy, "virtio.sh: the guest") ? strstr(copy, "virtio.sh: the guest") : copy;

		printf("# expected failure (BOOT_TIMEOUT=1 on purpose), the run said:\n");
		for (l = strtok_r(l, "\n", &save); l; l = strtok_r(NULL, "\n", &save))
			printf("#   %s\n", l);
	}
	assert_non_null(strstr(out, "did not start its agent within 1 s"));
	run_prefix(path, prefix, sizeof(prefix));
	assert_int_equal(strncmp(prefix, "xdptc-", 6), 0);
	unlink(path);
	assert_guest_gone(prefix);
	assert_null(find_run_dir(tmpl)); /* nothing half-written */
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tmpl);
	assert_int_equal(system(cmd), 0);
}

static void test_missing_qemu_is_one_sentence(void **state)
{
	char cmd[256], out[2048] = "";
	FILE *p;
	int st;

	(void)state;
	snprintf(cmd, sizeof(cmd), "QEMU=/nonexistent/qemu %s run --topology virtio --out /tmp 2>&1",
		 xdptc);
	p = popen(cmd, "r");
	assert_non_null(p);
	if (!fread(out, 1, sizeof(out) - 1, p))
		out[0] = '\0';
	st = pclose(p);
	assert_int_equal(WEXITSTATUS(st), 1);
	assert_non_null(strstr(out, "is not installed (Debian package qemu-system-x86)"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_virtio_run_shows_the_mechanism),
		cmocka_unit_test(test_guest_boot_timeout_fails_cleanly),
		cmocka_unit_test(test_missing_qemu_is_one_sentence),
	};

	INTEGRATION_MAIN("test_run_virtio", tests, NULL, NULL, &xdptc);
}
