/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology_script.h: a topology's script (topologies/NAME.sh): `up PREFIX` builds it and
 * prints KEY=VALUE lines, `down PREFIX` removes it, `cleanup` removes what killed runs
 * left.
 */
#ifndef XDPTC_TOPOLOGY_SCRIPT_H
#define XDPTC_TOPOLOGY_SCRIPT_H

#include "run_opts.h"
#include "topology.h"

/* A topology as its script printed it (KEY=VALUE lines of `SCRIPT up PREFIX`): the keys
 * more than one topology prints; a key a script does not print stays "". A key that only
 * one topology prints is its own (topology_desc.keys), never a field here. */
struct topology {
	char prefix[16];
	char snd_ns[32], dut_ns[32], snd_dev[16], dut_dev[16], snd_addr[48], dut_addr[48];
	char dut_mac[24];
	char ctl_sock[128], accel[16], accel_reason[128], guest_kernel[64], qemu_version[128];
	char qemu_pid[16];
	char icount[64];     /* virtio.sh with ICOUNT=1: qemu's -icount arguments */
	const char *feed;    /* virtio.sh's FEED (the icount engine's guest: "hub"), or
			      * NULL: a host tap */
	const char *share;   /* the icount engine: the host directory the guest mounts
			      * read-write (XDPTC_SHARE), or NULL */
	int up;
};

/* run_topology_cmd - `sh TOPOLOGIES/SCRIPT @verb PREFIX` for topology @td (its script)
 * with this process as the topology's owner (XDPTC_OWNER_PID), with the script's
 * settings from @o and @t (ICOUNT=1 under the icount engine, else 0; GUEST_KERNEL;
 * XDPTC_SHARE; XDPTC_BIN: this binary), in a process group of its own, with stdin from
 * /dev/null and SIGTERM as its parent-death signal; for "up" the KEY=VALUE lines fill @t
 * and @td's own keys (emptied first), and a stop (SIGINT, SIGTERM, SIGHUP) meanwhile
 * sends SIGTERM to its group, upon which it removes what it made. Returns 0, or -EIO
 * when the script failed (it printed why), -errno when it could not run. */
int run_topology_cmd(const struct run_opts *o, const struct topology_desc *td,
		     const char *verb, struct topology *t);

#endif
