#!/bin/sh
# nic.sh: the nic topology of xdptc, inside an icount guest: the guest's emulated NIC
# under test (dut0) and a second NIC of the same guest (snd0, an e1000), joined by one
# qemu hub (virtio.sh with FEED=hub boots such a guest; its init names the two NICs by
# their MACs). Every frame the sender's NIC transmits reaches the DUT's NIC inside the
# guest's own register write, so when it arrives is a point of the guest's instruction
# stream, never the host's timing.
#
#   nic.sh up PREFIX     move snd0 into PREFIX-snd and dut0 into PREFIX-dut, address them
#   nic.sh down PREFIX   remove the namespaces (the NICs return to the guest's own)
#   nic.sh cleanup       remove the topologies whose owner (its record in /run/xdptc) is
#                        gone (as veth.sh)
#
# Addresses from 198.18.0.0/15: the sender 198.18.0.1, the DUT 198.18.0.2, IPv6 off and
# static neighbour entries, so no ARP or ND frame crosses during a window. `up` prints
# the topology as KEY=VALUE lines on stdout (read by `xdptc run`).
# Exit status: 0 done, 1 a command failed (what was made is removed), 2 bad usage.
set -eu
. "$(dirname "$0")/lib.sh"

SND_ADDR=198.18.0.1
DUT_ADDR=198.18.0.2
SND_NIC=snd0
DUT_NIC=dut0

usage() {
	echo "usage: $0 up PREFIX | down PREFIX | cleanup   (PREFIX: xdptc-XXXXXX; inside a" \
	     "guest booted with FEED=hub)" >&2
	exit 2
}

down() {
	ns_down "$1" "dut snd" ""
}

# Wait until NIC $1 is back in this namespace (a deleted namespace hands its physical
# devices back to the initial one from a work queue, a moment later): at most 10 s.
nic_wait_home() {
	i=0
	while [ ! -e "/sys/class/net/$1" ]; do
		[ $i -lt 100 ] || { echo "nic.sh: no NIC $1 in this guest (booted with FEED=hub?)" >&2; exit 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

# Wait until NIC $2 in namespace $1 has its carrier (an e1000's watchdog raises it a
# moment after the link is set up): at most 10 s.
nic_wait_carrier() {
	i=0
	until [ "$(ip netns exec "$1" cat "/sys/class/net/$2/carrier" 2>/dev/null)" = 1 ]; do
		[ $i -lt 100 ] || { echo "nic.sh: $2 has no carrier after 10 s" >&2; exit 1; }
		sleep 0.1
		i=$((i + 1))
	done
}

up() {
	p=$1
	snd=$p-snd
	dut=$p-dut
	if ns_exists "$snd" || ns_exists "$dut"; then
		echo "nic.sh: namespaces for $p exist already" >&2
		exit 1
	fi
	nic_wait_home "$SND_NIC"
	nic_wait_home "$DUT_NIC"
	up_begin "$p"
	for side in "$snd:$SND_NIC:$SND_ADDR" "$dut:$DUT_NIC:$DUT_ADDR"; do
		ns=${side%%:*}
		rest=${side#*:}
		dev=${rest%%:*}
		addr=${rest#*:}
		ip netns add "$ns"
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
		ip -n "$ns" link set lo up
		ip link set "$dev" netns "$ns"
		ip -n "$ns" addr add "$addr/30" dev "$dev"
		ip -n "$ns" link set "$dev" up
	done
	dut_mac=$(dev_mac "$dut" "$DUT_NIC")
	snd_mac=$(dev_mac "$snd" "$SND_NIC")
	ip -n "$snd" neigh replace "$DUT_ADDR" lladdr "$dut_mac" dev "$SND_NIC" nud permanent
	ip -n "$dut" neigh replace "$SND_ADDR" lladdr "$snd_mac" dev "$DUT_NIC" nud permanent
	nic_wait_carrier "$snd" "$SND_NIC"
	nic_wait_carrier "$dut" "$DUT_NIC"
	up_done
	echo "SND_NS=$snd"
	echo "DUT_NS=$dut"
	echo "SND_DEV=$SND_NIC"
	echo "DUT_DEV=$DUT_NIC"
	echo "SND_ADDR=$SND_ADDR"
	echo "DUT_ADDR=$DUT_ADDR"
	echo "DUT_MAC=$dut_mac"
	echo "DUT_DRIVER=$(ip netns exec "$dut" ethtool -i "$DUT_NIC" 2>/dev/null | awk '$1 == "driver:" {print $2}')"
}

ns_topology_main "$@"
