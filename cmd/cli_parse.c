/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "cli_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "name_list.h"
#include "run_opts.h"
#include "sender.h"

int parse_count(const char *s, uint64_t max, uint64_t *out)
{
	unsigned long long v;
	uint64_t mult = 1;
	char *end;

	if (!s || !isdigit((unsigned char)s[0]))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno)
		return -ERANGE;
	if (*end == 'k' || *end == 'K')
		mult = 1000, end++;
	else if (*end == 'M')
		mult = 1000000, end++;
	else if (*end == 'G')
		mult = 1000000000, end++;
	if (*end)
		return -EINVAL;
	if (v > max / mult)
		return -ERANGE;
	*out = (uint64_t)v * mult;
	return 0;
}

int parse_port(const char *s, uint16_t *out)
{
	uint64_t v;

	if (parse_count(s, 65535, &v) || v == 0)
		return -EINVAL;
	*out = (uint16_t)v;
	return 0;
}

int parse_modes(const char *s, enum drop_mode *out, int max)
{
	const char *names[MODE_NR];
	int idx[MODE_NR];
	int n;

	for (int m = 0; m < MODE_NR; m++)
		names[m] = drop_mode_name((enum drop_mode)m);
	n = name_list_parse(s, names, MODE_NR, idx, max < MODE_NR ? max : MODE_NR);
	for (int i = 0; i < n; i++)
		out[i] = (enum drop_mode)idx[i];
	return n;
}

int parse_sweep_values(const char *over, const char *list, char vals[][SWEEP_VALUE_LEN], int max)
{
	char buf[512], *tok, *save = NULL;
	int n = 0;

	if (!list || strlen(list) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		uint64_t v;
		enum sender_kind k;

		if (n == max)
			return -E2BIG;
		if (!strcmp(over, "size")) {
			/* kept as the number itself: "1k" is 1000 bytes, not atoi's 1 */
			if (parse_count(tok, RUN_PAYLOAD_MAX, &v))
				return -EINVAL;
			snprintf(vals[n++], SWEEP_VALUE_LEN, "%u", (unsigned)v);
		} else {
			if (sender_parse(tok, &k))
				return -EINVAL;
			snprintf(vals[n++], SWEEP_VALUE_LEN, "%s", sender_name(k));
		}
	}
	return n ? n : -EINVAL;
}

bool guest_kernel_spec_ok(const char *s)
{
	size_t n = strlen(s);

	if (!n || n > 64 || s[0] < '0' || s[0] > '9')
		return false;
	return strspn(s, "0123456789abcdefghijklmnopqrstuvwxyz.+~-") == n;
}

void cli_count_words(uint64_t v, char *buf, size_t len)
{
	if (v && v % 1000000000ull == 0)
		snprintf(buf, len, "%lluG", (unsigned long long)(v / 1000000000ull));
	else if (v && v % 1000000ull == 0)
		snprintf(buf, len, "%lluM", (unsigned long long)(v / 1000000ull));
	else if (v && v % 1000ull == 0)
		snprintf(buf, len, "%lluk", (unsigned long long)(v / 1000ull));
	else
		snprintf(buf, len, "%llu", (unsigned long long)v);
}

const char *cli_packets_range(void)
{
	static char buf[48];
	uint64_t p = 1;

	for (int i = 0; i < RUN_PACKETS_MAX_EXP10; i++)
		p *= 10;
	_Static_assert(RUN_PACKETS_MAX_EXP10 >= 1, "10^N");
	if (p != RUN_PACKETS_MAX) /* not a power of ten: the number itself */
		snprintf(buf, sizeof(buf), "%llu to %llu", (unsigned long long)RUN_PACKETS_MIN,
			 (unsigned long long)RUN_PACKETS_MAX);
	else
		snprintf(buf, sizeof(buf), "%llu to 10^%d", (unsigned long long)RUN_PACKETS_MIN,
			 RUN_PACKETS_MAX_EXP10);
	return buf;
}
