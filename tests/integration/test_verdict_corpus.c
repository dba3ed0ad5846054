/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The verdict identity of the three programs: a generated corpus of frames goes through
 * the XDP program, the TC program and the netkit program (BPF_PROG_TEST_RUN, in the
 * kernel; the netkit program loaded for BPF_NETKIT_PEER, which a kernel without
 * CONFIG_NETKIT still loads and runs) and through the same classifier compiled for user
 * space; all four must decide every frame alike.
 * A disagreement prints the frame in hex and the three verdicts. Needs root.
 */
#include <errno.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <linux/bpf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "frame_corpus.h"
#include "netkit_drop.skel.h"
#include "tc_drop.skel.h"
#include "udp_classifier.h"
#include "xdp_drop.skel.h"
#include "test_main.h"

#define PORT 9999
#define TC_ACT_OK 0
#define TC_ACT_SHOT 2
#define NETKIT_DROP 2

static struct xdp_drop_bpf *xdp;
static struct tc_drop_bpf *tc;
static struct netkit_drop_bpf *nk;
static size_t checked, kernel_checked, drops, tc_refused;

/* Decide @f three ways and compare. */
static void check(const struct frame *f)
{
	enum udp_verdict user = udp_classify(f->b, f->b + f->len, PORT, 0);
	int x = -1, t = -1, k = -1;

	checked++;
	drops += user == UDP_VERDICT_DROP;
	if (f->len >= 14) { /* BPF_PROG_TEST_RUN wants at least an Ethernet header */
		LIBBPF_OPTS(bpf_test_run_opts, xo, .data_in = f->b, .data_size_in = (__u32)f->len);
		LIBBPF_OPTS(bpf_test_run_opts, to, .data_in = f->b, .data_size_in = (__u32)f->len);
		LIBBPF_OPTS(bpf_test_run_opts, ko, .data_in = f->b, .data_size_in = (__u32)f->len);

		int te;

		assert_int_equal(bpf_prog_test_run_opts(bpf_program__fd(xdp->progs.xdp_drop), &xo), 0);
		x = (int)xo.retval;
		/* the kernel builds no skb from some malformed IP frames (an IPv4 header too
		 * short, IHL below 5): it refuses those test runs with EINVAL, so TC never sees
		 * them; they are counted, and XDP and user space are still compared */
		te = bpf_prog_test_run_opts(bpf_program__fd(tc->progs.tc_drop), &to);
		if (te == -EINVAL) {
			tc_refused++;
			t = user == UDP_VERDICT_DROP ? TC_ACT_SHOT : TC_ACT_OK;
			k = user == UDP_VERDICT_DROP ? NETKIT_DROP : 0;
		} else {
			assert_int_equal(te, 0);
			t = (int)to.retval;
			assert_int_equal(bpf_prog_test_run_opts(bpf_program__fd(nk->progs.netkit_drop),
								&ko), 0);
			k = (int)ko.retval;
		}
		kernel_checked++;
	}
	if (f->len >= 14 &&
	    ((x == XDP_DROP) != (user == UDP_VERDICT_DROP) || (t == TC_ACT_SHOT) != (user == UDP_VERDICT_DROP) ||
	     (k == NETKIT_DROP) != (user == UDP_VERDICT_DROP))) {
		fprintf(stderr, "verdicts differ: user %s, xdp %d, tc %d, netkit %d for the %zu-byte frame:",
			user == UDP_VERDICT_DROP ? "drop" : "pass", x, t, k, f->len);
		for (size_t i = 0; i < f->len; i++)
			fprintf(stderr, "%s%02x", i % 16 ? " " : "\n  ", f->b[i]);
		fprintf(stderr, "\n");
		fail();
	}
}

/* The frame, and the frame cut at every byte offset of its headers. */
static void check_with_truncations(const struct frame *f, size_t headers)
{
	struct frame c = *f;

	check(f);
	for (size_t cut = 0; cut < headers && cut < f->len; cut++) {
		c.len = cut;
		check(&c);
	}
}

static void test_corpus(void **state)
{
	static const unsigned char exts[][4] = { { 0 }, { 60 }, { 43 }, { 51 }, { 0, 60 }, { 44 },
						 { 0, 43, 60, 44 } };
	static const int nexts[] = { 1, 1, 1, 1, 2, 1, 4 };
	struct frame f;
	unsigned int seed = 7;

	(void)state;
	for (int tags = 0; tags <= FRAME_MAX_TAGS; tags++) {
		for (unsigned port = PORT - 1; port <= PORT; port++) {
			/* IPv4: header lengths 0-15 words, protocols, fragments, total lengths */
			for (int ihl = 0; ihl <= 15; ihl++) {
				ipv4(&f, tags, ihl, 0, port, 0, 17);
				check_with_truncations(&f, 14 + 4 * (size_t)tags + (size_t)(ihl < 5 ? 20 : ihl * 4) + 8);
			}
			for (unsigned frag = 0; frag < 4; frag++) {
				static const unsigned frags[] = { 0x2000, 0x2001, 0x0010, 0x4000 };

				ipv4(&f, tags, 5, frags[frag], port, 0, 17);
				check(&f);
			}
			for (int d = -30; d <= 30; d += 5) {
				ipv4(&f, tags, 5, 0, port, d, 17);
				check(&f);
			}
			ipv4(&f, tags, 5, 0, port, 0, 6);
			check(&f);
			/* IPv6: extension headers, fragments first and not */
			ipv6(&f, tags, exts[0], 0, port, 0);
			check_with_truncations(&f, 14 + 4 * (size_t)tags + 48);
			for (size_t e = 0; e < sizeof(nexts) / sizeof(nexts[0]); e++) {
				ipv6(&f, tags, exts[e], nexts[e], port, 0);
				check_with_truncations(&f, f.len - 18);
				ipv6(&f, tags, exts[e], nexts[e], port, 8);
				check(&f);
			}
		}
		/* non-IP EtherTypes */
		for (unsigned type = 0x0800 - 2; type <= 0x0806; type++) {
			if (type == 0x0800)
				continue;
			eth(&f, tags, type);
			f.len = 60;
			check(&f);
		}
	}
	/* 10,000 random variations of a UDP frame */
	for (int k = 0; k < 10000; k++) {
		ipv4(&f, (int)(rand_r(&seed) % 3), 5 + (int)(rand_r(&seed) % 3), 0,
		     rand_r(&seed) % 2 ? PORT : (unsigned)(rand_r(&seed) & 0xffff), 0, 17);
		for (int i = 0; i < 4; i++) /* flip a few header bytes */
			f.b[rand_r(&seed) % 50] ^= (unsigned char)(1u << (rand_r(&seed) % 8));
		f.len = 14 + rand_r(&seed) % 90;
		check(&f);
	}
	printf("# verdict corpus: %zu frames, %zu through the XDP program and %zu through the TC "
	       "and netkit programs too (%zu malformed ones the kernel would not make an skb of), %zu dropped: "
	       "all verdicts agree\n", checked, kernel_checked, kernel_checked - tc_refused,
	       tc_refused, drops);
	assert_true(kernel_checked - tc_refused >= 10000);
	assert_true(checked >= 10000);
	assert_true(drops > 100 && drops < checked);
}

static int setup(void **state)
{
	(void)state;
	xdp = xdp_drop_bpf__open_and_load();
	tc = tc_drop_bpf__open_and_load();
	/* libbpf sets netkit/peer's expected attach type, BPF_NETKIT_PEER, from the section */
	nk = netkit_drop_bpf__open_and_load();
	return xdp && tc && nk ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	xdp_drop_bpf__destroy(xdp);
	tc_drop_bpf__destroy(tc);
	netkit_drop_bpf__destroy(nk);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_corpus),
	};

	INTEGRATION_MAIN("test_verdict_corpus", tests, setup, teardown, NULL);
}
