/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_local.h: the callbacks that the topologies whose DUT is a device in a network
 * namespace of this machine, fed by a sender on this machine, share (veth, veth-napi,
 * tap, nic inside its guest): each descriptor names the ones it takes.
 */
#ifndef XDPTC_TOPOLOGY_LOCAL_H
#define XDPTC_TOPOLOGY_LOCAL_H

struct run_ctx;
struct trial_env;

/* local_dut_open - the DUT is c->topo's DUT device in its namespace, on this machine
 * (dut_local.h). Returns 0. */
int local_dut_open(struct run_ctx *c);

/* local_trial_env - the receive path the sender starts runs on the sender's CPU, in its
 * context or its CPU's ksoftirqd: the CPU time per packet is the sender thread's and
 * that CPU's softirq threads' (CPU_SENDER_AND_SOFTIRQ, cpu_time.h). Returns 0. */
int local_trial_env(struct run_ctx *c, struct trial_env *env);

/* veth_pair_trial_env - local_trial_env's, for a DUT that is a veth pair's end: a frame
 * veth could not hand on is counted at both ends (trial_env.veth_pair). Returns 0. */
int veth_pair_trial_env(struct run_ctx *c, struct trial_env *env);

#endif
