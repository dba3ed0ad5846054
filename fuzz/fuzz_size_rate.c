/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fuzz_size_rate.c: libFuzzer target for the value parsers behind the options:
 * parse_count (counts, rates and sizes with k/M/G suffixes: --packets, --rate,
 * --warmup, --size, --reps, --cpu, --seed) and parse_port (cmd/cli_parse.c), and the
 * list and name parsers parse_modes, parse_counter_backends, drop_mode_parse,
 * sender_parse and parse_sweep_values (`xdptc sweep --values`). The input is one string (up to its first NUL). Besides never crashing,
 * parse_count must agree with a reference written differently (128-bit arithmetic) on
 * every bound the options use, a parsed list must hold distinct known names, and a
 * sweep must run every value it was given, each as the number it was given as.
 */
#include <ctype.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli_parse.h"
#include "drop_prog.h"
#include "run.h"
#include "sender.h"
#include "skb_counters.h"

#define FUZZ_MAX_INPUT 1024

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
	if (!ok)
		abort();
}

/* The reference: digits, at most one suffix (k, K, M or G), nothing else; a number
 * beyond 64 bits is -ERANGE whatever follows it (as strtoull reports it first). */
static int ref_count(const char *s, uint64_t max, uint64_t *out)
{
	unsigned __int128 v = 0, mult = 1;
	const unsigned __int128 cap = (unsigned __int128)UINT64_MAX + 1;
	size_t i = 0;

	if (!isdigit((unsigned char)s[0]))
		return -EINVAL;
	for (; s[i] >= '0' && s[i] <= '9'; i++) {
		v = v * 10 + (unsigned)(s[i] - '0');
		if (v > cap)
			v = cap;
	}
	if (v == cap)
		return -ERANGE;
	if (s[i] == 'k' || s[i] == 'K')
		mult = 1000, i++;
	else if (s[i] == 'M')
		mult = 1000000, i++;
	else if (s[i] == 'G')
		mult = 1000000000, i++;
	if (s[i])
		return -EINVAL;
	if (v * mult > max)
		return -ERANGE;
	*out = (uint64_t)(v * mult);
	return 0;
}

static void fuzz_count(const char *s)
{
	/* every bound an option passes, and the extremes */
	static const uint64_t maxes[] = { 0, 1, 100, 1472, 4095, 65535, 100000000ull,
					  1000000000000ull, (uint64_t)INT64_MAX, UINT64_MAX };
	uint64_t got, want;
	uint16_t port;

	for (size_t i = 0; i < sizeof(maxes) / sizeof(maxes[0]); i++) {
		int e = parse_count(s, maxes[i], &got), re = ref_count(s, maxes[i], &want);

		check(e == re);
		check(e || (got == want && got <= maxes[i]));
	}
	if (!parse_port(s, &port))
		check(!ref_count(s, 65535, &want) && want && port == want);
	else
		check(ref_count(s, 65535, &want) || !want);
}

static void fuzz_lists(const char *s)
{
	for (int max = 1; max <= RUN_MAX_MODES; max += RUN_MAX_MODES - 1) {
		/* exactly @max entries on the heap: ASan sees a write past them */
		enum drop_mode *modes = malloc(sizeof(*modes) * (size_t)max);
		int n;

		if (!modes)
			return;
		n = parse_modes(s, modes, max);
		check(n == -EINVAL || n == -EEXIST || n == -E2BIG || (n >= 1 && n <= max));
		for (int i = 0; i < n; i++) {
			check(modes[i] < MODE_NR);
			for (int j = 0; j < i; j++)
				check(modes[i] != modes[j]);
		}
		free(modes);
	}
	{
		int *order = malloc(sizeof(*order) * (BACKEND_NR + 1));
		int n;

		if (!order)
			return;
		n = parse_counter_backends(s, order);
		check(n == -EINVAL || (n >= 1 && n <= BACKEND_NR));
		for (int i = 0; i < n; i++) {
			check(order[i] >= 0 && order[i] < BACKEND_NR);
			for (int j = 0; j < i; j++)
				check(order[i] != order[j]);
		}
		if (n > 0)
			check(order[n] == BACKEND_NONE);
		free(order);
	}
	{
		enum drop_mode m;
		enum sender_kind k;

		if (!drop_mode_parse(s, &m))
			check(!strcmp(drop_mode_name(m), s));
		if (!sender_parse(s, &k))
			check(!strcmp(sender_name(k), s));
	}
}

#define SWEEP_MAX 16 /* as cmd_sweep.c */

static void fuzz_sweep(const char *s)
{
	char (*vals)[SWEEP_VALUE_LEN] = malloc(sizeof(*vals) * SWEEP_MAX);
	int tokens = 0;

	if (!vals)
		return;
	for (const char *p = s; *p; p++) /* the non-empty tokens between commas */
		tokens += *p != ',' && (p == s || p[-1] == ',');
	for (int k = 0; k < 2; k++) {
		const char *over = k ? "sender" : "size";
		int n = parse_sweep_values(over, s, vals, SWEEP_MAX);
		uint64_t v;
		enum sender_kind kind;

		check(n < 0 || (n >= 1 && n <= SWEEP_MAX && n == tokens));
		for (int i = 0; i < n; i++) {
			check(memchr(vals[i], '\0', SWEEP_VALUE_LEN) != NULL);
			if (k) {
				check(!sender_parse(vals[i], &kind));
				continue;
			}
			/* cmd_sweep runs atoi(vals[i]) bytes of payload */
			check(!parse_count(vals[i], 1472, &v) && (uint64_t)atoi(vals[i]) == v);
		}
	}
	free(vals);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	s = malloc(size + 1); /* exactly the string: ASan sees a read past its NUL */
	if (!s)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	fuzz_count(s);
	fuzz_lists(s);
	fuzz_sweep(s);
	free(s);
	return 0;
}
