#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The tables of "vmtest.sh --bench".
#
#   bench-report.sh build META.json PLAN KDIR...   the report as JSON, on stdout
#   bench-report.sh text|markdown|bmf REPORT.json   rendered
#   bench-report.sh status REPORT.json   exit 0 when every kernel ran its
#                  plan and every cell was measured or is unmeasurable
#                  (with why), 1 when a guest or a cell failed
#
# META: {"accelerator", "accelerator_note", "icount" (bool), "bench_args",
# "bench_args_default" (VMTEST_BENCH_ARGS, and what it is when unset),
# "threshold" (bench compare --threshold), "vmtest" (the driver as the
# user types it), "bench" (the host's bench binary, for compare)}.
# PLAN: vmtest/bench.sh's plan ("N<TAB>NAME<TAB>ARGS" lines).  A KDIR is
# a guest directory: record.json (vmtest's record of that kernel) and
# results/ (bench.status, bench-N.json, bench-N.err).
#
# The report: the META fields, "kernels" (the records), "cells" (one per
# run and kernel: name, benchmark, variant, kernel, status ok | unmeasurable
# | failed | missing, reason, reproduce, metrics with samples, mean,
# stddev, unit), "vs_first_kernel" and "vs_first_variant" (bench compare's
# verdicts).  With icount the guest's nanoseconds are its instructions:
# ns/X becomes insns/X, and events/s, events per 10^9 instructions,
# becomes events/Minsn (divided by 1000).
set -eu

usage() {
	echo "usage: bench-report.sh build META.json PLAN KDIR... | text|markdown|bmf FILE" >&2
	exit 2
}

# One cell as JSON, its report (unit-converted) kept in CELLS/K-N.json.
cell() {	# META KDIR N NAME ARGS CELLS K
	meta=$1 kd=$2 n=$3 name=$4 args=$5 cells=$6 k=$7
	rc=$(awk -v n="$n" '$1 == n { print $2 }' "$kd/results/bench.status" 2>/dev/null)
	err=$(grep -v '^$' "$kd/results/bench-$n.err" 2>/dev/null | tail -n 1 || true)
	json=$kd/results/bench-$n.json
	out=$cells/$k-$n.json
	if [ "$rc" = 0 ] && [ -s "$json" ] && jq -e .metrics "$json" >/dev/null 2>&1; then
		jq --slurpfile m "$meta" '
		def conv: if $m[0].icount then
			if (.unit | startswith("ns/")) then
				.unit = "insns/" + (.unit | ltrimstr("ns/"))
			elif (.unit | endswith("/s")) then
				.unit = (.unit | rtrimstr("/s")) + "/Minsn"
				| .samples |= map(. / 1000)
			else . end else . end;
		.metrics |= map(if .available then conv else . end)' "$json" >"$out"
	else
		rm -f "$out"
	fi
	jq -n --slurpfile r "$kd/record.json" --slurpfile m "$meta" --arg n "$n" \
		--arg name "$name" --arg args "$args" --arg rc "$rc" --arg err "$err" \
		--arg out "$out" --rawfile rep "$([ -s "$out" ] && echo "$out" || echo /dev/null)" '
	def stats: (.samples | length) as $n | (.samples | add / $n) as $mean
		| {n: $n, mean: $mean, stddev: (if $n > 1 then
			(.samples | map(pow(. - $mean; 2)) | add / ($n - 1) | sqrt) else 0 end)};
	($rep | if . == "" then null else fromjson end) as $j
	# A program that does not load on this kernel (its verifier or its
	# helpers say no) is a feature the kernel lacks, not a failure.
	| ($err | test("^bench: [^:]*: loading [^:]*: E[A-Z0-9]+$")) as $refused
	| {name: $name, benchmark: ($name | split("/")[0]),
	   variant: ($name | split("/")[1:] | join("/")),
	   kernel: $r[0].label, run: $n, args: $args, config: ($j.config // null),
	   status: (if $j != null then "ok"
		elif $rc == "" then "missing"
		elif ($err | test("ENOTSUPP|EOPNOTSUPP|not supported|nothing to measure|not built"))
			or $refused then "unmeasurable" else "failed" end),
	   reason: (if $j != null then null
		elif $rc == "" then "no result (guest \($r[0].status): \($r[0].detail))"
		elif $refused then "bench exit \($rc): \($err) (this kernel refuses the program)"
		else "bench exit \($rc): \($err)" end),
	   reproduce: ((if $m[0].bench_args == $m[0].bench_args_default then ""
		else "VMTEST_BENCH_ARGS=\"\($m[0].bench_args)\" " end)
		+ "\($m[0].vmtest) \($r[0].kernel_args)"
		+ (if $m[0].icount then " --icount" else "" end) + " --bench \($name)"),
	   report: (if $j != null then $out else null end),
	   metrics: [($j.metrics // [])[] | {name, unit, better, available,
		reason: (.reason // null)} + (if .available then stats + {samples} else {} end)]}'
}

# bench compare's verdicts as JSON lines: {metric, delta_pct, p, verdict}.
compare() {	# BENCH THRESHOLD BASE CAND
	"$1" compare --threshold "$2" "$3" "$4" 2>&1 | awk '
	/^Baseline |: baseline variant|: samples of|^benchmark +metric/ { next }
	/benchmarks?, [0-9]+ metrics?: / { next }
	/  n\/a: / { printf "%s\t\t\tunavailable\n", $2; next }
	match($0, / [-+][0-9.]+% +[^ ]+  /) {
		split(substr($0, RSTART + 1, RLENGTH - 3), a, /% +/)
		printf "%s\t%s\t%s\t%s\n", $2, a[1] + 0, a[2] + 0, substr($0, RSTART + RLENGTH)
		next
	}
	/^bench compare: / { printf "\t\t\terror: %s\n", $0 }' |
		jq -R -c 'split("\t") | {metric: (.[0] | if . == "" then null else . end),
			delta_pct: (.[1] | if . == "" then null else tonumber end),
			p: (.[2] | if . == "" then null else tonumber end), verdict: .[3]}'
}

# Compare cell report A with B: one JSON object per metric.
compare_cells() {	# META A.json B.json BASE-KERNEL KERNEL NAME BASE-NAME
	bench=$(jq -r .bench "$1")
	thr=$(jq -r .threshold "$1")
	compare "$bench" "$thr" "$2" "$3" | jq -c --arg bk "$4" --arg k "$5" \
		--arg name "$6" --arg bn "$7" '{name: $name, base_name: $bn,
		base_kernel: $bk, kernel: $k} + .'
}

build() {
	meta=$1 plan=$2
	shift 2
	tmp=$(mktemp -d)
	trap 'rm -rf "$tmp"' EXIT
	mkdir -p "$tmp/cells"
	k=0
	for kd in "$@"; do
		k=$((k + 1))
		while IFS="$(printf '\t')" read -r n name args; do
			cell "$meta" "$kd" "$n" "$name" "$args" "$tmp/cells" "$k"
		done <"$plan" >>"$tmp/cells.jsonl"
	done
	jq -s -c '.[] | select(.status == "ok") | [.kernel, .name, .benchmark, .config, .report]
		| @tsv' -r "$tmp/cells.jsonl" >"$tmp/ok.tsv"
	first=$(jq -r .label "$1/record.json")
	: >"$tmp/vk.jsonl"
	: >"$tmp/vv.jsonl"
	# Every kernel against the first, run by run.  (The loops read ok.tsv
	# and look things up in it; nothing writes it.)
	# shellcheck disable=SC2094
	while IFS="$(printf '\t')" read -r kern name _ _ rep; do
		[ "$kern" != "$first" ] || continue
		base=$(awk -F '\t' -v k="$first" -v n="$name" \
			'$1 == k && $2 == n { print $5 }' "$tmp/ok.tsv")
		[ -n "$base" ] || continue
		compare_cells "$meta" "$base" "$rep" "$first" "$kern" "$name" "$name" \
			>>"$tmp/vk.jsonl"
	done <"$tmp/ok.tsv"
	# Each variant against its benchmark's first, kernel by kernel, where
	# the two measure the same configuration (the prog-cost pairs).
	# shellcheck disable=SC2094
	while IFS="$(printf '\t')" read -r kern name bm cfg rep; do
		b=$(awk -F '\t' -v k="$kern" -v b="$bm" '$1 == k && $3 == b { print; exit }' \
			"$tmp/ok.tsv")
		bname=$(printf '%s' "$b" | cut -f2)
		if [ "$bname" = "$name" ] || [ "$(printf '%s' "$b" | cut -f4)" != "$cfg" ]; then
			continue
		fi
		compare_cells "$meta" "$(printf '%s' "$b" | cut -f5)" "$rep" "$kern" "$kern" \
			"$name" "$bname" >>"$tmp/vv.jsonl"
	done <"$tmp/ok.tsv"
	for kd in "$@"; do
		set -- "$@" "$kd/record.json"
		shift
	done
	jq -n --slurpfile m "$meta" --slurpfile c "$tmp/cells.jsonl" \
		--slurpfile vk "$tmp/vk.jsonl" --slurpfile vv "$tmp/vv.jsonl" \
		'$m[0] + {kernels: [inputs], cells: ($c | map(del(.report))),
		 vs_first_kernel: $vk, vs_first_variant: $vv}' "$@"
}

[ $# -ge 2 ] || usage
cmd=$1
shift
case "$cmd" in
build) [ $# -ge 3 ] || usage; build "$@" ;;
status)
	jq -e '([.kernels[] | select(.status != "PASS")] | length) == 0 and
		([.cells[] | select(.status == "failed" or .status == "missing")] | length) == 0' \
		"$1" >/dev/null ;;
text | markdown | bmf)
	# shellcheck source=bench-render.jq
	jq -r --arg fmt "$cmd" -f "$(dirname "$0")/bench-render.jq" "$1" ;;
*) usage ;;
esac
