/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * drop_verdicts.h: what the drop programs share with user space.
 * Included by both BPF programs and by the loader (plain C11).
 */
#ifndef XDPTC_DROP_VERDICTS_H
#define XDPTC_DROP_VERDICTS_H

/* Index into the per-CPU `verdicts` array map (value: __u64 packets per CPU). */
enum drop_verdict_idx {
	VERDICT_DROPPED = 0, /* frames the program dropped (XDP_DROP / TC_ACT_SHOT) */
	VERDICT_PASSED = 1,  /* frames the program let through (XDP_PASS / TC_ACT_OK) */
	VERDICT_NR,
};

/* Name of the map, used to find it from an attached program's id. */
#define DROP_VERDICTS_MAP_NAME "verdicts"
#define DROP_DEFAULT_PORT 9999

#endif /* XDPTC_DROP_VERDICTS_H */
