/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "cli_parse.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
	char buf[256], *tok, *save = NULL;
	int n = 0;

	if (!s || !*s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		enum drop_mode m;

		if (drop_mode_parse(tok, &m))
			return -EINVAL;
		for (int i = 0; i < n; i++)
			if (out[i] == m)
				return -EINVAL;
		if (n == max)
			return -E2BIG;
		out[n++] = m;
	}
	return n ? n : -EINVAL;
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
			if (parse_count(tok, 1472, &v))
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
