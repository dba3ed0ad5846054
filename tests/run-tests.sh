#!/bin/sh
# run-tests.sh: run every test binary given (cmocka programs), then check that no
# namespace or link named xdptc-* is left, and print one closing line for the suite:
# "N passed, N failed". Exit status 0 only when nothing failed.
set -u

passed=0
failed=0
names() { { ip netns list; ip -o link show; } 2>/dev/null | grep -o 'xdptc-[A-Za-z0-9-]*' | sort -u; }
before=$(names)
for t in "$@"; do
	echo "=== $t"
	out=$("$t" 2>&1)
	rc=$?
	printf '%s\n' "$out"
	# cmocka writes some lines to stdout and some to stderr: they may interleave
	# mid-line, so the counts are found anywhere on a line
	p=$(printf '%s\n' "$out" | grep -o '\[  PASSED  \] [0-9]* test(s)\.' | tail -n 1 | grep -o '[0-9][0-9]*' || true)
	f=$(printf '%s\n' "$out" | grep -o '\[  FAILED  \] [0-9]* test(s), listed below' | tail -n 1 | grep -o '[0-9][0-9]*' || true)
	p=${p:-0}
	f=${f:-0}
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		# the program failed outside its tests (setup, crash, missing privilege)
		echo "*** $t exited with status $rc"
		f=1
	fi
	passed=$((passed + p))
	failed=$((failed + f))
done

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

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
