/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * A matrix's repeated boots (analysis/matrix_boots.h): a committed matrix with a second
 * boot of every cell added, its deltas shifted by a known amount, keeps its first boot's
 * tables and plots, and gains a "Between boots" table whose spread is the shift and whose
 * overlap counts follow the intervals; matrices joined as boots of one another number
 * them in order. Run from the repository root.
 */
#include <jansson.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "matrix.h"
#include "matrix_boots.h"

#define MATRIX "results/examples/20261201T213000Z-matrix/matrix.json"

static char *render(const json_t *m)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(matrix_write_md(m, f), 0);
	fclose(f);
	return buf;
}

/* @m with a boot 2 of its first @n entries, every delta moved by @shift (relative). */
static json_t *with_boot2(const json_t *m, int n, double shift)
{
	json_t *c = json_deep_copy(m), *es = json_object_get(c, "entries");

	for (int i = 0; i < n; i++) {
		json_t *e = json_deep_copy(json_array_get(es, (size_t)i)), *d;
		size_t k;

		json_object_set_new(e, "boot", json_integer(2));
		json_array_foreach(json_object_get(e, "deltas"), k, d)
			for (const char *const *f = (const char *const[]){ "rel_delta", "ci95_lo",
									  "ci95_hi", NULL }; *f; f++)
				if (json_is_number(json_object_get(d, *f)))
					json_object_set_new(d, *f, json_real(json_number_value(
						json_object_get(d, *f)) + shift));
		json_array_append_new(es, e);
	}
	return c;
}

static void test_first_boot_tables(void **state)
{
	json_t *m = json_load_file(MATRIX, 0, NULL), *two;
	char *a, *b;

	(void)state;
	assert_non_null(m);
	two = with_boot2(m, 3, 0.001);
	a = render(m);
	b = render(two);
	assert_null(strstr(a, "## Between boots"));
	assert_non_null(strstr(b, "## Between boots"));
	/* everything before the new section is the one-boot matrix.md */
	assert_int_equal(strncmp(a, b, strlen(a)), 0);
	free(a);
	free(b);
	json_decref(two);
	json_decref(m);
}

/* The Between-boots row of 6.16 veth-udp xdpdrv's retired delta, @m's first cell given a
 * second boot @shift away: whether it says @want; and that no other cell has a row. */
static void row_says(const json_t *m, double shift, const char *want)
{
	json_t *two = with_boot2(m, 1, shift);
	char *b = render(two), *row, line[1024];

	row = strstr(b, "| 6.16 | veth-udp | xdpdrv | retired_instructions_per_pkt |");
	assert_non_null(row);
	snprintf(line, sizeof(line), "%.*s", (int)strcspn(row, "\n"), row);
	assert_non_null(strstr(line, want));
	assert_null(strstr(b, "| 6.18 | veth-udp |"));
	free(b);
	json_decref(two);
}

static void test_spread_and_overlap(void **state)
{
	json_t *m = json_load_file(MATRIX, 0, NULL);

	(void)state;
	assert_non_null(m);
	/* the first entry is 6.16 veth-udp: xdpdrv's retired interval is [+10.877%,
	 * +10.966%] (matrix.md): a shift of 0.05 pp keeps them overlapping, 0.5 does not */
	row_says(m, 0.0005, "| 0.050 | 1 of 1 |");
	row_says(m, 0.005, "| 0.500 | 0 of 1 |");
	json_decref(m);
}

static void test_join(void **state)
{
	json_t *m = json_load_file(MATRIX, 0, NULL), *v[3], *j;
	const json_t *e;
	size_t i;
	int boots3 = 0;

	(void)state;
	assert_non_null(m);
	v[0] = v[1] = v[2] = m;
	j = matrix_boots_join(v, 3);
	assert_non_null(j);
	assert_int_equal(json_array_size(json_object_get(j, "entries")),
			 3 * json_array_size(json_object_get(m, "entries")));
	json_array_foreach(json_object_get(j, "entries"), i, e)
		boots3 += json_integer_value(json_object_get(e, "boot")) == 3;
	assert_int_equal(boots3, (int)json_array_size(json_object_get(m, "entries")));
	json_decref(j);
	json_decref(m);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_first_boot_tables),
		cmocka_unit_test(test_spread_and_overlap),
		cmocka_unit_test(test_join),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
