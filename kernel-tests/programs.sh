#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The programs of a kernel-tests run, kernel by kernel: for the tests whose
# names match PATTERN (default the verifier suites of prog_tests/verifier.c,
# each one test with a subtest per program), a line per suite with what
# each kernel made of its programs, and a line per kernel with the totals.
# Every program's verdict on every kernel goes to a TSV beside it: the
# table of which of the kernel's verifier tests hold on which kernel.
#
# A program's cell is PASS, FAIL, SKIP, or "-" when the kernel never
# reached it (its suite timed out or its guest died there: the watchdog
# takes that suite's cell, not the kernel's column).
#
# Usage: kernel-tests/programs.sh [-t REGEX] [-o TSV] [--markdown] KERNEL-TESTS.json
#   -t REGEX    the tests to tabulate, a jq regex on their names
#               (default "^verifier_")
#   -o TSV      the per-program table (default: programs.tsv beside the JSON)
#   --markdown  the per-suite table in Markdown
# Exit: 0 printed, 1 no test matched, 2 bad usage.
set -eu

usage() {
	echo "programs: $* (usage: kernel-tests/programs.sh [-t REGEX] [-o TSV] [--markdown]" \
		"KERNEL-TESTS.json)" >&2
	exit 2
}

regex='^verifier_' tsv='' format=text
while [ $# -gt 0 ]; do
	case $1 in
	-t) [ $# -ge 2 ] || usage "-t needs a REGEX"; regex=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || usage "-o needs a file"; tsv=$2; shift 2 ;;
	--markdown) format=markdown; shift ;;
	-*) usage "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# = 1 ] || usage "one KERNEL-TESTS.json"
json=$1
# (One JSON document: jq -e passes an empty file.)
jq -s -e 'length == 1 and (.[0].kernels | type == "array")' "$json" >/dev/null 2>&1 ||
	usage "'$json' is not a kernel-tests JSON (expected an object with kernels[])"
jq -n --arg r "$regex" '"" | test($r)' >/dev/null 2>&1 ||
	usage "bad -t '$regex': a jq regular expression"
tsv=${tsv:-$(dirname "$json")/programs.tsv}

# {kernel, suite, outcome, programs: {name: verdict}} of each matching test.
# A suite's outcome other than PASS/SKIP/FAIL (TIMEOUT, a crash) is its
# cell as it is.
cells='[.kernels[] | .label as $k | (.results // {results: []}).results[]
	| select(.name | test($r))
	| {kernel: $k, suite: .name, outcome: .outcome,
	   programs: ((.subtests // []) | map({key: .name, value: .outcome}) | from_entries)}]'

jq -e --arg r "$regex" "$cells | length > 0" "$json" >/dev/null ||
	{ echo "programs: no test of $json matches '$regex'" >&2; exit 1; }

# The per-program table: suite/program, then a verdict per kernel.
tmp=$tsv.tmp.$$
trap 'rm -f "$tmp"' EXIT
jq -r --arg r "$regex" "[.kernels[].label] as \$ks | $cells"' as $c
	| (["program"] + $ks | @tsv),
	  ([$c[] | .suite as $s | .programs | keys[] | "\($s)/\(.)"] | unique[] as $p
	   | [$p] + [$ks[] as $k | ($c[] | select(.kernel == $k and .suite == ($p | split("/")[0]))
		| .programs[$p | split("/")[1:] | join("/")]) // "-"] | @tsv)' "$json" >"$tmp"
mv "$tmp" "$tsv"

jq -r --arg r "$regex" --arg fmt "$format" "[.kernels[].label] as \$ks | $cells"' as $c
	| def count(v): [.[] | select(. == v)] | length;
	  def cell: (.programs | [.[]]) as $v
		| if ($v | length) == 0 then .outcome
		  else "\(.outcome) \($v | count("PASS"))/\($v | length)" +
			(if ($v | count("FAIL")) > 0 then " \($v | count("FAIL"))F" else "" end) +
			(if ($v | count("SKIP")) > 0 then " \($v | count("SKIP"))S" else "" end) end;
	  def row: if $fmt == "markdown" then "| " + join(" | ") + " |" else join("\t") end;
	  (["suite"] + $ks | row),
	  (if $fmt == "markdown" then (["---"] + [$ks[] | "---"] | row) else empty end),
	  ([$c[].suite] | unique[] as $s
	   | [$s] + [$ks[] as $k | ([$c[] | select(.kernel == $k and .suite == $s)] | first
		| if . == null then "-" else cell end)] | row),
	  "",
	  ($ks[] as $k | [$c[] | select(.kernel == $k)] as $kc
	   | ([$kc[] | .programs[]]) as $pv
	   | ([$c[] | .suite as $s | .programs | keys[] | "\($s)/\(.)"] | unique | length) as $all
	   | "\($k): \($kc | length) suites: \([$kc[].outcome] | count("PASS")) passed, " +
	     "\([$kc[].outcome] | count("FAIL")) failed, \([$kc[].outcome] | count("SKIP")) skipped, " +
	     "\([$kc[].outcome | select(. != "PASS" and . != "FAIL" and . != "SKIP")] | length) other" +
	     " (timeout, crash); \($pv | length) programs: \($pv | count("PASS")) passed, " +
	     "\($pv | count("FAIL")) failed, \($pv | count("SKIP")) skipped, " +
	     "\([$pv[] | select(. != "PASS" and . != "FAIL" and . != "SKIP")] | length) other, " +
	     "\($all - ($pv | length)) not reached")' "$json"
echo "every program on every kernel: $tsv"
