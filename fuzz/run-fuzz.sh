#!/bin/sh
# run-fuzz.sh SECONDS BINARY...: run each libFuzzer binary (build/fuzz/fuzz_NAME) for
# SECONDS on its committed seeds, fuzz/corpus/NAME (read-only), with new inputs kept in
# build/fuzz/corpus/NAME and crashes written to build/fuzz/crashes/NAME/; the dictionary
# fuzz/NAME.dict is used when present. Prints one line per target and exits 1 when any
# target crashed (or failed to run), 0 otherwise. Each target's log: build/fuzz/NAME.log.
set -u

secs=$1
shift
here=$(cd "$(dirname "$0")" && pwd)
failed=0
for bin in "$@"; do
	name=$(basename "$bin" | sed 's/^fuzz_//')
	out=$(dirname "$bin")
	log=$out/$name.log
	mkdir -p "$out/corpus/$name" "$out/crashes/$name"
	dict=
	[ -f "$here/$name.dict" ] && dict=-dict=$here/$name.dict
	# -close_fd_mask=3: the parsers' own messages to stdout/stderr are dropped;
	# libFuzzer and the sanitizers still report on a duplicate of stderr
	# shellcheck disable=SC2086
	"$bin" -max_total_time="$secs" -timeout=30 -rss_limit_mb=2048 -close_fd_mask=3 \
		-print_final_stats=1 -artifact_prefix="$out/crashes/$name/" $dict \
		"$out/corpus/$name" "$here/corpus/$name" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
	took=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$log" | tail -n 1)
	cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
	if [ "$rc" = 0 ]; then
		echo "fuzz $name: ok, no crash: ${execs:-?} executions in ${took:-?} s ($cov)"
	else
		echo "fuzz $name: FAILED (exit $rc): see $log and $out/crashes/$name/"
		grep -m 3 -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error)' "$log" | sed 's/^/    /'
		failed=1
	fi
done
exit $failed
