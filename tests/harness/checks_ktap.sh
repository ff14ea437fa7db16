# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The harness self-tests of tests/harness/run.sh: KTAP output, and ktap_check itself.
# Sourced by run.sh after lib.sh and its set-up; each check_* is called
# from its main part.

# ---- KTAP -----------------------------------------------------------------

# Run the fixture with --ktap and ARGS and check the output with ktap_check.
ktap_valid() {	# EXIT SUMMARY ARGS...
	code=$1
	want=$2
	shift 2
	begin "$(echo "--ktap $*" | sed 's/ *$//') passes ktap_check${want:+ ($want)}"
	run "$FIXTURE" --ktap "$@"
	expect_exit "$code"
	cp "$OUT" "$T/run.ktap"
	run "$KTAP_CHECK" "$T/run.ktap"
	expect_exit 0
	[ -z "$want" ] || expect_line "$OUT" "ktap ok: $want"
	show_ktap_error "$T/run.ktap"
	end_check
}

# After a failed ktap_check run: show the KTAP lines around the error.
show_ktap_error() {	# KTAP_FILE
	n=$(sed -n 's/^ktap_check: line \([0-9]*\): .*/\1/p' "$ERR")
	[ -n "$n" ] || return 0
	from=$((n > 3 ? n - 3 : 1))
	bad "KTAP lines $from-$n:" \
	    "$(sed -n "${from},${n}p" "$1" | excerpt - 4 | sed 's/^/  | /')"
}

check_ktap() {
	ktap_valid 1 "18 tests (pass 7, fail 7, skip 4), 34 subtests"
	ktap_valid 1 "" -v
	ktap_valid 1 "" -vv
	ktap_valid 0 "2 tests (pass 2, fail 0, skip 0), 3 subtests" -t pass_
	ktap_valid 1 "1 tests (pass 0, fail 1, skip 0), 1 subtests" -n 3/2
	ktap_valid 4 "1 tests (pass 0, fail 0, skip 1), 0 subtests" -n 3/99
	ktap_valid 2 "0 tests (pass 0, fail 0, skip 0), 0 subtests" \
		-t no_such_test
	ktap_valid 1 "3 tests (pass 1, fail 2, skip 0), 2 subtests" \
		-a 'crash_*,pass_plain'
	ktap_valid 0 "" -t fail_mixed -b fail_mixed/bad
	ktap_valid 1 "" -d 'fail_asserts/*'
	ktap_valid 0 "5 tests (pass 1, fail 0, skip 4), 5 subtests" -t skip_
	ktap_valid 0 "" --no-fork -t pass_,skip_
	ktap_valid 1 "" -n 10/2,3/5-7,1

	begin "KTAP: version, plan, nested subtests, diagnostics, totals"
	use full_ktap
	expect_exit 1
	head -n 2 "$OUT" >"$T/head"
	expect_content "$T/head" "KTAP version 1
1..18"
	expect_line "$OUT" "  # Subtest: fail_asserts"
	expect_line "$OUT" "  1..18"
	expect_line "$OUT" "  # fail.c:$(line_of fail.c '"answer"'): ASSERT_EQ(answer) failed: actual 42 (0x2a), expected == 7 (0x7)"
	expect_line "$OUT" "  not ok 1 eq"
	expect_line "$OUT" "not ok 3 fail_asserts"
	expect_line "$OUT" "# test process killed by signal 11 (Segmentation fault)"
	expect_line "$OUT" "not ok 2 crash_segv"
	expect_line "$OUT" "ok 9 pass_plain"
	expect_line "$OUT" "# Totals: pass:7 fail:7 xfail:0 xpass:0 skip:4 error:0"
	expect_no "$OUT" "pass_plain log line"
	end_check

	begin "KTAP with -n gaps numbers results 1..N"
	run "$FIXTURE" --ktap -n 10/1,10/3
	expect_line "$OUT" "  1..2"
	expect_line "$OUT" "  ok 1 first"
	expect_line "$OUT" "  ok 2 third"
	expect_line "$OUT" "ok 1 pass_subtests"
	end_check
}

# ---- ktap_check rejects broken KTAP -----------------------------------------

# name | expected error line number | KTAP text (printf format)
KTAP_BAD_TABLE=$T/ktap-bad.table
cat >"$KTAP_BAD_TABLE" <<'EOF'
wrong numbering|4|KTAP version 1\n1..2\nok 1 a\nok 3 b\n
missing plan|2|KTAP version 1\nok 1 a\n
plan mismatch|4|KTAP version 1\n1..3\nok 1 a\nok 2 b\n
result beyond the plan|4|KTAP version 1\n1..1\nok 1 a\nok 2 b\n
nested block indented 4 spaces|3|KTAP version 1\n1..1\n    KTAP version 1\n    1..1\n    ok 1 x\nok 1 a\n
odd indentation|3|KTAP version 1\n1..1\n   ok 1 a\n
parent ok with a failed child|6|KTAP version 1\n1..1\n  KTAP version 1\n  1..1\n  not ok 1 x\nok 1 a\n
skipped parent with a failed child|6|KTAP version 1\n1..1\n  KTAP version 1\n  1..1\n  not ok 1 x\nok 1 a # SKIP r\n
nested plan mismatch|6|KTAP version 1\n1..1\n  KTAP version 1\n  1..2\n  ok 1 x\nok 1 a\n
nested block without version line|3|KTAP version 1\n1..1\n  1..1\n  ok 1 x\nok 1 a\n
nested block without parent result|5|KTAP version 1\n1..1\n  KTAP version 1\n  1..1\n  ok 1 x\n
missing version line|1|1..1\nok 1 a\n
TAP instead of KTAP|1|TAP version 13\n1..1\nok 1 a\n
empty input|1|
unknown line|3|KTAP version 1\n1..1\nhello\nok 1 a\n
empty line|3|KTAP version 1\n1..1\n\nok 1 a\n
SKIPPED is not a directive|3|KTAP version 1\n1..1\nok 1 a # SKIPPED\n
SKIP without space after #|3|KTAP version 1\n1..1\nok 1 a #SKIP r\n
result without number|3|KTAP version 1\n1..1\nok a\n
two plans|3|KTAP version 1\n1..1\n1..1\nok 1 a\n
EOF

check_ktap_checker() {
	while IFS='|' read -r name line text; do
		begin "ktap_check rejects KTAP with $name (line $line)"
		# shellcheck disable=SC2059 # the table holds printf formats
		printf "$text" >"$T/bad.ktap"
		run "$KTAP_CHECK" "$T/bad.ktap"
		expect_exit 1
		expect_match "$ERR" "^ktap_check: line $line: "
		expect_nlines "$ERR" 1
		expect_empty "$OUT"
		end_check
	done <"$KTAP_BAD_TABLE"

	begin "ktap_check accepts nested KTAP read from stdin"
	printf '%s\n' "KTAP version 1" "1..2" "# diag" "  KTAP version 1" \
		"  # Subtest: a" "  1..2" "  ok 1 x" "  not ok 2 y" \
		"    # deeper diagnostic" "not ok 1 a" "ok 2 b # SKIP why" \
		>"$T/good.ktap"
	# shellcheck disable=SC2034 # end_check (lib.sh) shows the command
	CMD="$KTAP_CHECK < $T/good.ktap"
	"$KTAP_CHECK" <"$T/good.ktap" >"$OUT" 2>"$ERR"
	# shellcheck disable=SC2034 # expect_exit (lib.sh) reads it
	RC=$?
	expect_exit 0
	expect_content "$OUT" "ktap ok: 2 tests (pass 0, fail 1, skip 1), 2 subtests"
	end_check

	begin "ktap_check usage errors exit 2"
	run "$KTAP_CHECK" --bogus
	expect_exit 2
	run "$KTAP_CHECK" "$T/good.ktap" "$T/good.ktap"
	expect_exit 2
	run "$KTAP_CHECK" "$T/no-such-file.ktap"
	expect_exit 2
	expect_has "$ERR" "no-such-file.ktap"
	end_check
}

# What the kernel's kselftest runner prints around a test: ktap_check
# --kselftest takes its "TAP version 13" and "# exit=N", nothing looser.
KTAP_KSFT_BAD_TABLE=$T/ktap-ksft-bad.table
cat >"$KTAP_KSFT_BAD_TABLE" <<'EOF'
TAP version 14|1|TAP version 14\n1..1\nok 1 a\n
TAP version 13 nested|3|TAP version 13\n1..1\n  TAP version 13\n  1..1\n  ok 1 x\nok 1 a\n
'#exit=1' without a space|3|TAP version 13\n1..1\nnot ok 1 a #exit=1\n
'not ok' with SKIP|3|TAP version 13\n1..1\nnot ok 1 a # SKIP\n
'ok' with TIMEOUT|3|TAP version 13\n1..1\nok 1 a # TIMEOUT 45 seconds\n
a missing result|4|TAP version 13\n1..2\n# selftests: c: a\nok 1 selftests: c: a\n
EOF

check_ktap_kselftest() {
	begin "ktap_check --kselftest accepts the kselftest runner's output"
	printf '%s\n' "TAP version 13" "1..3" "# selftests: c: a" \
		"# KTAP version 1" "not ok 1 selftests: c: a # exit=1" \
		"ok 2 selftests: c: b # SKIP" "#" \
		"not ok 3 selftests: c: d # TIMEOUT 45 seconds" >"$T/ksft.tap"
	run "$KTAP_CHECK" --kselftest "$T/ksft.tap"
	expect_exit 0
	expect_content "$OUT" "ktap ok: 3 tests (pass 0, fail 2, skip 1), 0 subtests"
	run "$KTAP_CHECK" "$T/ksft.tap"
	expect_exit 1
	expect_match "$ERR" "^ktap_check: line 1: first line must be 'KTAP version 1', got 'TAP version 13'"
	end_check

	while IFS='|' read -r name line text; do
		begin "ktap_check --kselftest rejects $name (line $line)"
		# shellcheck disable=SC2059 # the table holds printf formats
		printf "$text" >"$T/bad.ktap"
		run "$KTAP_CHECK" --kselftest "$T/bad.ktap"
		expect_exit 1
		expect_match "$ERR" "^ktap_check: line $line: "
		expect_nlines "$ERR" 1
		end_check
	done <"$KTAP_KSFT_BAD_TABLE"
}
