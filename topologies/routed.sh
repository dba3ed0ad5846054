#!/bin/sh
# routed.sh: the routed topology of xdptc: the sender's namespace, a router's namespace
# that forwards (IPv4 forwarding on in it alone), and the DUT's namespace behind it, each
# hop a veth pair: a pod behind a routed host, its packets forwarded to its veth.
#
#   routed.sh up PREFIX     create PREFIX-snd, PREFIX-rtr and PREFIX-dut with the pairs
#                           PREFIX-s / PREFIX-rs (sender to router) and PREFIX-rd /
#                           PREFIX-d (router to DUT)
#   routed.sh down PREFIX   remove them (and anything left in them)
#   routed.sh cleanup       remove the topologies whose owner is gone (as veth.sh)
#
# XDPTC_OWNER_PID: as for veth.sh. PREFIX must start with "xdptc-" and be at most 13
# characters (xdptc's own are 12, so PREFIX-rs and PREFIX-rd fit the kernel's 15).
# Addresses from 198.18.0.0/15: sender 198.18.0.1, router 198.18.0.2 on the sender's
# link; router 198.18.0.5, DUT 198.18.0.6 on the DUT's link. The sender routes to the DUT
# through the router, the DUT back through it. IPv6 is off in the three namespaces,
# reverse-path filtering and ICMP redirects off in the router's, and every hop has a
# static neighbour entry, so no ARP or ND frame crosses during a window. Every setting
# is written inside the namespaces this script makes, never in another.
# `up` prints KEY=VALUE lines on stdout (read by `xdptc run`): veth.sh's keys, the DUT
# being behind the router, and ROUTER_NS, ROUTER_SND_DEV, ROUTER_DUT_DEV.
# Exit status: 0 done, 1 a command failed (what was made is removed), 2 bad usage.
set -eu
. "$(dirname "$0")/lib.sh"

SND_ADDR=198.18.0.1
RTR_SND_ADDR=198.18.0.2
RTR_DUT_ADDR=198.18.0.5
DUT_ADDR=198.18.0.6

down() {
	ns_down "$1" "dut rtr snd" "s rd"
}

up() {
	p=$1
	snd=$p-snd
	rtr=$p-rtr
	dut=$p-dut
	if ns_exists "$snd" || ns_exists "$rtr" || ns_exists "$dut"; then
		echo "routed.sh: namespaces for $p exist already" >&2
		exit 1
	fi
	up_begin "$p"
	for ns in "$snd" "$rtr" "$dut"; do
		ip netns add "$ns"
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
		ip -n "$ns" link set lo up
	done
	ip link add "$p-s" netns "$snd" type veth peer name "$p-rs" netns "$rtr"
	ip link add "$p-rd" netns "$rtr" type veth peer name "$p-d" netns "$dut"
	for k in all default "$p-rs" "$p-rd"; do
		ip netns exec "$rtr" sysctl -qw "net.ipv4.conf.$k.rp_filter=0"
		ip netns exec "$rtr" sysctl -qw "net.ipv4.conf.$k.send_redirects=0"
	done
	ip netns exec "$rtr" sysctl -qw net.ipv4.ip_forward=1
	dev_addr "$snd" "$p-s" "$SND_ADDR"
	dev_addr "$rtr" "$p-rs" "$RTR_SND_ADDR"
	dev_addr "$rtr" "$p-rd" "$RTR_DUT_ADDR"
	dev_addr "$dut" "$p-d" "$DUT_ADDR"
	ip -n "$snd" route add "$DUT_ADDR/32" via "$RTR_SND_ADDR" dev "$p-s"
	ip -n "$dut" route add "$SND_ADDR/32" via "$RTR_DUT_ADDR" dev "$p-d"
	ip -n "$snd" neigh replace "$RTR_SND_ADDR" lladdr "$(dev_mac "$rtr" "$p-rs")" dev "$p-s" nud permanent
	ip -n "$rtr" neigh replace "$SND_ADDR" lladdr "$(dev_mac "$snd" "$p-s")" dev "$p-rs" nud permanent
	ip -n "$rtr" neigh replace "$DUT_ADDR" lladdr "$(dev_mac "$dut" "$p-d")" dev "$p-rd" nud permanent
	ip -n "$dut" neigh replace "$RTR_DUT_ADDR" lladdr "$(dev_mac "$rtr" "$p-rd")" dev "$p-d" nud permanent
	dut_mac=$(dev_mac "$dut" "$p-d")
	up_done
	echo "SND_NS=$snd"
	echo "DUT_NS=$dut"
	echo "SND_DEV=$p-s"
	echo "DUT_DEV=$p-d"
	echo "SND_ADDR=$SND_ADDR"
	echo "DUT_ADDR=$DUT_ADDR"
	echo "DUT_MAC=$dut_mac"
	echo "ROUTER_NS=$rtr"
	echo "ROUTER_SND_DEV=$p-rs"
	echo "ROUTER_DUT_DEV=$p-rd"
}

ns_topology_main "$@"
