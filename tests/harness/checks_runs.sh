# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The harness self-tests of tests/harness/run.sh: crashes, the real test_progs, sanitizers, leak check, watchdog, -j.
# Sourced by run.sh after lib.sh and its set-up; each check_* is called
# from its main part.

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
