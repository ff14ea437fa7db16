# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The harness self-tests of tests/harness/run.sh: the JSON summary and the exit codes.
# Sourced by run.sh after lib.sh and its set-up; each check_* is called
# from its main part.

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
	expect_line "$OUT" "$(summary 11 9 7 7)"
	end_check

	begin "JSON results[]: one per test, in order, with all fields"
	expect_jq "$J" '.results | length == 18'
	expect_jq "$J" '[.results[].number] == [range(1; 19)]'
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
	expect_jq "$J" '.success == 11 and .skipped == 7 and .failed == 7'
	expect_jq "$J" '.outcomes == {"PASS": 7, "FAIL": 7, "SKIP": 4, "TIMEOUT": 0}'
	expect_jq "$J" '[.results[] | .outcome] | group_by(.) | map({(.[0]): length}) | add | . == {"PASS": 7, "FAIL": 7, "SKIP": 4}'
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
