#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make check": every stage of the project's tests, then one closing line
# "check: N passed, M failed, K skipped" that adds up the stages' counts.
# Exits non-zero if any stage failed.
set -u

srcdir=$(cd "$(dirname "$0")/.." && pwd)
OUTPUT=${OUTPUT:-$srcdir/build}
export OUTPUT

passed=0
failed=0
skipped=0
failed_stages=""

stage() {
	printf '\n==== %s ====\n' "$1"
}

stage_failed() {
	failed_stages="$failed_stages $1"
}

# Stage 1: the harness's own black-box tests (fixture runner under ASan).
run_self_tests() {
	stage "harness self-tests (tests/run.sh, ASan+UBSan)"
	log="$OUTPUT/check-self.log"
	sh "$srcdir/tests/run.sh" 2>&1 | tee "$log"
	line=$(grep -E '^self-tests: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
	if [ -z "$line" ]; then
		echo "check: self-tests printed no summary line"
		failed=$((failed + 1))
		stage_failed self-tests
		return
	fi
	p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -eq 0 ] || stage_failed self-tests
}

# Stage 2: the full test_progs suite on the host kernel.
run_suite() {
	stage "test_progs on the host kernel ($(uname -r))"
	json="$OUTPUT/check-test_progs.json"
	rm -f "$json"
	"$OUTPUT/test_progs" --leak-check -J "$json"
	rc=$?
	if [ ! -s "$json" ] || ! jq -e . "$json" >/dev/null; then
		echo "check: test_progs (exit $rc) wrote no valid JSON summary"
		failed=$((failed + 1))
		stage_failed test_progs
		return
	fi
	p=$(jq '[.results[] | select(.outcome == "PASS")] | length' "$json")
	f=$(jq '[.results[] | select(.outcome == "FAIL")] | length' "$json")
	s=$(jq '[.results[] | select(.outcome == "SKIP")] | length' "$json")
	# Every skip, of a test or a subtest, must say why.
	noreason=$(jq '[.results[] | (., .subtests[]) |
		select(.outcome == "SKIP" and ((.skip_reason // "") == ""))] |
		length' "$json")
	passed=$((passed + p))
	failed=$((failed + f))
	skipped=$((skipped + s))
	if [ "$noreason" -ne 0 ]; then
		echo "check: $noreason skipped tests/subtests give no reason"
		failed=$((failed + 1))
	fi
	if [ "$rc" -ne 0 ] || [ "$f" -ne 0 ] || [ "$noreason" -ne 0 ]; then
		stage_failed test_progs
	fi
}

# Stage 3: every benchmark briefly, its statistics unit tests, bad input.
run_bench_smoke() {
	stage "bench smoke run (tests/bench_check.sh)"
	log="$OUTPUT/check-bench.log"
	sh "$srcdir/tests/bench_check.sh" 2>&1 | tee "$log"
	line=$(grep -E '^bench-checks: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
	if [ -z "$line" ]; then
		echo "check: bench checks printed no summary line"
		failed=$((failed + 1))
		stage_failed bench
		return
	fi
	p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -eq 0 ] || stage_failed bench
}

# Stage 4: vmtest boots Debian's 6.1 and 6.12 in QEMU (TCG) and checks
# the matrix, PANIC and TIMEOUT detection and bad input.
run_vmtest_checks() {
	stage "vmtest (tests/vmtest_check.sh: 6.1 and 6.12 under QEMU)"
	log="$OUTPUT/check-vmtest.log"
	sh "$srcdir/tests/vmtest_check.sh" 2>&1 | tee "$log"
	line=$(grep -E '^vmtest-checks: [0-9]+ passed, [0-9]+ failed' "$log" | tail -n1)
	if [ -z "$line" ]; then
		echo "check: vmtest checks printed no summary line"
		failed=$((failed + 1))
		stage_failed vmtest
		return
	fi
	p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -eq 0 ] || stage_failed vmtest
}

start=$(date +%s)
run_self_tests
run_suite
run_bench_smoke
run_vmtest_checks
end=$(date +%s)

echo
if [ -n "$failed_stages" ]; then
	echo "check: failed stages:$failed_stages"
fi
echo "check took $((end - start)) s"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ -z "$failed_stages" ] && [ "$failed" -eq 0 ]
