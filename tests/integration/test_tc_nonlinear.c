/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * The TC program decides non-linear skbs like linear ones (issue 7), proved with real
 * non-linear skbs on a real device.
 *
 * Where the skbs come from: a TAP device opened with IFF_TAP | IFF_NO_PI | IFF_NAPI |
 * IFF_NAPI_FRAGS, in a network namespace of the suite's own (PREFIX-dut, PREFIX
 * xdptc-nXXXXX, owned by this process through /run/xdptc/PREFIX.owner so that
 * `xdptc cleanup` spares it while the test runs and removes it if the test is killed).
 * For each frame written to it, tun_get_user() builds the skb with
 * tun_napi_alloc_frags(): napi_get_frags() gives an skb whose linear area holds only
 * the FIRST iovec of the write, and every further iovec becomes a page fragment of its
 * own (netdev_alloc_frag() + skb_fill_page_desc()). The frames are written with
 * writev(2) as two iovecs, the first 14 bytes and the rest, so the IP and UDP headers
 * with any IPv4 options or IPv6 extension headers (and, in a tagged frame, everything
 * after the first TPID) sit in a page fragment. napi_gro_frags() -> napi_frags_skb() copies only the
 * Ethernet header into the linear area. GRO is switched off on the tap (ETHTOOL_SGRO),
 * so dev_gro_receive() hands the skb on at once (netif_elide_gro()) and what reaches the
 * hook does not depend on which GRO handlers run (they may copy the headers they parse
 * into the linear area; on 6.18 the skbs stayed non-linear with GRO on as well). The
 * clsact ingress program thus sees a linear area shorter than the headers it must read.
 * A single-iovec write(2) makes the whole frame linear: the control case. (Tagged frames:
 * before the hook, __netif_receive_skb_core() moves the outer tag into the skb's
 * metadata with skb_vlan_untag(), which pulls only 6 bytes; the program sees the frame
 * without that tag, one tag left of two, and the rest still in the fragment.)
 *
 * What it proves, from the program's own per-CPU counters:
 *   - non-linear: 2,000 IPv4/UDP frames to port 9999 and 1,000 to 9998, plus IPv4
 *     with 40 bytes of options, one VLAN tag, two tags (802.1ad + 802.1Q) and IPv6
 *     with a destination-options header, each 100 to 9999 and 100 to 9998: `dropped`
 *     equals exactly the frames written to 9999, `passed` exactly the others, and
 *     `pulled` (frames for which tc_drop called bpf_skb_pull_data) equals every frame
 *     written: each skb really was non-linear at the hook, and was decided right;
 *   - linear control: the same frames written with write(2) get the same verdicts and
 *     `pulled` stays 0, so `pulled` tells the two layouts apart.
 * If tc_drop.bpf.c stopped pulling, the classifier would see the Ethernet header only,
 * pass everything, and the first test fails (checked with the bpf_skb_pull_data call
 * commented out: dropped 0 of 2,400, passed 3,800).
 * Addresses: 198.18.0.1 -> 198.18.0.2, and for IPv6 the benchmarking range 2001:2::/48.
 * The namespace has no address and IPv6 off: whatever passes is discarded by the stack
 * without an answer; only the program's verdicts are counted. Needs root; takes well
 * under a second.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/ethtool.h>
#include <linux/if_tun.h>
#include <linux/sockios.h>
#include <net/if.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "bpf_log.h"
#include "drop_prog.h"
#include "netns.h"
#include "sender.h"
#include "tc_drop.skel.h"
#include "udp_classifier.h"

#define DROP_PORT 9999
#define OTHER_PORT 9998
#define ETH_HDR 14

/* What the current test made, so teardown (and a signal) can remove exactly that. */
static struct {
	char prefix[16], ns[32], dev[IFNAMSIZ], owner[64], marker[128];
	int tun_fd;
	bool ns_made, attached;
	struct drop_attachment a;
	unsigned char mac[6];
} t = { .tun_fd = -1 };

/* ---------------------------------------------------------------- frames */

struct frame {
	unsigned char b[256];
	size_t len;
};

enum shape { PLAIN, IPV4_OPTIONS, VLAN1, VLAN2, IPV6_EXT, SHAPE_NR };

static const char *const shape_names[SHAPE_NR] = {
	"IPv4/UDP", "IPv4 with 40 bytes of options", "one VLAN tag", "two VLAN tags",
	"IPv6 with a destination-options header",
};

static void put16(unsigned char *p, unsigned v)
{
	p[0] = (unsigned char)(v >> 8);
	p[1] = (unsigned char)v;
}

/* Open a gap of @n bytes at offset @at. */
static void insert(struct frame *f, size_t at, size_t n)
{
	memmove(f->b + at + n, f->b + at, f->len - at);
	memset(f->b + at, 0, n);
	f->len += n;
}

/* Tag the frame: the new tag becomes the outermost (right after the MAC addresses). */
static void add_vlan(struct frame *f, unsigned tpid, unsigned vid)
{
	insert(f, 12, 4);
	put16(f->b + 12, tpid);
	put16(f->b + 14, vid);
}

static void build(struct frame *f, enum shape s, uint16_t dport)
{
	static const unsigned char src_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
	int n;

	if (s == IPV6_EXT) {
		unsigned char *ip = f->b + ETH_HDR, *opt = ip + 40, *udp = opt + 8;

		memset(f->b, 0, sizeof(f->b));
		memcpy(f->b, t.mac, 6);
		memcpy(f->b + 6, src_mac, 6);
		put16(f->b + 12, 0x86dd);
		ip[0] = 0x60;
		put16(ip + 4, 8 + 8 + 18); /* payload: the options header, UDP, 18 bytes */
		ip[6] = 60;                /* destination options */
		ip[7] = 64;
		inet_pton(AF_INET6, "2001:2::1", ip + 8);
		inet_pton(AF_INET6, "2001:2::2", ip + 24);
		opt[0] = 17; /* then UDP; length 0: 8 bytes, PadN filling them */
		opt[2] = 1;
		opt[3] = 4;
		put16(udp, 4000);
		put16(udp + 2, dport);
		put16(udp + 4, 8 + 18);
		memset(udp + 8, 0x5a, 18);
		f->len = (size_t)(udp + 8 + 18 - f->b);
		return;
	}
	/* IPv4: the suite's own frame builder, reshaped */
	n = build_udp_frame(f->b, sizeof(f->b), src_mac, t.mac, inet_addr("198.18.0.1"),
			    inet_addr("198.18.0.2"), 4000, dport, 18);
	assert_true(n > 0);
	f->len = (size_t)n;
	if (s == IPV4_OPTIONS) {
		unsigned char *ip = f->b + ETH_HDR;

		insert(f, ETH_HDR + 20, 40);
		memset(ip + 20, 1, 39); /* NOPs, then end of options */
		ip[0] = 0x4f;           /* IHL 15: 60 bytes */
		put16(ip + 2, 60 + 8 + 18);
		put16(ip + 10, 0);
		put16(ip + 10, ip_checksum(ip, 60));
	} else if (s == VLAN1) {
		add_vlan(f, 0x8100, 100);
	} else if (s == VLAN2) {
		add_vlan(f, 0x8100, 200); /* inner 802.1Q */
		add_vlan(f, 0x88a8, 100); /* outer 802.1ad */
	}
}

/* ------------------------------------------------------- set up, tear down */

static int sh(const char *fmt, ...)
{
	char cmd[512];
	va_list ap;
	int st;

	va_start(ap, fmt);
	vsnprintf(cmd, sizeof(cmd), fmt, ap);
	va_end(ap);
	st = system(cmd);
	return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* ioctl @req on @ifr for the tap, from a socket of the calling thread's namespace. */
static int dev_ioctl(unsigned long req, struct ifreq *ifr)
{
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), e = 0;

	if (fd < 0)
		return -errno;
	snprintf(ifr->ifr_name, IFNAMSIZ, "%s", t.dev);
	if (ioctl(fd, req, ifr))
		e = -errno;
	close(fd);
	return e;
}

/* Inside the namespace: the tap (NAPI frags), its MAC, GRO off, up, tc attached. */
static int make_tap_and_attach(void)
{
	struct ethtool_value ev = { .cmd = ETHTOOL_SGRO, .data = 0 };
	struct ifreq ifr;
	char err[512];
	int e;

	t.tun_fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
	if (t.tun_fd < 0) {
		fprintf(stderr, "open /dev/net/tun: %s\n", strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", t.dev);
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI | IFF_NAPI | IFF_NAPI_FRAGS;
	if (ioctl(t.tun_fd, TUNSETIFF, &ifr)) {
		fprintf(stderr, "TUNSETIFF (IFF_NAPI_FRAGS): %s\n", strerror(errno));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	if ((e = dev_ioctl(SIOCGIFHWADDR, &ifr))) {
		fprintf(stderr, "SIOCGIFHWADDR: %s\n", strerror(-e));
		return -1;
	}
	memcpy(t.mac, ifr.ifr_hwaddr.sa_data, 6);
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_data = (char *)&ev;
	if ((e = dev_ioctl(SIOCETHTOOL, &ifr))) {
		fprintf(stderr, "ETHTOOL_SGRO off: %s\n", strerror(-e));
		return -1;
	}
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_UP;
	if ((e = dev_ioctl(SIOCSIFFLAGS, &ifr))) {
		fprintf(stderr, "SIOCSIFFLAGS up: %s\n", strerror(-e));
		return -1;
	}
	e = drop_attach(t.dev, MODE_TC, DROP_PORT, &t.a, err, sizeof(err));
	if (e) {
		fprintf(stderr, "attach tc: %s\n", err);
		return -1;
	}
	t.attached = true;
	snprintf(t.marker, sizeof(t.marker), XDPTC_STATE_DIR "/clsact-%u-%d", netns_current_ino(),
		 t.a.ifindex);
	return 0;
}

/* The signals on_signal handles; blocked while setup or teardown changes what exists,
 * so that the handler always finds a consistent record of it. */
static sigset_t cleanup_signals;

static int remove_all(void)
{
	int saved, bad = 0;

	if (t.attached) {
		bad |= netns_enter(t.ns, &saved) != 0;
		bad |= drop_detach(&t.a) != 0;
		bad |= netns_return(saved) != 0;
		t.attached = false;
		t.marker[0] = '\0';
	}
	if (t.tun_fd >= 0) { /* the last reference to a non-persistent tap: it goes */
		close(t.tun_fd);
		t.tun_fd = -1;
	}
	if (t.ns_made) {
		bad |= sh("ip netns delete %s", t.ns) != 0;
		t.ns_made = false;
	}
	unlink(t.owner);
	return bad ? -1 : 0;
}

static int teardown(void **state)
{
	sigset_t old;
	int e;

	(void)state;
	sigprocmask(SIG_BLOCK, &cleanup_signals, &old);
	e = remove_all();
	sigprocmask(SIG_SETMASK, &old, NULL);
	return e;
}

/* The namespace, the tap and the attachment; on failure, whatever was made is removed. */
static int make_all(void)
{
	FILE *f;
	int saved, e;

	snprintf(t.prefix, sizeof(t.prefix), "xdptc-n%05x", (unsigned int)getpid() & 0xfffff);
	snprintf(t.ns, sizeof(t.ns), "%s-dut", t.prefix);
	snprintf(t.dev, sizeof(t.dev), "%s-d", t.prefix);
	snprintf(t.owner, sizeof(t.owner), XDPTC_STATE_DIR "/%s.owner", t.prefix);
	t.marker[0] = '\0';
	/* owned by this process first, so a concurrent `xdptc cleanup` leaves it alone */
	mkdir(XDPTC_STATE_DIR, 0755);
	f = fopen(t.owner, "w");
	if (!f) {
		fprintf(stderr, "%s: %s\n", t.owner, strerror(errno));
		return -1;
	}
	fprintf(f, "%d\n", (int)getpid());
	fclose(f);
	t.ns_made = true;
	if (sh("ip netns add %s", t.ns)) {
		t.ns_made = false;
		unlink(t.owner);
		return -1;
	}
	if (sh("ip netns exec %s sysctl -qw net.ipv6.conf.all.disable_ipv6=1 "
	       "net.ipv6.conf.default.disable_ipv6=1", t.ns) ||
	    netns_enter(t.ns, &saved)) {
		remove_all();
		return -1;
	}
	e = make_tap_and_attach();
	if (netns_return(saved) || e) {
		remove_all();
		return -1;
	}
	return 0;
}

static int setup(void **state)
{
	sigset_t old;
	int e;

	(void)state;
	sigprocmask(SIG_BLOCK, &cleanup_signals, &old);
	e = make_all();
	sigprocmask(SIG_SETMASK, &old, NULL);
	return e;
}

/* SIGINT, SIGTERM, SIGHUP: remove what this test made (async-signal-safe calls only;
 * the tc filter and its clsact qdisc go with the tap), then die of the signal. */
static void on_signal(int sig)
{
	pid_t pid;

	if (t.tun_fd >= 0)
		close(t.tun_fd);
	if (t.ns_made && (pid = fork()) == 0) {
		execlp("ip", "ip", "netns", "delete", t.ns, (char *)NULL);
		_exit(127);
	} else if (t.ns_made && pid > 0) {
		waitpid(pid, NULL, 0);
	}
	if (t.marker[0])
		unlink(t.marker);
	unlink(t.owner);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ------------------------------------------------------------------ tests */

/* Sum over the CPUs of key @key of the per-CPU __u64 array map @fd. */
static uint64_t percpu_sum(int fd, uint32_t key)
{
	int ncpu = libbpf_num_possible_cpus();
	uint64_t sum = 0, vals[ncpu > 0 ? ncpu : 1];

	assert_true(ncpu > 0);
	assert_int_equal(bpf_map_lookup_elem(fd, &key, vals), 0);
	for (int c = 0; c < ncpu; c++)
		sum += vals[c];
	return sum;
}

struct counts {
	uint64_t dropped, passed, pulled;
};

static void read_counts(struct counts *c)
{
	struct tc_drop_bpf *skel = t.a.skel;
	uint64_t v[VERDICT_NR];

	assert_int_equal(verdicts_read_fd(t.a.verdicts_fd, v), 0);
	c->dropped = v[VERDICT_DROPPED];
	c->passed = v[VERDICT_PASSED];
	c->pulled = percpu_sum(bpf_map__fd(skel->maps.pulled), 0);
}

/* Write every shape to both ports, @nonlinear: as two iovecs (Ethernet header | rest),
 * else as one; then check the program's counters against what was written. */
static void write_and_count(bool nonlinear)
{
	static const unsigned per_shape[SHAPE_NR][2] = {
		/* to DROP_PORT, to OTHER_PORT */
		[PLAIN] = { 2000, 1000 },   [IPV4_OPTIONS] = { 100, 100 }, [VLAN1] = { 100, 100 },
		[VLAN2] = { 100, 100 },     [IPV6_EXT] = { 100, 100 },
	};
	uint64_t want_drop = 0, want_pass = 0;
	struct counts c;
	struct timespec pause = { 0, 10 * 1000 * 1000 };

	for (int s = 0; s < SHAPE_NR; s++) {
		for (int p = 0; p < 2; p++) {
			uint16_t port = p ? OTHER_PORT : DROP_PORT;
			struct frame f;

			build(&f, (enum shape)s, port);
			/* the frame says what the test means: the classifier agrees in user space */
			assert_int_equal(udp_classify(f.b, f.b + f.len, DROP_PORT, 0),
					 p ? UDP_VERDICT_PASS : UDP_VERDICT_DROP);
			for (unsigned i = 0; i < per_shape[s][p]; i++) {
				struct iovec iov[2] = { { f.b, ETH_HDR },
							{ f.b + ETH_HDR, f.len - ETH_HDR } };
				ssize_t n = nonlinear ? writev(t.tun_fd, iov, 2)
						      : write(t.tun_fd, f.b, f.len);

				if (n != (ssize_t)f.len)
					fprintf(stderr, "writing %s: %zd (%s)\n", shape_names[s], n,
						n < 0 ? strerror(errno) : "short");
				assert_int_equal(n, f.len);
			}
			if (p)
				want_pass += per_shape[s][p];
			else
				want_drop += per_shape[s][p];
		}
	}
	/* tun hands each frame to the stack inside write(); wait a little anyway, until
	 * the counters reach what was written or stop moving */
	for (int i = 0; i < 100; i++) {
		uint64_t before;

		read_counts(&c);
		if (c.dropped + c.passed >= want_drop + want_pass)
			break;
		before = c.dropped + c.passed;
		nanosleep(&pause, NULL);
		read_counts(&c);
		if (c.dropped + c.passed == before)
			break;
	}
	printf("# %s: wrote %llu to port %d and %llu to port %d; the program dropped %llu, "
	       "passed %llu, pulled %llu\n", nonlinear ? "non-linear (writev)" : "linear (write)",
	       (unsigned long long)want_drop, DROP_PORT, (unsigned long long)want_pass, OTHER_PORT,
	       (unsigned long long)c.dropped, (unsigned long long)c.passed,
	       (unsigned long long)c.pulled);
	assert_int_equal(c.dropped, want_drop);
	assert_int_equal(c.passed, want_pass);
	assert_int_equal(c.pulled, nonlinear ? want_drop + want_pass : 0);
}

static void test_nonlinear_skbs_are_pulled_and_decided(void **state)
{
	(void)state;
	write_and_count(true);
}

static void test_linear_skbs_are_not_pulled(void **state)
{
	(void)state;
	write_and_count(false);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_nonlinear_skbs_are_pulled_and_decided, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_linear_skbs_are_not_pulled, setup, teardown),
	};
	static const int sigs[] = { SIGINT, SIGTERM, SIGHUP };
	struct sigaction sa;

	if (geteuid() != 0) {
		fprintf(stderr, "test_tc_nonlinear needs root\n");
		return 1;
	}
	bpf_log_setup(0);
	sigemptyset(&cleanup_signals);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	for (size_t i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++) {
		sigaddset(&cleanup_signals, sigs[i]);
		sigaction(sigs[i], &sa, NULL);
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
