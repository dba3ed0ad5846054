/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * udp_classifier.h: the one UDP-drop classifier of xdptc.
 *
 * Written once and included by the XDP program (xdp_drop.bpf.c), the TC program
 * (tc_drop.bpf.c) and user-space tests, so all of them decide every frame the same way.
 * It reads raw bytes only (no kernel structs, no byte-order macros), which is why it
 * compiles unchanged for BPF and for the host.
 *
 * Policy: DROP an Ethernet frame that carries UDP with destination port `port`
 * over IPv4 or IPv6, with zero, one or two VLAN tags (802.1Q 0x8100 / 802.1ad 0x88a8).
 * The tags are counted as the frame arrived on the wire: a tag the kernel has already
 * moved out of the bytes into skb metadata (skb_vlan_untag() in
 * __netif_receive_skb_core, after generic XDP and before TC ingress; or the driver's
 * VLAN receive offload) is passed in as `tags_outside` and counts as one of the two,
 * so XDP and TC judge the same frame alike.
 * PASS everything else, including:
 *   - frames too short to hold the headers that are needed (truncated);
 *   - IPv4 with IHL < 5 or version != 4, or a total length too short for a UDP header;
 *   - non-first IPv4/IPv6 fragments (no UDP header in them); first fragments are
 *     classified by their UDP header;
 *   - IPv6 with more than UDPC_MAX_EXT_HDRS extension headers before UDP, or with an
 *     ESP/unknown next header;
 *   - every other EtherType.
 */
#ifndef XDPTC_UDP_CLASSIFIER_H
#define XDPTC_UDP_CLASSIFIER_H

#include <linux/types.h>

#ifndef __always_inline
#define __always_inline inline __attribute__((always_inline))
#endif

/* Unroll the bounded header loops for the BPF verifier (clang); plain loops elsewhere. */
#if defined(__clang__)
#define UDPC_UNROLL _Pragma("unroll")
#else
#define UDPC_UNROLL
#endif

enum udp_verdict {
	UDP_VERDICT_PASS = 0,
	UDP_VERDICT_DROP = 1,
};

#define UDPC_ETH_HLEN 14
#define UDPC_VLAN_HLEN 4
#define UDPC_MAX_VLAN_TAGS 2
#define UDPC_MAX_EXT_HDRS 6
/* Bytes of headers the classifier may read at most: Ethernet, two tags, IPv6, six
 * extension headers of at most 256 bytes... bounded below to what parse_ipv6 walks. */
#define UDPC_MAX_HDR_BYTES 512

#define UDPC_ETH_P_IP 0x0800
#define UDPC_ETH_P_IPV6 0x86DD
#define UDPC_ETH_P_8021Q 0x8100
#define UDPC_ETH_P_8021AD 0x88A8
#define UDPC_IPPROTO_UDP 17

static __always_inline __u16 udpc_be16(const __u8 *p)
{
	return (__u16)((p[0] << 8) | p[1]);
}

/* The UDP header at l4 (bounds checked here): DROP if its destination port is `port`. */
static __always_inline enum udp_verdict udpc_check_udp(const __u8 *l4, const void *data_end,
						       __u16 port)
{
	if ((const void *)(l4 + 8) > data_end)
		return UDP_VERDICT_PASS;
	return udpc_be16(l4 + 2) == port ? UDP_VERDICT_DROP : UDP_VERDICT_PASS;
}

static __always_inline enum udp_verdict udpc_parse_ipv4(const __u8 *l3, const void *data_end,
							__u16 port)
{
	__u32 ihl_bytes;

	if ((const void *)(l3 + 20) > data_end)
		return UDP_VERDICT_PASS;
	if ((l3[0] >> 4) != 4)
		return UDP_VERDICT_PASS;
	ihl_bytes = (__u32)(l3[0] & 0x0f) * 4;
	if (ihl_bytes < 20)
		return UDP_VERDICT_PASS;
	if (l3[9] != UDPC_IPPROTO_UDP)
		return UDP_VERDICT_PASS;
	if (udpc_be16(l3 + 6) & 0x1fff) /* fragment offset != 0: no UDP header here */
		return UDP_VERDICT_PASS;
	if (udpc_be16(l3 + 2) < ihl_bytes + 8) /* total length leaves no room for UDP */
		return UDP_VERDICT_PASS;
	return udpc_check_udp(l3 + ihl_bytes, data_end, port);
}

static __always_inline enum udp_verdict udpc_parse_ipv6(const __u8 *l3, const void *data_end,
							__u16 port)
{
	const __u8 *p;
	__u8 nexthdr;
	int i;

	if ((const void *)(l3 + 40) > data_end)
		return UDP_VERDICT_PASS;
	if ((l3[0] >> 4) != 6)
		return UDP_VERDICT_PASS;
	nexthdr = l3[6];
	p = l3 + 40;
UDPC_UNROLL
	for (i = 0; i < UDPC_MAX_EXT_HDRS; i++) {
		__u32 len;

		if (nexthdr == UDPC_IPPROTO_UDP)
			return udpc_check_udp(p, data_end, port);
		if ((const void *)(p + 8) > data_end)
			return UDP_VERDICT_PASS;
		switch (nexthdr) {
		case 0:  /* hop-by-hop options */
		case 43: /* routing */
		case 60: /* destination options */
			len = ((__u32)p[1] + 1) * 8;
			break;
		case 44: /* fragment: offset in the upper 13 bits of bytes 2-3 */
			if (udpc_be16(p + 2) & 0xfff8)
				return UDP_VERDICT_PASS;
			len = 8;
			break;
		case 51: /* authentication header */
			len = ((__u32)p[1] + 2) * 4;
			break;
		default:
			return UDP_VERDICT_PASS;
		}
		nexthdr = p[0];
		p += len;
	}
	if (nexthdr == UDPC_IPPROTO_UDP)
		return udpc_check_udp(p, data_end, port);
	return UDP_VERDICT_PASS;
}

/*
 * udp_classify - decide one frame.
 * @data, @data_end: the frame's first byte and one past its last readable byte
 *                   (xdp_md / __sk_buff data pointers, or a user-space buffer).
 * @port: UDP destination port to drop, host byte order (1-65535).
 * @tags_outside: VLAN tags of the frame no longer in its bytes (0, or 1 when the kernel
 *                holds the outer tag in skb metadata: __sk_buff.vlan_present).
 * Returns UDP_VERDICT_DROP or UDP_VERDICT_PASS (see the policy above). Never fails.
 */
static __always_inline enum udp_verdict udp_classify(const void *data, const void *data_end,
						     __u16 port, __u32 tags_outside)
{
	const __u8 *p = data;
	__u16 proto;
	int i;

	if ((const void *)(p + UDPC_ETH_HLEN) > data_end)
		return UDP_VERDICT_PASS;
	proto = udpc_be16(p + 12);
	p += UDPC_ETH_HLEN;
UDPC_UNROLL
	for (i = 0; i < UDPC_MAX_VLAN_TAGS; i++) {
		if (proto != UDPC_ETH_P_8021Q && proto != UDPC_ETH_P_8021AD)
			break;
		if ((__u32)i + tags_outside >= UDPC_MAX_VLAN_TAGS)
			return UDP_VERDICT_PASS; /* one tag more than the policy takes */
		if ((const void *)(p + UDPC_VLAN_HLEN) > data_end)
			return UDP_VERDICT_PASS;
		proto = udpc_be16(p + 2);
		p += UDPC_VLAN_HLEN;
	}
	if (proto == UDPC_ETH_P_IP)
		return udpc_parse_ipv4(p, data_end, port);
	if (proto == UDPC_ETH_P_IPV6)
		return udpc_parse_ipv6(p, data_end, port);
	return UDP_VERDICT_PASS;
}

#endif /* XDPTC_UDP_CLASSIFIER_H */
