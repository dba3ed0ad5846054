/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
#include "sender.h"
#include "cpu_time.h"

#include <arpa/inet.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>
#include <errno.h>
#include <linux/bpf.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "tap_sender.h"
#include "xdp_tx.skel.h"

static const char *const kind_names[SENDER_NR] = { "udp", "packet", "xdp-live", "tap" };

const char *sender_name(enum sender_kind k)
{
	return k < SENDER_NR ? kind_names[k] : "?";
}

int sender_parse(const char *s, enum sender_kind *out)
{
	for (int k = 0; k < SENDER_NR; k++)
		if (s && !strcmp(s, kind_names[k])) {
			*out = (enum sender_kind)k;
			return 0;
		}
	return -EINVAL;
}

uint16_t ip_checksum(const unsigned char *p, size_t len)
{
	uint32_t sum = 0;

	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return (uint16_t)~sum;
}

int build_udp_frame(unsigned char *buf, size_t cap, const unsigned char src_mac[6],
		    const unsigned char dst_mac[6], uint32_t src_ip, uint32_t dst_ip,
		    uint16_t src_port, uint16_t dst_port, uint32_t payload_len)
{
	size_t len = 14 + 20 + 8 + payload_len;
	unsigned char *ip = buf + 14, *udp = ip + 20;
	uint16_t c;

	if (len > cap || len > 1514)
		return -EINVAL;
	memset(buf, 0, len);
	memcpy(buf, dst_mac, 6);
	memcpy(buf + 6, src_mac, 6);
	buf[12] = 0x08; /* IPv4 */
	ip[0] = 0x45;
	ip[2] = (unsigned char)((20 + 8 + payload_len) >> 8);
	ip[3] = (unsigned char)(20 + 8 + payload_len);
	ip[6] = 0x40; /* DF */
	ip[8] = 64;
	ip[9] = 17;
	memcpy(ip + 12, &src_ip, 4); /* network order already */
	memcpy(ip + 16, &dst_ip, 4);
	c = ip_checksum(ip, 20);
	ip[10] = (unsigned char)(c >> 8);
	ip[11] = (unsigned char)c;
	udp[0] = (unsigned char)(src_port >> 8);
	udp[1] = (unsigned char)src_port;
	udp[2] = (unsigned char)(dst_port >> 8);
	udp[3] = (unsigned char)dst_port;
	udp[4] = (unsigned char)((8 + payload_len) >> 8);
	udp[5] = (unsigned char)(8 + payload_len);
	memset(udp + 8, 0x5a, payload_len); /* UDP checksum 0: none, allowed over IPv4 */
	return (int)len;
}

int frame_add_vlan(unsigned char *buf, size_t cap, size_t len, uint16_t vid)
{
	if (len < 14 || len + 4 > cap || !vid || vid > 4094)
		return -EINVAL;
	memmove(buf + 16, buf + 12, len - 12); /* the EtherType and all after it */
	buf[12] = 0x81; /* 802.1Q */
	buf[13] = 0x00;
	buf[14] = (unsigned char)(vid >> 8); /* priority 0, DEI 0 */
	buf[15] = (unsigned char)vid;
	return (int)len + 4;
}

static int parse_mac(const char *s, unsigned char mac[6])
{
	unsigned int b[6];

	if (!s || sscanf(s, "%x:%x:%x:%x:%x:%x", &b[0], &b[1], &b[2], &b[3], &b[4], &b[5]) != 6)
		return -EINVAL;
	for (int i = 0; i < 6; i++)
		mac[i] = (unsigned char)b[i];
	return 0;
}

static int dev_mac(const char *dev, unsigned char mac[6])
{
	struct ifreq ifr;
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), e = 0;

	if (fd < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev);
	if (ioctl(fd, SIOCGIFHWADDR, &ifr))
		e = -errno;
	else
		memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	close(fd);
	return e;
}


/* Wait until @sent packets are due at @rate: sleep for long waits, spin for the last
 * 200 us (a sleep overshoots by tens of microseconds, which would cap the rate). */
/*
 * xdp_live_open - load the XDP_TX program with the sender's MAC and attach it natively to
 * the sending device, so test-run calls find it resident in the XDP dispatcher (see
 * bpf/xdp_tx.bpf.c: without that each call costs about 350 us here and paced sending
 * tops out near 60k pps). When the device already has an XDP program the attach is
 * skipped with a note: sending still works, only slower. Returns 0 or -errno.
 */
static int xdp_live_calibrate(struct sender *s);

static int xdp_live_open(struct sender *s, const unsigned char src_mac[6])
{
	struct xdp_tx_bpf *skel = xdp_tx_bpf__open();
	int e;

	if (!skel)
		return -errno;
	memcpy((void *)skel->rodata->sender_mac, src_mac, 6);
	if (xdp_tx_bpf__load(skel)) {
		e = -errno;
		xdp_tx_bpf__destroy(skel);
		return e;
	}
	s->skel = skel;
	/* a BPF link: the kernel detaches it when the last fd closes, even if the sender is
	 * killed */
	s->resident = bpf_program__attach_xdp(skel->progs.xdp_tx, s->ifindex);
	if (!s->resident)
		fprintf(stderr, "xdptc: note: the xdp-live program could not stay attached to %s "
				"(%s): each send call pays an XDP dispatcher update\n",
			s->opts.dev, strerror(errno));
	return s->opts.rate_pps ? xdp_live_calibrate(s) : 0;
}

int sender_xdp_live_probe(char *why, size_t whylen)
{
	const struct bpf_insn drop[] = {
		{ .code = BPF_ALU64 | BPF_MOV | BPF_K, .dst_reg = BPF_REG_0, .imm = XDP_DROP },
		{ .code = BPF_JMP | BPF_EXIT },
	};
	unsigned char frame[60] = { 0 };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = frame, .data_size_in = sizeof(frame),
		    .repeat = 1, .flags = BPF_F_TEST_XDP_LIVE_FRAMES);
	int fd = bpf_prog_load(BPF_PROG_TYPE_XDP, "xdptc_probe", "GPL", drop, 2, NULL), e;

	if (fd < 0)
		return -errno;
	frame[12] = 0x08; /* an IPv4 EtherType: a frame, not a runt */
	e = bpf_prog_test_run_opts(fd, &opts) ? errno : 0;
	close(fd);
	if (e)
		snprintf(why, whylen, "this kernel refuses XDP on live frames (BPF_PROG_TEST_RUN "
			 "with BPF_F_TEST_XDP_LIVE_FRAMES: %s)", strerror(e));
	return !e;
}

int sender_open(struct sender *s, const struct sender_opts *o)
{
	unsigned char src_mac[6], dst_mac[6];
	struct in_addr src, dst;
	int n, e;

	memset(s, 0, sizeof(*s));
	s->opts = *o;
	s->fd = -1;
	s->udp.fd = -1;
	if (o->kind == SENDER_UDP) {
		struct udp_sender_opts uo = { .dst_addr = o->dst_addr, .dst_port = o->dst_port,
					      .payload_len = o->payload_len, .rate_pps = o->rate_pps,
					      .batch = o->batch };

		return udp_sender_open(&s->udp, &uo);
	}
	if (!o->dev || !o->src_addr || inet_pton(AF_INET, o->src_addr, &src) != 1 ||
	    inet_pton(AF_INET, o->dst_addr, &dst) != 1 || parse_mac(o->dst_mac, dst_mac))
		return -EINVAL;
	s->ifindex = (int)if_nametoindex(o->dev);
	if (!s->ifindex)
		return -ENODEV;
	if ((e = dev_mac(o->dev, src_mac)))
		return e;
	if (o->kind == SENDER_TAP)
		src_mac[5] ^= 1; /* the frame is the VM's, written into the tap: not the tap's */
	n = build_udp_frame(s->frame, sizeof(s->frame), src_mac, dst_mac, src.s_addr, dst.s_addr,
			    12345, o->dst_port, o->payload_len);
	if (n >= 0 && o->vlan)
		n = frame_add_vlan(s->frame, sizeof(s->frame), (size_t)n, o->vlan);
	if (n < 0)
		return n;
	s->frame_len = (unsigned int)n;
	if (o->kind == SENDER_TAP) {
		s->fd = tap_sender_open(o->dev);
		return s->fd < 0 ? s->fd : 0;
	}
	if (o->kind == SENDER_PACKET) {
		struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_ifindex = s->ifindex,
					   .sll_protocol = htons(ETH_P_IP) };
		int one = 1;

		s->fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0);
		if (s->fd < 0)
			return -errno;
		if (bind(s->fd, (struct sockaddr *)&sll, sizeof(sll)) ||
		    setsockopt(s->fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one, sizeof(one))) {
			e = -errno;
			close(s->fd);
			s->fd = -1;
			return e;
		}
		return 0;
	}
	return xdp_live_open(s, src_mac);
}

static int send_packet(struct sender *s, uint64_t count, struct udp_send_result *res)
{
	static struct mmsghdr msgs[SENDER_BATCH_MAX];
	struct iovec iov = { .iov_base = s->frame, .iov_len = s->frame_len };
	uint64_t start = clock_ns(CLOCK_MONOTONIC);
	unsigned int batch = s->opts.batch ? s->opts.batch : 64;

	if (batch > SENDER_BATCH_MAX)
		return -EINVAL;
	memset(msgs, 0, batch * sizeof(msgs[0]));
	for (unsigned int i = 0; i < batch; i++) {
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	while (res->sent < count) {
		unsigned int n = count - res->sent < batch ? (unsigned int)(count - res->sent) : batch;
		int r;

		if (s->opts.rate_pps)
			send_pace(&start, res->sent, s->opts.rate_pps, batch);
		r = sendmmsg(s->fd, msgs, n, 0);
		if (r < 0) {
			if (errno == ENOBUFS || errno == EAGAIN || errno == EINTR) {
				res->retries++;
				continue;
			}
			return -errno;
		}
		res->sent += (uint64_t)r;
	}
	return 0;
}

/* One test-run call: @n live frames, each after @spin loop iterations in the program,
 * flushed to the DUT every @batch frames. Its wall time into *@ns. Returns 0 or -errno. */
static int xdp_live_call(struct sender *s, uint64_t n, uint32_t spin, uint32_t batch,
			 uint64_t *ns)
{
	struct xdp_tx_bpf *skel = s->skel;
	/* the kernel wants data_end = the frame's length and data, data_meta 0 */
	struct xdp_md ctx = { .data_end = s->frame_len, .ingress_ifindex = (__u32)s->ifindex };
	LIBBPF_OPTS(bpf_test_run_opts, opts, .data_in = s->frame, .data_size_in = s->frame_len,
		    .ctx_in = &ctx, .ctx_size_in = sizeof(ctx), .repeat = (__u32)n,
		    .flags = BPF_F_TEST_XDP_LIVE_FRAMES, .batch_size = batch);
	uint64_t t0 = clock_ns(CLOCK_MONOTONIC);

	skel->bss->spin_iters = spin;
	if (bpf_prog_test_run_opts(bpf_program__fd(skel->progs.xdp_tx), &opts))
		return -errno;
	*ns = clock_ns(CLOCK_MONOTONIC) - t0;
	return 0;
}

/*
 * Paced xdp-live: the program itself spaces the frames (spin_iters, bpf/xdp_tx.bpf.c), so a
 * call of 20 ms of frames goes out at the offered rate in bursts of at most 16 (the batch:
 * one flush, one NAPI kick of the DUT). The per-frame time is modelled as
 * a + b * spin: b (ns per iteration) from a calibration when the sender opens (frames
 * sent before any measured window), a re-read after every call, so the spin follows the
 * machine's speed; send_pace holds the average rate between calls.
 */
/* The calibration of paced xdp-live (at open, so its 10,000 frames reach the DUT before
 * any measured window): two spins, 5,000 frames each; the slope is ns per iteration. */
static int xdp_live_calibrate(struct sender *s)
{
	uint64_t t1, t2;
	int e;

	if ((e = xdp_live_call(s, 5000, 1000, 16, &t1)) || (e = xdp_live_call(s, 5000, 5000, 16, &t2)))
		return e;
	s->ns_per_spin = ((double)t2 - (double)t1) / 5000.0 / 4000.0;
	if (s->ns_per_spin <= 0.01)
		s->ns_per_spin = 0.01;
	s->ns_per_frame0 = (double)t1 / 5000.0 - 1000 * s->ns_per_spin;
	return 0;
}

static int send_xdp_live_paced(struct sender *s, uint64_t count, struct udp_send_result *res)
{
	uint64_t rate = s->opts.rate_pps, start, ns;
	uint64_t chunk = rate / 50 < 256 ? 256 : rate / 50; /* about 20 ms of frames */
	double target = 1e9 / (double)rate, spin;
	int e;

	start = clock_ns(CLOCK_MONOTONIC);
	while (res->sent < count) {
		uint64_t n = count - res->sent < chunk ? count - res->sent : chunk;

		spin = (target - s->ns_per_frame0) / s->ns_per_spin;
		if (spin < 0)
			spin = 0;
		if (spin > 8000000)
			spin = 8000000;
		send_pace(&start, res->sent, rate, n);
		if ((e = xdp_live_call(s, n, (uint32_t)spin, 16, &ns)))
			return e;
		res->sent += n; /* XDP_TX of every frame; losses show at the devices */
		/* what a frame cost without its spin this time */
		s->ns_per_frame0 = (double)ns / (double)n - spin * s->ns_per_spin;
	}
	return 0;
}

static int send_xdp_live(struct sender *s, uint64_t count, struct udp_send_result *res)
{
	uint64_t ns;
	int e;

	if (s->opts.rate_pps)
		return send_xdp_live_paced(s, count, res);
	while (res->sent < count) { /* unpaced: large calls, no spin */
		uint64_t n = count - res->sent < 1000000 ? count - res->sent : 1000000;

		if ((e = xdp_live_call(s, n, 0, 64, &ns)))
			return e;
		res->sent += n;
	}
	return 0;
}

int sender_send(struct sender *s, uint64_t count, struct udp_send_result *res)
{
	uint64_t wall0, cpu0;
	int e;

	if (s->opts.kind == SENDER_UDP)
		return udp_sender_send(&s->udp, count, NULL, res);
	memset(res, 0, sizeof(*res));
	wall0 = clock_ns(CLOCK_MONOTONIC);
	cpu0 = clock_ns(CLOCK_THREAD_CPUTIME_ID);
	if (s->opts.kind == SENDER_TAP)
		e = tap_sender_send(s->fd, s->frame, s->frame_len, count, s->opts.rate_pps, res);
	else
		e = s->opts.kind == SENDER_PACKET ? send_packet(s, count, res)
						  : send_xdp_live(s, count, res);
	res->wall_ns = clock_ns(CLOCK_MONOTONIC) - wall0;
	res->cpu_ns = clock_ns(CLOCK_THREAD_CPUTIME_ID) - cpu0;
	return e;
}

void sender_close(struct sender *s)
{
	if (s->opts.kind == SENDER_UDP)
		udp_sender_close(&s->udp);
	if (s->fd >= 0)
		close(s->fd);
	s->fd = -1;
	if (s->resident)
		bpf_link__destroy(s->resident);
	s->resident = NULL;
	if (s->skel)
		xdp_tx_bpf__destroy(s->skel);
	s->skel = NULL;
}
