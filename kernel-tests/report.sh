#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The table of a kernel-tests run: one row per test of the series, one
# column per kernel, from the vmtest --json reports of the kernels (one
# report per kernel, or per kernel and shard: the shards of a kernel are
# merged with scripts/merge-results.sh), followed by the tests that were
# not built, the bpf_testmod of each kernel, the failing cells with the
# command that reproduces each alone, and a DENYLIST per kernel.
#
# Usage: kernel-tests/report.sh [-B BUILT.txt] [-n NOT_BUILT.tsv] [-m MODULES.tsv]
#                               [--json FILE] [--markdown] -o DIR VMTEST.json...
#   -o DIR         where the denylists (DENYLIST.<kernel>) and
#                  kernel-tests.json go (made if missing)
#   -B FILE        the tests (prog_tests/NAME.c) built, a name a line
#   -n FILE        "test<TAB>first compiler error" of the tests not built
#   -m FILE        "kernel<TAB>bpf_testmod.ko path, or why none" per kernel
#   --json FILE    also write the whole table there (default DIR/kernel-tests.json)
#   --markdown     print the table as Markdown
# Exit: 0 every kernel ran and nothing failed, 1 a failure, 2 bad usage.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)

usage() {
	echo "kernel-tests report: $* (usage: report.sh [-n NOT_BUILT.tsv] [-m MODULES.tsv] [--json FILE] [--markdown] -o DIR VMTEST.json...)" >&2
	exit 2
}

out='' built='' notbuilt='' modules='' json=''
format=text
while [ $# -gt 0 ]; do
	case $1 in
	-o) [ $# -ge 2 ] || usage "-o needs a DIR"; out=$2; shift 2 ;;
	-B) [ $# -ge 2 ] || usage "-B needs a FILE"; built=$2; shift 2 ;;
	-n) [ $# -ge 2 ] || usage "-n needs a FILE"; notbuilt=$2; shift 2 ;;
	-m) [ $# -ge 2 ] || usage "-m needs a FILE"; modules=$2; shift 2 ;;
	--json) [ $# -ge 2 ] || usage "--json needs a FILE"; json=$2; shift 2 ;;
	--markdown) format=markdown; shift ;;
	-*) usage "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ -n "$out" ] || usage "no -o DIR"
[ $# -ge 1 ] || usage "no VMTEST.json (a vmtest.sh --json report)"
for f in "$@"; do
	jq -e '.kernels | type == "array" and length >= 1' "$f" >/dev/null 2>&1 ||
		usage "'$f' is not a vmtest --json report (expected an object with kernels[])"
done
for f in "$built" "$notbuilt" "$modules"; do
	[ -z "$f" ] || [ -f "$f" ] || usage "'$f' is not a file"
done
mkdir -p "$out" || exit 1
json=${json:-$out/kernel-tests.json}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/kernel-tests-report.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT

# Each kernel's record, with the --kmod of its run folded into the
# arguments that reproduce a cell (the modules differ per kernel).  The
# shards of one kernel: their test_progs summaries merged into one.
first=$1 n=0
for f in "$@"; do
	n=$((n + 1))
	jq -c '(.vmtest | [scan(" --kmod ('"'"'[^'"'"']*'"'"'|[^ ]+)")] | map(" --kmod " + .[0]) | join("")) as $km
	       | .kernels[] | .kernel_args += $km' "$f" >"$tmp/rec.$n"
done
cat "$tmp"/rec.* | jq -r '.label' | awk '!seen[$0]++' >"$tmp/labels"
: >"$tmp/records"
k=0
while read -r label; do
	k=$((k + 1))
	cat "$tmp"/rec.* | jq -c --arg l "$label" 'select(.label == $l)' >"$tmp/k$k"
	if [ "$(wc -l <"$tmp/k$k")" -gt 1 ]; then
		i=0
		while read -r r; do
			i=$((i + 1))
			printf '%s\n' "$r" | jq '.results // empty' >"$tmp/k$k.s$i"
			[ -s "$tmp/k$k.s$i" ] || rm -f "$tmp/k$k.s$i"
		done <"$tmp/k$k"
		set -- "$tmp/k$k".s*
		if [ -e "$1" ]; then
			sh "$srcdir/scripts/merge-results.sh" "$tmp/k$k.merged" "$@" || exit 1
			merged=$tmp/k$k.merged
		else
			echo null >"$tmp/k$k.merged"
			merged=$tmp/k$k.merged
		fi
		# The shards' worst status, their longest time and every splat.
		jq -s -c --slurpfile res "$merged" '
			(map(.status) | if all(. == "PASS") then "PASS" elif any(. == "FAIL") then "FAIL"
			 else (map(select(. != "PASS")) | first) end) as $st
			| .[0] + {status: $st, results: $res[0],
			   detail: ($res[0] | if . == null then "no shard gave a result" else
				[.results[] | .outcome] as $o
				| "\($o | map(select(. == "PASS")) | length) passed, \($o | map(select(. != "PASS" and . != "SKIP")) | length) failed, \($o | map(select(. == "SKIP")) | length) skipped (\(.shards) shards)" end),
			   seconds: (map(.seconds // 0) | max),
			   splats: (map(.splats // []) | add)}' "$tmp/k$k" >"$tmp/k$k.rec"
	else
		cp "$tmp/k$k" "$tmp/k$k.rec"
	fi
	echo "$tmp/k$k.rec" >>"$tmp/records"
done <"$tmp/labels"

# The meta of the first report; --kmod is per kernel now.
jq '{accelerator, accelerator_note, runner, test_progs,
     command: (.command | gsub(" --shard [0-9]+/[0-9]+"; "")),
     vmtest: (.vmtest | gsub(" --kmod ('"'"'[^'"'"']*'"'"'|[^ ]+)"; ""))}' "$first" >"$tmp/meta.json"
# shellcheck disable=SC2046 # file names without blanks (mktemp)
sh "$srcdir/vmtest/matrix.sh" build "$tmp/meta.json" $(cat "$tmp/records") >"$tmp/matrix.json" ||
	exit 1

# Not built, modules, and the denylists.
if [ -n "$notbuilt" ]; then
	jq -R -s 'split("\n") | map(select(length > 0) | split("\t")
		| {test: .[0], error: (.[1:] | join("\t"))})' "$notbuilt" >"$tmp/nb.json"
else
	echo '[]' >"$tmp/nb.json"
fi
if [ -n "$built" ]; then
	jq -R -s 'split("\n") | map(select(length > 0))' "$built" >"$tmp/built.json"
else
	echo null >"$tmp/built.json"
fi
if [ -n "$modules" ]; then
	jq -R -s 'split("\n") | map(select(length > 0) | split("\t")
		| {kernel: .[0], module: (.[1:] | join("\t"))})' "$modules" >"$tmp/mods.json"
else
	echo '[]' >"$tmp/mods.json"
fi
jq --slurpfile nb "$tmp/nb.json" --slurpfile built "$tmp/built.json" --slurpfile mods "$tmp/mods.json" -f "$srcdir/kernel-tests/denylist.jq" \
	"$tmp/matrix.json" >"$tmp/out.json" || exit 1

jq -r '.denylists | to_entries[] | .key' "$tmp/out.json" | while read -r label; do
	jq -r --arg l "$label" '.denylists[$l] | (.header[], .lines[])' "$tmp/out.json" \
		>"$tmp/DENYLIST.$label"
	mv "$tmp/DENYLIST.$label" "$out/DENYLIST.$label"
done
# Each failing cell's log, where the table's failing cells point: the
# test's log, then the kernel's splats that name it, in full.  One jq over
# the JSON (tens of MB for a whole series) writes them all, each after a
# line "@@ LABEL NAME" that awk turns into its file: a jq per cell took
# 15 minutes for 1,000 red cells.
rm -rf "$out/failures"
jq -r '.kernels[] as $k
	| ([($k.results // {results: []}).results[] | select(.outcome != "PASS" and .outcome != "SKIP")
	    | .name] + [($k.splats // [])[] | .test // empty | split("/")[0]])
	| unique[] as $n
	| "@@ \($k.label) \($n)",
	  (($k.results // {results: []}).results[] | select(.name == $n)
	   | "\(.name): \(.outcome)", (.message // ""),
	     ((.subtests // [])[] | select(.outcome != "PASS" and .outcome != "SKIP")
	      | "\n--- \(.name): \(.outcome)", (.message // ""))),
	  (($k.splats // [])[] | select((.test // "") | split("/")[0] == $n)
	   | "\n--- kernel splat: \(.kind) during \(.during)", .text)' "$tmp/out.json" |
	awk -v dir="$out/failures" '
	/^@@ [^ ]+ [^ ]+$/ {
		if (f != "") close(f)
		split($0, w, " ")
		if (!(w[2] in made)) { system("mkdir -p \"" dir "/" w[2] "\""); made[w[2]] = 1 }
		f = dir "/" w[2] "/" w[3] ".log"
		printf "" >f
		next
	}
	f != "" { print >f }' || exit 1
jq 'del(.denylists)' "$tmp/out.json" >"$tmp/final.json"
cp "$tmp/final.json" "$json.tmp.$$" && mv "$json.tmp.$$" "$json" || {
	rm -f "$json.tmp.$$"
	echo "kernel-tests report: cannot write $json" >&2
	exit 1
}

sh "$srcdir/vmtest/matrix.sh" "$format" "$json"
jq -r --arg fmt "$format" -f "$srcdir/kernel-tests/summary.jq" "$json"
[ ! -d "$out/failures" ] || echo "the failing tests' logs: $out/failures/KERNEL/TEST.log"
jq -e '(.kernels | all(.status == "PASS" or .status == "SKIP")) and (.failures | length == 0)' \
	"$json" >/dev/null
