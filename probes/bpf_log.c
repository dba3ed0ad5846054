/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "bpf_log.h"

#include <bpf/libbpf.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int log_verbose;
static char last_warn[512];

static int bpf_log_print(enum libbpf_print_level level, const char *fmt, va_list ap)
{
	char line[512];
	size_t n;
	const char *msg = line;

	vsnprintf(line, sizeof(line), fmt, ap);
	n = strlen(line);
	while (n && line[n - 1] == '\n')
		line[--n] = '\0';
	if (level == LIBBPF_WARN) {
		if (!strncmp(msg, "libbpf: ", 8))
			msg += 8;
		if (!strncmp(msg, "Kernel error message: ", 22))
			msg += 22;
		/* keep the kernel's own words when libbpf quotes them */
		snprintf(last_warn, sizeof(last_warn), "%s", msg);
	}
	if (log_verbose)
		fprintf(stderr, "%s\n", line);
	return 0;
}

void bpf_log_setup(int verbose)
{
	log_verbose = verbose;
	libbpf_set_print(bpf_log_print);
}

const char *bpf_log_last(void)
{
	return last_warn;
}

void bpf_log_clear(void)
{
	last_warn[0] = '\0';
}
