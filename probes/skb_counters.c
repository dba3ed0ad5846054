/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "skb_counters_user.h"

#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bpf_log.h"
#include "skb_counters.skel.h"

/* libbpf attaches kprobes through this PMU; without it the kernel has no kprobes. */
#define KPROBE_PMU "/sys/bus/event_source/devices/kprobe/type"

static void add_point(struct skb_counters *c, const char *name)
{
	size_t n = strlen(c->points);

	snprintf(c->points + n, sizeof(c->points) - n, "%s%s", n ? "," : "", name);
}

static int keep_link(struct skb_counters *c, struct bpf_link *l, const char *name)
{
	if (!l)
		return -errno;
	c->links[c->nlinks++] = l;
	add_point(c, name);
	return 0;
}

static void try_kprobes(struct skb_counters *c, struct skb_counters_bpf *skel)
{
	struct {
		struct bpf_program *prog;
		const char *sym;
	} kp[] = {
		{ skel->progs.count_alloc_skb, "__alloc_skb" },
		{ skel->progs.count_build_skb, "__build_skb" },
		{ skel->progs.count_napi_build_skb, "__napi_build_skb" },
	};
	int first = c->nlinks;

	for (size_t i = 0; i < sizeof(kp) / sizeof(kp[0]); i++) {
		char name[64];
		int e;

		snprintf(name, sizeof(name), "kprobe:%s", kp[i].sym);
		e = keep_link(c, bpf_program__attach_kprobe(kp[i].prog, false, kp[i].sym), name);
		if (e) {
			snprintf(c->built_reason, sizeof(c->built_reason),
				 "kprobe on %s failed: %s", kp[i].sym, strerror(-e));
			while (c->nlinks > first)
				bpf_link__destroy(c->links[--c->nlinks]);
			return;
		}
	}
	c->built_available = true;
}

int skb_counters_open(struct skb_counters *c, uint32_t dut_ifindex, uint32_t dut_netns_ino,
		      char *err, size_t errlen)
{
	struct skb_counters_bpf *skel;
	bool kprobes = access(KPROBE_PMU, F_OK) == 0;
	int e;

	memset(c, 0, sizeof(*c));
	skel = skb_counters_bpf__open();
	if (!skel) {
		snprintf(err, errlen, "opening the skb counters failed: %s", strerror(errno));
		return -errno;
	}
	c->skel = skel;
	skel->rodata->dut_ifindex = dut_ifindex;
	skel->rodata->dut_netns_ino = dut_netns_ino;
	if (!kprobes) {
		bpf_program__set_autoload(skel->progs.count_alloc_skb, false);
		bpf_program__set_autoload(skel->progs.count_build_skb, false);
		bpf_program__set_autoload(skel->progs.count_napi_build_skb, false);
		snprintf(c->built_reason, sizeof(c->built_reason),
			 "no kprobes in this kernel (" KPROBE_PMU " missing) and no tracepoint "
			 "marks skb construction");
	}
	e = skb_counters_bpf__load(skel);
	if (e) {
		snprintf(err, errlen, "loading the skb counters failed: %s (%s)", strerror(-e),
			 bpf_log_last());
		skb_counters_close(c);
		return e;
	}
	if ((e = keep_link(c, bpf_program__attach(skel->progs.count_stack_entry),
			   "tracepoint:net:netif_receive_skb")) ||
	    (e = keep_link(c, bpf_program__attach(skel->progs.count_kfree_skb),
			   "tracepoint:skb:kfree_skb")) ||
	    (e = keep_link(c, bpf_program__attach(skel->progs.count_consume_skb),
			   "tracepoint:skb:consume_skb"))) {
		snprintf(err, errlen, "attaching the skb tracepoints failed: %s", strerror(-e));
		skb_counters_close(c);
		return e;
	}
	if (kprobes)
		try_kprobes(c, skel);
	return 0;
}

int skb_counters_read(struct skb_counters *c, struct skb_counts *out)
{
	struct skb_counters_bpf *skel = c->skel;
	int ncpu = libbpf_num_possible_cpus(), fd = bpf_map__fd(skel->maps.counts);
	uint64_t *vals;

	if (ncpu <= 0)
		return -EINVAL;
	vals = calloc((size_t)ncpu, sizeof(*vals));
	if (!vals)
		return -ENOMEM;
	for (uint32_t k = 0; k < CNT_NR; k++) {
		if (bpf_map_lookup_elem(fd, &k, vals)) {
			int e = -errno;

			free(vals);
			return e;
		}
		out->v[k] = 0;
		for (int i = 0; i < ncpu; i++)
			out->v[k] += vals[i];
	}
	free(vals);
	return 0;
}

void skb_counters_close(struct skb_counters *c)
{
	while (c->nlinks > 0)
		bpf_link__destroy(c->links[--c->nlinks]);
	if (c->skel)
		skb_counters_bpf__destroy(c->skel);
	c->skel = NULL;
}
