/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* trial_snapshot.c: a window's two ends read, and a trial's figures from them
 * (trial_snapshot.h). */
#include "trial_snapshot.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cpu_time.h"
#include "netns.h"
#include "trial_conserve.h"

/* The counters of device @dev in namespace @netns into @st. Returns 0 or -errno. */
static int dev_stats_in(const char *netns, const char *dev, struct netdev_stats *st)
{
	int saved, e = netns_enter(netns, &saved);

	if (e)
		return e;
	e = netdev_stats_read(dev, st);
	netns_return(saved);
	return e;
}

int trial_snapshot_take(const struct trial_env *env, enum drop_mode mode,
			enum trial_pass pass, struct trial_snapshot *s)
{
	int e;

	memset(s, 0, sizeof(*s));
	if (pass == PASS_PROFILE)
		pass = PASS_TIMING; /* the DUT reads its timing figures */
	if ((e = dut_snapshot(env->dut, (enum dut_pass)pass, &s->dut)) ||
	    (!env->window_ns &&
	     (e = dev_stats_in(env->snd_netns, trial_env_snd_dev(env, mode), &s->snd))))
		return e;
	if (env->cpu_source == CPU_GUEST_VCPU)
		s->vcpu_ns = threads_cpu_ns(env->qemu_pid, &env->vcpus);
	s->self_ns = clock_ns(CLOCK_PROCESS_CPUTIME_ID);
	return 0;
}

void trial_compute(const struct trial_env *env, const struct trial_snapshot *b,
		   const struct trial_snapshot *e, const struct udp_send_result *res,
		   struct trial_result *r)
{
	uint64_t cpu;

	r->sent = res->sent;
	r->wall_ns = res->wall_ns;
	r->sender_cpu_ns = res->cpu_ns;
	r->dropped = e->dut.verdicts[VERDICT_DROPPED] - b->dut.verdicts[VERDICT_DROPPED];
	r->passed = e->dut.verdicts[VERDICT_PASSED] - b->dut.verdicts[VERDICT_PASSED];
	r->dut_rx_packets = e->dut.dev.rx_packets - b->dut.dev.rx_packets;
	r->dut_rx_dropped = e->dut.dev.rx_dropped - b->dut.dev.rx_dropped;
	r->dut_rx_missed = e->dut.dev.rx_missed - b->dut.dev.rx_missed;
	r->rx_path_ns = e->dut.rx_path_ns - b->dut.rx_path_ns;
	r->rx_hardirq_ns = e->dut.rx_hardirq_ns - b->dut.rx_hardirq_ns;
	r->snd_tx_dropped = e->snd.tx_dropped - b->snd.tx_dropped;
	r->softirq_cpu_ns = e->dut.softirq_ns - b->dut.softirq_ns;
	r->cpus_busy_ns = e->dut.busy_ns - b->dut.busy_ns;
	if (env->rx_is_sent)
		r->dut_rx_packets = r->sent;
	r->pkts_at_dut = r->mode == MODE_NONE ? r->dut_rx_packets : r->dropped + r->passed;
	if (r->mode == MODE_NETKIT) {
		/* netkit_xmit counts its program's drops in the sending peer's tx_dropped and
		 * what it handed on in the peer's tx_packets (the primary's rx_packets: the
		 * passes alone), so what the program was handed is their sum, and only tx
		 * drops beyond the program's are loss (a full backlog's, which the primary's
		 * rx_dropped counts too, as veth's pair does) */
		uint64_t txd = e->snd.tx_dropped - b->snd.tx_dropped;

		r->dut_rx_packets = (e->snd.tx_packets - b->snd.tx_packets) + txd;
		r->snd_tx_dropped = txd > r->dropped ? txd - r->dropped : 0;
	}
	if (env->window_ns)
		conserve_outside(r);
	else
		conserve_sent(env, r);
	r->vcpu_ns = e->vcpu_ns - b->vcpu_ns;
	cpu = env->cpu_source == CPU_GUEST_VCPU	   ? r->vcpu_ns
	      : env->cpu_source == CPU_GUEST_SOFTIRQ ? r->softirq_cpu_ns
	      : env->cpu_source == CPU_RX_PATH	   ? r->rx_path_ns + r->softirq_cpu_ns
						     : r->sender_cpu_ns + r->softirq_cpu_ns;
	/* no packet at the DUT: the time per packet is unknown (NaN, null in run.json), never
	 * 0, and the trial is invalid */
	r->cpu_ns_per_pkt = r->pkts_at_dut ? (double)cpu / (double)r->pkts_at_dut : NAN;
	if (!r->pkts_at_dut && r->valid) {
		r->valid = false;
		snprintf(r->invalid_reason, sizeof(r->invalid_reason),
			 "no packet reached the DUT: nothing to divide by");
	}
	r->steal_ns = e->dut.steal_ns - b->dut.steal_ns;
	r->self_ns = e->self_ns - b->self_ns;
	if (env->cpu_source == CPU_SENDER_AND_SOFTIRQ) {
		/* (busy time comes in clock ticks, 10 ms: a check, not a measurement); this
		 * process's own reading of the counters is not other load */
		uint64_t measured = r->sender_cpu_ns + r->softirq_cpu_ns + r->steal_ns + r->self_ns;

		r->other_busy_ns = r->cpus_busy_ns > measured ? r->cpus_busy_ns - measured : 0;
		r->other_load = r->wall_ns && r->other_busy_ns * 4 >= r->wall_ns;
		r->host_steal = r->wall_ns && r->steal_ns * 4 >= r->wall_ns;
	}
	if (r->pass == PASS_TIMING && r->mode != MODE_NONE &&
	    e->dut.bpf_run_cnt > b->dut.bpf_run_cnt)
		r->bpf_stats_on = true;
	if (r->pass == PASS_COUNT && e->dut.have_counts && b->dut.have_counts) {
		r->have_counts = true;
		for (int i = 0; i < CNT_NR; i++)
			r->counts.v[i] = e->dut.counts.v[i] - b->dut.counts.v[i];
	}
	if (r->pass == PASS_BPFSTATS && r->mode != MODE_NONE) {
		r->have_bpf_stats = true;
		r->bpf_run_time_ns = e->dut.bpf_run_time_ns - b->dut.bpf_run_time_ns;
		r->bpf_run_cnt = e->dut.bpf_run_cnt - b->dut.bpf_run_cnt;
	}
}
