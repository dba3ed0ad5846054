/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* name_list.c: a comma list of distinct names from a table (name_list.h). */
#include "name_list.h"

#include <errno.h>
#include <string.h>

int name_list_parse(const char *s, const char *const *names, int nnames, int *out, int max)
{
	char buf[256], *tok, *save = NULL;
	int n = 0;

	if (!s || !*s || strlen(s) >= sizeof(buf))
		return -EINVAL;
	strcpy(buf, s);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		int k = -1;

		for (int i = 0; i < nnames && k < 0; i++)
			if (!strcmp(tok, names[i]))
				k = i;
		if (k < 0)
			return -EINVAL;
		for (int i = 0; i < n; i++)
			if (out[i] == k)
				return -EEXIST;
		if (n == max)
			return -E2BIG;
		out[n++] = k;
	}
	return n ? n : -EINVAL;
}

bool name_list_has(const char *list, const char *word)
{
	size_t n = strlen(word);

	for (const char *s = list; s && n && (s = strstr(s, word)); s += n)
		if ((s == list || s[-1] == ',') && (!s[n] || s[n] == ','))
			return true;
	return false;
}
