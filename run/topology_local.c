/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/* topology_local.c: the callbacks of the topologies whose DUT is on this machine
 * (topology_local.h). */
#include "topology_local.h"

#include "cpu_time.h"
#include "dut_local.h"
#include "run_ctx.h"

int local_dut_open(struct run_ctx *c)
{
	dut_local_init(&c->dut, c->topo.dut_ns, c->topo.dut_dev);
	return 0;
}

int local_trial_env(struct run_ctx *c, struct trial_env *env)
{
	env->cpu_source = CPU_SENDER_AND_SOFTIRQ;
	if (c->o.sender_cpu >= 0)
		softirq_tasks_find_cpu(c->o.sender_cpu, &c->dut.softirq);
	return 0;
}

int veth_pair_trial_env(struct run_ctx *c, struct trial_env *env)
{
	env->veth_pair = true;
	return local_trial_env(c, env);
}
