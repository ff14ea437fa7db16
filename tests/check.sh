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

# Run a script that ends with "<label>: P passed, F failed" and add its
# counts.  Usage: counted_stage TITLE NAME SCRIPT LABEL
counted_stage() {
	stage "$1"
	log="$OUTPUT/check-$2.log"
	sh "$3" 2>&1 | tee "$log"
	line=$(grep -E "^$4: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n1)
	if [ -z "$line" ]; then
		echo "check: $2 printed no summary line"
		failed=$((failed + 1))
		stage_failed "$2"
		return
	fi
	p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -eq 0 ] || stage_failed "$2"
}

# The full test_progs suite on the host kernel; every SKIP needs a reason.
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
	f=$(jq '[.results[] | select(.failed)] | length' "$json")
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

start=$(date +%s)
# 1. The harness's own black-box tests (fixture runner under ASan/UBSan).
counted_stage "harness self-tests (tests/run.sh, ASan+UBSan)" self-tests \
	"$srcdir/tests/run.sh" self-tests
# 2. The full suite on the host kernel.
run_suite
# 2b. The toolchains: the default build's libbpf and clang, and the suite
#     built with LIBBPF=system CLANG=clang-14 (a test needing a newer
#     libbpf is left out with its reason), the "requires" marker.
counted_stage "toolchains (tests/toolchain_check.sh: default and LIBBPF=system builds)" \
	toolchain "$srcdir/tests/toolchain_check.sh" toolchain-checks
# 3. The same suite with a test that segfaults, one that hangs and one
#    that leaks a pinned map: each reported as such, the run finishes.
counted_stage "the suite with faulty tests (tests/faulty_check.sh)" faulty \
	"$srcdir/tests/faulty_check.sh" faulty-checks
# 4. Every benchmark briefly, its statistics unit tests, bad input.
counted_stage "bench smoke run (tests/bench_check.sh)" bench \
	"$srcdir/tests/bench_check.sh" bench-checks
# 5. prog-cost by both methods, the regression gate and its demo, bad input.
counted_stage "prog-cost and the regression gate (tests/prog_cost_check.sh)" \
	prog-cost "$srcdir/tests/prog_cost_check.sh" prog-cost-checks
# 6. vmtest: Debian's 6.1 and 6.12 in QEMU (TCG): the matrix, PANIC and
#    TIMEOUT detection, bad input.
counted_stage "vmtest (tests/vmtest_check.sh: 6.1 and 6.12 in QEMU)" vmtest \
	"$srcdir/tests/vmtest_check.sh" vmtest-checks
# 7. kselftest: make install and run_kselftest.sh, exit codes, the in-tree
#    lib.mk build, with the kernel's files from Debian's linux-source.
counted_stage "kselftest (tests/kselftest_check.sh: linux-source 6.1 and newest)" \
	kselftest "$srcdir/tests/kselftest_check.sh" kselftest-checks
# 8. The example GitHub workflow: YAML, schema, jobs, its scripts run here.
counted_stage "CI workflow (tests/workflow_check.sh: .github/workflows/vmtest.yml)" \
	workflow "$srcdir/tests/workflow_check.sh" workflow-checks
# 9. The kernel's own selftests (linux-source 6.12 and 7.2), unmodified, in
#    a scratch copy of the tree: they build and pass; RUN_TESTS' negative
#    control fails as it must.
counted_stage "the kernel's selftests (tests/kernel_tests_check.sh: 6.12 and 7.2)" \
	kernel-tests "$srcdir/tests/kernel_tests_check.sh" kernel-tests-checks
end=$(date +%s)

echo
if [ -n "$failed_stages" ]; then
	echo "check: failed stages:$failed_stages"
fi
echo "check took $((end - start)) s"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ -z "$failed_stages" ] && [ "$failed" -eq 0 ]
