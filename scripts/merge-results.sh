#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Merge the -J summaries of a sharded run (test_progs --shard I/N) into one
# summary of the same shape.  The shards ran disjoint sets of tests, so the
# kernel-style counts (success, success_subtest, skipped, failed) and the
# outcome tally are the sums of theirs.
# Usage: merge-results.sh OUT.json SHARD.json...
# Exit: 0, 1 when the shards overlap or disagree on the kernel, 2 bad input.
set -eu

if [ $# -lt 2 ]; then
	echo "merge-results: usage: merge-results.sh OUT.json SHARD.json..." >&2
	exit 2
fi
out=$1
shift
for f in "$@"; do
	if ! jq -e '.results | type == "array"' "$f" >/dev/null 2>&1; then
		echo "merge-results: '$f' is not a test_progs JSON summary" >&2
		exit 2
	fi
done

tmp="$out.tmp.$$"
trap 'rm -f "$tmp"' EXIT
jq -s '
	def total(k): map(.[k] // 0) | add;
	(map(.results) | add | sort_by(.number)) as $r |
	{
		success: total("success"),
		success_subtest: total("success_subtest"),
		skipped: total("skipped"),
		failed: total("failed"),
		outcomes: (map(.outcomes // {}) | map(to_entries) | add |
			   group_by(.key) | map({key: .[0].key,
			   value: (map(.value) | add)}) | from_entries),
		shards: length,
		environment: .[0].environment,
		results: $r
	}' "$@" >"$tmp"

dups=$(jq -r '.results | group_by(.name) | map(select(length > 1) | .[0].name) | .[]' "$tmp")
if [ -n "$dups" ]; then
	echo "merge-results: tests in more than one shard: $dups" >&2
	exit 1
fi
kernels=$(jq -r '.environment.kernel_release' "$@" | sort -u | wc -l)
if [ "$kernels" -gt 1 ]; then
	echo "merge-results: shards ran on different kernels:" \
		"$(jq -r '.environment.kernel_release' "$@" | sort -u | tr '\n' ' ')" >&2
	exit 1
fi
mv "$tmp" "$out"
trap - EXIT
# The counts as test_progs' Summary line gives them.
jq -r '"merged \(.shards) shards: \(.results | length) tests, \(.success)/\(.success_subtest)"
	+ " PASSED, \(.skipped) SKIPPED, \(.failed) FAILED"' "$out"
