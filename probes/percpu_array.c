/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "percpu_array.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdlib.h>

int percpu_array_sum(int map_fd, uint32_t nkeys, uint64_t *out)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t *vals;

	if (ncpu <= 0)
		return ncpu ? ncpu : -EINVAL;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (uint32_t k = 0; k < nkeys; k++) {
		if (bpf_map_lookup_elem(map_fd, &k, vals)) {
			int e = -errno;

			free(vals);
			return e;
		}
		out[k] = 0;
		for (int c = 0; c < ncpu; c++)
			out[k] += vals[c];
	}
	free(vals);
	return 0;
}
