/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * percpu_array.h: read a BPF_MAP_TYPE_PERCPU_ARRAY of __u64 counters, each key's values
 * summed over every possible CPU (the drop programs' verdicts, the probes' counts).
 */
#ifndef XDPTC_PERCPU_ARRAY_H
#define XDPTC_PERCPU_ARRAY_H

#include <stdint.h>

/* percpu_array_sum - for keys 0..@nkeys-1 of the per-CPU array at @map_fd, the sum over
 * all possible CPUs (libbpf_num_possible_cpus) into @out[key]. Returns 0 or -errno (the
 * lookup's, -ENOMEM, or -EINVAL when the CPU count cannot be read). */
int percpu_array_sum(int map_fd, uint32_t nkeys, uint64_t *out);

#endif
