# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The harness self-tests of tests/harness/run.sh: assert messages, subtest and skip accounting, logs.
# Sourced by run.sh after lib.sh and its set-up; each check_* is called
# from its main part.

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
|1|11 9 7 7
-t pass_|0|2 3 0 0
-t skip_|0|5 2 6 0
-t fail_|1|0 1 1 3
-t skip_some|0|1 2 1 0
-t skip_all_subtests|4|1 0 2 0
-a 'crash_*,pass_plain'|1|1 1 0 2
-t fail_mixed -b fail_mixed/bad|0|1 1 1 0
-n 1,3-5|1|0 1 1 4
-b @SELFILE|1|10 6 7 7
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
