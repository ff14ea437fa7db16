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
# Exactly one JSON object with a results array and an environment: an
# empty or truncated shard must not pass as "nothing failed".
for f in "$@"; do
	if [ ! -f "$f" ] || [ ! -s "$f" ]; then
		echo "merge-results: shard '$f' is empty or not a file" \
			"(expected a test_progs -J summary)" >&2
		exit 2
	fi
	if ! jq -se 'length == 1 and (.[0] | type == "object" and
			(.results | type == "array") and
			(.environment | type == "object"))' "$f" >/dev/null 2>&1; then
		echo "merge-results: shard '$f' is not a complete test_progs" \
			"JSON summary (truncated or another file?)" >&2
		exit 2
	fi
done

srcdir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp) || exit 1
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
# Never replaces a device, FIFO or symlink at that path.
sh "$srcdir/publish.sh" "$tmp" "$out" || exit 1
# The counts as test_progs' Summary line gives them.
jq -r '"merged \(.shards) shards: \(.results | length) tests, \(.success)/\(.success_subtest)"
	+ " PASSED, \(.skipped) SKIPPED, \(.failed) FAILED"' "$out"
