#!/bin/sh
# fresh-machine.sh CMD [ARG...]: run CMD the way a freshly booted machine presents itself
# to xdptc, without changing anything outside: CMD runs in a private mount namespace
# (unshare --mount --propagation private) in which
#   - tracefs, debugfs and bpffs are not mounted (every mount at /sys/kernel/tracing,
#     /sys/kernel/debug and /sys/fs/bpf is detached, in this namespace only);
#   - /run/xdptc does not exist (/run is a tmpfs there, holding bind mounts of every
#     other entry of the real /run), and /run/netns is empty and its own: no named
#     namespace of the machine is seen there, and none made there is seen outside (so a
#     cleanup inside, which cannot see the owner files of the runs outside, never
#     removes their namespaces);
#   - the guest-kernel cache is empty: XDPTC_CACHE names a new empty directory, unless
#     the caller set XDPTC_CACHE (to share one empty cache between several calls).
# It prints one line saying which of these it set up, then CMD's output. After CMD it
# lists what CMD left in that /run/xdptc besides the KVM probe's cache
# (state of runs that should be gone) and the named namespaces left in that /run/netns,
# and fails when there is any.
# Exit status: CMD's, or 1 when CMD left state behind, or 2 on bad usage, or 3 when the
# namespace could not be made (not root, no unshare).
# Needs root and util-linux's unshare, mount, umount and mountpoint.
set -u

if [ "${1:-}" != --inside ]; then
	[ $# -ge 1 ] || { echo "usage: $0 CMD [ARG...]" >&2; exit 2; }
	[ "$(id -u)" = 0 ] || { echo "fresh-machine.sh: needs root (a mount namespace)" >&2; exit 3; }
	command -v unshare >/dev/null || { echo "fresh-machine.sh: no unshare (util-linux)" >&2; exit 3; }
	work=$(mktemp -d /tmp/xdptc-fresh.XXXXXX) || exit 3
	own_cache=
	if [ -z "${XDPTC_CACHE:-}" ]; then
		own_cache=$(mktemp -d /var/tmp/xdptc-fresh-cache.XXXXXX) || exit 3
		XDPTC_CACHE=$own_cache
	fi
	export XDPTC_CACHE
	unshare --mount --propagation private sh "$0" --inside "$work" "$@"
	rc=$?
	# the real /run was bound under $work only inside the namespace: outside it is empty
	rmdir "$work/run" "$work" 2>/dev/null
	[ -n "$own_cache" ] && rm -rf "$own_cache"
	exit "$rc"
fi

shift
work=$1
shift
said=
# tracefs (also under debugfs), debugfs, bpffs: detached in this namespace only
for m in /sys/kernel/debug/tracing /sys/kernel/tracing /sys/kernel/debug /sys/fs/bpf; do
	while mountpoint -q "$m" 2>/dev/null; do
		umount -l "$m" || { echo "fresh-machine.sh: cannot unmount $m" >&2; exit 3; }
		said="$said, unmounted $m"
	done
done
said="$said, no tracefs, debugfs or bpffs"
# /run without xdptc: a tmpfs with every other entry of the real /run bound into it
if [ -e /run/xdptc ]; then
	mkdir "$work/run" && mount --rbind /run "$work/run" &&
		mount -t tmpfs -o mode=0755 xdptc-fresh-run /run || {
		echo "fresh-machine.sh: cannot hide /run/xdptc" >&2
		exit 3
	}
	for e in "$work/run"/* "$work/run"/.[!.]*; do
		[ -e "$e" ] || [ -L "$e" ] || continue
		n=${e##*/}
		# xdptc: hidden; netns: made below, empty and its own
		[ "$n" = xdptc ] || [ "$n" = netns ] && continue
		if [ -L "$e" ]; then
			cp -P "$e" "/run/$n"
		elif [ -d "$e" ]; then
			# (mount itself may have made /run/mount for its utab already)
			{ [ -d "/run/$n" ] || mkdir "/run/$n"; } && mount --rbind "$e" "/run/$n"
		else
			{ [ -e "/run/$n" ] || : > "/run/$n"; } && mount --bind "$e" "/run/$n"
		fi || { echo "fresh-machine.sh: cannot bind /run/$n" >&2; exit 3; }
	done
	said="$said, /run/xdptc hidden"
else
	said="$said, no /run/xdptc"
fi
# a fresh machine's named namespaces: none, and none made here seen outside
mkdir -p /run/netns && mount -t tmpfs -o mode=0755 xdptc-fresh-netns /run/netns || {
	echo "fresh-machine.sh: cannot make /run/netns" >&2
	exit 3
}
said="$said, /run/netns empty and its own"
[ -e /run/xdptc ] && { echo "fresh-machine.sh: /run/xdptc still visible" >&2; exit 3; }
n=$(find "$XDPTC_CACHE" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l)
if [ "$n" -eq 0 ]; then
	said="$said, empty guest-kernel cache $XDPTC_CACHE"
else
	said="$said, guest-kernel cache $XDPTC_CACHE ($n entries, shared with earlier fresh runs)"
fi
echo "# fresh machine: ${said#, }"
"$@"
rc=$?
left=$(ls -A /run/xdptc 2>/dev/null | grep -v -e '^accel-')
if [ -n "$left" ]; then
	echo "*** fresh-machine.sh: left in /run/xdptc after $*:" $left
	[ "$rc" -eq 0 ] && rc=1
fi
left=$(ip netns list 2>/dev/null | awk '{print $1}')
if [ -n "$left" ]; then
	echo "*** fresh-machine.sh: namespaces left after $*:" $left
	for n in $left; do ip netns delete "$n" 2>/dev/null; done
	[ "$rc" -eq 0 ] && rc=1
fi
exit "$rc"
