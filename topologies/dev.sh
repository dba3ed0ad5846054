#!/bin/sh
# dev.sh: the dev topology of xdptc: a device the user names, whose traffic comes from
# outside (another machine, a generator, `xdptc send` on a peer). It makes nothing and
# removes nothing: the device and its namespace are the user's.
#
#   dev.sh up PREFIX     print the device (XDPTC_DEV) and its namespace (XDPTC_DEV_NETNS,
#                        empty: this one) as KEY=VALUE lines, after checking it exists
#   dev.sh down PREFIX   nothing
#   dev.sh cleanup       nothing (a killed run leaves no device; its programs are
#                        detached by `xdptc cleanup`'s own pass, by recorded identity)
#
# Exit status: 0 done, 1 no such device, 2 bad usage.
set -eu

usage() {
	echo "usage: $0 up PREFIX | down PREFIX | cleanup   (XDPTC_DEV names the device)" >&2
	exit 2
}

up() {
	dev=${XDPTC_DEV:-}
	ns=${XDPTC_DEV_NETNS:-}
	[ -n "$dev" ] || { echo "dev.sh: XDPTC_DEV names no device" >&2; exit 2; }
	if [ -n "$ns" ]; then
		ip -n "$ns" link show dev "$dev" >/dev/null 2>&1 ||
			{ echo "dev.sh: no device '$dev' in namespace '$ns'" >&2; exit 1; }
	else
		ip link show dev "$dev" >/dev/null 2>&1 ||
			{ echo "dev.sh: no device '$dev'" >&2; exit 1; }
	fi
	echo "DUT_NS=$ns"
	echo "DUT_DEV=$dev"
}

[ $# -ge 1 ] || usage
case "$1" in
up) [ $# -eq 2 ] || usage; up ;;
down) [ $# -eq 2 ] || usage ;;
cleanup) [ $# -eq 1 ] || usage ;;
*) usage ;;
esac
