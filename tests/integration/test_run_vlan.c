/* SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause */
/*
 * Integration test of --vlan (the raw senders' 802.1Q tag) on this machine:
 * - the frames carry the tag: the packet sender with VLAN 100 into a veth pair
 *   (topologies/veth.sh), read at the DUT by an AF_PACKET socket whose PACKET_AUXDATA
 *   says TP_STATUS_VLAN_VALID and VLAN ID 100 (__netif_receive_skb_core moved the tag into
 *   the skb: skb_vlan_untag);
 * - a run with them (`xdptc run --sender packet --vlan 100`, tc and xdpdrv) decides every
 *   tagged frame as the classifier should: every trial valid (each packet sent was decided
 *   by the program), tc one stack entry per packet and xdpdrv none, run.json's settings
 *   say vlan 100;
 * - --vlan with the udp sender, whose datagrams carry no tag, is refused with exit 2.
 * Needs root. Run from the repository root.
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <jansson.h>
#include <linux/if_packet.h>
#include <math.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "netns.h"
#include "sender.h"

static const char *xdptc = "./build/xdptc";

#include "run_helpers.h"

/* One frame @dev (in namespace @ns) receives while the packet sender in @snd_ns writes
 * tagged frames to it; its PACKET_AUXDATA's status and TCI into *@status, *@tci. */
static void receive_one_tagged(const char *prefix, uint32_t *status, uint16_t *tci)
{
	char snd_ns[32], dut_ns[32], snd_dev[24], dut_dev[24], cmd[256], mac[32] = "";
	unsigned char buf[2048], ctl[CMSG_SPACE(sizeof(struct tpacket_auxdata))];
	struct iovec iov = { .iov_base = buf, .iov_len = sizeof(buf) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl,
			    .msg_controllen = sizeof(ctl) };
	struct udp_send_result res;
	struct pollfd pfd;
	struct sender s;
	struct cmsghdr *c;
	int fd, saved, one = 1;
	FILE *p;

	snprintf(snd_ns, sizeof(snd_ns), "%s-snd", prefix);
	snprintf(dut_ns, sizeof(dut_ns), "%s-dut", prefix);
	snprintf(snd_dev, sizeof(snd_dev), "%s-s", prefix);
	snprintf(dut_dev, sizeof(dut_dev), "%s-d", prefix);
	snprintf(cmd, sizeof(cmd), "ip -n %s -br link show dev %s | awk '{printf $3}'", dut_ns,
		 dut_dev);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(mac, sizeof(mac), p));
	pclose(p);
	/* the DUT's side: every frame, with the kernel's word on its VLAN tag */
	assert_int_equal(netns_enter(dut_ns, &saved), 0);
	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	assert_true(fd >= 0);
	{
		struct sockaddr_ll sll = { .sll_family = AF_PACKET, .sll_protocol = htons(ETH_P_ALL),
					   .sll_ifindex = (int)if_nametoindex(dut_dev) };

		assert_int_equal(bind(fd, (struct sockaddr *)&sll, sizeof(sll)), 0);
	}
	assert_int_equal(setsockopt(fd, SOL_PACKET, PACKET_AUXDATA, &one, sizeof(one)), 0);
	assert_int_equal(netns_return(saved), 0);
	/* the sender's side: the packet sender, VLAN 100 */
	{
		struct sender_opts o = { .kind = SENDER_PACKET, .dev = snd_dev,
					 .src_addr = "198.18.0.1", .dst_addr = "198.18.0.2",
					 .dst_mac = mac, .dst_port = 9999, .payload_len = 18,
					 .vlan = 100 };

		assert_int_equal(netns_enter(snd_ns, &saved), 0);
		assert_int_equal(sender_open(&s, &o), 0);
		assert_int_equal(sender_send(&s, 10, &res), 0);
		sender_close(&s);
		assert_int_equal(netns_return(saved), 0);
	}
	pfd.fd = fd;
	pfd.events = POLLIN;
	assert_int_equal(poll(&pfd, 1, 2000), 1);
	assert_true(recvmsg(fd, &m, 0) > 0);
	close(fd);
	*status = 0;
	*tci = 0;
	for (c = CMSG_FIRSTHDR(&m); c; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_PACKET && c->cmsg_type == PACKET_AUXDATA) {
			struct tpacket_auxdata a;

			memcpy(&a, CMSG_DATA(c), sizeof(a));
			*status = a.tp_status;
			*tci = a.tp_vlan_tci;
		}
}

static void test_the_frames_carry_the_tag(void **state)
{
	char prefix[16], cmd[256];
	uint32_t status;
	uint16_t tci;

	(void)state;
	snprintf(prefix, sizeof(prefix), "xdptc-v%05x", (unsigned int)getpid() & 0xfffff);
	snprintf(cmd, sizeof(cmd), "XDPTC_OWNER_PID=%d sh topologies/veth.sh up %s >/dev/null",
		 (int)getpid(), prefix);
	assert_int_equal(system(cmd), 0);
	receive_one_tagged(prefix, &status, &tci);
	snprintf(cmd, sizeof(cmd), "sh topologies/veth.sh down %s", prefix);
	assert_int_equal(system(cmd), 0);
	printf("# at the DUT: tp_status 0x%x, VLAN ID %u\n", status, tci & 0x0fff);
	assert_true(status & TP_STATUS_VLAN_VALID);
	assert_int_equal(tci & 0x0fff, 100);
	assert_int_equal(count_leftovers(prefix), 0);
}

static void test_a_tagged_run_decides_every_frame(void **state)
{
	char tmpl[] = "/tmp/xdptc-vtest-XXXXXX", path[700], prefix[16], out[4096];
	json_t *run, *m;
	int st;

	(void)state;
	assert_int_equal(run_xdptc_err(xdptc, "run --topology veth --vlan 100", out,
				       sizeof(out)), 2);
	printf("# %s", out);
	assert_non_null(strstr(out, "--vlan applies to --sender packet, xdp-live and tap"));
	st = run_xdptc(xdptc, tmpl, "", "run --topology veth --sender packet --vlan 100 "
		       "--modes tc,xdpdrv --packets 10k --reps 3 --count-reps 1 --schedule classic "
		       "--no-flame --quiet", path, sizeof(path));
	run_prefix(path, prefix, sizeof(prefix));
	assert_run_ok(st, path);
	run = load_run_json(tmpl, path, sizeof(path));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(run, "settings"),
							    "vlan")), 100);
	assert_trials_valid(run);
	m = mode_summary(run, "tc");
	assert_non_null(m);
	printf("# tc: %.1f ns/pkt, stack %.3f per packet\n", num(m, "cpu_ns_per_pkt"),
	       num(m, "stack_entries_per_pkt"));
	assert_true(fabs(num(m, "stack_entries_per_pkt") - 1) < 0.01);
	m = mode_summary(run, "xdpdrv");
	assert_non_null(m);
	printf("# xdpdrv: %.1f ns/pkt, stack %.3f per packet\n", num(m, "cpu_ns_per_pkt"),
	       num(m, "stack_entries_per_pkt"));
	assert_true(num(m, "stack_entries_per_pkt") < 0.01);
	finish_run_test(prefix, run, tmpl);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_the_frames_carry_the_tag),
		cmocka_unit_test(test_a_tagged_run_decides_every_frame),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
