#!/bin/sh
# tap.sh: the tap topology of xdptc: a tap device in a network namespace of its own, the
# host's side of a VM's virtual NIC. xdptc writes the VM's frames into it (its sender
# `tap`, as qemu without vhost-net writes what its guest transmits); the tap is the DUT.
#
#   tap.sh up PREFIX      create the namespace PREFIX-dut and, in it, the tap PREFIX-t
#   tap.sh down PREFIX    remove them (the tap goes with its namespace)
#   tap.sh cleanup        remove the topologies of this kind whose owner (its record in
#                         /run/xdptc) is gone; a namespace that only looks like one of
#                         ours is left alone
#
# XDPTC_OWNER_PID (environment, for `up`): the process that owns the topology, as for
# veth.sh. PREFIX must start with "xdptc-" and be at most 13 characters. Addresses come
# from the benchmarking range 198.18.0.0/15: the VM 198.18.0.1, the tap 198.18.0.2.
# IPv6 is off, so the kernel sends nothing into the tap during a window. The tap is
# persistent (ip tuntap), so the sender attaches to it and leaves it between trials.
# `up` prints the topology as KEY=VALUE lines on stdout (read by `xdptc run`).
# Exit status: 0 done, 1 a command failed (what was made is removed), 2 bad usage.
set -eu
. "$(dirname "$0")/lib.sh"

VM_ADDR=198.18.0.1
TAP_ADDR=198.18.0.2

down() {
	kill_tagged "$1"
	if ns_exists "$1-dut"; then
		ip netns exec "$1-dut" ip link delete "$1-t" 2>/dev/null || true
		ip netns delete "$1-dut" || true
	fi
	rm -f "$STATE_DIR/$1.owner" "$STATE_DIR/$1.kind"
}

up() {
	p=$1
	dut=$p-dut
	if ns_exists "$dut"; then
		echo "tap.sh: the namespace $dut exists already" >&2
		exit 1
	fi
	if [ ! -c /dev/net/tun ]; then
		echo "tap.sh: no /dev/net/tun (modprobe tun)" >&2
		exit 1
	fi
	up_begin "$p"
	ip netns add "$dut"
	ip netns exec "$dut" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
	ip netns exec "$dut" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
	ip -n "$dut" link set lo up
	ip netns exec "$dut" ip tuntap add dev "$p-t" mode tap
	ip -n "$dut" addr add "$TAP_ADDR/30" dev "$p-t"
	ip -n "$dut" link set "$p-t" up
	tap_mac=$(dev_mac "$dut" "$p-t")
	up_done
	# the sender writes from the tap's own namespace: SND_NS and SND_DEV are the DUT's
	echo "SND_NS=$dut"
	echo "DUT_NS=$dut"
	echo "SND_DEV=$p-t"
	echo "DUT_DEV=$p-t"
	echo "SND_ADDR=$VM_ADDR"
	echo "DUT_ADDR=$TAP_ADDR"
	echo "DUT_MAC=$tap_mac"
}

ns_topology_main "$@"
