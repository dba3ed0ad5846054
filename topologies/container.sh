#!/bin/sh
# container.sh: the container topology of xdptc: a "container" network namespace joined
# to a host-side namespace by a veth pair and, where the kernel has netkit (Linux 6.7,
# CONFIG_NETKIT), a netkit pair beside it, so that one run measures a container's
# packets dropped on either.
#
#   container.sh up PREFIX     create PREFIX-ctr (the sender: the container) and
#                              PREFIX-host (the DUT: the host's side) with the veth pair
#                              PREFIX-c / PREFIX-h and the netkit pair PREFIX-kc (peer,
#                              in the container) / PREFIX-kh (primary, on the host side)
#   container.sh down PREFIX   remove them (and anything left in them: the netkit pair
#                              goes with its namespaces)
#   container.sh cleanup       remove the topologies whose owner is gone (as veth.sh)
#
# XDPTC_OWNER_PID: as for veth.sh. XDPTC_BIN: the xdptc binary, which makes the netkit
# pair over rtnetlink (`xdptc netkit-pair`; Debian 12's iproute2 6.1 cannot: `ip link add
# type netkit` needs 6.8). Where it cannot (no netkit in this kernel), `up` prints
# NETKIT_REASON=why and the veth pair alone.
#
# Addresses from 198.18.0.0/15: veth container 198.18.0.1, host side 198.18.0.2; netkit
# container 198.18.0.5, host side 198.18.0.6. IPv6 is off in both namespaces; the veth
# container side has a static neighbour entry (netkit's L3 mode has no ARP at all), so no
# ARP or ND frame crosses during a window.
# Exit status: 0 done, 1 a command failed (what was made is removed), 2 bad usage.
set -eu
. "$(dirname "$0")/lib.sh"

SND_ADDR=198.18.0.1
DUT_ADDR=198.18.0.2
NK_SND_ADDR=198.18.0.5
NK_DUT_ADDR=198.18.0.6

down() {
	ns_down "$1" "host ctr" "c kh"
}

up() {
	p=$1
	ctr=$p-ctr
	host=$p-host
	if ns_exists "$ctr" || ns_exists "$host"; then
		echo "container.sh: namespaces for $p exist already" >&2
		exit 1
	fi
	up_begin "$p"
	ip netns add "$ctr"
	ip netns add "$host"
	for ns in "$ctr" "$host"; do
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.all.disable_ipv6=1
		ip netns exec "$ns" sysctl -qw net.ipv6.conf.default.disable_ipv6=1
		ip -n "$ns" link set lo up
	done
	ip link add "$p-c" netns "$ctr" type veth peer name "$p-h" netns "$host"
	dev_addr "$ctr" "$p-c" "$SND_ADDR"
	dev_addr "$host" "$p-h" "$DUT_ADDR"
	dut_mac=$(dev_mac "$host" "$p-h")
	snd_mac=$(dev_mac "$ctr" "$p-c")
	ip -n "$ctr" neigh replace "$DUT_ADDR" lladdr "$dut_mac" dev "$p-c" nud permanent
	ip -n "$host" neigh replace "$SND_ADDR" lladdr "$snd_mac" dev "$p-h" nud permanent
	nk_reason=
	if [ -z "${XDPTC_BIN:-}" ]; then
		nk_reason="no xdptc binary to make the netkit pair (XDPTC_BIN)"
	elif ! nk_err=$("$XDPTC_BIN" netkit-pair --netns "$host" --name "$p-kh" --peer "$p-kc" \
			--peer-netns "$ctr" 2>&1); then
		nk_reason=${nk_err#xdptc netkit-pair: }
	else
		dev_addr "$ctr" "$p-kc" "$NK_SND_ADDR"
		dev_addr "$host" "$p-kh" "$NK_DUT_ADDR"
	fi
	up_done
	echo "SND_NS=$ctr"
	echo "DUT_NS=$host"
	echo "SND_DEV=$p-c"
	echo "DUT_DEV=$p-h"
	echo "SND_ADDR=$SND_ADDR"
	echo "DUT_ADDR=$DUT_ADDR"
	echo "DUT_MAC=$dut_mac"
	if [ -n "$nk_reason" ]; then
		printf 'NETKIT_REASON=%s\n' "$(printf '%s' "$nk_reason" | tr '\n' ' ')"
	else
		echo "NETKIT_SND_DEV=$p-kc"
		echo "NETKIT_DUT_DEV=$p-kh"
		echo "NETKIT_SND_ADDR=$NK_SND_ADDR"
		echo "NETKIT_DUT_ADDR=$NK_DUT_ADDR"
	fi
}

ns_topology_main "$@"
