#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The regression gate end to end ("make bench-regress").  The baseline is
# the XDP FizzBuzzFibonacci classifier's lookup variant; the candidate is
# the loop variant, the change that recomputes the Fibonacci sequence on
# every packet, which the gate must flag (bench compare exits 1); the
# control is the lookup variant again, which it must pass (exit 0).
#
# Usage: bench/run_gate_demo.sh [options]
#   -w SEC      warm-up seconds per run (default 1)
#   -d SEC      measured seconds, i.e. samples per method, per run (default 3)
#   -r N        rounds; each runs the baseline, the candidate and the
#               control once, in turn, and compare pools each side's runs,
#               so that all three share the machine's ups and downs (default 3)
#   -t PCT      the gate's minimum effect (bench compare --threshold, default 5)
#   -o DIR      output directory (default build/gate-demo)
#   -g CPUS     quiet guard: before each run wait (up to -W seconds) until
#               other processes use less than CPUS CPUs; 0 turns it off
#               (default 0)
#   -W SEC      longest wait for a quiet machine (default 300)
#
# Writes base.json, candidate.json and control.json (each the array of
# that side's runs) and every run's JSON and BMF under runs/.  Exits 0
# when the gate said "regressed" for the candidate and nothing regressed
# for the control, 1 when it did not, 2 on bad usage or a failed run.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-${OUTPUT:-$srcdir/build}/bench}

warmup=1
duration=3
rounds=3
threshold=5
out=$srcdir/build/gate-demo
guard=0
max_wait=300

SCRIPT=run_gate_demo
# shellcheck source=bench/lib.sh
. "$srcdir/bench/lib.sh"

while getopts :w:d:r:t:o:g:W:h opt; do
	case $opt in
	d) duration=$(opt_uint -d "$OPTARG" 1 "whole seconds") || exit ;;
	r) rounds=$(opt_uint -r "$OPTARG" 1 "a number of rounds") || exit ;;
	t) echo "$OPTARG" | grep -Eq '^[0-9]+(\.[0-9]+)?$' ||
		die "-t '$OPTARG': expected a percentage, e.g. 5"
	   threshold=$OPTARG ;;
	*) common_opt "$opt" "${OPTARG:-}" ;;
	esac
done
[ "$((duration * rounds))" -ge 3 ] ||
	die "-d $duration -r $rounds: the gate needs at least 3 samples a side"
[ -x "$BENCH" ] || die "$BENCH not found: run 'make bench-bin'"
command -v jq >/dev/null || die "jq not found: run 'make deps'"

mkdir -p "$out/runs"
rm -f "$out"/runs/*.json "$out"/runs/*.bmf

run_side() {	# SIDE VARIANT ROUND
	wait_quiet
	printf '  round %s: %-9s (--variant %s)\n' "$3" "$1" "$2" >&2
	"$BENCH" -q -w "$warmup" -d "$duration" prog-cost-fizzbuzz --variant "$2" \
		--json "$out/runs/$1-$3.json" --bmf "$out/runs/$1-$3.bmf" \
		>"$out/runs/last.out" 2>"$out/runs/last.err" ||
		die "the $1 run failed: $(head -n 1 "$out/runs/last.err")"
}

echo "Gate demo: $rounds round(s) of baseline (lookup), candidate (loop) and" \
	"control (lookup), -w $warmup -d $duration each" >&2
r=1
while [ "$r" -le "$rounds" ]; do
	run_side base lookup "$r"
	run_side candidate loop "$r"
	run_side control lookup "$r"
	r=$((r + 1))
done
rm -f "$out/runs/last.out" "$out/runs/last.err"
for side in base candidate control; do
	jq -s . "$out"/runs/"$side"-*.json >"$out/$side.json"
done

echo
echo "== the loop variant against the lookup baseline (the gate must flag it)"
set +e
"$BENCH" compare --threshold "$threshold" "$out/base.json" "$out/candidate.json"
loop_rc=$?
echo
echo "== the lookup variant against itself (the gate must pass it)"
"$BENCH" compare --threshold "$threshold" "$out/base.json" "$out/control.json"
control_rc=$?
set -e
echo
if [ "$loop_rc" = 2 ] || [ "$control_rc" = 2 ]; then
	die "bench compare refused its input (exit 2)"
fi
if [ "$loop_rc" = 1 ] && [ "$control_rc" = 0 ]; then
	echo "gate demo: as expected: loop vs lookup exit 1 (regressed)," \
		"lookup vs lookup exit 0"
	exit 0
fi
echo "gate demo: NOT as expected: loop vs lookup exit $loop_rc (expected 1)," \
	"lookup vs lookup exit $control_rc (expected 0)"
exit 1
