/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* dut.c: the DUT's public operations, dispatched to the local (dut_local.c) or remote
 * (dut_remote.c) implementation, and the protocol's JSON encodings. */

#include <errno.h>
#include <stdio.h>
#include "dut.h"

#include <string.h>

/* ------------------------------------------------------------- dispatch ---- */

int dut_attach(struct dut *d, enum drop_mode mode, uint16_t port, uint32_t *prog_id,
	       char kernel_mode[16], char *err, size_t errlen)
{
	return d->ops->attach(d, mode, port, prog_id, kernel_mode, err, errlen);
}

int dut_detach(struct dut *d)
{
	return d->ops->detach(d);
}

int dut_keep_programs(struct dut *d, bool on)
{
	return d->ops->keep ? d->ops->keep(d, on) : -EOPNOTSUPP;
}

static const char *const pass_names[DUT_PASS_NR] = { "timing", "count", "bpfstats",
						      "settle" };

const char *dut_pass_name(enum dut_pass p)
{
	return p < DUT_PASS_NR ? pass_names[p] : "?";
}

int dut_pass_parse(const char *s)
{
	for (int p = 0; p < DUT_PASS_NR; p++)
		if (!strcmp(s, pass_names[p]))
			return p;
	return -1;
}

int dut_snapshot(struct dut *d, enum dut_pass pass, struct dut_snapshot *s)
{
	return d->ops->snapshot(d, pass, s);
}

int dut_counters_open(struct dut *d, const int *order, bool cross_check,
		      struct dut_counters_info *info, char *err, size_t errlen)
{
	memset(info, 0, sizeof(*info));
	return d->ops->counters_open(d, order, cross_check, info, err, errlen);
}

void dut_counters_close(struct dut *d)
{
	d->ops->counters_close(d);
}

int dut_bpf_stats(struct dut *d, bool on)
{
	return d->ops->bpf_stats(d, on);
}

int dut_exec(struct dut *d, const char *cmd, int *status, char *out, size_t outlen)
{
	return d->ops->exec(d, cmd, status, out, outlen);
}

json_t *dut_rx_path(struct dut *d, char *err, size_t errlen)
{
	return d->ops->rx_path(d, err, errlen);
}

int dut_insns(struct dut *d, bool open, struct dut_insns *out, char *err, size_t errlen)
{
	return d->ops->insns(d, open, out, err, errlen);
}

int dut_insns_selfcheck(struct dut *d, struct insn_check c[2], char *err, size_t errlen)
{
	return d->ops->insns_selfcheck(d, c, err, errlen);
}

bool dut_is_remote(const struct dut *d)
{
	return d->remote;
}

void dut_close(struct dut *d)
{
	dut_detach(d);
	dut_counters_close(d);
	dut_bpf_stats(d, false);
	d->ops->close(d);
}

/* ------------------------------------------------------------ encoding ---- */

json_t *dut_snapshot_to_json(const struct dut_snapshot *s)
{
	json_t *j = json_object(), *c = json_array();

	json_object_set_new(j, "ok", json_true());
	json_object_set_new(j, "dropped", json_integer((json_int_t)s->verdicts[VERDICT_DROPPED]));
	json_object_set_new(j, "passed", json_integer((json_int_t)s->verdicts[VERDICT_PASSED]));
	json_object_set_new(j, "rx_packets", json_integer((json_int_t)s->dev.rx_packets));
	json_object_set_new(j, "rx_dropped", json_integer((json_int_t)s->dev.rx_dropped));
	json_object_set_new(j, "tx_packets", json_integer((json_int_t)s->dev.tx_packets));
	json_object_set_new(j, "tx_dropped", json_integer((json_int_t)s->dev.tx_dropped));
	json_object_set_new(j, "rx_missed", json_integer((json_int_t)s->dev.rx_missed));
	json_object_set_new(j, "rx_path_ns", json_integer((json_int_t)s->rx_path_ns));
	json_object_set_new(j, "rx_hardirq_ns", json_integer((json_int_t)s->rx_hardirq_ns));
	json_object_set_new(j, "softirq_ns", json_integer((json_int_t)s->softirq_ns));
	json_object_set_new(j, "busy_ns", json_integer((json_int_t)s->busy_ns));
	json_object_set_new(j, "steal_ns", json_integer((json_int_t)s->steal_ns));
	json_object_set_new(j, "bpf_run_time_ns", json_integer((json_int_t)s->bpf_run_time_ns));
	json_object_set_new(j, "bpf_run_cnt", json_integer((json_int_t)s->bpf_run_cnt));
	if (s->have_counts) {
		for (int i = 0; i < CNT_NR; i++)
			json_array_append_new(c, json_integer((json_int_t)s->counts.v[i]));
		json_object_set_new(j, "counts", c);
	} else {
		json_decref(c);
	}
	return j;
}

static uint64_t u64_of(const json_t *j, const char *k)
{
	return (uint64_t)json_integer_value(json_object_get(j, k));
}

int dut_snapshot_from_json(const json_t *j, struct dut_snapshot *s)
{
	const json_t *c = json_object_get(j, "counts");

	memset(s, 0, sizeof(*s));
	if (!json_is_true(json_object_get(j, "ok")))
		return -EPROTO;
	s->verdicts[VERDICT_DROPPED] = u64_of(j, "dropped");
	s->verdicts[VERDICT_PASSED] = u64_of(j, "passed");
	s->dev.rx_packets = u64_of(j, "rx_packets");
	s->dev.rx_dropped = u64_of(j, "rx_dropped");
	s->dev.tx_packets = u64_of(j, "tx_packets");
	s->dev.tx_dropped = u64_of(j, "tx_dropped");
	s->dev.rx_missed = u64_of(j, "rx_missed");
	s->rx_path_ns = u64_of(j, "rx_path_ns");
	s->rx_hardirq_ns = u64_of(j, "rx_hardirq_ns");
	s->softirq_ns = u64_of(j, "softirq_ns");
	s->busy_ns = u64_of(j, "busy_ns");
	s->steal_ns = u64_of(j, "steal_ns");
	s->bpf_run_time_ns = u64_of(j, "bpf_run_time_ns");
	s->bpf_run_cnt = u64_of(j, "bpf_run_cnt");
	if (json_is_array(c)) {
		if (json_array_size(c) != CNT_NR)
			return -EPROTO;
		for (int i = 0; i < CNT_NR; i++)
			s->counts.v[i] = (uint64_t)json_integer_value(json_array_get(c, (size_t)i));
		s->have_counts = true;
	}
	return 0;
}

json_t *counters_plan_to_json(const struct skb_counters_plan *p)
{
	json_t *j = json_object();

	json_object_set_new(j, "ok", json_true());
	for (int k = 0; k < SKB_COUNT_NR; k++) {
		json_t *c = json_object();

		json_object_set_new(c, "backend",
				    json_string(counter_backend_name(p->backend[k])));
		json_object_set_new(c, "points", json_string(p->points[k]));
		json_object_set_new(c, "passed_over", json_string(p->reason[k]));
		if (p->also[k]) {
			json_t *also = json_array();

			for (int b = 0; b < BACKEND_NR; b++)
				if (p->also[k] & (1u << b))
					json_array_append_new(also, json_string(counter_backend_name(b)));
			json_object_set_new(c, "cross_checked_by", also);
		}
		json_object_set_new(j, skb_count_name((enum skb_count)k), c);
	}
	return j;
}

int counters_plan_from_json(const json_t *j, struct skb_counters_plan *p)
{
	memset(p, 0, sizeof(*p));
	for (int k = 0; k < SKB_COUNT_NR; k++) {
		const json_t *c = json_object_get(j, skb_count_name((enum skb_count)k));
		const char *b = json_string_value(json_object_get(c, "backend"));

		if (!c || !b)
			return -EPROTO;
		p->backend[k] = BACKEND_NONE;
		for (int i = 0; i < BACKEND_NR; i++)
			if (!strcmp(b, counter_backend_name(i)))
				p->backend[k] = i;
		snprintf(p->points[k], sizeof(p->points[k]), "%s",
			 json_string_value(json_object_get(c, "points")) ?: "");
		snprintf(p->reason[k], sizeof(p->reason[k]), "%s",
			 json_string_value(json_object_get(c, "passed_over")) ?: "");
		{
			size_t i;
			json_t *b;

			json_array_foreach(json_object_get(c, "cross_checked_by"), i, b)
				for (int x = 0; x < BACKEND_NR; x++)
					if (!strcmp(json_string_value(b) ?: "", counter_backend_name(x)))
						p->also[k] |= 1u << x;
		}
	}
	return 0;
}
