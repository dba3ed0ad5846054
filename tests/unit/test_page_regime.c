/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The every-iteration count's page-clearing regime (analysis/page_regime.h) on committed
 * runs of the icount engine: 6.1 veth-xdp-live, where tc clears a page for every packet
 * and xdpdrv none (the arms' regimes differ: summary.md says so in one sentence, with
 * the retired count to compare); 6.12 veth-udp, where no arm clears a page (no
 * sentence); and the same 6.1 run with its tc windows' pages_cleared_per_pkt set apart
 * (the windows' regimes differ: said). Run from the repository root.
 */
#include <jansson.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "page_regime.h"
#include "report.h"
#include "summary.h"
#include "summary_md.h"

#define M "results/examples/20261202T033805Z-matrix/runs/"
#define XDP_LIVE M "6.1-veth-xdp-live/20261202T033829Z-veth-icount"
#define M12 "results/examples/20261201T210011Z-matrix/runs/"

static json_t *load(const char *dir)
{
	char err[600];
	json_t *run = NULL;

	if (report_load(dir, &run, err, sizeof(err)))
		fail_msg("%s (run from the source tree's top)", err);
	return run;
}

static const json_t *mode_of(const json_t *s, const char *mode)
{
	const json_t *m;
	size_t i;

	json_array_foreach(json_object_get(s, "modes"), i, m)
		if (!strcmp(json_string_value(json_object_get(m, "mode")), mode))
			return m;
	fail_msg("no mode %s", mode);
	return NULL;
}

static char *render(json_t *run)
{
	char *md = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&md, &len);

	json_object_set_new(run, "summary", summary_compute(run));
	assert_int_equal(summary_render_md(run, NULL, f), 0);
	fclose(f);
	return md;
}

static void test_arms_in_different_regimes(void **state)
{
	json_t *run = load(XDP_LIVE);
	char *md = render(run), buf[2048];
	const json_t *s = json_object_get(run, "summary");

	(void)state;
	printf("# tc %.3f, xdpdrv %.3f pages cleared per packet\n",
	       json_number_value(json_object_get(mode_of(s, "tc"), "pages_cleared_per_pkt")),
	       json_number_value(json_object_get(mode_of(s, "xdpdrv"), "pages_cleared_per_pkt")));
	/* clear_page_erms: 4,119.68 every iteration, 4.02 retired per packet: 1.005 pages */
	assert_true(fabs(json_number_value(json_object_get(mode_of(s, "tc"), "pages_cleared_per_pkt")) - 1.005) < 0.001);
	assert_string_equal(json_string_value(json_object_get(mode_of(s, "tc"), "page_regime")), "every packet");
	assert_string_equal(json_string_value(json_object_get(mode_of(s, "xdpdrv"), "page_regime")), "none");
	assert_true(page_regime_sentence(json_object_get(s, "modes"), buf, sizeof(buf)));
	assert_non_null(strstr(md, "**Page clearing**: tc cleared a page for every packet"));
	assert_non_null(strstr(md, "compare figures of windows in one regime"));
	assert_non_null(strstr(md, "| page clearing regime (pages cleared per packet; windows by regime) | every packet (1.00) |"));
	free(md);
	json_decref(run);
}

static void test_one_regime_says_nothing(void **state)
{
	json_t *run = load(M12 "6.12-veth-udp/20261201T210028Z-veth-icount");
	char *md = render(run), buf[2048];

	(void)state;
	assert_false(page_regime_sentence(json_object_get(json_object_get(run, "summary"), "modes"),
					  buf, sizeof(buf)));
	assert_null(strstr(md, "**Page clearing**"));
	assert_non_null(strstr(md, "| page clearing regime"));
	free(md);
	json_decref(run);
}

static void test_windows_in_different_regimes(void **state)
{
	json_t *run = load(XDP_LIVE), *t;
	const json_t *w;
	char *md;
	size_t i;
	int k = 0;

	(void)state;
	json_array_foreach(json_object_get(run, "trials"), i, t)
		if (!strcmp(json_string_value(json_object_get(t, "pass")), "timing") &&
		    !strcmp(json_string_value(json_object_get(t, "mode")), "xdpdrv"))
			json_object_set_new(t, "pages_cleared_per_pkt", json_real(k++ < 2 ? 0.6 : 0.03));
	md = render(run);
	w = json_object_get(mode_of(json_object_get(run, "summary"), "xdpdrv"), "page_regime_windows");
	assert_int_equal(json_integer_value(json_object_get(w, "some packets")), 2);
	assert_int_equal(json_integer_value(json_object_get(w, "none")), k - 2);
	assert_non_null(strstr(md, "xdpdrv's timing windows ran in 2 regimes"));
	free(md);
	json_decref(run);
}

static void test_bands(void **state)
{
	(void)state;
	assert_null(page_regime_name(NAN));
	assert_string_equal(page_regime_name(0.006), "none");
	assert_string_equal(page_regime_name(0.38), "some packets");
	assert_string_equal(page_regime_name(0.63), "some packets");
	assert_string_equal(page_regime_name(1.0), "every packet");
	assert_string_equal(page_regime_name(1.143), "every packet");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_arms_in_different_regimes),
		cmocka_unit_test(test_one_regime_says_nothing),
		cmocka_unit_test(test_windows_in_different_regimes),
		cmocka_unit_test(test_bands),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
