/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Unit tests of the UDP classifier (bpf/udp_classifier.h) compiled for user space:
 * the same source the XDP and TC programs include.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "udp_classifier.h"

#define PORT 9999

struct frame {
	uint8_t b[256];
	size_t len;
};

static void put16(uint8_t *p, uint16_t v)
{
	p[0] = (uint8_t)(v >> 8);
	p[1] = (uint8_t)v;
}

/* Ethernet header with @ntags VLAN tags, ending with @ethertype. */
static size_t eth(struct frame *f, int ntags, uint16_t ethertype)
{
	size_t o = 12;

	memset(f->b, 0, sizeof(f->b));
	for (int i = 0; i < ntags; i++) {
		put16(f->b + o, i == 0 && ntags == 2 ? 0x88a8 : 0x8100);
		put16(f->b + o + 2, 100 + i);
		o += 4;
	}
	put16(f->b + o, ethertype);
	return o + 2;
}

/* IPv4 + UDP to @dport with @ihl words of header and fragment field @frag. */
static void ipv4_udp(struct frame *f, int ntags, uint8_t ihl, uint16_t frag, uint16_t dport)
{
	size_t o = eth(f, ntags, 0x0800), hl = (size_t)ihl * 4;
	uint8_t *ip = f->b + o;

	ip[0] = (uint8_t)(0x40 | ihl);
	put16(ip + 2, (uint16_t)(hl + 8 + 18));
	put16(ip + 6, frag);
	ip[8] = 64;
	ip[9] = 17;
	put16(ip + hl, 12345);
	put16(ip + hl + 2, dport);
	put16(ip + hl + 4, 8 + 18);
	f->len = o + hl + 8 + 18;
}

/* IPv6 + @next extension headers (each 8 bytes of the given types) + UDP to @dport. */
static void ipv6_udp(struct frame *f, int ntags, const uint8_t *ext, int next, uint16_t dport)
{
	size_t o = eth(f, ntags, 0x86dd);
	uint8_t *ip = f->b + o, *p = ip + 40;

	ip[0] = 0x60;
	ip[6] = next ? ext[0] : 17;
	ip[7] = 64;
	for (int i = 0; i < next; i++) {
		p[0] = i + 1 < next ? ext[i + 1] : 17;
		p[1] = 0; /* 8 bytes */
		if (ext[i] == 51)
			p[1] = 0; /* AH: (0 + 2) * 4 = 8 bytes */
		p += 8;
	}
	put16(p + 2, dport);
	put16(ip + 4, (uint16_t)(p + 8 + 18 - (ip + 40)));
	f->len = (size_t)(p + 8 + 18 - f->b);
}

static enum udp_verdict classify(const struct frame *f)
{
	return udp_classify(f->b, f->b + f->len, PORT, 0);
}

static void test_ipv4_port_dropped_other_passed(void **state)
{
	struct frame f;

	(void)state;
	ipv4_udp(&f, 0, 5, 0, PORT);
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv4_udp(&f, 0, 5, 0, PORT + 1);
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
	ipv4_udp(&f, 0, 5, 0, PORT);
	f.b[14 + 9] = 6; /* TCP */
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
}

static void test_ipv4_options(void **state)
{
	struct frame f;

	(void)state;
	for (uint8_t ihl = 5; ihl <= 15; ihl++) {
		ipv4_udp(&f, 0, ihl, 0, PORT);
		assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	}
	for (uint8_t ihl = 0; ihl < 5; ihl++) {
		ipv4_udp(&f, 0, 5, 0, PORT);
		f.b[14] = (uint8_t)(0x40 | ihl);
		assert_int_equal(classify(&f), UDP_VERDICT_PASS);
	}
}

static void test_ipv4_fragments(void **state)
{
	struct frame f;

	(void)state;
	ipv4_udp(&f, 0, 5, 0x2000, PORT); /* MF, offset 0: first fragment */
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv4_udp(&f, 0, 5, 0x2001, PORT); /* offset 8: non-first */
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
	ipv4_udp(&f, 0, 5, 0x0010, PORT); /* last fragment */
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
	ipv4_udp(&f, 0, 5, 0x4000, PORT); /* DF only */
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
}

static void test_ipv4_total_length_too_short(void **state)
{
	struct frame f;

	(void)state;
	ipv4_udp(&f, 0, 5, 0, PORT);
	put16(f.b + 14 + 2, 27); /* 20 + 7: no room for the UDP header */
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
}

static void test_vlan_tags(void **state)
{
	struct frame f;
	const uint8_t none[1] = { 0 };

	(void)state;
	ipv4_udp(&f, 1, 5, 0, PORT);
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv4_udp(&f, 2, 5, 0, PORT);
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv6_udp(&f, 1, none, 0, PORT);
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv4_udp(&f, 1, 5, 0, PORT + 1);
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
}

static void test_ipv6(void **state)
{
	struct frame f;
	const uint8_t hbh[] = { 0 }, many[] = { 0, 60, 43, 60 }, frag[] = { 44 }, ah[] = { 51 };

	(void)state;
	ipv6_udp(&f, 0, hbh, 0, PORT);
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv6_udp(&f, 0, hbh, 0, PORT + 1);
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
	ipv6_udp(&f, 0, hbh, 1, PORT);
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv6_udp(&f, 0, many, 4, PORT);
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv6_udp(&f, 0, ah, 1, PORT);
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv6_udp(&f, 0, frag, 1, PORT); /* first fragment: offset 0 */
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv6_udp(&f, 0, frag, 1, PORT);
	put16(f.b + 14 + 40 + 2, 0x0008); /* offset 1 (8 bytes): non-first */
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
}

static void test_ipv6_too_many_ext_headers(void **state)
{
	struct frame f;
	const uint8_t seven[] = { 0, 60, 60, 60, 60, 60, 60 };

	(void)state;
	ipv6_udp(&f, 0, seven, UDPC_MAX_EXT_HDRS, PORT);
	assert_int_equal(classify(&f), UDP_VERDICT_DROP);
	ipv6_udp(&f, 0, seven, UDPC_MAX_EXT_HDRS + 1, PORT);
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
}

static void test_non_ip(void **state)
{
	struct frame f;

	(void)state;
	eth(&f, 0, 0x0806); /* ARP */
	f.len = 60;
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
	ipv4_udp(&f, 0, 5, 0, PORT);
	f.b[14] = 0x65; /* version 6 in an IPv4 EtherType */
	assert_int_equal(classify(&f), UDP_VERDICT_PASS);
}

/* A frame cut before the end of its UDP destination port passes; cut after it, it is
 * decided as whole. Every byte offset of the headers. */
static void test_truncation_every_offset(void **state)
{
	struct frame f;
	const uint8_t ext[] = { 0, 44 };

	(void)state;
	for (int kind = 0; kind < 3; kind++) {
		size_t full, port_end;

		if (kind == 0)
			ipv4_udp(&f, 0, 7, 0, PORT), port_end = 14 + 28 + 4;
		else if (kind == 1)
			ipv4_udp(&f, 2, 5, 0, PORT), port_end = 22 + 20 + 4;
		else
			ipv6_udp(&f, 1, ext, 2, PORT), port_end = 18 + 40 + 16 + 4;
		full = f.len;
		for (size_t cut = 0; cut <= full; cut++) {
			f.len = cut;
			/* the classifier needs the whole 8-byte UDP header */
			enum udp_verdict want =
				cut >= port_end + 4 ? UDP_VERDICT_DROP : UDP_VERDICT_PASS;

			assert_int_equal(classify(&f), want);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_ipv4_port_dropped_other_passed),
		cmocka_unit_test(test_ipv4_options),
		cmocka_unit_test(test_ipv4_fragments),
		cmocka_unit_test(test_ipv4_total_length_too_short),
		cmocka_unit_test(test_vlan_tags),
		cmocka_unit_test(test_ipv6),
		cmocka_unit_test(test_ipv6_too_many_ext_headers),
		cmocka_unit_test(test_non_ip),
		cmocka_unit_test(test_truncation_every_offset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
