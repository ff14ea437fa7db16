#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Every prog-cost pair, by both methods, in one table: what a run of each
# variant costs by BPF_PROG_TEST_RUN (test_run) and by the kernel's BPF
# statistics with the program attached (bpf_stats), how far the two
# methods agree (bpf_stats / test_run), the same over the floor an empty
# XDP program sets for each method ("net"), and each variant against the
# pair's first as the gate (bench compare) sees it.
#
# Usage: bench/run_prog_cost.sh [options]
#   -w SEC      warm-up seconds per run (default 1)
#   -d SEC      measured seconds, i.e. samples per method, per run (default 5)
#   -P LIST     pairs (default "empty fizzbuzz task bloom subprog isa map-batch")
#   -o DIR      output directory (default build/prog-cost)
#   -g CPUS     quiet guard: before each run wait (up to -W seconds) until
#               other processes use less than CPUS CPUs; 0 turns it off
#               (default 0.15)
#   -W SEC      longest wait for a quiet machine before a run (default 60)
#   -K          leave kernel.pid_max alone (see below)
#
# Task storage for 100000 keys needs 100000 live tasks, more than the
# usual kernel.pid_max (32768) allows: for the task rows the script
# raises kernel.pid_max to the keys plus 32768 when it is lower, says so,
# and puts it back afterwards (also on Ctrl-C).  With -K those rows say
# why they were not measured instead.
#
# Writes prog_cost.txt (the table), prog_cost.csv and each run's JSON in
# runs/.  The "other" column is the CPU time other processes and the
# hypervisor took during the run, in CPUs: a busy machine explains noise.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
OUTPUT=${OUTPUT:-$srcdir/build}
BENCH=${BENCH:-$OUTPUT/bench}
EMPTY_OBJ=${EMPTY_OBJ:-$OUTPUT/bpf/bench_cost_empty.bpf.o}

warmup=1
duration=5
pairs="empty fizzbuzz task bloom subprog isa map-batch"
out=$OUTPUT/prog-cost
guard=0.15
max_wait=60
touch_pid_max=1

SCRIPT=run_prog_cost
# shellcheck source=bench/lib.sh
. "$srcdir/bench/lib.sh"

while getopts :w:d:P:o:g:W:Kh opt; do
	case $opt in
	d) duration=$(opt_uint -d "$OPTARG" 3 "whole seconds (the gate's minimum)") ||
		exit ;;
	P) pairs=$(opt_words -P "$OPTARG" "$pairs") || exit ;;
	K) touch_pid_max= ;;
	*) common_opt "$opt" "${OPTARG:-}" ;;
	esac
done
[ -x "$BENCH" ] || die "$BENCH not found: run 'make bench-bin'"
[ -r "$EMPTY_OBJ" ] || die "$EMPTY_OBJ not found: run 'make bench-bin'"
command -v jq >/dev/null || die "jq not found: run 'make deps'"

# pair|input|benchmark and its options|variants (the first is the baseline)
rows() {
	for p in $pairs; do
		case $p in
		empty) echo "empty|-|prog-cost --obj $EMPTY_OBJ --prog empty_xdp|empty" ;;
		fizzbuzz) echo "fizzbuzz|octet sweep|prog-cost-fizzbuzz|lookup loop" ;;
		task)
			for k in 1 1000 100000; do
				echo "task|keys $k|prog-cost-task --keys $k|pid-hash task-storage"
			done ;;
		bloom)
			for h in 0 10 50 100; do
				echo "bloom|hit $h%|prog-cost-bloom --hit-pct $h|plain bloom"
			done ;;
		subprog) echo "subprog|-|prog-cost-subprog|noinline inline" ;;
		isa) echo "isa|-|prog-cost-isa|v1 v2 v3 v4" ;;
		map-batch)
			for op in lookup update delete; do
				echo "map-batch|$op|prog-cost-map-batch --op $op|elem batch"
			done ;;
		*) die "-P: unknown pair '$p'" ;;
		esac
	done
}

mkdir -p "$out/runs"
rm -f "$out"/runs/*.json
results=$out/results.tmp
notes=$out/notes.tmp
: >"$results"
: >"$notes"

# "mean ± stddev" of a metric, or n/a.
metric() {	# JSON NAME
	jq -r --arg m "$2" '[.metrics[] | select(.name == $m and .available)] |
		if length == 0 then "n/a" else .[0].summary |
		"\(.mean) \(.stddev)" end' "$1" |
		awk '$1 == "n/a" { print; next } { printf "%.1f ± %.1f\n", $1, $2 }'
}

mean_of() {	# JSON NAME
	jq -r --arg m "$2" '[.metrics[] | select(.name == $m and .available)] |
		if length == 0 then "" else .[0].summary.mean end' "$1"
}

# The gate's verdicts of this run against the pair's first, per metric.
verdicts() {	# BASE.json THIS.json
	"$BENCH" compare "$1" "$2" 2>&1 | awk '
		$2 == "test_run" || $2 == "bpf_stats" || $2 == "userspace" {
			v = $9 ($10 == "" ? "" : " " $10)
			if ($4 == "-" || $3 == "-") v = "n/a"
			out = out (out == "" ? "" : ", ") $2 " " $7 " " v
		}
		END { print (out == "" ? "-" : out) }'
}

# Floors: the empty program's mean per method, once it has run.
floor_tr=
floor_st=

net() {	# MEAN FLOOR
	awk -v m="$1" -v f="$2" 'BEGIN {
		if (m == "" || f == "") print "-"; else printf "%.1f", m - f }'
}

ratio() {	# A B
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a + 0 > 0 && b + 0 > 0) printf "%.2f", a / b; else print "-" }'
}

run_row() {	# PAIR INPUT BENCH_ARGS VARIANTS
	first=
	for v in $4; do
		tag=$(echo "$1-$2-$v" | tr -c 'a-zA-Z0-9\n-' '_')
		json=$out/runs/$tag.json
		wait_quiet
		printf '  %-9s %-12s %s\n' "$1" "$2" "$v" >&2
		vopt="--variant $v"
		[ "$1" != empty ] || vopt=
		# shellcheck disable=SC2086
		if ! "$BENCH" -q -w "$warmup" -d "$duration" $3 $vopt --json "$json" \
			>"$out/runs/last.out" 2>"$out/runs/last.err"; then
			why=$(head -n 1 "$out/runs/last.err" | sed 's/^bench: [^:]*: //')
			printf '%s|%s|%s|n/a|n/a|-|-|-|-|n/a|-|-\n' "$1" "$2" "$v" >>"$results"
			echo "$1 $2 $v: $why" >>"$notes"
			continue
		fi
		tr=$(mean_of "$json" test_run)
		st=$(mean_of "$json" bpf_stats)
		if [ "$1" = empty ]; then
			floor_tr=$tr
			floor_st=$st
		fi
		vs=-
		if [ -z "$first" ]; then
			first=$json
		else
			vs=$(verdicts "$first" "$json")
		fi
		other=$(jq '.machine.other_cpus.mean + .machine.steal_cpus.mean |
			. * 100 | round / 100' "$json")
		printf '%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s|%s\n' "$1" "$2" "$v" \
			"$(metric "$json" test_run)" "$(metric "$json" bpf_stats)" \
			"$(ratio "$st" "$tr")" "$(net "$tr" "$floor_tr")" \
			"$(net "$st" "$floor_st")" \
			"$(ratio "$(net "$st" "$floor_st")" "$(net "$tr" "$floor_tr")")" \
			"$(metric "$json" userspace)" "$other" "$vs" >>"$results"
	done
}

PID_MAX=/proc/sys/kernel/pid_max
pid_max_saved=

# Enough pids for TASKS more tasks, if allowed to raise kernel.pid_max.
raise_pid_max() {	# TASKS
	[ -n "$touch_pid_max" ] && [ -w "$PID_MAX" ] || return 0
	cur=$(cat "$PID_MAX")
	want=$(($1 + 32768))
	[ "$cur" -lt "$want" ] || return 0
	echo "$want" >"$PID_MAX" || return 0
	pid_max_saved=$cur
	echo "  kernel.pid_max raised from $cur to $want for $1 tasks" >&2
}

restore_pid_max() {
	[ -n "$pid_max_saved" ] || return 0
	echo "$pid_max_saved" >"$PID_MAX" &&
		echo "  kernel.pid_max back to $pid_max_saved" >&2
	pid_max_saved=
}
trap restore_pid_max EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
echo "prog-cost: pairs '$pairs', -w $warmup -d $duration per run" >&2
rows >"$out/rows.tmp"
while IFS='|' read -r pair input args variants; do
	case $args in
	prog-cost-task\ --keys\ *) raise_pid_max "${args##* }" ;;
	esac
	run_row "$pair" "$input" "$args" "$variants"
	restore_pid_max
done <"$out/rows.tmp"
rm -f "$out/rows.tmp" "$out/runs/last.out" "$out/runs/last.err"
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

{
	echo "pair,input,variant,test_run_ns,bpf_stats_ns,stats_over_test_run," \
		"net_test_run_ns,net_bpf_stats_ns,net_ratio,userspace_ns_per_elem," \
		"other_cpus,vs_first" | tr -d ' '
	tr '|' ',' <"$results"
} >"$out/prog_cost.csv"
{
	echo "prog-cost $(uname -r), $(grep -m1 'model name' /proc/cpuinfo |
		sed 's/.*: //'), $(getconf _NPROCESSORS_ONLN) CPUs, $started"
	echo "load average at start $load_start, at end $load_end;" \
		"-w $warmup -d $duration per run; mean ± stddev of the samples"
	echo "net: less the empty XDP program's cost by the same method"
	echo
	awk -F'|' '
	BEGIN {
		printf "%-9s %-12s %-12s %16s %16s %6s %7s %7s %6s %16s %5s  %s\n",
		       "pair", "input", "variant", "test_run ns/run", "bpf_stats ns/run",
		       "ratio", "net tr", "net st", "ratio", "userspace ns/el",
		       "other", "vs first (delta, verdict)"
	}
	{
		printf "%-9s %-12s %-12s %16s %16s %6s %7s %7s %6s %16s %5s  %s\n",
		       $1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12
	}' "$results"
	if [ -s "$notes" ]; then
		echo
		echo "Not measured:"
		sed 's/^/  /' "$notes"
	fi
} >"$out/prog_cost.txt"
rm -f "$results" "$notes"
cat "$out/prog_cost.txt"
