/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * topology.h: what a topology is to the run driver (struct topology_desc), and the list
 * of them. Each topology is one descriptor in a file of its own (topology_NAME.c) and one
 * row of TOPOLOGY_LIST below; topologies.c turns the list into the table that
 * --topology, --help, the manual, `cleanup` and the run read. Types only.
 */
#ifndef XDPTC_TOPOLOGY_H
#define XDPTC_TOPOLOGY_H

#include <stdbool.h>
#include <stdint.h>

#include "run_opts.h"

struct run_ctx;
struct trial_env;
struct json_t;

/* The defaults of a run on a topology under one engine (what --packets, --reps and --rate
 * give when they are not given). */
struct topology_defaults {
	uint64_t packets;  /* per measured window of the count, bpfstats and profile passes
			    * (and the classic timing pass) */
	int reps;          /* repetitions of the timing pass */
	uint64_t rate_pps; /* the sender's pace, packets/s; 0: unpaced */
};

/* topology_desc.allows: what a run on the topology may ask for */
#define TOPOLOGY_THREADED_NAPI (1u << 0) /* --threaded-napi, --napi-cpu (the DUT's NAPI is
					  * this machine's) */
#define TOPOLOGY_GUEST_KERNEL (1u << 1)  /* --guest-kernel on the host engine */
#define TOPOLOGY_NIC_MODEL (1u << 5)     /* --nic: the DUT's qemu NIC model */
#define TOPOLOGY_REBUILD (1u << 4)       /* the alternating pass's segments build the
					  * topology anew (down, up, the DUT opened again) */

/* Where a topology's time per packet and perf events are read, in words; NULL: a local
 * DUT's (per-task CPU time of the sender thread and the DUT's softirq/NAPI threads). */
struct topology_scope {
	const char *time;      /* stderr's "time per packet from ..." */
	const char *perf;      /* stderr's "perf stat counts EVENTS over each timing window
				* on ..." */
	const char *perf_json; /* run.json's settings.perf_scope */
};

/* A key that only one topology's script prints (KEY=VALUE of its `up`): its owner's, read
 * into the owner's own buffer, never a field of the shared struct topology
 * (topology_script.h). A table of them ends with { NULL }. */
struct topology_key {
	const char *key; /* KEY, as the script prints it */
	char *val;       /* where its value goes ("" when the script printed none) */
	size_t len;      /* sizeof the buffer */
};

/* One topology. The callbacks get the run as it stands (run_ctx.h); NULL: nothing to do. */
struct topology_desc {
	const char *name;    /* --topology NAME, run.json's "topology", the run directory's
			      * suffix */
	const char *script;  /* in the topologies directory: `up`, `down`, `cleanup` */
	const char *help;    /* what it is, for --help and the manual: a phrase */
	struct topology_defaults host, icount; /* per engine */
	unsigned int allows; /* TOPOLOGY_* */
	const char *modes;   /* the default --modes, a comma list (NULL: tc,xdpdrv) */
	unsigned int own_modes; /* (1u << MODE_*): modes only this topology runs; every
				 * topology that does not own one refuses it, saying so */
	const char *own_modes_why; /* why they need this topology, a phrase for the refusal */
	int own_sender;      /* a sender (SENDER_*, loader/sender.h) only this topology takes,
			      * and the only one it takes (tap: frames written into the tap it
			      * makes); its default. 0: none, --sender as given (udp) */
	const char *udp_only; /* why it takes only the UDP socket sender, a phrase for the
			       * refusal of any other ("sends from the container's UDP
			       * socket ..."), or NULL: any sender no topology owns */
	const struct topology_key *keys; /* its script's keys of its own, or NULL */
	bool remote;         /* the DUT is a guest, driven through its agent (dut_remote.c);
			      * else this machine's namespace (dut_local.c) */
	const char *doctor_item; /* doctor's item that says whether native XDP works on the
				  * DUT here (said when it does not), or NULL */
	const char *no_flame; /* why the profile pass's flame graphs cannot be had here, or
			       * NULL: this machine's perf sees the DUT's kernel */
	bool outside;        /* the traffic comes from outside (--dev names the device):
			      * nothing is sent from here, a trial is a window of --window
			      * seconds, the NIC's counters stand for the sent count */
	/* before the run takes its lock or touches anything: the options checked against
	 * the machine (the device named exists...). Returns -1 to go on, or the exit status
	 * (said why). NULL: nothing to check. */
	int (*preflight)(const struct run_opts *o);
	bool icount_only;    /* runs under the icount engine only (its .host defaults are
			      * never used, nor listed) */
	bool icount_inside;  /* the icount engine runs the whole experiment inside a guest
			      * (engine_icount.c); else it boots the DUT's guest under icount
			      * and drives it from here */
	const char *icount_feed; /* icount_inside: how the engine's guest is fed (virtio.sh's
				  * FEED: "hub", a second NIC of the guest on one qemu hub with
				  * the DUT's), or NULL: a host tap */
	bool sender_skb_apart; /* the sender's socket builds its own skb in the measured
				* kernel and its NIC frees it, apart from the skb the DUT
				* receives (nic: one more skb built per packet, in every
				* mode); run.json's sender_skb_apart */
	struct topology_scope scope; /* where its time and perf events are read (the host
				      * engine's; under icount the engine's words) */
	const char *timed;   /* what the time per packet counts, a phrase for summary.md's
			      * "Time:" line (run.json's "timed"), or NULL: the sender
			      * thread, which runs the veth receive softirq, and the
			      * softirq/NAPI threads */
	const char *icount_as; /* under the icount engine the run is this topology's
				* instead (virtio: nic, whose count does not follow the
				* host), or NULL */
	/* the DUT reached, once the script's `up` is done: c->dut opened. Returns 0, or -1
	 * (said why). */
	int (*dut_open)(struct run_ctx *c);
	/* what only this topology's trials need in @env (its CPU time's source, the
	 * sender's side); the run fills in the rest. Returns 0, or -1 (said why). */
	int (*trial_env)(struct run_ctx *c, struct trial_env *env);
	/* the receive path made ready before the first trial (NAPI, GRO) */
	void (*rx_prepare)(struct run_ctx *c);
	/* what run.json says of the topology beyond the run's own keys (a guest's
	 * description and its doctor) */
	void (*json_describe)(struct run_ctx *c, struct json_t *run);
	/* after the passes, before the rate search: the topology's own checks of what was
	 * measured (c->trials), recorded in c->run. Returns 0, or a negative errno (said
	 * why, in c->why): the run fails, what it measured kept. NULL: nothing to check. */
	int (*after_passes)(struct run_ctx *c);
};

/* The topologies, in the order --help lists them: X(NAME) declares topology_NAME, the
 * descriptor in topology_NAME.c. Adding a topology is adding its file and its row. */
#define TOPOLOGY_LIST(X) \
	X(veth)          \
	X(virtio)        \
	X(nic)           \
	X(dev)           \
	X(container)     \
	X(tap)           \
	X(veth_napi)     \
	X(routed)

#define TOPOLOGY_DECLARE(n) extern const struct topology_desc topology_##n;
TOPOLOGY_LIST(TOPOLOGY_DECLARE)
#undef TOPOLOGY_DECLARE

#endif
