#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# Black-box self-tests of the test_progs harness.  They run the fixture
# runner ($OUTPUT/test_progs_fixture: the harness core plus the fixtures of
# tests/fixtures/, built with ASan and UBSan) and check its text, KTAP and
# JSON output and its exit codes; KTAP is validated by $OUTPUT/ktap_check,
# JSON by jq.  $OUTPUT/test_progs is only asked for --help and given a bad
# option: running the real suite is not this script's job.
#
# Usage: [OUTPUT=build-dir] sh tests/run.sh
# Prints "ok N - ..." / "not ok N - ..." per check, then
# "self-tests: P passed, F failed"; exits non-zero if a check failed.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=selftests
# shellcheck source=lib.sh
. "$HERE/lib.sh"

FIXTURE=$OUTPUT/test_progs_fixture
KTAP_CHECK=$OUTPUT/ktap_check
TEST_PROGS=$OUTPUT/test_progs
FIXTURES=$REPO/tests/fixtures

# ---- set-up ---------------------------------------------------------------

# Run the fixture with ARGS, a string of sh words (quotes are honoured).
run_words() {	# ARGS
	eval "set -- $1"
	run "$FIXTURE" "$@"
}

# Line of the first line of a fixture file containing TEXT.
line_of() {	# FILE TEXT
	grep -nF -e "$2" "$FIXTURES/$1" | head -n 1 | cut -d: -f1
}

# The kernel test_progs result line format: "#%-8s name:OUTCOME...".
result_line() {	# NUMBER TEXT
	printf '#%-8s %s' "$1" "$2"
}

summary() {	# PASSED SUBTESTS_PASSED SKIPPED FAILED
	echo "Summary: $1/$2 PASSED, $3 SKIPPED, $4 FAILED"
}

# Leak checking needs LeakSanitizer, which cannot run under ptrace (strace,
# gdb) and in some containers; use it when a trial run shows it works.
UBSAN_OPTIONS=print_stacktrace=1
ASAN_OPTIONS=detect_leaks=1
export ASAN_OPTIONS UBSAN_OPTIONS
if [ -x "$FIXTURE" ] &&
   "$FIXTURE" -c 2>&1 | grep -q 'LeakSanitizer has encountered'; then
	echo "# LeakSanitizer does not work here; running without leak checks"
	ASAN_OPTIONS=detect_leaks=0
fi

missing=
for bin in "$FIXTURE" "$KTAP_CHECK"; do
	[ -x "$bin" ] || missing="$missing $bin"
done
command -v jq >/dev/null 2>&1 || missing="$missing jq"
if [ -n "$missing" ]; then
	begin "prerequisites are present"
	bad "missing:$missing" \
	    "build them with: make \$PWD/build/test_progs_fixture" \
	    "\$PWD/build/ktap_check (and install jq)"
	end_check
	finish
	exit 1
fi

# ---- ASSERT_* failure messages ----------------------------------------------

# subtest | text on its line in fail.c | F(ixed line) or E(RE) | message
ASSERT_TABLE=$T/asserts.table
cat >"$ASSERT_TABLE" <<'EOF'
eq|"answer"|F|ASSERT_EQ(answer) failed: actual 42 (0x2a), expected == 7 (0x7)
neq|"different"|F|ASSERT_NEQ(different) failed: actual 42 (0x2a), expected != 42 (0x2a)
lt|"small"|F|ASSERT_LT(small) failed: actual 42 (0x2a), expected < 10 (0xa)
le|"at most"|F|ASSERT_LE(at most) failed: actual 42 (0x2a), expected <= 41 (0x29)
gt|"big"|F|ASSERT_GT(big) failed: actual 42 (0x2a), expected > 100 (0x64)
ge|"at least"|F|ASSERT_GE(at least) failed: actual 42 (0x2a), expected >= 43 (0x2b)
true|"is zero"|F|ASSERT_TRUE(is zero) failed: fortytwo == 0 is false, expected true
false|"is falsy"|F|ASSERT_FALSE(is falsy) failed: fortytwo is true, expected false
streq|"greeting"|F|ASSERT_STREQ(greeting) failed: actual "hello" != expected "world"
memeq|"bytes"|F|ASSERT_MEMEQ(bytes) failed: 6 bytes differ, first at offset 3: actual 0x64 != expected 0x78
ok|"lookup"|F|ASSERT_OK(lookup) failed: unexpected error -2 (errno 2: No such file or directory)
err|"should fail"|F|ASSERT_ERR(should fail) failed: unexpected success: 5, expected an error
null|"no object"|E|ASSERT_NULL\(no object\) failed: unexpected pointer 0x[0-9a-f]+, expected NULL
ok_ptr|"object"|E|ASSERT_OK_PTR\(object\) failed: unexpected error pointer \(nil\): -2 \(errno [0-9]+: [^)]+\)
err_ptr|"bad object"|E|ASSERT_ERR_PTR\(bad object\) failed: unexpected valid pointer 0x[0-9a-f]+, expected an error
ok_fd|"map fd"|E|ASSERT_OK_FD\(map fd\) failed: invalid fd -9 \(errno [0-9]+: [^)]+\)
err_fd|"bad fd"|F|ASSERT_ERR_FD(bad fd) failed: unexpected valid fd 3, expected an error
EOF

check_assert_messages() {
	while IFS='|' read -r sub key mode msg; do
		line=$(line_of fail.c "$key")
		begin "fail_asserts/$sub: message has fail.c:$line, check name and values"
		run "$FIXTURE" -a "fail_asserts/$sub"
		expect_exit 1
		if [ "$mode" = F ]; then
			expect_line "$OUT" "fail.c:$line: $msg"
		else
			expect_match "$OUT" "^fail\\.c:$line: $msg\$"
		fi
		expect_match "$OUT" "^#3/[0-9]+ +fail_asserts/$sub:FAIL\$"
		expect_count "$OUT" "^#3/[0-9]+ " 2	# the run and the recap
		expect_line "$OUT" "$(summary 0 0 0 1)"
		end_check
	done <"$ASSERT_TABLE"

	begin "ASSERT_MEMEQ shows the bytes around the first difference"
	run "$FIXTURE" -a fail_asserts/memeq
	expect_line "$OUT" "  actual   [0..6): 61 62 63 64 65 66"
	expect_line "$OUT" "  expected [0..6): 61 62 63 78 65 66"
	expect_before "$OUT" "ASSERT_MEMEQ(bytes) failed" "  actual   [0..6)"
	end_check

	begin "test__fail() fails a subtest and its log is shown"
	run "$FIXTURE" -a fail_asserts/explicit_fail
	expect_exit 1
	expect_line "$OUT" "failing on purpose"
	expect_line "$OUT" "$(result_line 3/18 fail_asserts/explicit_fail:FAIL)"
	expect_line "$OUT" "$(result_line 3 fail_asserts:FAIL)"
	end_check

	begin "asserts return whether they held (fail_returns)"
	run "$FIXTURE" -t fail_returns
	expect_exit 1
	expect_line "$OUT" "fail.c:$(line_of fail.c '"first"'): ASSERT_EQ(first) failed: actual 1 (0x1), expected == 2 (0x2)"
	expect_line "$OUT" "returned false as expected"
	expect_line "$OUT" "returned true as expected"
	expect_no "$OUT" "ASSERT_EQ(second)"
	end_check

	begin "passing asserts print nothing by default, nor with -v"
	run "$FIXTURE" -t pass_plain
	expect_exit 0
	expect_no "$OUT" "): ok"
	expect_no "$OUT" "failed"
	run "$FIXTURE" -v -t pass_plain
	expect_no "$OUT" "): ok"
	end_check

	begin "-vv prints an ok line for every passing assert"
	run "$FIXTURE" -vv -t pass_plain
	expect_exit 0
	n=$(sed -n '/^void test_pass_plain/,/^}/p' "$FIXTURES/pass.c" |
	    grep -c 'ASSERT_')
	expect_count "$OUT" '^pass\.c:[0-9]+: ASSERT_[A-Z_]+\([^)]*\): ok$' "$n"
	expect_line "$OUT" "pass.c:$(line_of pass.c '"one"'): ASSERT_EQ(one): ok"
	expect_line "$OUT" "pass.c:$(line_of pass.c '"memeq"'): ASSERT_MEMEQ(memeq): ok"
	expect_line "$OUT" "pass.c:$(line_of pass.c '"err_fd"'): ASSERT_ERR_FD(err_fd): ok"
	end_check
}

# ---- subtest and skip accounting ------------------------------------------

# args (sh words) | exit code | summary numbers
SUMMARY_TABLE=$T/summary.table
cat >"$SUMMARY_TABLE" <<'EOF'
|1|10 9 7 7
-t pass_|0|2 3 0 0
-t skip_|0|5 2 6 0
-t fail_|1|0 1 1 3
-t skip_some|0|1 2 1 0
-t skip_all_subtests|4|1 0 2 0
-a 'crash_*,pass_plain'|1|1 1 0 2
-t fail_mixed -b fail_mixed/bad|0|1 1 1 0
-n 1,3-5|1|0 1 1 4
-b @SELFILE|1|9 6 7 7
EOF

check_accounting() {
	while IFS='|' read -r args code nums; do
		args=$(echo "$args" | sed "s|@SELFILE|@$T/sel.txt|")
		# shellcheck disable=SC2086 # nums is four words on purpose
		want=$(summary $nums)
		begin "summary for '${args:-(all)}': $want, exit $code"
		run_words "$args"
		expect_exit "$code"
		expect_line "$OUT" "$want"
		expect_count "$OUT" '^Summary: ' 1
		end_check
	done <"$SUMMARY_TABLE"

	begin "skip reasons shown in text as (reason)"
	use full
	expect_line "$OUT" "$(result_line 15 'skip_whole:SKIP (widget feature not supported by this kernel (EPERM on load))')"
	expect_line "$OUT" "$(result_line 13 'skip_no_reason:SKIP (skipped by the test (no reason given))')"
	expect_line "$OUT" "$(result_line 12 'skip_multiline_reason:SKIP (line one line two   not a directive)')"
	expect_line "$OUT" "$(result_line 14/2 'skip_some/needs_gizmo:SKIP (gizmo missing)')"
	expect_line "$OUT" "$(result_line 4/3 'fail_mixed/skipped:SKIP (not needed here)')"
	end_check

	begin "a test whose subtests all skipped is SKIP with their reason"
	use full
	expect_line "$OUT" "$(result_line 11/1 'skip_all_subtests/a:SKIP (same reason)')"
	expect_line "$OUT" "$(result_line 11/2 'skip_all_subtests/b:SKIP (same reason)')"
	expect_line "$OUT" "$(result_line 11 'skip_all_subtests:SKIP (same reason)')"
	end_check

	begin "a partly skipped test is OK with (SKIP: 1/3)"
	use full
	expect_line "$OUT" "$(result_line 14/1 skip_some/runs:OK)"
	expect_line "$OUT" "$(result_line 14/3 skip_some/also_runs:OK)"
	expect_line "$OUT" "$(result_line 14 'skip_some:OK (SKIP: 1/3)')"
	end_check

	begin "a failing subtest fails its test; passing ones still pass"
	use full
	expect_line "$OUT" "$(result_line 4/1 fail_mixed/good:OK)"
	expect_line "$OUT" "$(result_line 4/2 fail_mixed/bad:FAIL)"
	expect_line "$OUT" "$(result_line 4 'fail_mixed:FAIL (SKIP: 1/3)')"
	end_check

	begin "every test of the full run has exactly one result line"
	use full
	for name in crash_exit crash_segv fail_asserts fail_mixed \
		    fail_returns output_child output_escapes output_serial \
		    pass_plain pass_subtests skip_all_subtests \
		    skip_multiline_reason skip_no_reason skip_some skip_whole; do
		sed -n '/^All error logs:$/q;p' "$OUT" >"$T/run-part"
		expect_count "$T/run-part" "^#[0-9]+ +$name:(OK|FAIL|SKIP)" 1
	done
	end_check

	begin "skip reasons in KTAP as '# SKIP reason'"
	use full_ktap
	expect_line "$OUT" "ok 15 skip_whole # SKIP widget feature not supported by this kernel (EPERM on load)"
	expect_line "$OUT" "ok 13 skip_no_reason # SKIP skipped by the test (no reason given)"
	expect_line "$OUT" "ok 12 skip_multiline_reason # SKIP line one line two   not a directive"
	expect_line "$OUT" "ok 11 skip_all_subtests # SKIP same reason"
	expect_line "$OUT" "  ok 2 needs_gizmo # SKIP gizmo missing"
	expect_line "$OUT" "ok 14 skip_some"
	end_check
}

# ---- logs -----------------------------------------------------------------

check_logs() {
	begin "logs of passing tests are not shown by default"
	run "$FIXTURE" -t pass_
	expect_exit 0
	expect_no "$OUT" "pass_plain log line"
	expect_no "$OUT" "first subtest log"
	expect_no "$OUT" "All error logs:"
	expect_empty "$ERR"
	end_check

	begin "-v shows logs of passing tests, before their result line"
	run "$FIXTURE" -v -t pass_
	expect_exit 0
	expect_line "$OUT" "pass_plain log line"
	expect_line "$OUT" "first subtest log"
	expect_before "$OUT" "pass_plain log line" "pass_plain:OK"
	expect_before "$OUT" "first subtest log" "pass_subtests/first:OK"
	end_check

	begin "logs of failing tests are shown before their result line"
	use full
	expect_before "$OUT" "returned false as expected" "fail_returns:FAIL"
	expect_before "$OUT" "calling exit(3)" "crash_exit:FAIL"
	expect_line "$OUT" "$(printf 'quote" backslash\\ tab\t bell\a ctrl\001 bad\377\376 utf8 \303\251')"
	end_check

	begin "output of child processes is captured (output_child)"
	run "$FIXTURE" -t output_child
	expect_exit 1
	expect_line "$OUT" "from-a-child-process"
	expect_before "$OUT" "from-a-child-process" "output_child/shell:FAIL"
	expect_empty "$ERR"
	end_check

	begin "'All error logs:' recaps failed tests and only them"
	use full
	sed -n '/^All error logs:$/,$p' "$OUT" >"$T/recap"
	expect_line "$OUT" "All error logs:"
	for r in 1:crash_exit 2:crash_segv 3:fail_asserts \
		 5:fail_returns 6:output_child 7:output_escapes; do
		expect_line "$T/recap" "$(result_line "${r%%:*}" "${r#*:}:FAIL")"
	done
	expect_line "$T/recap" "$(result_line 4 'fail_mixed:FAIL (SKIP: 1/3)')"
	expect_line "$T/recap" "$(result_line 4/2 fail_mixed/bad:FAIL)"
	expect_line "$T/recap" "returned false as expected"
	expect_line "$T/recap" "test process killed by signal 11 (Segmentation fault)"
	expect_no "$T/recap" ":OK"
	expect_no "$T/recap" ":SKIP"
	end_check
}

# ---- selection ------------------------------------------------------------

check_selection() {
	begin "-t matches substrings of test names"
	run "$FIXTURE" -t ass_
	expect_exit 0
	expect_line "$OUT" "$(result_line 9 pass_plain:OK)"
	expect_line "$OUT" "$(result_line 10 pass_subtests:OK)"
	expect_count "$OUT" '^#[0-9]+ ' 2
	end_check

	begin "-t test/subtest matches subtest substrings (as the kernel's)"
	run "$FIXTURE" -t fail_asserts/eq
	expect_exit 1
	sed -n '/^All error logs:$/q;p' "$OUT" >"$T/run-part"
	for s in 1:eq 2:neq 9:streq 10:memeq; do
		expect_line "$T/run-part" "$(result_line "3/${s%%:*}" "fail_asserts/${s#*:}:FAIL")"
	done
	expect_count "$T/run-part" '^#3/' 4
	end_check

	begin "-a test/subtest without wildcards runs only that subtest"
	run "$FIXTURE" -a fail_asserts/eq
	expect_exit 1
	expect_count "$OUT" '^#3/1 +fail_asserts/eq:FAIL$' 2
	expect_count "$OUT" '^#3/' 2
	expect_line "$OUT" "$(summary 0 0 0 1)"
	end_check

	begin "-t test/subtest on a passing subtest"
	run "$FIXTURE" -t fail_mixed/good
	expect_exit 0
	expect_line "$OUT" "$(result_line 4/1 fail_mixed/good:OK)"
	expect_line "$OUT" "$(result_line 4 fail_mixed:OK)"
	expect_line "$OUT" "$(summary 1 1 0 0)"
	end_check

	begin "-a matches whole names as globs"
	run "$FIXTURE" -a 'pass_*'
	expect_exit 0
	expect_line "$OUT" "$(summary 2 3 0 0)"
	run "$FIXTURE" -a pass
	expect_exit 2
	expect_line "$ERR" "test_progs: no test selected"
	end_check

	begin "-a glob on subtests: fail_asserts/*_ptr"
	run "$FIXTURE" -a 'fail_asserts/*_ptr'
	expect_exit 1
	sed -n '/^All error logs:$/q;p' "$OUT" >"$T/run-part"
	expect_line "$T/run-part" "$(result_line 3/14 fail_asserts/ok_ptr:FAIL)"
	expect_line "$T/run-part" "$(result_line 3/15 fail_asserts/err_ptr:FAIL)"
	expect_count "$T/run-part" '^#3/' 2
	end_check

	begin "-b denies tests by substring, comma list"
	run "$FIXTURE" -b fail,crash,output
	expect_exit 0
	expect_no_match "$OUT" '^#[0-9/]+ +(fail|crash|output)_'
	expect_line "$OUT" "$(summary 9 7 6 0)"
	end_check

	begin "-d denies tests by glob; a glob without wildcards is exact"
	run "$FIXTURE" -d 'fail_*,crash_*,output_*'
	expect_exit 0
	expect_line "$OUT" "$(summary 9 7 6 0)"
	run "$FIXTURE" -t pass_ -d pass
	expect_line "$OUT" "$(summary 2 3 0 0)"
	end_check

	begin "-d test/subtest glob denies subtests only"
	run "$FIXTURE" -t fail_asserts -d 'fail_asserts/*'
	expect_exit 4
	expect_line "$OUT" "$(result_line 3 'fail_asserts:SKIP (no subtest matched the selection)')"
	end_check

	begin "comma lists and repeated options add up"
	run "$FIXTURE" -t pass_plain,skip_whole
	expect_exit 0
	expect_line "$OUT" "$(summary 2 0 1 0)"
	cp "$OUT" "$T/comma.out"
	run "$FIXTURE" -t pass_plain -t ' skip_whole '
	expect_exit 0
	if ! cmp -s "$OUT" "$T/comma.out"; then
		bad "-t a,b and -t a -t ' b ' differ"
	fi
	end_check

	begin "@file lists with # comments and blank lines"
	run "$FIXTURE" -t "@$T/sel.txt"
	expect_exit 0
	expect_line "$OUT" "$(result_line 9 pass_plain:OK)"
	expect_line "$OUT" "$(result_line 4/1 fail_mixed/good:OK)"
	expect_line "$OUT" "$(result_line 14/1 skip_some/runs:OK)"
	expect_line "$OUT" "$(result_line 14/3 skip_some/also_runs:OK)"
	expect_count "$OUT" '^#[0-9]+ ' 3
	expect_line "$OUT" "$(summary 3 3 0 0)"
	end_check

	begin "-n 3 selects test number 3"
	run "$FIXTURE" -n 3
	expect_exit 1
	expect_no_match "$OUT" '^#([0-24-9]|[0-9][0-9])[/ ]'
	expect_line "$OUT" "$(result_line 3 fail_asserts:FAIL)"
	expect_line "$OUT" "$(summary 0 0 0 1)"
	end_check

	begin "-n 1,3-5 selects tests 1, 3, 4 and 5"
	run "$FIXTURE" -n 1,3-5
	expect_exit 1
	sed -n '/^All error logs:$/q;p' "$OUT" >"$T/run-part"
	expect_count "$T/run-part" '^#[0-9]+ ' 4
	for t in 1:crash_exit 3:fail_asserts 4:fail_mixed 5:fail_returns; do
		expect_match "$T/run-part" "^#${t%%:*} +${t#*:}:FAIL"
	done
	end_check

	begin "-n 3/2 selects subtest 2 of test 3"
	run "$FIXTURE" -n 3/2
	expect_exit 1
	expect_count "$OUT" '^#3/2 +fail_asserts/neq:FAIL$' 2
	expect_count "$OUT" '^#3/' 2
	end_check

	begin "-n 10/1,10/3 selects two subtests"
	run "$FIXTURE" -n 10/1,10/3
	expect_exit 0
	expect_line "$OUT" "$(result_line 10/1 pass_subtests/first:OK)"
	expect_line "$OUT" "$(result_line 10/3 pass_subtests/third:OK)"
	expect_no "$OUT" "pass_subtests/second"
	expect_line "$OUT" "$(summary 1 2 0 0)"
	end_check

	begin "names and -n numbers are ANDed"
	run "$FIXTURE" -t pass_ -n 10
	expect_exit 0
	expect_line "$OUT" "$(summary 1 3 0 0)"
	run "$FIXTURE" -t pass_ -n 3
	expect_exit 2
	end_check

	begin "allow and deny combined: -t fail_ -b fail_asserts"
	run "$FIXTURE" -t fail_ -b fail_asserts
	expect_exit 1
	expect_no "$OUT" "fail_asserts"
	expect_line "$OUT" "$(summary 0 1 1 2)"
	end_check

	begin "allow and deny globs on subtests: -a fail_asserts/e* -d fail_asserts/err*"
	run "$FIXTURE" -a 'fail_asserts/e*' -d 'fail_asserts/err*'
	sed -n '/^All error logs:$/q;p' "$OUT" >"$T/run-part"
	expect_line "$T/run-part" "$(result_line 3/1 fail_asserts/eq:FAIL)"
	expect_line "$T/run-part" "$(result_line 3/18 fail_asserts/explicit_fail:FAIL)"
	expect_count "$T/run-part" '^#3/' 2
	end_check

	begin "--list=detail lists tests and test/subtest lines"
	run "$FIXTURE" --list=detail -t pass_,skip_some
	expect_exit 0
	expect_content "$OUT" "pass_plain
pass_subtests
pass_subtests/first
pass_subtests/second
pass_subtests/third
skip_some
skip_some/runs
skip_some/needs_gizmo
skip_some/also_runs"
	expect_empty "$ERR"
	end_check

	begin "--list=detail of the whole suite: 17 tests, 35 subtests, in registry order"
	run "$FIXTURE" --list=detail
	expect_exit 0
	expect_nlines "$OUT" 52
	grep -v / "$OUT" >"$T/names"
	expect_content "$T/names" "crash_exit
crash_segv
fail_asserts
fail_mixed
fail_returns
output_child
output_escapes
output_serial
pass_plain
pass_subtests
skip_all_subtests
skip_multiline_reason
skip_no_reason
skip_some
skip_whole
with_hang
with_leak"
	expect_line "$OUT" "crash_segv/after"
	end_check

	begin "-l -n 3/2 lists the test and that subtest"
	run "$FIXTURE" -l -n 3/2
	expect_exit 0
	expect_content "$OUT" "fail_asserts
fail_asserts/neq"
	end_check

	begin "--count=detail counts selected tests and subtests"
	run "$FIXTURE" --count=detail
	expect_exit 0
	expect_content "$OUT" "17 tests, 35 subtests"
	run "$FIXTURE" --count=detail -t pass_
	expect_content "$OUT" "2 tests, 3 subtests"
	run "$FIXTURE" --count=detail -a fail_asserts/eq -b fail_mixed
	expect_content "$OUT" "1 tests, 1 subtests"
	end_check

	begin "--no-fork gives the same results as forked runs"
	run "$FIXTURE" -t pass_,skip_
	cp "$OUT" "$T/forked.out"
	run "$FIXTURE" --no-fork -t pass_,skip_
	expect_exit 0
	expect_line "$OUT" "$(summary 7 5 6 0)"
	if ! cmp -s "$OUT" "$T/forked.out"; then
		bad "output differs from the forked run:" \
		    "$(diff "$T/forked.out" "$OUT" | excerpt - 6)"
	fi
	end_check
}

# ---- bad input ------------------------------------------------------------

# Exit 2, nothing on stdout, one line on stderr that contains TEXT.
expect_usage_error() {	# TEXT
	expect_exit 2
	expect_empty "$OUT"
	expect_nlines "$ERR" 1
	expect_has "$ERR" "$1"
}

# args (sh words) | text the error line must contain
BAD_TABLE=$T/bad.table
cat >"$BAD_TABLE" <<'EOF'
--bogus|'--bogus'
-x|'-x'
-n 1-|'1-'
-n abc|'abc'
-n 0|'0'
-n 5-3|'5-3'
-n 3/0|'3/0'
-n 1,|'1,'
-n 1,,3|'1,,3'
-n ''|expected e.g.
-n|'-n'
-t|'-t'
-t @/nonexistent/selection.txt|/nonexistent/selection.txt
-b /x|'/x'
-a x/|'x/'
-J ''|-J
stray|'stray'
--json|'--json'
--ktap=1|'--ktap
--help=1|'--help
EOF

check_bad_input() {
	while IFS='|' read -r args text; do
		begin "bad input: $args -> exit 2, one stderr line with [$text]"
		run_words "$args"
		expect_usage_error "$text"
		end_check
	done <"$BAD_TABLE"

	begin "errors about bad options contain no control characters"
	run "$FIXTURE" --no-fork=1
	expect_usage_error "--no-fork"
	expect_printable "$ERR"
	end_check

	begin "-n errors name the accepted form"
	run "$FIXTURE" -n 5-3
	expect_has "$ERR" "1,3-5"
	end_check

	begin "-J into a missing directory: exit 3, one line, no file left"
	run "$FIXTURE" -J "$T/nodir/out.json" -t pass_
	expect_exit 3
	expect_empty "$OUT"
	expect_nlines "$ERR" 1
	expect_has "$ERR" "$T/nodir/out.json"
	[ ! -e "$T/nodir" ] || bad "$T/nodir was created"
	end_check

	begin "-J onto a directory: exit 3, no temporary file left"
	mkdir -p "$T/jdir/isdir"
	run "$FIXTURE" -J "$T/jdir/isdir" -t pass_
	expect_exit 3
	expect_nlines "$ERR" 1
	expect_has "$ERR" "$T/jdir/isdir"
	left=$(ls -A "$T/jdir")
	expect_eq "files in the target directory" "isdir" "$left"
	end_check

	begin "-J success leaves only the JSON file"
	mkdir -p "$T/jok"
	run "$FIXTURE" -J "$T/jok/out.json" -t pass_
	expect_exit 0
	left=$(ls -A "$T/jok")
	expect_eq "files in the target directory" "out.json" "$left"
	end_check
}

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
	ktap_valid 1 "17 tests (pass 6, fail 7, skip 4), 34 subtests"
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
1..17"
	expect_line "$OUT" "  # Subtest: fail_asserts"
	expect_line "$OUT" "  1..18"
	expect_line "$OUT" "  # fail.c:$(line_of fail.c '"answer"'): ASSERT_EQ(answer) failed: actual 42 (0x2a), expected == 7 (0x7)"
	expect_line "$OUT" "  not ok 1 eq"
	expect_line "$OUT" "not ok 3 fail_asserts"
	expect_line "$OUT" "# test process killed by signal 11 (Segmentation fault)"
	expect_line "$OUT" "not ok 2 crash_segv"
	expect_line "$OUT" "ok 9 pass_plain"
	expect_line "$OUT" "# Totals: pass:6 fail:7 xfail:0 xpass:0 skip:4 error:0"
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
	CMD="$KTAP_CHECK < $T/good.ktap"
	"$KTAP_CHECK" <"$T/good.ktap" >"$OUT" 2>"$ERR"
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

# ---- JSON -----------------------------------------------------------------

check_json() {
	J=$T/full.json

	begin "-J writes JSON that jq parses"
	use full_json
	expect_exit 1
	jq -e . "$J" >/dev/null 2>"$T/jq.err" ||
		bad "jq cannot parse it: $(head -n 1 "$T/jq.err")"
	if command -v iconv >/dev/null 2>&1 &&
	   ! iconv -f UTF-8 -t UTF-8 "$J" >/dev/null 2>&1; then
		bad "the JSON file is not valid UTF-8"
	fi
	end_check

	begin "JSON counts match the text summary of the same run"
	use full_json
	s=$(jq -r '"Summary: \(.success)/\(.success_subtest) PASSED, \(.skipped) SKIPPED, \(.failed) FAILED"' "$J")
	expect_line "$OUT" "$s"
	expect_line "$OUT" "$(summary 10 9 7 7)"
	end_check

	begin "JSON results[]: one per test, in order, with all fields"
	expect_jq "$J" '.results | length == 17'
	expect_jq "$J" '[.results[].number] == [range(1; 18)]'
	expect_jq "$J" '.results[0].name == "crash_exit" and .results[14].name == "skip_whole"'
	expect_jq "$J" 'all(.results[]; (.name|type) == "string" and (.number|type) == "number" and (.failed|type) == "boolean" and (.outcome|type) == "string" and (.message|type) == "string" and (.duration_ns|type) == "number" and .duration_ns >= 0 and (.subtests|type) == "array")'
	expect_jq "$J" 'all(.results[].subtests[]; (.name|type) == "string" and (.number|type) == "number" and (.failed|type) == "boolean" and (.outcome|type) == "string" and (.message|type) == "string" and (.duration_ns|type) == "number")'
	expect_jq "$J" 'all(.. | objects | select(has("outcome")); .outcome == "PASS" or .outcome == "FAIL" or .outcome == "SKIP")'
	expect_jq "$J" 'all(.. | objects | select(has("outcome")); .failed == (.outcome == "FAIL"))'
	end_check

	begin "JSON counts are the kernel's: success counts every test that did not fail"
	expect_jq "$J" '([.results[] | select(.failed | not)] | length) == .success'
	expect_jq "$J" '([.results[] | select(.outcome == "FAIL")] | length) == .failed'
	expect_jq "$J" '([.results[].subtests[] | select(.outcome == "PASS")] | length) == .success_subtest'
	expect_jq "$J" '.success == 10 and .skipped == 7 and .failed == 7'
	expect_jq "$J" '.outcomes == {"PASS": 6, "FAIL": 7, "SKIP": 4, "TIMEOUT": 0}'
	expect_jq "$J" '[.results[] | .outcome] | group_by(.) | map({(.[0]): length}) | add | . == {"PASS": 6, "FAIL": 7, "SKIP": 4}'
	expect_jq "$J" '[.results[] | select(.name == "fail_asserts") | .subtests[] | .outcome] == [range(18) | "FAIL"]'
	end_check

	begin "JSON skip_reason on every SKIP and only there"
	expect_jq "$J" 'all(.. | objects | select(has("outcome")); (.outcome == "SKIP") == has("skip_reason"))'
	expect_jq "$J" 'all(.. | objects | select(.outcome? == "SKIP"); (.skip_reason|type) == "string" and (.skip_reason|length) > 0)'
	expect_jq "$J" '.results[] | select(.name == "skip_whole") | .skip_reason == "widget feature not supported by this kernel (EPERM on load)"'
	expect_jq "$J" '.results[] | select(.name == "skip_some") | .outcome == "PASS" and .subtests[1].skip_reason == "gizmo missing"'
	expect_jq "$J" '.results[] | select(.name == "skip_all_subtests") | .outcome == "SKIP" and .skip_reason == "same reason"'
	end_check

	begin "JSON messages hold the logs, crashes are described"
	expect_jq "$J" '.results[] | select(.name == "fail_returns") | .message | contains("returned false as expected")'
	expect_jq "$J" '.results[] | select(.name == "fail_asserts") | .subtests[0] | .name == "eq" and .number == 1 and (.message | contains("ASSERT_EQ(answer) failed"))'
	expect_jq "$J" '.results[] | select(.name == "crash_segv") | (.crash | contains("killed by signal 11")) and .outcome == "FAIL"'
	expect_jq "$J" '.results[] | select(.name == "crash_exit") | .crash == "test process exited with status 3"'
	expect_jq "$J" '.results[] | select(.name == "output_child") | .subtests[0].message | contains("from-a-child-process")'
	end_check

	begin "JSON environment block"
	expect_jq "$J" ".environment.kernel_release == \"$(uname -r)\""
	expect_jq "$J" ".environment.arch == \"$(uname -m)\""
	expect_jq "$J" '.environment.libbpf_version | test("^v?[0-9]+\\.[0-9]+")'
	expect_jq "$J" '.environment.features.fixture_present == {"present": true}'
	expect_jq "$J" '.environment.features.fixture_missing == {"present": false, "reason": "fixture feature never present"}'
	end_check

	begin "JSON escapes quotes, control bytes and invalid UTF-8"
	expect_has "$J" '"message":"quote\" backslash\\ tab\t bell\u0007 ctrl\u0001 bad\ufffd\ufffd utf8 é\n"'
	expect_jq "$J" '.results[] | select(.name == "output_escapes") | .message == "quote\" backslash\\ tab\t bell\u0007 ctrl\u0001 bad\ufffd\ufffd utf8 é\n"'
	end_check

	begin "JSON for -n 3/2 has one test with one subtest"
	run "$FIXTURE" -n 3/2 -J "$T/sel.json"
	expect_exit 1
	expect_jq "$T/sel.json" '.results | length == 1'
	expect_jq "$T/sel.json" '.results[0].subtests | length == 1 and .[0].name == "neq" and .[0].number == 2'
	expect_jq "$T/sel.json" '.success == 0 and .failed == 1 and .skipped == 0 and .success_subtest == 0'
	end_check

	begin "JSON when nothing is selected: exit 2, empty results"
	run "$FIXTURE" -t no_such_test -J "$T/none.json"
	expect_exit 2
	expect_jq "$T/none.json" '.results == [] and .success == 0 and .failed == 0 and .skipped == 0'
	end_check

	begin "-J together with --ktap"
	run "$FIXTURE" --ktap -t pass_ -J "$T/ktap.json"
	expect_exit 0
	expect_jq "$T/ktap.json" '.success == 2 and .success_subtest == 3'
	head -n 1 "$OUT" >"$T/head"
	expect_content "$T/head" "KTAP version 1"
	end_check
}

# ---- exit codes -----------------------------------------------------------

check_exit_codes() {
	for c in "0|-t pass_" "0|-t skip_some" "1|-t fail_returns" \
		 "1|-t output_escapes" "2|-t no_such_test" "2|--bogus" \
		 "4|-t skip_whole" "4|-a skip_whole,skip_no_reason" \
		 "4|-t skip_all_subtests"; do
		code=${c%%|*}
		args=${c#*|}
		begin "exit code $code for '$args'"
		# shellcheck disable=SC2086 # args are words on purpose
		run "$FIXTURE" $args
		expect_exit "$code"
		end_check
	done

	begin "exit 2 says that no test was selected"
	run "$FIXTURE" -t no_such_test
	expect_line "$ERR" "test_progs: no test selected"
	expect_line "$OUT" "$(summary 0 0 0 0)"
	end_check
}

# ---- crash isolation ------------------------------------------------------

check_crashes() {
	begin "a crashing test FAILs with 'killed by signal 11', the run goes on"
	run "$FIXTURE" -a 'crash_*,pass_plain'
	expect_exit 1
	expect_line "$OUT" "about to crash"
	expect_line "$OUT" "test process killed by signal 11 (Segmentation fault)"
	expect_line "$OUT" "$(result_line 2/1 crash_segv/before:OK)"
	expect_line "$OUT" "$(result_line 2/2 crash_segv/dies:FAIL)"
	expect_line "$OUT" "$(result_line 2 crash_segv:FAIL)"
	expect_line "$OUT" "$(result_line 9 pass_plain:OK)"
	expect_before "$OUT" "crash_segv:FAIL" "pass_plain:OK"
	expect_no "$OUT" "crash_segv/after"
	expect_line "$OUT" "$(summary 1 1 0 2)"
	save crash
	end_check

	begin "a crash prints a backtrace in the test's log"
	use crash
	expect_line "$OUT" "Caught fatal signal; backtrace:"
	expect_match "$OUT" 'test_crash_segv\+0x'
	end_check

	begin "a test calling exit(3) is reported as exited with status 3"
	use crash
	expect_line "$OUT" "calling exit(3)"
	expect_line "$OUT" "test process exited with status 3"
	expect_line "$OUT" "$(result_line 1 crash_exit:FAIL)"
	end_check
}

# ---- the real test_progs ----------------------------------------------------

check_test_progs() {
	begin "test_progs --help: usage on stdout, exit 0"
	run "$TEST_PROGS" --help
	expect_exit 0
	expect_match "$OUT" '^Usage: .*test_progs \[OPTIONS\]'
	expect_empty "$ERR"
	end_check

	begin "test_progs rejects an unknown option with exit 2"
	run "$TEST_PROGS" --no-such-option
	expect_usage_error "'--no-such-option'"
	run "$TEST_PROGS" -n abc
	expect_usage_error "'abc'"
	end_check
}

# ---- sanitizers -----------------------------------------------------------

check_sanitizers() {
	begin "no ASan/UBSan/LSan report in any run (ASAN_OPTIONS=$ASAN_OPTIONS)"
	run "$FIXTURE" -vvv --ktap -J "$T/vvv.json"
	run "$FIXTURE" --no-fork -vv -t pass_,skip_
	if [ -s "$SANLOG" ]; then
		bad "sanitizer reports:" "$(excerpt "$SANLOG" 10)"
	fi
	end_check
}

# ---- leak check -------------------------------------------------------------

# The runner side of --leak-check, through the fixture runner's checker
# (files appearing in $FIXTURE_LEAK_DIR); BPF objects are the real suite's.
check_leak_check() {
	leakdir="$T/leaks"
	mkdir -p "$leakdir"

	begin "--leak-check fails the test that leaves something behind"
	rm -f "$leakdir"/*
	FIXTURE_LEAK_DIR=$leakdir run "$FIXTURE" --leak-check -t with_leak,pass_plain
	expect_exit 1
	expect_line "$OUT" "leaked file leaked-by-with_leak"
	expect_line "$OUT" "$(result_line 17 with_leak:FAIL)"
	expect_line "$OUT" "$(result_line 9 pass_plain:OK)"
	expect_line "$OUT" "Leak check: the run left behind:"
	end_check

	begin "--leak-check passes a run that leaves nothing"
	rm -f "$leakdir"/*
	FIXTURE_LEAK_DIR=$leakdir run "$FIXTURE" --leak-check -t pass_,with_leak -b with_leak
	expect_exit 0
	expect_line "$OUT" "Leak check: the run left nothing behind"
	expect_no "$OUT" "leaked"
	end_check

	begin "--leak-check: leaks in KTAP diagnostics and in JSON"
	rm -f "$leakdir"/*
	FIXTURE_LEAK_DIR=$leakdir run "$FIXTURE" --leak-check --ktap -t with_leak -J "$T/leak.json"
	expect_exit 1
	expect_line "$OUT" "# leaked file leaked-by-with_leak"
	expect_line "$OUT" "not ok 1 with_leak"
	expect_jq "$T/leak.json" '.results[0].leaks == "leaked file leaked-by-with_leak"'
	expect_jq "$T/leak.json" '.results[0].outcome == "FAIL"'
	end_check

	begin "without --leak-check the same test passes"
	rm -f "$leakdir"/*
	FIXTURE_LEAK_DIR=$leakdir run "$FIXTURE" -t with_leak
	expect_exit 0
	expect_no "$OUT" "Leak check"
	end_check
}

# Each argument (a string of options) is a usage error: exit 2, one line.
expect_usage_errors() {
	for bad_arg in "$@"; do
		begin "bad input: $bad_arg -> exit 2, one stderr line"
		# shellcheck disable=SC2086
		run "$FIXTURE" $bad_arg
		expect_exit 2
		expect_nlines "$ERR" 1
		end_check
	done
}

# ---- watchdog and parallel runs ----------------------------------------------

check_watchdog() {
	begin "-w kills a hanging subtest: TIMEOUT, and the run goes on"
	FIXTURE_HANG=1 run "$FIXTURE" -w 1 -t with_hang,pass_plain
	expect_exit 1
	expect_line "$OUT" "$(result_line 16/1 with_hang/quick:OK)"
	expect_line "$OUT" "$(result_line 16/2 with_hang/stuck:TIMEOUT)"
	expect_line "$OUT" "$(result_line 16 with_hang:TIMEOUT)"
	expect_line "$OUT" "timed out after 1 s (watchdog -w 1)"
	expect_has "$OUT" "about to hang"
	expect_line "$OUT" "$(result_line 9 pass_plain:OK)"
	expect_line "$OUT" "$(summary 1 1 0 1)"
	end_check

	begin "-w: KTAP '# TIMEOUT' that ktap_check accepts, JSON outcome"
	FIXTURE_HANG=1 run "$FIXTURE" -w 1 --ktap -t with_hang -J "$T/hang.json"
	expect_exit 1
	expect_line "$OUT" "  not ok 2 stuck # TIMEOUT"
	expect_line "$OUT" "not ok 1 with_hang # TIMEOUT"
	"$KTAP_CHECK" "$OUT" >"$T/ktap-hang.out" 2>&1 ||
		bad "ktap_check rejects the TIMEOUT output: $(cat "$T/ktap-hang.out")"
	expect_jq "$T/hang.json" '.results[0].outcome == "TIMEOUT"'
	expect_jq "$T/hang.json" '.results[0].failed == true'
	expect_jq "$T/hang.json" '.results[0].subtests[1].outcome == "TIMEOUT"'
	expect_jq "$T/hang.json" '.failed == 1'
	end_check

	begin "-w: a test that ends in time is not touched"
	run "$FIXTURE" -w 5 -t with_hang
	expect_exit 0
	expect_line "$OUT" "$(result_line 16 with_hang:OK)"
	end_check
}

check_parallel() {
	begin "-j 2 gives the same results and summary as a serial run"
	run "$FIXTURE" -J "$T/serial.json"
	grep '^Summary:' "$OUT" >"$T/serial.summary"
	run "$FIXTURE" -j 2 -J "$T/par.json"
	expect_exit 1
	grep '^Summary:' "$OUT" >"$T/par.summary"
	cmp -s "$T/serial.summary" "$T/par.summary" ||
		bad "summaries differ: $(cat "$T/serial.summary") vs $(cat "$T/par.summary")"
	jq -S '[.results[] | {name, number, outcome, skip_reason,
		subtests: [.subtests[] | {name, number, outcome}]}]' \
		"$T/serial.json" >"$T/serial.res"
	jq -S '[.results[] | {name, number, outcome, skip_reason,
		subtests: [.subtests[] | {name, number, outcome}]}]' \
		"$T/par.json" >"$T/par.res"
	cmp -s "$T/serial.res" "$T/par.res" || bad "JSON results differ"
	end_check

	begin "-j 2: each test's block is contiguous, serial test last"
	run "$FIXTURE" -j 2 -t fail_asserts,pass_subtests,output_serial
	# Subtest lines of one test are followed by that test's own line.
	awk '/^All error logs:/ { done = 1 }
	     done { next }
	     /^#[0-9]+\/[0-9]+ / { split($1, a, "/"); if (cur != "" && a[1] != cur) bad = 1; cur = a[1]; next }
	     /^#[0-9]+ / { if (cur != "" && $1 != cur) bad = 1; cur = ""; last = $2 }
	     END { exit bad || last !~ /^output_serial:/ }' "$OUT" ||
		bad "interleaved test blocks or serial test not last"
	end_check

	begin "-j 2 --ktap passes ktap_check"
	run "$FIXTURE" -j 2 --ktap
	"$KTAP_CHECK" "$OUT" >"$T/ktap-par.out" 2>&1 ||
		bad "ktap_check: $(cat "$T/ktap-par.out")"
	end_check

	expect_usage_errors "-j 0" "-j -1" "-j abc" "-j 2x" "-w -1" "-w abc" \
		"--no-fork -j 2"
}

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

# ---- main -----------------------------------------------------------------

printf '%s\n' "# a selection file" "" "pass_plain   # trailing comment" \
	"  skip_some/runs, fail_mixed/good" "" "# end" >"$T/sel.txt"

# Full runs that several checks read (kept by save, reloaded by use).
begin "(full runs)"
run "$FIXTURE"
save full
run "$FIXTURE" --ktap
save full_ktap
run "$FIXTURE" -J "$T/full.json"
save full_json

check_assert_messages
check_accounting
check_logs
check_selection
check_bad_input
check_ktap
check_ktap_checker
check_ktap_kselftest
check_json
check_exit_codes
check_crashes
check_leak_check
check_watchdog
check_parallel
check_ci_outputs
check_test_progs
check_sanitizers
finish
