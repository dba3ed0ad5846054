/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * fuzz_cli_parse.c: libFuzzer target for `xdptc run`'s option parser, run_opts_parse
 * (cmd/cmd_run.c). The input is split into arguments at NUL and newline bytes and
 * parsed as `xdptc run ARGS...`. The parser must never crash, leak or read out of
 * bounds; when it accepts the options, the options it returns must be within the
 * ranges its help promises (checked here, abort() otherwise).
 */
#include <getopt.h>
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"
#include "run.h"
#include "topologies.h"
#include "sender.h"

#define MAX_ARGS 64
#define FUZZ_MAX_INPUT 4096

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok)
{
	if (!ok)
		abort();
}

/* What run_opts_parse promises when it accepts the options. */
static void check_opts(const struct run_opts *o, const char *topodir)
{
	check(topology_find(o->topology) != NULL);
	check(o->topologies_dir == topodir && o->out_dir);
	check(o->nmodes >= 1 && o->nmodes <= RUN_MAX_MODES);
	for (int i = 0; i < o->nmodes; i++) {
		check(o->modes[i] < MODE_NR);
		for (int j = 0; j < i; j++)
			check(o->modes[i] != o->modes[j] || i == o->aa_arm);
	}
	check(o->aa_arm == -1 || (o->aa_arm == o->nmodes - 1 && o->modes[o->aa_arm] == o->modes[0]));
	check(o->packets >= RUN_PACKETS_MIN && o->packets <= RUN_PACKETS_MAX);
	check(o->reps >= RUN_REPS_MIN && o->reps <= RUN_REPS_MAX);
	check(o->count_reps >= RUN_COUNT_REPS_MIN && o->count_reps <= RUN_COUNT_REPS_MAX);
	check(o->port >= 1 && o->payload_len <= RUN_PAYLOAD_MAX);
	check(o->rate_pps <= 100000000ull && o->seed <= (uint64_t)INT64_MAX);
	check(o->sender >= 0 && o->sender < SENDER_NR);
	check(o->sender_cpu >= 0);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static char topodir[PATH_MAX];
	char *argv[MAX_ARGS + 2], *buf;
	struct run_opts o;
	int argc = 0, r;

	if (size > FUZZ_MAX_INPUT)
		return 0;
	/* one allocation of exactly the input and its final NUL, so that ASan sees any
	 * read past an argument's end */
	buf = malloc(size + 1);
	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	argv[argc++] = "run";
	for (size_t i = 0, start = 0; i <= size && argc <= MAX_ARGS; i++) {
		if (i < size && buf[i] != '\0' && buf[i] != '\n')
			continue;
		buf[i] = '\0';
		if (i > start || i < size) /* an empty line is an empty argument */
			argv[argc++] = buf + start;
		start = i + 1;
	}
	argv[argc] = NULL;

	optind = 0; /* getopt_long starts afresh for every input */
	unsetenv("GUEST_KERNEL");
	memset(&o, 0, sizeof(o));
	r = run_opts_parse(argc, argv, &o, topodir, sizeof(topodir));
	if (r < 0)
		check_opts(&o, topodir);
	else
		check(r == 0 || r == 1 || r == EXIT_USAGE);
	free(buf);
	return 0;
}
