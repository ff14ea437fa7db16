#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bpf_stats beside another holder of BPF stats: a bench prog-cost run
# keeps a BPF_ENABLE_STATS fd open (the sysctl reads 0 meanwhile) while
# test_progs -t bpf_stats runs RUNS times.  It must never FAIL: it skips
# with the holder named, or passes when the holder let go.  Prints the
# outcome counts; exits 1 on any failure.
# Usage: [OUTPUT=build] sh tests/harness/stats_holder_loop.sh [RUNS]   (default 30)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
OUTPUT=${OUTPUT:-$(cd "$HERE/../.." && pwd)/build}
runs=${1:-30}
case "$runs" in
'' | *[!0-9]* | 0*)
	echo "stats_holder_loop: RUNS '$runs': expected a whole number >= 1" >&2
	exit 2 ;;
esac
for bin in "$OUTPUT/test_progs" "$OUTPUT/bench"; do
	[ -x "$bin" ] || { echo "stats_holder_loop: $bin is missing (make all bench-bin)" >&2; exit 2; }
done

T=$(mktemp -d) || exit 1
holder=
cleanup() {
	[ -z "$holder" ] || kill "$holder" 2>/dev/null
	[ -z "$holder" ] || wait "$holder" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Long enough for every run; killed when they are done.
"$OUTPUT/bench" -q -d $((runs * 10 + 30)) prog-cost-fizzbuzz >/dev/null 2>&1 &
holder=$!
holds_stats() {	# PID
	for fd in /proc/"$1"/fd/*; do
		[ "$(readlink "$fd" 2>/dev/null)" != anon_inode:bpf-stats ] || return 0
	done
	return 1
}

# Wait for its stats fd (up to 20 s) before the first run.
i=0
until holds_stats "$holder"; do
	i=$((i + 1))
	if [ "$i" -gt 200 ] || ! kill -0 "$holder" 2>/dev/null; then
		echo "stats_holder_loop: the bench (pid $holder) never held BPF stats" >&2
		exit 1
	fi
	sleep 0.1
done

pass=0 skip=0 fail=0
n=1
while [ "$n" -le "$runs" ]; do
	"$OUTPUT/test_progs" -t bpf_stats -J "$T/r.json" >"$T/out" 2>&1
	case "$(jq -r '.results[0].outcome' "$T/r.json" 2>/dev/null)" in
	PASS) pass=$((pass + 1)) ;;
	SKIP) skip=$((skip + 1)) ;;
	*)
		fail=$((fail + 1))
		echo "run $n failed:"
		sed 's/^/  /' "$T/out" | head -n 12 ;;
	esac
	n=$((n + 1))
done
kill -0 "$holder" 2>/dev/null ||
	echo "stats_holder_loop: note: the bench ended before the last run" >&2
held=$(jq -r '.results[0].skip_reason // ""' "$T/r.json" 2>/dev/null)
echo "bpf_stats beside a stats holder: $runs runs, $pass passed, $skip skipped, $fail failed"
[ -z "$held" ] || echo "last skip reason: $held"
[ "$fail" -eq 0 ]
