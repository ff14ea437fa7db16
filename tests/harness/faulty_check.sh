#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# The full suite with three tests that go wrong on purpose
# (tests/harness/faulty/faulty.c, linked into build/test_progs_faulty): one
# segfaults, one hangs, one leaves a BPF map pinned.  Each must be
# reported for what it is, every real test must end as it does in
# test_progs alone, and the run must finish with exit code 1:
#   - serially with --leak-check -w (per-test leak checks), text output;
#   - with -j 2 (only the whole-run leak check), the same outcomes;
#   - with --ktap, KTAP that ktap_check (tests/harness/ktap_check.c) accepts.
#
# Usage: [OUTPUT=build-dir] sh tests/harness/faulty_check.sh
# Prints "ok N - ..." / "not ok N - ..." per check, then
# "faulty-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=faulty
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

TEST_PROGS=$OUTPUT/test_progs
FAULTY=$OUTPUT/test_progs_faulty
KTAP_CHECK=$OUTPUT/ktap_check
# The hang is stopped by the watchdog; the slowest real test takes about
# 0.5 s here, so 5 s leaves it room.
WATCHDOG=5

for t in jq "$TEST_PROGS" "$FAULTY" "$KTAP_CHECK"; do
	if ! command -v "$t" >/dev/null; then
		echo "faulty-checks: $t is missing (make deps; make check builds it)"
		exit 1
	fi
done

# bpffs as the suite sees it: test_progs mounts it only where missing.
# bpffs takes no dots in names.
PIN=/sys/fs/bpf/bpfcheck_faulty_leak_$$
export FAULTY_PIN_PATH="$PIN"
trap 'rm -f "$PIN"; rm -rf "$T"' EXIT

# test name -> outcome, one "name outcome" line per test, sorted.
outcomes() {	# JSON
	jq -r '.results[] | "\(.name) \(.outcome)"' "$1" | LC_ALL=C sort
}

run "$TEST_PROGS" -J "$T/alone.json"
if [ ! -s "$T/alone.json" ]; then
	echo "faulty-checks: test_progs alone wrote no JSON (exit $RC)"
	exit 1
fi
outcomes "$T/alone.json" >"$T/alone.outcomes"
{
	cat "$T/alone.outcomes"
	printf '%s\n' "faulty_hang TIMEOUT" "faulty_leak_map FAIL" \
		"faulty_segfault FAIL"
} | LC_ALL=C sort >"$T/expected.outcomes"

# ---- serial, per-test leak checks -----------------------------------------

begin "serial run: finishes, exit 1, every test's outcome as expected"
rm -f "$PIN"
run "$FAULTY" --leak-check -w "$WATCHDOG" -J "$T/serial.json"
expect_exit 1
save serial
outcomes "$T/serial.json" >"$T/serial.outcomes"
expect_content "$T/serial.outcomes" "$(cat "$T/expected.outcomes")"
expect_match "$OUT" '^Summary: [0-9]+/[0-9]+ PASSED, [0-9]+ SKIPPED, 3 FAILED$'
end_check

begin "the segfault: killed by signal 11, with a backtrace naming the test"
use serial
expect_line "$OUT" "test process killed by signal 11 (Segmentation fault)"
expect_line "$OUT" "Caught fatal signal; backtrace:"
expect_match "$OUT" 'test_faulty_segfault\+0x'
expect_match "$OUT" '^#[0-9]+ +faulty_segfault:FAIL$'
end_check

begin "the hang: TIMEOUT after the watchdog, the run goes on"
use serial
expect_match "$OUT" '^#[0-9]+ +faulty_hang:TIMEOUT$'
expect_line "$OUT" "waiting forever"
expect_jq "$T/serial.json" \
	'.results[] | select(.name == "faulty_hang") | .duration_ns >= 5e9'
expect_before "$OUT" "faulty_hang:TIMEOUT" "faulty_leak_map:FAIL"
end_check

begin "the leak: the pin and the map are named, the test FAILs"
use serial
expect_before "$OUT" "leaked pin $PIN" "faulty_leak_map:FAIL"
expect_match "$OUT" '^  map id [0-9]+: array "faulty_leak"$'
expect_match "$OUT" '^#[0-9]+ +faulty_leak_map:FAIL$'
end_check

begin "the run's own leak check reports the same pin at the end"
use serial
sed -n '/^Leak check: the run left behind:$/,$p' "$OUT" >"$T/run-leaks"
expect_line "$T/run-leaks" "leaked pin $PIN"
expect_match "$T/run-leaks" '^  map id [0-9]+: array "faulty_leak"$'
end_check

# ---- parallel ---------------------------------------------------------------

# With workers the objects seen mid-run can be any running test's, so
# only the whole run is checked: the leak is found, not its test.
begin "-j 2: the same outcomes but the leak's, exit 1, the run's leak check finds it"
rm -f "$PIN"
run "$FAULTY" --leak-check -j 2 -w "$WATCHDOG" -J "$T/parallel.json"
expect_exit 1
outcomes "$T/parallel.json" >"$T/parallel.outcomes"
expect_content "$T/parallel.outcomes" \
	"$(sed 's/^faulty_leak_map FAIL$/faulty_leak_map PASS/' "$T/expected.outcomes")"
expect_before "$OUT" "Leak check: the run left behind:" "leaked pin $PIN"
expect_match "$OUT" '^  map id [0-9]+: array "faulty_leak"$'
expect_line "$OUT" "test process killed by signal 11 (Segmentation fault)"
expect_match "$OUT" '^#[0-9]+ +faulty_hang:TIMEOUT$'
end_check

# ---- KTAP -------------------------------------------------------------------

begin "--ktap: valid KTAP, '# TIMEOUT' on the hang, 'not ok' on the others"
rm -f "$PIN"
run "$FAULTY" --ktap --leak-check -w "$WATCHDOG"
expect_exit 1
save ktap
"$KTAP_CHECK" "$OUT" >"$T/ktap.diag" 2>&1 ||
	bad "ktap_check rejected it: $(excerpt "$T/ktap.diag" 3)"
expect_match "$OUT" '^not ok [0-9]+ faulty_hang # TIMEOUT$'
expect_match "$OUT" '^not ok [0-9]+ faulty_segfault$'
expect_match "$OUT" '^not ok [0-9]+ faulty_leak_map$'
end_check

echo "faulty-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
