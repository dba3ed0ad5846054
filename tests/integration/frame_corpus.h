/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * frame_corpus.h: the frames the verdict tests build, byte by byte: Ethernet with 0 to
 * FRAME_MAX_TAGS VLAN tags (the outer one 802.1ad 0x88a8 when there are two or more,
 * the others 802.1Q 0x8100, VIDs 10, 20, 30, ...), IPv4 with any header length,
 * fragment field, total length and protocol, IPv6 with extension headers. Shared by
 * test_verdict_corpus (BPF_PROG_TEST_RUN) and test_live_verdicts (a real veth).
 * Include after <stddef.h> and <string.h>.
 */
#ifndef XDPTC_TEST_FRAME_CORPUS_H
#define XDPTC_TEST_FRAME_CORPUS_H

#define FRAME_MAX_TAGS 4

struct frame {
	unsigned char b[512];
	size_t len;
};

static inline void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

/* The Ethernet header with @tags VLAN tags and EtherType @type; its length. */
static inline size_t eth(struct frame *f, int tags, unsigned type)
{
	size_t o = 12;

	memset(f->b, 0, sizeof(f->b));
	f->b[0] = 0x02; /* a unicast destination */
	f->b[6] = 0x02;
	f->b[11] = 1;
	for (int i = 0; i < tags; i++, o += 4) {
		put16(f->b + o, i == 0 && tags >= 2 ? 0x88a8 : 0x8100);
		put16(f->b + o + 2, (unsigned)(10 * (i + 1)));
	}
	put16(f->b + o, type);
	return o + 2;
}

/* IPv4 (header of @ihl words, fragment field @frag, total length off by @totlen_delta,
 * protocol @proto) carrying a UDP header to @dport and 18 bytes. */
static inline void ipv4(struct frame *f, int tags, int ihl, unsigned frag, unsigned dport,
			int totlen_delta, unsigned proto)
{
	size_t o = eth(f, tags, 0x0800), hl = (size_t)(ihl < 5 ? 5 : ihl) * 4;
	unsigned char *ip = f->b + o;

	ip[0] = (unsigned char)(0x40 | (ihl & 15));
	put16(ip + 2, (unsigned)((int)(hl + 8 + 18) + totlen_delta));
	put16(ip + 6, frag);
	ip[8] = 64;
	ip[9] = (unsigned char)proto;
	put16(ip + hl, 4000);
	put16(ip + hl + 2, dport);
	put16(ip + hl + 4, 26);
	f->len = o + hl + 8 + 18;
}

/* IPv6 with the @next extension headers @ext (a fragment header with offset @fragoff)
 * before a UDP header to @dport and 18 bytes. */
static inline void ipv6(struct frame *f, int tags, const unsigned char *ext, int next,
			unsigned dport, unsigned fragoff)
{
	size_t o = eth(f, tags, 0x86dd);
	unsigned char *ip = f->b + o, *p = ip + 40;

	ip[0] = 0x60;
	ip[6] = next ? ext[0] : 17;
	ip[7] = 64;
	for (int i = 0; i < next; i++, p += 8) {
		p[0] = i + 1 < next ? ext[i + 1] : 17;
		if (ext[i] == 44)
			put16(p + 2, fragoff);
	}
	put16(p + 2, dport);
	put16(ip + 4, (unsigned)(p + 26 - (ip + 40)));
	f->len = (size_t)(p + 26 - f->b);
}

#endif
