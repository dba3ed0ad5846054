/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * run_json.h: the objects a run writes into run.json (docs/run-json.md; the schema
 * docs/run.schema.json). Each returns a new reference.
 */
#ifndef XDPTC_RUN_JSON_H
#define XDPTC_RUN_JSON_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dut.h"
#include "run_opts.h"
#include "topology_script.h"
#include "trial.h"

struct timing_plan;

/* per_pkt - @v per packet over @pkts; NaN when no packet reached the DUT (unknown,
 * never 0). */
double per_pkt(uint64_t v, uint64_t pkts);

/* machine_cpu_model - this machine's CPU model (/proc/cpuinfo "model name") into @buf,
 * "unknown" when there is none. */
void machine_cpu_model(char *buf, size_t len);

/* machine_json - "machine": CPU model (/proc/cpuinfo), online CPUs, uname's kernel
 * release, version and arch. */
json_t *machine_json(void);

/* engine_json - "engine": {"name":"host"}, or for the icount engine the guest kernel,
 * qemu, its -icount arguments, the host's CPU and kernel and how ns become
 * instructions. @icount_guest: the virtio DUT guest booted under icount (NULL
 * otherwise); inside the veth engine's guest the host's facts come from the run
 * options the host wrote (o->icount_host). */
json_t *engine_json(const struct run_opts *o, const struct topology *icount_guest);

/* trial_json - one trial: its pass, repetition, sequence number, arm label @label,
 * packet accounting, validity, CPU times (ns), the time metric under the key @time_key
 * ("cpu_ns_per_pkt" or "guest_instructions_per_pkt"), perf stat's events, the counts
 * of the backends in @plan and BPF statistics, as the pass measured them. Unknown
 * figures are null. */
json_t *trial_json(const struct trial_result *r, const char *label, int rep, int seq,
		   const struct skb_counters_plan *plan, const char *time_key);

/* settings_json - "settings": the options the numbers depend on (arms, packets, warm-up,
 * repetitions, port, frame length, sender, CPU, rate, seed, passes, NAPI, in the forms
 * the summary reads), then every other option of the declaration with a JSON key
 * (run_opt_table.c), as run_opt_json writes it. */
json_t *settings_json(const struct run_opts *o);

/* timing_plan_json - "timing_schedule": the alternating timing pass's noise and the
 * schedule chosen from it (run_timing.h's struct timing_plan), or only "classic". */
json_t *timing_plan_json(const struct timing_plan *p);

/* capabilities_json - "capabilities": whether hardware events count per task (@have_pmu,
 * else @pmu_why), the time metric (@time_key) and where it comes from (@remote: a
 * guest's vCPU thread), and the count pass's plan of backends (@ci). */
json_t *capabilities_json(bool have_pmu, const char *pmu_why, bool remote,
			  const struct dut_counters_info *ci, const char *time_key);

/* guest_json - "guest": the virtio DUT guest's kernel, accelerator (kvm or tcg, and
 * why), qemu version, vCPUs, and whether its times are emulated. */
json_t *guest_json(const struct topology *t);

#endif
