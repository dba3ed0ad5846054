/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * sender.h: the four ways xdptc makes traffic, one interface.
 *   udp       a UDP socket and sendmmsg: the kernel builds a socket skb per packet
 *   packet    raw Ethernet frames through AF_PACKET with the qdisc bypassed: one skb
 *             per packet, but no socket or IP output path
 *   xdp-live  BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES running an XDP_TX
 *             program on the sending veth: frames reach the peer as XDP frames, no skb
 *             on the way (the receiving veth needs NAPI: GRO on, or an XDP program)
 *   tap       raw Ethernet frames written into a tap device's descriptor, as a VM's
 *             qemu writes them (tap_sender.h): the DUT is the tap itself, and its
 *             receive path, tun_get_user, runs on the writer's thread
 * All send the same 60-byte (by default) IPv4/UDP frame to the DUT's port.
 */
#ifndef XDPTC_SENDER_H
#define XDPTC_SENDER_H

#include <stddef.h>
#include <stdint.h>

#include "udp_sender.h"

struct bpf_link;

enum sender_kind { SENDER_UDP = 0, SENDER_PACKET, SENDER_XDP_LIVE, SENDER_TAP, SENDER_NR };

const char *sender_name(enum sender_kind k);
/* Parse "udp", "packet", "xdp-live" or "tap". Returns 0 or -EINVAL. */
int sender_parse(const char *s, enum sender_kind *out);

#define SENDER_BATCH_MAX 1024 /* sendmmsg's most messages a call (UIO_MAXIOV) */

struct sender_opts {
	enum sender_kind kind;
	const char *dev;           /* packet, xdp-live: the sending device (this namespace);
				    * tap: the tap written into (the DUT) */
	const char *src_addr;      /* packet, xdp-live: IPv4 source (198.18.0.1) */
	const char *dst_addr;      /* IPv4 destination (the DUT) */
	const char *dst_mac;       /* packet, xdp-live: "aa:bb:cc:dd:ee:ff" of the DUT */
	uint16_t dst_port;
	uint32_t payload_len;
	uint32_t batch;            /* udp, packet: packets per sendmmsg call, 1-1024 (0: 64) */
	uint16_t vlan;             /* packet, xdp-live, tap: the frame's 802.1Q VLAN ID, 1-4094
				    * (0: untagged) */
	uint64_t rate_pps;         /* 0: as fast as possible */
};

struct sender {
	struct sender_opts opts;
	struct udp_sender udp;
	int fd;                    /* packet: the AF_PACKET socket; tap: the tap's file */
	void *skel;                /* xdp-live: struct xdp_tx_bpf * */
	struct bpf_link *resident; /* xdp-live: its program attached to dev (an XDP link) */
	double ns_per_spin;        /* xdp-live paced: ns per spin iteration (calibrated) */
	double ns_per_frame0;      /* ... and per frame without spin, from the last call */
	int ifindex;
	unsigned char frame[1600];
	unsigned int frame_len;
};

/* sender_open - prepare to send in the calling thread's namespace. Returns 0, -EINVAL
 * (bad address, MAC or size), or -errno. */
int sender_open(struct sender *s, const struct sender_opts *o);

/* sender_send - send @count packets; @res as for udp_sender_send (sent = packets the
 * kernel accepted). Returns 0 or -errno. */
int sender_send(struct sender *s, uint64_t count, struct udp_send_result *res);

void sender_close(struct sender *s);

/* sender_xdp_live_probe - does this kernel run XDP programs on live frames
 * (BPF_PROG_TEST_RUN with BPF_F_TEST_XDP_LIVE_FRAMES, Linux 5.18; net/bpf/test_run.c),
 * what the xdp-live sender needs? Tries one frame through a program that drops it, on
 * the loopback device of the calling thread's namespace: nothing is sent. Returns 1 yes,
 * 0 no (the kernel's answer in @why: some kernels refuse it with EPERM), or -errno when it
 * could not try (no program loads at all). */
int sender_xdp_live_probe(char *why, size_t whylen);

/* ip_checksum - the Internet checksum (RFC 1071) of the @len bytes at @p (an IPv4
 * header with its checksum field zeroed), in host order. */
uint16_t ip_checksum(const unsigned char *p, size_t len);

/* frame_add_vlan - insert an 802.1Q tag of VLAN ID @vid (1-4094, priority 0) after the
 * MAC addresses of the @len-byte frame in @buf (@cap bytes). Returns the new length, or
 * -EINVAL (no room, a runt, a bad ID). */
int frame_add_vlan(unsigned char *buf, size_t cap, size_t len, uint16_t vid);

/* build_udp_frame - an Ethernet/IPv4/UDP frame into @buf (at least 42 + @payload_len
 * bytes). Returns its length, or -EINVAL. Exposed for the tests. */
int build_udp_frame(unsigned char *buf, size_t cap, const unsigned char src_mac[6],
		    const unsigned char dst_mac[6], uint32_t src_ip, uint32_t dst_ip,
		    uint16_t src_port, uint16_t dst_port, uint32_t payload_len);

#endif
