# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The harness self-tests of tests/harness/run.sh: selection (-t/-b/-a/-d/-n, files) and bad input.
# Sourced by run.sh after lib.sh and its set-up; each check_* is called
# from its main part.

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
	expect_line "$OUT" "$(summary 10 7 6 0)"
	end_check

	begin "-d denies tests by glob; a glob without wildcards is exact"
	run "$FIXTURE" -d 'fail_*,crash_*,output_*'
	expect_exit 0
	expect_line "$OUT" "$(summary 10 7 6 0)"
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

	begin "--list=detail of the whole suite: 18 tests, 35 subtests, in registry order"
	run "$FIXTURE" --list=detail
	expect_exit 0
	expect_nlines "$OUT" 53
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
with_leak
with_misleading_log"
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
	expect_content "$OUT" "18 tests, 35 subtests"
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
