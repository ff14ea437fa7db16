#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# Black-box self-tests of the test_progs harness.  They run the fixture
# runner ($OUTPUT/test_progs_fixture: the harness core plus the fixtures of
# tests/harness/fixtures/, built with ASan and UBSan) and check its text, KTAP and
# JSON output and its exit codes; KTAP is validated by $OUTPUT/ktap_check,
# JSON by jq.  $OUTPUT/test_progs is only asked for --help and given a bad
# option: running the real suite is not this script's job.
#
# Usage: [OUTPUT=build-dir] sh tests/harness/run.sh
# Prints "ok N - ..." / "not ok N - ..." per check, then
# "self-tests: P passed, F failed"; exits non-zero if a check failed.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=selftests
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

FIXTURE=$OUTPUT/test_progs_fixture
KTAP_CHECK=$OUTPUT/ktap_check
TEST_PROGS=$OUTPUT/test_progs
FIXTURES=$HERE/fixtures

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

# The checks, one file per concern.
# shellcheck source=checks_output.sh
. "$HERE/checks_output.sh"
# shellcheck source=checks_selection.sh
. "$HERE/checks_selection.sh"
# shellcheck source=checks_ktap.sh
. "$HERE/checks_ktap.sh"
# shellcheck source=checks_json.sh
. "$HERE/checks_json.sh"
# shellcheck source=checks_runs.sh
. "$HERE/checks_runs.sh"
# shellcheck source=checks_ci.sh
. "$HERE/checks_ci.sh"

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
check_misleading_log
check_test_progs
check_sanitizers
finish
