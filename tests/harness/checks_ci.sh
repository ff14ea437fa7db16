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

# ---- a failure is a record, not a line of the log ---------------------------

# with_misleading_log prints lines shaped like a failed check with EPERM, a
# CHECK() failure and a libbpf EPERM, then fails an ASSERT_EQ: every output
# names the ASSERT_EQ, and none calls it a kernel gap.
check_misleading_log() {
	line=$(grep -n '"the real failure"' "$FIXTURES/with_misleading_log.c" | cut -d: -f1)
	real="with_misleading_log.c:$line: ASSERT_EQ(the real failure) failed: actual 42 (0x2a), expected == 7 (0x7)"

	begin "a log with misleading lines: JSON has the real failure, no kernel gap"
	FIXTURE_MISLEADING=lies run "$FIXTURE" -t with_misleading_log -J "$T/mislead.json" \
		--junit "$T/mislead.xml"
	expect_exit 1
	save mislead
	expect_jq "$T/mislead.json" '.results[0] | has("kernel_gap") | not'
	expect_jq "$T/mislead.json" ".results[0].subtests[0].failure ==
		{\"file\": \"with_misleading_log.c\", \"line\": $line, \"check\": \"ASSERT_EQ\",
		 \"name\": \"the real failure\", \"errno\": 0,
		 \"message\": \"actual 42 (0x2a), expected == 7 (0x7)\"}"
	end_check

	begin "a log with misleading lines: text names the real failure, no kernel gap"
	use mislead
	expect_no "$OUT" "Kernel gaps?"
	expect_line "$OUT" "first failure: $real"
	expect_line "$OUT" "$(result_line 18/1 with_misleading_log/lies:FAIL)"
	end_check

	begin "a log with misleading lines: JUnit's failure message is the real assert"
	expect_has "$T/mislead.xml" "<failure message=\"$real\">"
	expect_no "$T/mislead.xml" 'failure message="prog.c:1'
	end_check

	begin "the control: a check that saw EPERM is a kernel gap in text and JSON"
	FIXTURE_MISLEADING=gap run "$FIXTURE" -t with_misleading_log -J "$T/gap.json"
	expect_exit 1
	expect_line "$OUT" "Kernel gaps? 1 of 1 failed with EPERM/ENOTSUPP (a missing feature): with_misleading_log (EPERM)"
	expect_jq "$T/gap.json" '.results[0].kernel_gap == "EPERM" and
		.results[0].subtests[0].failure.errno == 1'
	end_check

	begin "a log with misleading lines: KTAP's first failure is the real assert"
	FIXTURE_MISLEADING=lies run "$FIXTURE" -t with_misleading_log --ktap
	expect_exit 1
	expect_line "$OUT" "  # first failure: $real"
	expect_line "$OUT" "  not ok 1 lies"
	expect_line "$OUT" "not ok 1 with_misleading_log"
	end_check
}
