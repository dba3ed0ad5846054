# lib.sh: what the topology scripts share (sourced by veth.sh and virtio.sh; POSIX sh).
#   STATE_DIR            where run state lives (/run/xdptc)
#   check_prefix P       exit 2 unless P is xdptc-* and at most 13 characters
#   ns_exists NS         is there a network namespace NS?
#   owner_alive P        does the process recorded in $STATE_DIR/P.owner still run?
#   remove_dead P... -- WHAT   for each prefix P: leave it while its owner lives, else
#                        call `down P` (WHAT names the kind in the messages)

STATE_DIR=/run/xdptc

check_prefix() {
	case "$1" in
	xdptc-*) ;;
	*) echo "$(basename "$0"): prefix '$1' must start with 'xdptc-'" >&2; exit 2 ;;
	esac
	[ "${#1}" -le 13 ] || { echo "$(basename "$0"): prefix '$1' is longer than 13 characters" >&2; exit 2; }
}

ns_exists() {
	ip netns list | awk '{print $1}' | grep -qx "$1"
}

owner_alive() {
	f=$STATE_DIR/$1.owner
	[ -f "$f" ] || return 1
	pid=$(cat "$f" 2>/dev/null || true)
	case "$pid" in ''|*[!0-9]*) return 1 ;; esac
	kill -0 "$pid" 2>/dev/null
}

remove_dead() {
	what=$1
	shift
	for p in "$@"; do
		if owner_alive "$p"; then
			echo "leaving $p alone: its owner (pid $(cat "$STATE_DIR/$p.owner")) is still running" >&2
			continue
		fi
		echo "removing $what $p" >&2
		down "$p"
	done
}
