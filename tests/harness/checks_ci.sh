# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The harness self-tests of tests/harness/run.sh: CI outputs: JUnit, shards, merging.
# Sourced by run.sh after lib.sh and its set-up; each check_* is called
# from its main part.

# ---- CI outputs: JUnit, shards, merge -----------------------------------------

check_ci_outputs() {
	begin "--junit writes JUnit XML that xmllint accepts, with failures and skips"
	run "$FIXTURE" --junit "$T/junit.xml" -t fail_mixed,skip_whole,output_escapes
	expect_exit 1
	xmllint --noout "$T/junit.xml" 2>"$T/xmllint.err" ||
		bad "xmllint: $(head -n 3 "$T/xmllint.err")"
	# The root counts test cases (5), as consumers do, not tests (3).
	expect_has "$T/junit.xml" '<testsuites name="test_progs" tests="5" failures="2" errors="0"'
	expect_has "$T/junit.xml" '<testcase classname="fail_mixed" name="bad"'
	expect_has "$T/junit.xml" '<skipped message="widget feature not supported by this kernel (EPERM on load)"/>'
	expect_has "$T/junit.xml" 'quote&quot; backslash'
	end_check

	begin "--junit into a missing directory: exit 3 before running, no file"
	run "$FIXTURE" --junit "$T/nodir/j.xml" -t pass_plain
	expect_exit 3
	expect_nlines "$ERR" 1
	[ ! -e "$T/nodir" ] || bad "something was created"
	expect_no "$OUT" "pass_plain"
	end_check

	begin "--shard I/N: the shards partition the selection"
	: >"$T/shards.txt"
	for i in 1 2 3; do
		"$FIXTURE" --shard "$i/3" -l 2>/dev/null | grep -v / >>"$T/shards.txt"
	done
	"$FIXTURE" -l 2>/dev/null | grep -v / >"$T/all.txt"
	sort "$T/shards.txt" >"$T/shards.sorted"
	sort "$T/all.txt" >"$T/all.sorted"
	cmp -s "$T/shards.sorted" "$T/all.sorted" ||
		bad "shards do not add up to the full list"
	[ "$(wc -l <"$T/shards.txt")" -eq "$(wc -l <"$T/all.txt")" ] ||
		bad "a test is in two shards"
	end_check

	expect_usage_errors "--shard 3/2" "--shard 0/2" "--shard 1/0" "--shard 1" \
		"--shard a/b" "--shard 1/2x"

	begin "scripts/merge-results.sh: merged shards equal the unsharded run"
	for i in 1 2; do
		"$FIXTURE" --shard "$i/2" -J "$T/shard$i.json" >/dev/null 2>&1
	done
	"$FIXTURE" -J "$T/whole.json" >/dev/null 2>&1
	run sh "$REPO/scripts/merge-results.sh" "$T/merged.json" "$T/shard1.json" "$T/shard2.json"
	expect_exit 0
	for key in success success_subtest skipped failed; do
		[ "$(jq ".$key" "$T/merged.json")" = "$(jq ".$key" "$T/whole.json")" ] ||
			bad "$key differs after merging"
	done
	[ "$(jq -c '[.results[] | [.name, .outcome]]' "$T/merged.json")" = \
	  "$(jq -c '[.results[] | [.name, .outcome]]' "$T/whole.json")" ] ||
		bad "results differ after merging"
	run sh "$REPO/scripts/merge-results.sh" "$T/dup.json" "$T/shard1.json" "$T/shard1.json"
	expect_exit 1
	end_check
}
