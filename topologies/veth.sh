#!/bin/sh
# veth.sh: the veth topology of xdptc: two network namespaces joined by a veth pair.
#
#   veth.sh up PREFIX     create PREFIX-snd and PREFIX-dut with the pair PREFIX-s / PREFIX-d
#   veth.sh down PREFIX   remove them (and anything left in them)
#   veth.sh cleanup       remove the topologies whose owner (its record in /run/xdptc) is
#                         gone; a namespace that only looks like one of ours is left alone
#
# XDPTC_OWNER_PID (environment, for `up`): the process that owns the topology (default:
# the process that ran this script, e.g. a person's shell); it is written to
# /run/xdptc/PREFIX.owner, and `cleanup` leaves a topology alone while that process
# lives, so cleaning up never pulls the floor from under a measurement or a person's
# session. A topology whose owner is gone is removed.
#
# PREFIX must start with "xdptc-" and be at most 13 characters, so device names fit the
# kernel's 15. Addresses come from the benchmarking range 198.18.0.0/15: the sender
# 198.18.0.1, the DUT 198.18.0.2. IPv6 is off on both links and the sender has a
# static neighbour entry for the DUT, so no ARP or ND frame crosses during a window.
# `up` prints the topology as KEY=VALUE lines on stdout (read by `xdptc run`).
# Exit status: 0 done, 1 a command failed (what was made is removed), 2 bad usage.
set -eu
. "$(dirname "$0")/lib.sh"

SND_ADDR=198.18.0.1
DUT_ADDR=198.18.0.2

down() {
	# a helper of a killed run still at work: stopped and waited for; a half-made pair
	# may still sit in the root namespace
	ns_down "$1" "dut snd" "s"
}

up() {
	p=$1
	snd=$p-snd
	dut=$p-dut
	if ns_exists "$snd" || ns_exists "$dut"; then
		echo "veth.sh: namespaces for $p exist already" >&2
		exit 1
	fi
	# the owner: the run that asked, or else the shell a person typed the command in;
	# from here on, what is made is removed on any failure or when the owner ends
	up_begin "$p"
	ip netns add "$snd"
	ip netns add "$dut"
	ip link add "$p-s" netns "$snd" type veth peer name "$p-d" netns "$dut"
	for side in "$snd:$p-s:$SND_ADDR" "$dut:$p-d:$DUT_ADDR"; do
		ns=${side%%:*}
		rest=${side#*:}
		dev=${rest%%:*}
		addr=${rest#*:}
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
		ip -n "$ns" link set lo up
		ip -n "$ns" addr add "$addr/30" dev "$dev"
		ip -n "$ns" link set "$dev" up
	done
	dut_mac=$(dev_mac "$dut" "$p-d")
	snd_mac=$(dev_mac "$snd" "$p-s")
	ip -n "$snd" neigh replace "$DUT_ADDR" lladdr "$dut_mac" dev "$p-s" nud permanent
	ip -n "$dut" neigh replace "$SND_ADDR" lladdr "$snd_mac" dev "$p-d" nud permanent
	up_done
	echo "SND_NS=$snd"
	echo "DUT_NS=$dut"
	echo "SND_DEV=$p-s"
	echo "DUT_DEV=$p-d"
	echo "SND_ADDR=$SND_ADDR"
	echo "DUT_ADDR=$DUT_ADDR"
	echo "DUT_MAC=$dut_mac"
}

ns_topology_main "$@"
