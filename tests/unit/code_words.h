/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * code_words.h: the unit tests' reader of C source for names (test_matrix_names,
 * test_topology_owns): a file's code with its comments blanked, and the line where a
 * word stands on its own. Static functions: include it in one test program each.
 */
#ifndef XDPTC_TEST_CODE_WORDS_H
#define XDPTC_TEST_CODE_WORDS_H

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* C source @s with its comments blanked (strings and lines kept). Returns @s. */
static char *uncomment(char *s)
{
	for (char *p = s, q = 0; p && *p; p++) { /* q: the quote a string or char is in */
		if (q) {
			if (*p == '\\' && p[1])
				p++;
			else if (*p == q)
				q = 0;
		} else if (*p == '"' || *p == '\'') {
			q = *p;
		} else if (p[0] == '/' && p[1] == '*') {
			char *e = strstr(p + 2, "*/");

			e = e ? e + 2 : p + strlen(p);
			for (char *b = p; b < e; b++) /* its lines kept */
				*b = *b == '\n' ? '\n' : ' ';
			p = e - 1;
		} else if (p[0] == '/' && p[1] == '/') {
			size_t l = strcspn(p, "\n");

			memset(p, ' ', l);
			p += l - 1;
		}
	}
	return s;
}

/* @path's text with its comments blanked, or NULL. Free it. */
static char *code_of(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s;
	long n;

	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	s = calloc((size_t)n + 1, 1);
	if (s && fread(s, 1, (size_t)n, f) != (size_t)n)
		s[0] = '\0';
	fclose(f);
	return uncomment(s);
}

static bool name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
	       c == '_' || c == '-' || c == '.';
}

/* The line of the first place in @code where @name stands as a word of its own (not a
 * part of a longer name: "virtio-net", "virtio.sh", "matrix_exp_container"), or 0. */
static int code_word_line(const char *code, const char *name)
{
	size_t n = strlen(name);

	for (const char *p = code; (p = strstr(p, name)); p++)
		if ((p == code || !name_char(p[-1])) && !name_char(p[n])) {
			int line = 1;

			for (const char *q = code; q < p; q++)
				line += *q == '\n';
			return line;
		}
	return 0;
}

#endif
