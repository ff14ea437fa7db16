#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# The kernel's test_progs command line and JSON summary, as kernel CI uses
# them:
#   - libbpf/ci's exact line, "test_progs -j -w120 -a@allow -d@deny -J
#     out.json", runs (the real suite and the fixture runner), and the
#     JSON holds what libbpf/ci's run-vmtest/print_test_summary.py reads,
#     counted as the kernel counts: a jq reading of those fields must give
#     the step summary and notice line that script prints.  The script is
#     not in Debian; set PRINT_TEST_SUMMARY=path/to/print_test_summary.py
#     (from github.com/libbpf/ci) to run it too and compare;
#   - every long option against its short form (table-driven), --usage,
#     --version, -l/-c in the kernel's formats, bare -j = nproc workers;
#   - bad values: exit 2, one line naming the value.
#
# Usage: [OUTPUT=build-dir] [PRINT_TEST_SUMMARY=file] sh tests/harness/kernel_cli_check.sh
# Prints "ok N - ..." / "not ok N - ..." per check, then
# "kernel-cli-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=kernel-cli
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

TEST_PROGS=$OUTPUT/test_progs
FIXTURE=$OUTPUT/test_progs_fixture
PRINT_TEST_SUMMARY=${PRINT_TEST_SUMMARY:-}

for t in jq "$TEST_PROGS" "$FIXTURE"; do
	if ! command -v "$t" >/dev/null; then
		echo "kernel-cli-checks: $t is missing (make check builds it)"
		exit 1
	fi
done
# The fixture runner is built with ASan and UBSan; every run below is
# scanned for their reports.  LeakSanitizer cannot run everywhere (under
# ptrace, in some containers): use it when a trial run shows it works.
ASAN_OPTIONS=detect_leaks=1
export ASAN_OPTIONS
if "$FIXTURE" -c 2>&1 | grep -q 'LeakSanitizer has encountered'; then
	echo "# LeakSanitizer does not work here; running without leak checks"
	ASAN_OPTIONS=detect_leaks=0
fi

# What print_test_summary.py writes to its step summary (-s FILE), from
# the same fields it reads (its "Skipped: $" is the script's own).
# shellcheck disable=SC2016 # jq's \(...), not the shell's
STEP_SUMMARY_JQ='"# Tests summary",
	"- :heavy_check_mark: Success: \(.success)/\(.success_subtest)",
	"- :next_track_button: Skipped: $\(.skipped)",
	"- :x: Failed: \(.failed)",
	(.results[] | . as $t |
	 (select(.failed) | "#\(.number) \(.name)"),
	 (.subtests[] | select(.failed) |
	  "#\($t.number)/\(.number) \($t.name)/\(.name)"))'
NOTICE_JQ='"::notice::Success: \(.success)/\(.success_subtest),"
	+ " Skipped: \(.skipped), Failed: \(.failed)"'

# The kernel's counts recomputed from results[]: success is every test
# that did not fail, skipped ones included; skipped the skipped subtests
# plus the tests skipped outside any subtest: a SKIP test whose subtests
# did not all skip (the selections below have no test whose every subtest
# was deselected, which is a SKIP the kernel does not count).
KERNEL_COUNTS_JQ='{
	success: ([.results[] | select(.failed | not)] | length),
	success_subtest: ([.results[].subtests[] | select(.outcome == "PASS")] | length),
	skipped: (([.results[].subtests[] | select(.outcome == "SKIP")] | length) +
		  ([.results[] | select(.outcome == "SKIP" and
			((.subtests | length) == 0 or
			 (.subtests | all(.outcome == "SKIP") | not)))] | length)),
	failed: ([.results[] | select(.failed)] | length) }'

# JSON FILE: the jq reading equals the counts in the file.
expect_kernel_counts() {
	got=$(jq -c '{success, success_subtest, skipped, failed}' "$1")
	want=$(jq -c "$KERNEL_COUNTS_JQ" "$1")
	expect_eq "the kernel's counts" "$want" "$got"
}

# JSON FILE, DIR: print_test_summary.py's output on it, when available,
# equals the jq reading's.
compare_with_script() {
	jq -r "$STEP_SUMMARY_JQ" "$1" >"$2/jq-step.md"
	jq -r "$NOTICE_JQ" "$1" >"$2/jq-notice"
	[ -n "$PRINT_TEST_SUMMARY" ] || return 0
	python3 "$PRINT_TEST_SUMMARY" -j "$1" -s "$2/step.md" >"$2/console" ||
		bad "print_test_summary.py failed"
	cmp -s "$2/step.md" "$2/jq-step.md" ||
		bad "print_test_summary.py's step summary differs:" \
		    "$(diff "$2/jq-step.md" "$2/step.md" | excerpt - 6)"
	expect_line "$2/console" "$(cat "$2/jq-notice")"
}

# ---- libbpf/ci's command line ------------------------------------------------

mkdir -p "$T/ci" "$T/fx"
printf '%s\n' ringbuf queue_stack_map bpf_to_bpf_calls map_batch \
	fentry_getpgid >"$T/ci/allow"
printf '%s\n' "# libbpf/ci's deny lists hold tests and test/subtest" \
	"ringbuf/full_drops" "map_batch" >"$T/ci/deny"

begin "libbpf/ci's line runs the suite: test_progs -j -w120 -a@allow -d@deny -J out.json"
# In the directory holding the lists, as libbpf/ci runs it.
RC=$(cd "$T/ci" && "$TEST_PROGS" -j -w120 -a@allow -d@deny -J out.json \
	>"$OUT" 2>"$ERR"; echo $?)
CMD="cd $T/ci && $TEST_PROGS -j -w120 -a@allow -d@deny -J out.json"
case $RC in 0 | 1) ;; *) bad "expected exit 0 or 1, got $RC" ;; esac
J=$T/ci/out.json
expect_jq "$J" '[.results[].name] ==
	["bpf_to_bpf_calls", "fentry_getpgid", "queue_stack_map", "ringbuf"]'
expect_jq "$J" '.results[] | select(.name == "ringbuf") |
	[.subtests[].name] | index("full_drops") == null'
expect_kernel_counts "$J"
s=$(jq -r '"Summary: \(.success)/\(.success_subtest) PASSED, \(.skipped) SKIPPED,"
	+ " \(.failed) FAILED"' "$J")
expect_line "$OUT" "$s"
end_check

begin "the suite's JSON gives print_test_summary.py's notice line and step summary"
compare_with_script "$J" "$T/ci"
expect_match "$T/ci/jq-notice" '^::notice::Success: [0-9]+/[0-9]+, Skipped: [0-9]+, Failed: [0-9]+$'
expect_line "$T/ci/jq-step.md" "- :x: Failed: $(jq .failed "$J")"
end_check

printf '%s\n' 'skip_*' fail_mixed pass_subtests "# a comment" with_hang \
	>"$T/fx/allow"
printf '%s\n' skip_some/runs skip_whole >"$T/fx/deny"

begin "libbpf/ci's line on the fixtures: the kernel's counts, exactly"
RC=$(cd "$T/fx" && "$FIXTURE" -j -w120 -a@allow -d@deny -J out.json \
	>"$OUT" 2>"$ERR"; echo $?)
CMD="cd $T/fx && $FIXTURE -j -w120 -a@allow -d@deny -J out.json"
scan_sanitizers
J=$T/fx/out.json
expect_exit 1
# 7 tests ran; only fail_mixed failed.  The kernel counts the other six
# as successes, skipped ones included, and skips: skip_all_subtests' 2
# subtests, skip_some/needs_gizmo, fail_mixed/skipped, and the two tests
# that skipped themselves.
expect_jq "$J" '.success == 6 and .success_subtest == 7 and .skipped == 6 and .failed == 1'
expect_jq "$J" '.results | length == 7'
expect_kernel_counts "$J"
expect_line "$OUT" "Summary: 6/7 PASSED, 6 SKIPPED, 1 FAILED"
end_check

begin "the fixtures' JSON gives print_test_summary.py's output, failures listed"
compare_with_script "$J" "$T/fx"
# shellcheck disable=SC2016 # a literal $, as the script writes it
expect_content "$T/fx/jq-step.md" '# Tests summary
- :heavy_check_mark: Success: 6/7
- :next_track_button: Skipped: $6
- :x: Failed: 1
#4 fail_mixed
#4/2 fail_mixed/bad'
expect_content "$T/fx/jq-notice" "::notice::Success: 6/7, Skipped: 6, Failed: 1"
expect_jq "$J" '.results[] | select(.name == "fail_mixed") | .subtests[1] |
	.failed and (.message | length > 0)'
end_check

# ---- every long option against its short form ----------------------------------

# long form | short form | what to compare (out: stdout; err: stderr
# without pids, sorted as workers end in any order; json: the -J file's
# counts).  Each pair must give the same output and the long form must
# exit as the short one does.
OPT_TABLE=$T/options.table
cat >"$OPT_TABLE" <<'EOF'
--name=pass_ -l|-t pass_ -l|out
--name-blacklist=fail,crash,output,skip -l|-b fail,crash,output,skip -l|out
--allow=pass_* -l|-a pass_* -l|out
--deny=fail_*,crash_*,skip_* -l|-d fail_*,crash_*,skip_* -l|out
--num=3/2 -l|-n 3/2 -l|out
--verbose -t pass_plain|-v -t pass_plain|out
--verbose=2 -t pass_plain|-vv -t pass_plain|out
--verbose=v -t pass_plain|-vv -t pass_plain|out
--verbose=3 -t pass_plain|-vvv -t pass_plain|out
--verbose=vv -t pass_plain|-vvv -t pass_plain|out
--json-summary=JSON -t skip_|-J JSON -t skip_|json
--workers=2 --debug -t pass_|-j2 --debug -t pass_|err
--workers --debug -t pass_|-j --debug -t pass_|err
--list -t skip_some|-l -t skip_some|out
--list=detail -t skip_some|--list=detail -t skip_some|out
--count -t pass_|-c -t pass_|out
--count=detail|--count=detail|out
--verifier-stats -v -t pass_plain|-s -v -t pass_plain|out
--help|-h|out
--version|-V|out
EOF

# Run the fixture with the words of $1 (JSON replaced by a file name),
# globs not expanded.
run_opts() {	# ARGS JSON_FILE
	set -f
	# shellcheck disable=SC2046 # words on purpose
	run "$FIXTURE" $(echo "$1" | sed "s|JSON|$2|g")
	set +f
}

# What the run's "what" shows: stdout, stderr without pids, sorted, or the JSON.
shown() {	# WHAT JSON_FILE
	case $1 in
	out) cat "$OUT" ;;
	err) sed 's/, pid [0-9]*$//' "$ERR" | sort ;;
	json) jq -c '{success, success_subtest, skipped, failed, outcomes,
		names: [.results[].name]}' "$2" ;;
	esac
}

while IFS='|' read -r long short what; do
	begin "$long means $short"
	run_opts "$short" "$T/short.json"
	short_rc=$RC
	shown "$what" "$T/short.json" >"$T/short.shown"
	run_opts "$long" "$T/long.json"
	expect_eq "exit code" "$short_rc" "$RC"
	shown "$what" "$T/long.json" >"$T/long.shown"
	[ -s "$T/long.shown" ] || bad "the run showed nothing to compare"
	cmp -s "$T/short.shown" "$T/long.shown" ||
		bad "output differs from $short's:" \
		    "$(diff "$T/short.shown" "$T/long.shown" | excerpt - 6)"
	end_check
done <"$OPT_TABLE"

begin "--watchdog-timeout=1 means -w 1: the hang is a TIMEOUT"
FIXTURE_HANG=1 run "$FIXTURE" --watchdog-timeout=1 -t with_hang
expect_exit 1
expect_line "$OUT" "timed out after 1 s (watchdog -w 1)"
end_check

begin "the options reach their effect: selection, -v levels and SELFTESTS_VERBOSE, -s, --debug"
run "$FIXTURE" --name=pass_ -l
expect_content "$OUT" "pass_plain
pass_subtests"
run "$FIXTURE" --verbose=2 -t pass_plain
expect_has "$OUT" "pass_plain log line"
expect_has "$OUT" "ASSERT_EQ(one)"
run "$FIXTURE" -v -t pass_plain
expect_no "$OUT" "ASSERT_EQ(one)"
expect_no "$OUT" "verifier stats requested"
expect_line "$OUT" "pass_plain: SELFTESTS_VERBOSE=1"
run env -u SELFTESTS_VERBOSE "$FIXTURE" -t pass_plain -J "$T/v0.json"
expect_jq "$T/v0.json" '.results[0].message | contains("SELFTESTS_VERBOSE") | not'
run "$FIXTURE" --verifier-stats -v -t pass_plain
expect_has "$OUT" "pass_plain: verifier stats requested"
run "$FIXTURE" --debug -t pass_plain
expect_line "$ERR" "test_progs: -j 1: 1 workers for 1 tests, then 0 serial tests one at a time"
expect_match "$ERR" '^test_progs: \[worker 0\] #9 pass_plain: PASS$'
end_check

begin "--help and --usage name every long option, --version its two lines"
run "$FIXTURE" --help
cp "$OUT" "$T/help"
run "$FIXTURE" --usage
expect_exit 0
expect_match "$OUT" '^Usage: .*test_progs_fixture \[-chlsvV\]'
for opt in name name-blacklist allow deny num verbose json-summary workers \
	   watchdog-timeout list count debug verifier-stats help usage \
	   version ktap junit no-fork leak-check shard; do
	expect_has "$OUT" "--$opt"
	expect_has "$T/help" "--$opt"
done
run "$FIXTURE" --version
expect_exit 0
expect_nlines "$OUT" 2
expect_match "$OUT" '^test_progs \(bpfcheck\) [0-9.]+'
expect_match "$OUT" '^built with libbpf v[0-9]+\.[0-9]+ .*, clang '
end_check

# ---- -l, -c and -j as the kernel's ---------------------------------------------------

begin "-l lists test names only, -c their bare number (the fixtures)"
run "$FIXTURE" -l -t pass_,skip_some
expect_exit 0
expect_content "$OUT" "pass_plain
pass_subtests
skip_some"
expect_empty "$ERR"
run "$FIXTURE" -c
expect_exit 0
expect_content "$OUT" "18"
run "$FIXTURE" -c -t pass_
expect_content "$OUT" "2"
run "$FIXTURE" -c -t no_such_test
expect_exit 2
expect_content "$OUT" "0"
end_check

begin "-l with a subtest selector lists the selected test/subtest lines"
run "$FIXTURE" -l -t pass_subtests/sec,skip_some
expect_exit 0
expect_content "$OUT" "pass_subtests
pass_subtests/second
skip_some
skip_some/runs
skip_some/needs_gizmo
skip_some/also_runs"
run "$FIXTURE" -l -n 10/1,10/3
expect_content "$OUT" "pass_subtests
pass_subtests/first
pass_subtests/third"
end_check

begin "-l prints one test name per line, -c their number (the real suite)"
run "$TEST_PROGS" -l
expect_exit 0
expect_no_match "$OUT" '/| '
n=$(wc -l <"$OUT" | tr -d ' ')
run "$TEST_PROGS" -c
expect_exit 0
expect_content "$OUT" "$n"
run "$TEST_PROGS" -c -t ringbuf
expect_content "$OUT" "2"
run "$TEST_PROGS" -l -a 'ringbuf/reserve*'
expect_content "$OUT" "ringbuf
ringbuf/reserve_submit
ringbuf/reserve_discard"
end_check

begin "bare -j runs one worker per CPU (nproc), and -j -w120 reads -w120 as an option"
run "$FIXTURE" -j --debug -t pass_plain
expect_exit 0
expect_has "$ERR" "test_progs: -j $(nproc): "
# One CPU of those this shell may use: bare -j then means one worker.
cpu=$(taskset -pc $$ | sed 's/.*: *//; s/[-,].*//')
run taskset -c "$cpu" "$FIXTURE" -j --debug -t pass_plain
expect_has "$ERR" "test_progs: -j 1: "
run "$FIXTURE" -j -w120 --debug -t pass_
expect_exit 0
expect_has "$ERR" "test_progs: -j $(nproc): "
run "$FIXTURE" -j 2 --debug -t pass_
expect_has "$ERR" "test_progs: -j 2: 2 workers for 2 tests"
end_check

# ---- bad values ----------------------------------------------------------------------

# args | text the one error line must contain
BAD_TABLE=$T/bad.table
cat >"$BAD_TABLE" <<'EOF'
-j 0|'0'
-j 2x|'2x'
--workers=abc|'abc'
--workers=300|'300'
-w -1|'-1'
--watchdog-timeout=x|'x'
--verbose=4|'4'
--verbose=vvv|'vvv'
--list=all|'all'
--count=x|'x'
--num=abc|'abc'
--json-summary|'--json-summary'
--name|'--name'
--debug=1|'--debug'
--verifier-stats=1|'--verifier-stats'
--version=1|'--version'
-s2|'-2'
EOF

while IFS='|' read -r args text; do
	begin "bad input: $args -> exit 2, one stderr line with [$text]"
	# shellcheck disable=SC2086 # words on purpose
	run "$FIXTURE" $args
	expect_exit 2
	expect_empty "$OUT"
	expect_nlines "$ERR" 1
	expect_has "$ERR" "$text"
	end_check
done <"$BAD_TABLE"

echo "kernel-cli-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
