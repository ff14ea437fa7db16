#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Ring buffer vs queue map vs perf buffer: run every variant for 1..N
# producers and each batch size, print one comparison table, and write
# it as CSV and as a plot of throughput and drops vs producers (gnuplot:
# SVG, and PNG beside it).
#
# Usage: bench/run_ringbuf_vs_queue.sh [options]
#   -o DIR      output directory (default build/bench-results)
#   -w SEC      warm-up seconds per run (default 1)
#   -d SEC      measured seconds per run (default 3)
#   -p N        producers 1..N (default: the number of online CPUs)
#   -b LIST     batch sizes (default "1 500")
#   -r N        runs of each configuration; the table shows their mean
#               and spread, (max - min) / mean (default 1)
#   -m LIST     notification modes: every, sampled, b2b (default every)
#   -s N        wake-up period of the sampled mode (default 100)
#   -V LIST     variants (default "rb-libbpf rb-custom rb-output pb-libbpf
#               queue-pop queue-batch")
#   -a          pin threads (bench -a)
#   -g CPUS     quiet guard: before each run wait (up to -W seconds) until
#               other processes use less than CPUs CPUs, and run again (up
#               to 3 times) a run during which they used more; 0 turns the
#               guard off (default 0.15)
#   -W SEC      longest wait for a quiet machine before a run (default 900)
#   -R          run nothing: tabulate the runs already under -o DIR/runs
#
# events/s is records delivered to userspace per second (the mean of the
# per-second samples, then of the runs); ns/event is its inverse; over
# trig-prog subtracts the cost of the trigger and an empty program,
# spread over the batch: ns/event - (1e9 / trig-prog triggers/s) / batch,
# with trig-prog run at the same producer count.  drops % is records the
# BPF side could not place, of all it tried.  other is the CPU time other
# processes and the hypervisor took during the measured seconds (the worst
# of the runs), in CPUs.  Where the runs of one configuration disagree by
# more than their own per-second spread (the range of the runs is over
# twice their mean stddev, and over 1% of the mean), there is no one
# figure to give: events/s is then the range, marked "*", ns/event and
# over-base are left out, and a note below the table says "regimes: A-B
# over N runs".  rec/wake-up is records delivered per consumer
# wake-up, lowest-highest of the runs: where it differs a lot between runs
# of one configuration, the runs settled in different regimes (a consumer
# that keeps up is woken for a few records, and every wake-up costs the
# producers a notification; one that lags drains in bulk) and their
# spread is that, not noise.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-${OUTPUT:-$srcdir/build}/bench}

out=$srcdir/build/bench-results
warmup=1
duration=3
max_prod=$(getconf _NPROCESSORS_ONLN)
batches="1 500"
runs=1
modes=every
sample_every=100
variants="rb-libbpf rb-custom rb-output pb-libbpf queue-pop queue-batch"
pin=
guard=0.15
max_wait=900
retab=0

SCRIPT=run_ringbuf_vs_queue
# shellcheck source=bench/lib.sh
. "$srcdir/bench/lib.sh"

while getopts :o:w:d:p:b:r:m:s:V:ag:W:Rh opt; do
	case $opt in
	d) duration=$(opt_uint -d "$OPTARG" 1 "whole seconds") || exit ;;
	p) max_prod=$(opt_uint -p "$OPTARG" 1 "a producer count") || exit ;;
	b) batches=$OPTARG
		for b in $batches; do
			opt_uint -b "$b" 1 "batch sizes (records per trigger)" >/dev/null ||
				exit
		done ;;
	r) runs=$(opt_uint -r "$OPTARG" 1 "a number of runs") || exit ;;
	m) modes=$OPTARG ;;
	s) sample_every=$(opt_uint -s "$OPTARG" 1 "records per wake-up") || exit ;;
	V) variants=$(opt_words -V "$OPTARG" "$variants") || exit ;;
	a) pin=-a ;;
	R) retab=1 ;;
	*) common_opt "$opt" "${OPTARG:-}" ;;
	esac
done
for m in $modes; do
	case $m in
	every | sampled | b2b) ;;
	*) die "-m '$m': expected every, sampled or b2b" ;;
	esac
done
[ -x "$BENCH" ] || die "$BENCH not found: run 'make bench-bin' (or 'make bench')"
command -v jq >/dev/null || die "jq not found: run 'make deps'"

mkdir -p "$out/runs"
csv=$out/ringbuf_vs_queue.csv
svg=$out/ringbuf_vs_queue.svg
table=$out/ringbuf_vs_queue.txt
results=$out/results.tmp
: >"$results"

# The runs to tabulate, one JSON report per line, in the order they ran.
run_one() {	# VARIANT MODE PRODUCERS BATCH RUN ARGS...
	v=$1 m=$2 p=$3 b=$4 r=$5
	shift 5
	json=$out/runs/$v-$m-p$p-b$b-r$r.json
	tries=1
	while :; do
		wait_quiet
		if ! "$BENCH" -q -w "$warmup" -d "$duration" -p "$p" $pin "$@" \
			--json "$json" "$v" >"$out/runs/last.out" \
			2>"$out/runs/last.err"; then
			return 1
		fi
		other=$(jq '.summary.other_cpus.mean + .summary.steal_cpus.mean' "$json")
		if [ "$tries" -ge 3 ] || quiet_enough "$other"; then
			break
		fi
		echo "    disturbed: others used $other CPUs during the run; again" >&2
		tries=$((tries + 1))
	done
	echo "$json" >>"$results"
}

# -R: the runs of a previous sweep, named VARIANT-MODE-pP-bB-rR.json
# (MODE and B are "-" for the baselines; bench sweep-table reads the names).
retabulate() {
	for f in "$out"/runs/*.json; do
		[ -f "$f" ] || die "no runs to tabulate in $out/runs"
		echo "$f" >>"$results"
	done
}

mode_args() {	# MODE -> bench options
	case $1 in
	every) ;;
	sampled) echo "--sampled $sample_every" ;;
	b2b) echo "--b2b" ;;
	esac
}

# Runs of one pass of VARIANT in MODE (the configurations sweep_variant
# runs), or of the baselines for "baselines".
pass_runs() {	# VARIANT MODE
	nb=$(echo $batches | wc -w)
	case $2:$1 in
	*:baselines) echo $((max_prod * 2)) ;;
	sampled:queue-* | b2b:queue-*) echo 0 ;;
	b2b:*) echo "$nb" ;;
	*) echo $((max_prod * nb)) ;;
	esac
}

total_runs=$(($(pass_runs baselines -) * runs))
for m in $modes; do
	for v in $variants; do
		total_runs=$((total_runs + $(pass_runs "$v" "$m") * runs))
	done
done
runs_started=0
sweep_t0=$(date +%s)

# "run N of M, ~T left": T from the mean time of the runs so far (before
# the first, the configured warm-up and duration plus a second of set-up).
progress() {
	runs_started=$((runs_started + 1))
	el=$(($(date +%s) - sweep_t0))
	left=$((total_runs - runs_started + 1))
	if [ "$runs_started" -gt 1 ]; then
		eta=$((el * left / (runs_started - 1)))
	else
		eta=$(((warmup + duration + 1) * left))
	fi
	printf '  %-12s %-8s p=%-2s batch=%-5s pass %s/%s  run %d of %d, ~%s left\n' \
		"$@" "$runs" "$runs_started" "$total_runs" "$(fmt_secs "$eta")" >&2
}

fmt_secs() {	# SECONDS
	if [ "$1" -ge 3600 ]; then
		printf '%dh%02dm' $(($1 / 3600)) $(($1 % 3600 / 60))
	elif [ "$1" -ge 60 ]; then
		printf '%dm%02ds' $(($1 / 60)) $(($1 % 60))
	else
		printf '%ds' "$1"
	fi
}

# The baselines, at every producer count.
sweep_baselines() {	# RUN
	p=1
	while [ "$p" -le "$max_prod" ]; do
		for v in trig-syscall trig-prog; do
			progress "$v" - "$p" - "$1"
			run_one "$v" - "$p" - "$1" ||
				die "$v failed: $(cat "$out/runs/last.err")"
		done
		p=$((p + 1))
	done
}

# Variants that failed (e.g. queue-batch without kernel support), with why.
unsupported=""

sweep_variant() {	# VARIANT MODE RUN
	v=$1 m=$2
	case $m:$v in
	sampled:queue-* | b2b:queue-*) return 0 ;;
	esac
	case $unsupported in
	*"
$v ($m):"*) return 0 ;;
	esac
	p=1
	n_done=0
	while [ "$p" -le "$max_prod" ]; do
		# Back-to-back has one producer by definition.
		[ "$m" = b2b ] && [ "$p" -gt 1 ] && return 0
		for b in $batches; do
			progress "$v" "$m" "$p" "$b" "$3"
			n_done=$((n_done + 1))
			# shellcheck disable=SC2046
			if ! run_one "$v" "$m" "$p" "$b" "$3" \
				--batch-cnt "$b" $(mode_args "$m"); then
				why=$(head -n 1 "$out/runs/last.err")
				unsupported="$unsupported
$v ($m): $why"
				# Its other runs, of this pass and the next, will not be.
				total_runs=$((total_runs - $(pass_runs "$v" "$m") *
					(runs - $3 + 1) + n_done))
				return 0
			fi
		done
		p=$((p + 1))
	done
}

started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
[ "$retab" = 0 ] || { retabulate; runs=0; }
[ "$runs" = 0 ] || echo "Sweep: producers 1..$max_prod, batches '$batches', modes '$modes'," \
	"$runs pass(es), $total_runs runs of -w $warmup -d $duration each" >&2
# Whole passes, one after the other: the spread between runs of one
# configuration then covers the whole sweep's time, not one moment.
r=1
while [ "$r" -le "$runs" ]; do
	sweep_baselines "$r"
	for m in $modes; do
		for v in $variants; do
			sweep_variant "$v" "$m" "$r"
		done
	done
	r=$((r + 1))
done
load_end=$(cut -d' ' -f1-3 /proc/loadavg)

# The table, its notes and the CSV: bench pools the runs of each
# configuration (bench sweep-table; the columns are described above).
set --
while IFS= read -r f; do
	set -- "$@" "$f"
done <"$results"
{
	echo "bench $(uname -r), $(grep -m1 'model name' /proc/cpuinfo |
		sed 's/.*: //'), $(getconf _NPROCESSORS_ONLN) CPUs, $started"
	if [ "$retab" = 1 ]; then
		echo "tabulated from the runs in $out/runs"
	else
		echo "load average at start $load_start, at end $load_end"
	fi
	"$BENCH" sweep-table --csv "$csv" --guard "$guard" "$@" ||
		{ rm -f "$table.tmp"; exit 1; }
	if [ -n "$unsupported" ]; then
		echo
		echo "Not run:$unsupported"
	fi
} >"$table.tmp"
mv "$table.tmp" "$table"
rm -f "$results" "$out/runs/last.out" "$out/runs/last.err"
cat "$table"

# The plot, as SVG and PNG: events/s with their in-run standard deviation
# as error bars (top) and the records dropped (bottom), one colour per
# variant, one line style per batch size and mode, a legend in words.
# Dark colours only: contrast against the white background >= 3 (WCAG's
# ratio for graphical objects; tests/scripts/ux_check.sh checks it).
PLOT_COLOURS="#0072B2 #D55E00 #007A5A #7B3294 #000000 #8C510A"

variant_words() {	# VARIANT
	case $1 in
	rb-libbpf) echo "ring buffer, libbpf consumer" ;;
	rb-custom) echo "ring buffer, own consumer" ;;
	rb-output) echo "ring buffer output, libbpf consumer" ;;
	pb-libbpf) echo "perf buffer" ;;
	queue-pop) echo "queue map, one pop per syscall" ;;
	queue-batch) echo "queue map, batch pops" ;;
	*) echo "$1" ;;
	esac
}

mode_words() {	# MODE
	case $1 in
	every) echo "every record wakes the consumer" ;;
	sampled) echo "one wake-up per $sample_every records" ;;
	b2b) echo "back-to-back" ;;
	esac
}

index_of() {	# WORD LIST
	echo "$2" | tr ' ' '\n' | grep -v '^$' | grep -nx -- "$1" | cut -d: -f1
}

# The distinct values of column N of the series, in order of appearance.
series_words() {	# N
	awk -v n="$1" '!seen[$n]++ { printf "%s ", $n }' "$out/plot.series"
}

# One "plot" clause per series, in the order of the data file's blocks.
plot_clauses() {	# DATA USING WITH key|nokey
	i=0
	# What the series hold, not the options: -R tabulates runs made
	# with other options.
	pv=$(series_words 1)
	pm=$(series_words 2)
	pb=$(series_words 3)
	nb=$(echo "$pb" | wc -w)
	while read -r v m b; do
		ci=$(( ($(index_of "$v" "$pv") - 1) % 6 + 1 ))
		colour=$(echo "$PLOT_COLOURS" | cut -d' ' -f"$ci")
		si=$(( ($(index_of "$m" "$pm") - 1) * nb + $(index_of "$b" "$pb") ))
		[ "$i" = 0 ] || printf ', \\\n'
		printf "  '%s' index %d using %s with %s lw 2 lc rgb '%s' dt %d pt %d" \
			"$1" "$i" "$2" "$3" "$colour" $(( (si - 1) % 5 + 1 )) $(( si % 7 + 4 ))
		if [ "$4" = key ]; then
			printf " title '%s: %s, batch %s'" "$(variant_words "$v")" \
				"$(mode_words "$m")" "$b"
		else
			printf ' notitle'
		fi
		i=$((i + 1))
	done <"$out/plot.series"
	echo
}

plot() {
	data=$out/plot.dat
	script=$out/plot.gp
	png=${svg%.svg}.png
	# variant mode batch producers events/s stddev drops%
	awk -F, 'NR > 1 && $4 != "-" {
		print $1, $2, $4, $3, $6, $6 * $11 / 100, $10 }' "$csv" |
		sort -s -k1,3 >"$data.tmp"
	: >"$data"
	: >"$out/plot.series"
	last=""
	while read -r v m b p e sd dp; do
		if [ "$v $m $b" != "$last" ]; then
			[ -z "$last" ] || printf '\n\n' >>"$data"
			echo "$v $m $b" >>"$out/plot.series"
			last="$v $m $b"
		fi
		echo "$p $e $sd $dp" >>"$data"
	done <"$data.tmp"
	rm -f "$data.tmp"
	title="BPF to userspace: records delivered and dropped vs producers"
	title="$title ($(uname -r), $(getconf _NPROCESSORS_ONLN) CPUs)"
	# reset: the PNG's pass must not start with the SVG's last settings.
	cat >"$script.body" <<EOF
reset
set multiplot title "$title"
set xtics 1
set xrange [0.5:$max_prod.5]
set grid lc rgb '#b0b0b0'
set key below left Left reverse
set lmargin 12
set tmargin 3
set size 1,0.67
set origin 0,0.33
set ylabel 'events delivered per second'
set logscale y
set format y '%.0s%c'
plot \\
$(plot_clauses "$data" 1:2:3 yerrorlines key)
set size 1,0.33
set origin 0,0
set tmargin 1
unset logscale y
set format y '%g'
set yrange [0:100]
set xlabel 'producer threads'
set ylabel 'records dropped, %'
plot \\
$(plot_clauses "$data" 1:4 linespoints nokey)
unset multiplot
EOF
	{
		echo "set terminal svg size 1200,800 dynamic enhanced font 'sans,11'"
		echo "set output '$svg'"
		cat "$script.body"
		echo "set terminal pngcairo size 1200,800 enhanced font 'sans,10'"
		echo "set output '$png'"
		cat "$script.body"
	} >"$script"
	rm -f "$script.body" "$out/plot.series"
	gnuplot "$script"
}

echo
if [ ! -s "$csv" ]; then
	echo "no results to plot"
elif command -v gnuplot >/dev/null; then
	plot && echo "Wrote $table, $csv, $svg and ${svg%.svg}.png"
else
	echo "Wrote $table and $csv; gnuplot not found, no plot (make deps installs it)"
fi
