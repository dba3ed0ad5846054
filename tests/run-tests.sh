#!/bin/sh
# run-tests.sh [--beside TEST...] [--here|--fresh] TEST...: run every test binary given
# (cmocka programs), then check that no namespace or link named xdptc-* is left, and
# print one closing line for the suite: "N passed, N failed". Exit status 0 only when
# nothing failed.
#
#   --beside  the tests that follow (up to the next --here or --fresh) run one after the
#             other in a lane of their own, beside the others, from the start: for tests
#             that make no namespace, device, BPF program or guest and time nothing (the
#             unit tests), on a machine whose other CPU would wait while the first tests
#             of the others run. Their output is printed, and counted, at the end.
#   --here    the tests that follow run on the machine as it is (the default), with
#             the caller's XDPTC_CACHE (or none)
#   --fresh   the tests that follow each run the way a freshly booted machine presents
#             itself (tests/fresh-machine.sh: no /run/xdptc, no tracefs, debugfs or bpffs
#             mounted), all of them with one guest-kernel cache that is empty when the
#             first of them starts (XDPTC_CACHE, removed at the end; a caller's own
#             XDPTC_CACHE is used as it is)
set -u

here=$(cd "$(dirname "$0")" && pwd)
mode=here
fresh_cache=
fresh_tests=
beside=
work=$(mktemp -d) || exit 1
trap 'rm -rf "$work"' EXIT
names() { { ip netns list; ip -o link show; } 2>/dev/null | grep -o 'xdptc-[A-Za-z0-9-]*' | sort -u; }
before=$(names)
caller_cache=${XDPTC_CACHE:-}
cache_note="the caller's guest-kernel cache XDPTC_CACHE=$caller_cache"

# run_one TEST MODE COUNTS: run TEST (MODE here or fresh), print its output and its time,
# and append "PASSED FAILED" to the file COUNTS
run_one() {
	echo "=== $1$( [ "$2" = fresh ] && echo " (as on a freshly booted machine)")"
	t0=$(date +%s)
	if [ "$2" = fresh ]; then
		out=$(sh "$here/fresh-machine.sh" "$1" 2>&1)
		rc=$?
	else
		out=$("$1" 2>&1)
		rc=$?
	fi
	printf '%s\n' "$out"
	echo "# $(basename "$1"): $(( $(date +%s) - t0 )) s"
	# cmocka writes some lines to stdout and some to stderr: they may interleave
	# mid-line, so the counts are found anywhere on a line
	p=$(printf '%s\n' "$out" | grep -o '\[  PASSED  \] [0-9]* test(s)\.' | tail -n 1 | grep -o '[0-9][0-9]*' || true)
	f=$(printf '%s\n' "$out" | grep -o '\[  FAILED  \] [0-9]* test(s), listed below' | tail -n 1 | grep -o '[0-9][0-9]*' || true)
	p=${p:-0}
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		# the program failed outside its tests (setup, crash, missing privilege, or
		# state left behind in a fresh machine's /run/xdptc)
		echo "*** $1 exited with status $rc"
		f=1
	fi
	echo "$p $f" >> "$3"
}

# the lane beside: its tests, in the order given, from now on
lane=
for t in "$@"; do
	case "$t" in
	--beside) lane=1; continue ;;
	--here|--fresh) lane= ;;
	esac
	[ -n "$lane" ] && beside="$beside $t"
done
beside_pid=
if [ -n "$beside" ]; then
	( for t in $beside; do run_one "$t" here "$work/beside.counts"; done ) \
		> "$work/beside.log" 2>&1 &
	beside_pid=$!
	echo "=== beside the others, one after the other:$beside"
fi

lane=
for t in "$@"; do
	case "$t" in
	--beside) lane=1; continue ;;
	--here)
		lane=
		mode=here
		if [ -n "$caller_cache" ]; then XDPTC_CACHE=$caller_cache; else unset XDPTC_CACHE; fi
		continue ;;
	--fresh)
		lane=
		mode=fresh
		if [ -z "$caller_cache" ] && [ -z "$fresh_cache" ]; then
			fresh_cache=$(mktemp -d /var/tmp/xdptc-test-cache.XXXXXX) || exit 1
			cache_note="a guest-kernel cache that was empty when the first of them started"
		fi
		if [ -n "$fresh_cache" ]; then
			XDPTC_CACHE=$fresh_cache
			export XDPTC_CACHE
		fi
		continue ;;
	esac
	[ -n "$lane" ] && continue
	[ "$mode" = fresh ] && fresh_tests="$fresh_tests $(basename "$t")"
	run_one "$t" "$mode" "$work/counts"
done
[ -n "$fresh_cache" ] && rm -rf "$fresh_cache"
if [ -n "$beside_pid" ]; then
	wait "$beside_pid"
	echo "=== the tests beside the others"
	cat "$work/beside.log"
	cat "$work/beside.counts" >> "$work/counts" 2>/dev/null
	# a test of the lane that wrote no count line (the lane itself died)
	[ "$(wc -l < "$work/beside.counts" 2>/dev/null || echo 0)" -eq "$(echo $beside | wc -w)" ] ||
		{ echo "*** the lane beside ended before its tests did"; echo "0 1" >> "$work/counts"; }
fi
passed=$(awk '{ s += $1 } END { print s + 0 }' "$work/counts" 2>/dev/null || echo 0)
failed=$(awk '{ s += $2 } END { print s + 0 }' "$work/counts" 2>/dev/null || echo 0)

echo "=== leftovers"
# what exists now, did not before the tests, and belongs to no running measurement
# (topologies record their owner's pid in /run/xdptc/PREFIX.owner)
owned_by_live_run() {
	p=$(printf '%s\n' "$1" | grep -o '^xdptc-[A-Za-z0-9]*')
	pid=$(cat "/run/xdptc/$p.owner" 2>/dev/null || true)
	[ -n "$pid" ] && kill -0 "$pid" 2>/dev/null
}
left=$(names | while read -r n; do
	printf '%s\n' "$before" | grep -qx "$n" && continue
	owned_by_live_run "$n" && continue
	echo "$n"
done)
if [ -n "$left" ]; then
	echo "*** the tests left these behind:"
	printf '%s\n' "$left"
	failed=$((failed + 1))
else
	echo "no namespace or link of the tests remains"
	passed=$((passed + 1))
fi

if [ -n "$fresh_tests" ]; then
	echo "fresh-machine conditions exercised (each test in a mount namespace of its own):"
	echo "  no /run/xdptc; tracefs, debugfs and bpffs not mounted; $cache_note;"
	echo "  tests:$fresh_tests"
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
