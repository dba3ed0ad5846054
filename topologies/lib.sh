# lib.sh: what the topology scripts share (sourced by each of them; POSIX sh).
#   STATE_DIR            where run state lives (/run/xdptc; made when first needed)
#   check_prefix P       exit 2 unless P is xdptc-* and at most 13 characters
#   ns_exists NS         is there a network namespace NS?
#   owner_alive P        does the process recorded in $STATE_DIR/P.owner still run?
#   kind_of P            which script made P ($STATE_DIR/P.kind, written by up_begin:
#                        "veth.sh", "container.sh"; a record without one is veth.sh's,
#                        as records were before kinds were written)
#   owned_prefixes KIND  the prefixes of the owner records KIND made (no state
#                        directory beside them: that is a guest's, virtio.sh's)
#   remove_dead P... -- WHAT   for each prefix P: leave it while its owner lives, else
#                        call `down P` (WHAT names the kind in the messages)
#   dev_mac NS DEV       the MAC address of DEV in namespace NS
#   dev_addr NS DEV ADDR DEV in namespace NS given ADDR/30 and set up
#   ns_down P NS LINKS   `down P` of a topology of namespaces: its helpers stopped and
#                        waited for (kill_tagged), the namespace P-X for each X of NS
#                        deleted with what is in it, the link P-Y for each Y of LINKS
#                        deleted (what a half-made `up` may have left in the root
#                        namespace), its owner record removed
#   usage                the usage line of a script whose topology is namespaces, exit 2
#                        (a script with other words defines its own after sourcing this)
#   ns_topology_main ARGS  the command line of a script whose topology is namespaces and
#                        their devices (veth.sh, container.sh, nic.sh, tap.sh): `up P`
#                        and `down P` (the script's own up and down, usage on a bad
#                        line) and `cleanup` (remove_dead of the prefixes its owner
#                        records name: a namespace that merely looks like one of ours is
#                        someone else's, and never touched)
#
# The processes of a topology. `up P` runs with XDPTC_TOPOLOGY=P in its environment
# (up_tagged re-executes the script so), and so does every process it starts: apt-get,
# dpkg-deb, the initramfs build, the KVM probe, qemu, the owner watch. That variable is
# the identity recorded when they were made (the prefix is new for every run), so
#   kill_tagged P [PID...]   stops every such process (TERM, then KILL after $TAG_WAIT
#                        seconds, default 15), but this shell and the PIDs given, and
#                        waits for them: `down P` calls it first, so a cleanup never
#                        races a killed run's helper that is still working, and a helper
#                        never outlives its topology;
#   up_begin P           (in `up`, first) records the owner (XDPTC_OWNER_PID, else the
#                        caller), refuses when it is gone already, removes what was made
#                        on any exit before up_done (down P), and starts the owner watch:
#                        when the owner ends (a run killed with SIGKILL) the watch stops
#                        `up` and everything it started within 0.2 s, whatever step it
#                        is in (a download, an unpack, a boot);
#   up_done              (in `up`, on success) ends the watch and the removal on exit;
#   scratch PATH         PATH is removed on any exit of the script (a partial download,
#                        an unpacked kernel not yet complete, an initramfs being built).

STATE_DIR=/run/xdptc
SCRATCH=
UP_PREFIX=
WATCH_PID=

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
	pid_running "$pid" # a zombie owner has ended: its topology is dead
}

kind_of() {
	k=$(cat "$STATE_DIR/$1.kind" 2>/dev/null || true)
	echo "${k:-veth.sh}"
}

owned_prefixes() {
	ls "$STATE_DIR" 2>/dev/null | sed -n 's/^\(xdptc-[A-Za-z0-9]*\)\.owner$/\1/p' |
		while read -r p; do
			[ -d "$STATE_DIR/$p" ] || [ "$(kind_of "$p")" != "$1" ] || echo "$p"
		done | sort -u
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

usage() {
	echo "usage: $0 up PREFIX | down PREFIX | cleanup   (PREFIX: xdptc-XXXXXX)" >&2
	exit 2
}

dev_mac() {
	ip -n "$1" -br link show dev "$2" | awk '{print $3}'
}

dev_addr() {
	ip -n "$1" addr add "$3/30" dev "$2"
	ip -n "$1" link set "$2" up
}

ns_down() {
	kill_tagged "$1"
	for nd_x in $2; do
		if ns_exists "$1-$nd_x"; then
			ip netns delete "$1-$nd_x" || true
		fi
	done
	for nd_x in $3; do
		ip link delete "$1-$nd_x" 2>/dev/null || true
	done
	rm -f "$STATE_DIR/$1.owner" "$STATE_DIR/$1.kind"
}

# pid_running PID: is PID a process that has not ended (a zombie has)?
ns_topology_main() {
	[ $# -ge 1 ] || usage
	case "$1" in
	up) [ $# -eq 2 ] || usage; check_prefix "$2"; up_tagged "$2" "$@"; up "$2" ;;
	down) [ $# -eq 2 ] || usage; check_prefix "$2"; down "$2" ;;
	cleanup)
		[ $# -eq 1 ] || usage
		# shellcheck disable=SC2046
		remove_dead topology $(owned_prefixes "$(basename "$0")") ;;
	*) usage ;;
	esac
}

pid_running() {
	[ -r "/proc/$1/stat" ] || return 1
	case "$(sed 's/^.*) \(.\).*$/\1/' "/proc/$1/stat" 2>/dev/null)" in
	Z|X|'') return 1 ;;
	esac
	return 0
}

# up_tagged P ARGS...: unless this process carries XDPTC_TOPOLOGY=P already, run this
# script again with it (same pid, same parent: the owner and a parent-death signal stay).
up_tagged() {
	[ "${XDPTC_TOPOLOGY:-}" = "$1" ] && return 0
	XDPTC_TOPOLOGY=$1
	export XDPTC_TOPOLOGY
	shift
	exec sh "$0" "$@"
}

# tagged_pids P [PID...]: the live processes whose environment holds XDPTC_TOPOLOGY=P,
# without the shell that asks and the PIDs given. (The scan runs untagged, so it never
# finds itself; the shell that asks is its parent.)
tagged_pids() {
	env -u XDPTC_TOPOLOGY sh -c '
		p=$1
		shift
		grep -lzx "XDPTC_TOPOLOGY=$p" /proc/[0-9]*/environ 2>/dev/null |
			sed -n "s|^/proc/\([0-9][0-9]*\)/environ\$|\1|p" |
			awk -v skip=" $PPID $* " "index(skip, \" \" \$1 \" \") == 0"' sh "$@"
}

kill_tagged() {
	kt_pids=$(tagged_pids "$@" $$)
	[ -n "$kt_pids" ] || return 0
	# shellcheck disable=SC2086
	kill -s TERM $kt_pids 2>/dev/null || true # (some may have ended meanwhile)
	kt_i=0
	while [ $kt_i -lt $(( ${TAG_WAIT:-15} * 10 )) ]; do
		kt_pids=$(tagged_pids "$@" $$)
		[ -n "$kt_pids" ] || return 0
		sleep 0.1
		kt_i=$((kt_i + 1))
	done
	echo "$(basename "$0"): processes of $1 still running after ${TAG_WAIT:-15} s: killing them ($kt_pids)" >&2
	# shellcheck disable=SC2086
	kill -s KILL $kt_pids 2>/dev/null || true
	for kt_p in $kt_pids; do
		kt_i=0
		while pid_running "$kt_p" && [ $kt_i -lt 50 ]; do sleep 0.1; kt_i=$((kt_i + 1)); done
	done
	return 0
}

scratch() {
	SCRATCH="$SCRATCH $1"
}

on_exit() {
	trap '' INT TERM HUP
	set +e # to the end, whatever fails on the way
	if [ -n "$WATCH_PID" ]; then
		kill "$WATCH_PID" 2>/dev/null
		WATCH_PID=
	fi
	if [ -n "$UP_PREFIX" ]; then
		# every helper of this `up` first (a download, a build, qemu), then the rest
		kill_tagged "$UP_PREFIX"
		down "$UP_PREFIX"
	fi
	# shellcheck disable=SC2086
	[ -z "$SCRATCH" ] || rm -rf $SCRATCH
}
trap on_exit EXIT
trap 'exit 130' INT TERM HUP
# a closed output (a run killed meanwhile): a failed write ends the script through its
# exit trap, instead of a SIGPIPE that would skip it
trap '' PIPE

up_begin() {
	owner=${XDPTC_OWNER_PID:-$PPID}
	case "$owner" in ''|*[!0-9]*) echo "$(basename "$0"): bad owner pid '$owner'" >&2; exit 2 ;; esac
	pid_running "$owner" || { echo "$(basename "$0"): the owner of $1 (pid $owner) is gone already" >&2; exit 1; }
	UP_PREFIX=$1
	mkdir -p "$STATE_DIR"
	echo "$(basename "$0")" > "$STATE_DIR/$1.kind"
	echo "$owner" > "$STATE_DIR/$1.owner"
	# stdin, stdout and stderr away from the caller's: the watch must not hold open the
	# pipe the caller reads until `up` ends
	( trap - INT TERM HUP EXIT
	  while pid_running "$owner"; do sleep 0.2; done
	  kill -s TERM $$ 2>/dev/null || true
	  kill_tagged "$UP_PREFIX" ) </dev/null >/dev/null 2>&1 &
	WATCH_PID=$!
}

up_done() {
	if [ -n "$WATCH_PID" ]; then
		kill "$WATCH_PID" 2>/dev/null || true
		WATCH_PID=
	fi
	UP_PREFIX=
}
