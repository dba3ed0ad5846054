/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * One verdict on the live path: frames sent through a real veth pair (an AF_PACKET
 * socket on the sending end, so every byte, VLAN tags included, is as built here) are
 * decided by the drop program in each mode (xdpdrv, xdpgeneric, tc, tcx), one frame at
 * a time, and every verdict must be the policy's (the user-space build of the same
 * classifier, on the frame as sent). BPF_PROG_TEST_RUN cannot show this: on the live
 * path the kernel moves the outer VLAN tag into skb metadata (skb_vlan_untag in
 * __netif_receive_skb_core) after generic XDP and before TC ingress, so the TC program
 * reads one tag fewer than XDP does.
 * The corpus: 0 to 4 VLAN tags, each with IPv4 and IPv6 UDP to the drop port and to
 * another, IPv4 options, fragments, short total lengths, TCP, IPv6 extension headers
 * and fragments, ARP, and frames cut inside their tags; then 1000 frames with three
 * tags (802.1ad 10, 802.1Q 20, 802.1Q 30; passed by the policy) and 1000 with two
 * (dropped) per mode. Frames the kernel drops before a mode's program (a VLAN header
 * cut short fails skb_vlan_untag) are counted and shown, not compared.
 * Needs root. Run from the repository root.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "drop_prog.h"
#include "frame_corpus.h"
#include "netns.h"
#include "test_topology.h"
#include "udp_classifier.h"
#include "test_main.h"

#define PORT 9999
#define MAX_FRAMES 512

static struct test_topology topo;
static int pkt_fd = -1;
static struct frame corpus[MAX_FRAMES];
static int ncorpus;

static void add(const struct frame *f)
{
	assert_true(ncorpus < MAX_FRAMES);
	corpus[ncorpus] = *f;
	memcpy(corpus[ncorpus].b, topo.dut_mac, 6);
	ncorpus++;
}

static void build_corpus(void)
{
	static const unsigned char ext[][2] = { { 0, 60 }, { 44, 0 } };
	struct frame f;

	for (int tags = 0; tags <= FRAME_MAX_TAGS; tags++) {
		for (unsigned port = PORT - 1; port <= PORT; port++) {
			ipv4(&f, tags, 5, 0, port, 0, 17);
			add(&f);
			ipv6(&f, tags, ext[0], 0, port, 0);
			add(&f);
		}
		ipv4(&f, tags, 6, 0, PORT, 0, 17); /* options */
		add(&f);
		ipv4(&f, tags, 5, 0x2000, PORT, 0, 17); /* a first fragment: its UDP header */
		add(&f);
		ipv4(&f, tags, 5, 0x0010, PORT, 0, 17); /* a later fragment: no UDP header */
		add(&f);
		ipv4(&f, tags, 5, 0, PORT, -20, 17); /* a total length too short for UDP */
		add(&f);
		ipv4(&f, tags, 5, 0, PORT, 0, 6); /* TCP */
		add(&f);
		ipv4(&f, tags, 4, 0, PORT, 0, 17); /* IHL below 5 */
		add(&f);
		ipv6(&f, tags, ext[0], 2, PORT, 0); /* hop-by-hop, destination options */
		add(&f);
		ipv6(&f, tags, ext[1], 1, PORT, 0); /* a first fragment */
		add(&f);
		ipv6(&f, tags, ext[1], 1, PORT, 8); /* a later fragment */
		add(&f);
		eth(&f, tags, 0x0806); /* ARP */
		f.len = 60;
		add(&f);
		if (tags) { /* cut inside the last tag, and right after it */
			ipv4(&f, tags, 5, 0, PORT, 0, 17);
			f.len = 14 + 4 * (size_t)tags - 2;
			add(&f);
			f.len = 14 + 4 * (size_t)tags;
			add(&f);
		}
	}
}

static uint64_t total(const uint64_t v[VERDICT_NR])
{
	return v[VERDICT_DROPPED] + v[VERDICT_PASSED];
}

static void send_frame(const struct frame *f)
{
	ssize_t n = send(pkt_fd, f->b, f->len, 0);

	if (n != (ssize_t)f->len)
		fprintf(stderr, "send of a %zu-byte frame: %s\n", f->len, strerror(errno));
	assert_int_equal(n, (ssize_t)f->len);
}

/* The counters once they moved by @want packets, or after @ms milliseconds. */
static void wait_counts(const struct drop_attachment *a, const uint64_t before[VERDICT_NR],
			uint64_t want, int ms, uint64_t now[VERDICT_NR])
{
	for (int i = 0; i <= ms; i++) {
		struct timespec t = { 0, 1000 * 1000 };

		assert_int_equal(verdicts_read_fd(a->verdicts_fd, now), 0);
		if (total(now) - total(before) >= want)
			return;
		nanosleep(&t, NULL);
	}
}

static void hex(const struct frame *f)
{
	for (size_t i = 0; i < f->len; i++)
		fprintf(stderr, "%s%02x", i % 16 ? " " : "\n  ", f->b[i]);
	fprintf(stderr, "\n");
}

/* Every corpus frame through @mode's program, one at a time; then the bulk frames. */
static void run_mode(enum drop_mode mode)
{
	struct drop_attachment a;
	uint64_t before[VERDICT_NR], now[VERDICT_NR];
	char err[1024];
	int saved, unseen = 0, wrong = 0, drops = 0;
	struct frame f;

	assert_int_equal(netns_enter(topo.dut_ns, &saved), 0);
	if (drop_attach(topo.dut_dev, mode, PORT, &a, err, sizeof(err))) {
		fprintf(stderr, "attach %s: %s\n", drop_mode_name(mode), err);
		fail();
	}
	assert_int_equal(netns_return(saved), 0);
	for (int i = 0; i < ncorpus; i++) {
		const struct frame *c = &corpus[i];
		enum udp_verdict want = udp_classify(c->b, c->b + c->len, PORT, 0);
		bool dropped;

		assert_int_equal(verdicts_read_fd(a.verdicts_fd, before), 0);
		send_frame(c);
		wait_counts(&a, before, 1, 30, now);
		if (total(now) == total(before)) {
			unseen++; /* the kernel dropped it before the program */
			continue;
		}
		assert_int_equal(total(now) - total(before), 1);
		dropped = now[VERDICT_DROPPED] > before[VERDICT_DROPPED];
		drops += dropped;
		if (dropped != (want == UDP_VERDICT_DROP)) {
			fprintf(stderr, "%s: %s, the policy says %s, for the %zu-byte frame:",
				drop_mode_name(mode), dropped ? "dropped" : "passed",
				want == UDP_VERDICT_DROP ? "drop" : "pass", c->len);
			hex(c);
			wrong++;
		}
	}
	/* the bulk: 1000 frames with three tags (passed), 1000 with two (dropped) */
	for (int tags = 3; tags >= 2; tags--) {
		ipv4(&f, tags, 5, 0, PORT, 0, 17);
		memcpy(f.b, topo.dut_mac, 6);
		assert_int_equal(verdicts_read_fd(a.verdicts_fd, before), 0);
		for (int k = 0; k < 1000; k++)
			send_frame(&f);
		wait_counts(&a, before, 1000, 2000, now);
		printf("# %-10s %d tags: dropped %llu, passed %llu of 1000\n", drop_mode_name(mode),
		       tags, (unsigned long long)(now[VERDICT_DROPPED] - before[VERDICT_DROPPED]),
		       (unsigned long long)(now[VERDICT_PASSED] - before[VERDICT_PASSED]));
		assert_int_equal(now[tags == 3 ? VERDICT_PASSED : VERDICT_DROPPED] -
					 before[tags == 3 ? VERDICT_PASSED : VERDICT_DROPPED],
				 1000);
		assert_int_equal(now[tags == 3 ? VERDICT_DROPPED : VERDICT_PASSED] -
					 before[tags == 3 ? VERDICT_DROPPED : VERDICT_PASSED],
				 0);
	}
	assert_int_equal(netns_enter(topo.dut_ns, &saved), 0);
	assert_int_equal(drop_detach(&a), 0);
	assert_int_equal(netns_return(saved), 0);
	printf("# %-10s %d corpus frames: %d decided as the policy says (%d dropped), %d wrong, "
	       "%d dropped by the kernel before the program\n", drop_mode_name(mode), ncorpus,
	       ncorpus - unseen - wrong, drops, wrong, unseen);
	assert_int_equal(wrong, 0);
	/* the program sees nearly everything; what it does not see is a handful of cut tags */
	assert_true(unseen <= 2 * FRAME_MAX_TAGS);
}

static void test_xdpdrv(void **state)
{
	(void)state;
	run_mode(MODE_XDPDRV);
}

static void test_xdpgeneric(void **state)
{
	(void)state;
	run_mode(MODE_XDPGENERIC);
}

static void test_tc(void **state)
{
	(void)state;
	run_mode(MODE_TC);
}

static void test_tcx(void **state)
{
	(void)state;
	run_mode(MODE_TCX);
}

static int setup(void **state)
{
	struct sockaddr_ll sll;
	int saved;

	(void)state;
	if (test_topology_up(&topo, 'v') || netns_enter(topo.snd_ns, &saved))
		return -1;
	pkt_fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0); /* send only: no protocol */
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = (int)if_nametoindex(topo.snd_dev);
	if (pkt_fd < 0 || bind(pkt_fd, (struct sockaddr *)&sll, sizeof(sll)))
		return -1;
	netns_return(saved);
	build_corpus();
	printf("# live path: %s -> %s, %d corpus frames (0-%d VLAN tags)\n", topo.snd_dev,
	       topo.dut_dev, ncorpus, FRAME_MAX_TAGS);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (pkt_fd >= 0)
		close(pkt_fd);
	return test_topology_down(&topo);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_xdpdrv),
		cmocka_unit_test(test_xdpgeneric),
		cmocka_unit_test(test_tc),
		cmocka_unit_test(test_tcx),
	};

	INTEGRATION_MAIN("test_live_verdicts", tests, setup, teardown, NULL);
}
