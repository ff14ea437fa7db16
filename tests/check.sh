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

# Adds the counts of a stage's log, which ends with "<LABEL>: P passed,
# F failed".  Usage: count_log NAME LABEL
count_log() {
	log="$OUTPUT/check-$1.log"
	line=$(grep -E "^$2: [0-9]+ passed, [0-9]+ failed" "$log" | tail -n1)
	if [ -z "$line" ]; then
		echo "check: $1 printed no summary line"
		failed=$((failed + 1))
		stage_failed "$1"
		return
	fi
	p=$(echo "$line" | sed -E 's/.* ([0-9]+) passed.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed.*/\1/')
	passed=$((passed + p))
	failed=$((failed + f))
	[ "$f" -eq 0 ] || stage_failed "$1"
}

# Run a script that ends with "<label>: P passed, F failed" and add its
# counts.  Usage: counted_stage TITLE NAME SCRIPT LABEL
counted_stage() {
	stage "$1"
	t0=$(date +%s)
	sh "$3" 2>&1 | tee "$OUTPUT/check-$2.log"
	# Where the time goes: CI's limit is for the whole of make check.
	echo "check: stage $2 took $(($(date +%s) - t0)) s"
	count_log "$2" "$4"
}

# ---- the background lane ----------------------------------------------------
# Most stages keep one core busy most of the time (a TCG guest is one
# thread, and most checks boot one guest at a time); the host's builds
# run beside them in a second lane at the lowest priority, their output
# kept in their logs and shown, counted, when the lane is joined.  The
# lane first builds the series' bpf_testmod for each kernel, which the
# guests' stages then find cached (scripts/testmod-build.sh locks its
# cache meanwhile).
BG_LIST=$OUTPUT/check-background.list

background_stage() {	# TITLE NAME SCRIPT LABEL
	printf '%s\t%s\t%s\t%s\n' "$@" >>"$BG_LIST"
}

start_background_lane() {
	echo
	echo "check: in the background: the bpf_testmod builds, then$(cut -f 2 "$BG_LIST" |
		tr '\n' ' ' | sed 's/^/ /; s/ $//')"
	# Niced: a stage of the main lane that measures time (bench, prog-cost,
	# the gate) keeps its core; the lane takes what the other leaves idle.
	nice -n 19 sh "$srcdir/tests/check_background.sh" "$BG_LIST" </dev/null \
		>"$OUTPUT/check-background.log" 2>&1 &
	bg_pid=$!
}

join_background_lane() {
	wait "$bg_pid"
	while IFS='	' read -r title name _ label; do
		stage "$title"
		cat "$OUTPUT/check-$name.log"
		echo "check: stage $name took $(cat "$OUTPUT/check-$name.took" 2>/dev/null || echo '?') s (background)"
		count_log "$name" "$label"
	done <"$BG_LIST"
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
rm -f "$BG_LIST"
# The background lane's stages (run niced beside the guests' stages, 6. on).
# kselftest: make install and run_kselftest.sh, exit codes, the in-tree
# lib.mk build, with the kernel's files from Debian's linux-source.
background_stage "kselftest (tests/scripts/kselftest_check.sh: linux-source 6.1 and newest)" \
	kselftest "$srcdir/tests/scripts/kselftest_check.sh" kselftest-checks
# The kernel's own selftests (linux-source 6.12 and 7.2), unmodified, in a
# scratch copy of the tree: they build and pass; RUN_TESTS' negative
# control fails as it must.
background_stage "the kernel's selftests (tests/scripts/kernel_tests_check.sh: 6.12 and 7.2)" \
	kernel-tests "$srcdir/tests/scripts/kernel_tests_check.sh" kernel-tests-checks
# A series' selftests in one test_progs (kernel-tests/build.sh): a test
# that does not build is listed with its first error, the rest link.
background_stage "a series' selftests built together (tests/scripts/kernel_tests_build_check.sh)" \
	kernel-tests-build "$srcdir/tests/scripts/kernel_tests_build_check.sh" \
	kernel-tests-build-checks
# The kernel's own test_progs (a few 7.2 tests, built by its Makefile)
# and bpfcheck's in one 7.2 guest: the same verdicts, and a broken object
# given to the kernel's runner is the one disagreement named.
background_stage "bpfcheck against the kernel's runner (tests/vmtest/kernel_tests_compare_check.sh)" \
	kernel-tests-compare "$srcdir/tests/vmtest/kernel_tests_compare_check.sh" \
	kernel-tests-compare-checks
# Lint: checkpatch, shellcheck, 100 columns, no file over 450 lines over
# the tree, and the controls showing each check can fail.
background_stage "lint (tests/scripts/lint_check.sh: checkpatch, shellcheck, lengths)" lint \
	"$srcdir/tests/scripts/lint_check.sh" lint-checks

# 0. The shape of the tree: no include cycle, the folder arrows, make help.
counted_stage "layers (tests/scripts/layers_check.sh: include graph, folder arrows)" layers \
	"$srcdir/tests/scripts/layers_check.sh" layers-checks
# 1. The harness's own black-box tests (fixture runner under ASan/UBSan).
counted_stage "harness self-tests (tests/harness/run.sh, ASan+UBSan)" self-tests \
	"$srcdir/tests/harness/run.sh" self-tests
# 1b. The kernel's test_progs options and JSON, libbpf/ci's command line.
counted_stage "kernel test_progs command line (tests/harness/kernel_cli_check.sh)" \
	kernel-cli "$srcdir/tests/harness/kernel_cli_check.sh" kernel-cli-checks
# 2. The full suite on the host kernel.
run_suite
# 2b. The toolchains: the default build's libbpf and clang, and the suite
#     built with LIBBPF=system CLANG=clang-14 (a test needing a newer
#     libbpf is left out with its reason), the "requires" marker.
counted_stage "toolchains (tests/scripts/toolchain_check.sh: default and LIBBPF=system builds)" \
	toolchain "$srcdir/tests/scripts/toolchain_check.sh" toolchain-checks
# 3. The same suite with a test that segfaults, one that hangs and one
#    that leaks a pinned map: each reported as such, the run finishes.
counted_stage "the suite with faulty tests (tests/harness/faulty_check.sh)" faulty \
	"$srcdir/tests/harness/faulty_check.sh" faulty-checks
# 4. Every benchmark briefly, its statistics unit tests, bad input.
counted_stage "bench smoke run (tests/bench/bench_check.sh)" bench \
	"$srcdir/tests/bench/bench_check.sh" bench-checks
# 5. prog-cost by both methods, the regression gate and its demo, bad input.
counted_stage "prog-cost and the regression gate (tests/bench/prog_cost_check.sh)" \
	prog-cost "$srcdir/tests/bench/prog_cost_check.sh" prog-cost-checks
# 5a. The verifier's figures: veristat agrees, the one-branch gate, a guest.
counted_stage "verifier cost and its gate (tests/bench/verifier_cost_check.sh)" \
	verifier-cost "$srcdir/tests/bench/verifier_cost_check.sh" verifier-cost-checks
# 5a. bench history: thresholds over a window, the drift check, the
#     store's trust (concurrent writers, refusals, a full disk), bad input.
counted_stage "bench history (tests/bench/history_check.sh)" history \
	"$srcdir/tests/bench/history_check.sh" history-checks
# 5b. Outputs that never destroy, no false FAIL/PASS, outputs consumers
#     accept (junitparser, junit-10.xsd rules, kunit.py parse).
counted_stage "trust in the outputs (tests/harness/trust_check.sh)" trust \
	"$srcdir/tests/harness/trust_check.sh" trust-checks
# From here on the guests' stages, with the background lane beside them:
# not before, where the suite's leak checks (the suite, faulty, trust)
# would count the BPF objects, netns and interfaces of the lane's tests on
# the host as theirs.
start_background_lane
# 6. vmtest: Debian's 6.1, 6.12 and 7.2 in QEMU (TCG): the whole suite's
#    matrix, green (it is "make vmtest"), PANIC and
#    TIMEOUT detection, bad input.
counted_stage "vmtest (tests/vmtest/vmtest_check.sh: the suite on 6.1, 6.12, 7.2 in QEMU)" \
	vmtest "$srcdir/tests/vmtest/vmtest_check.sh" vmtest-checks
# 6a. The guest userland (vmtest/userland.conf) as a contract: ip netns, tc,
#     readelf, libgcc_s and the rest work in 6.12; a guest without them fails.
counted_stage "the guest userland (tests/vmtest/userland_check.sh: 6.12)" userland \
	"$srcdir/tests/vmtest/userland_check.sh" userland-checks
# 6a''. Kernel splats: a WARNING from bpfcheck's own test module (built
#     against Debian's headers) fails the guest's run and is named; a clean
#     run and look-alike lines are not splats.
counted_stage "kernel splats (tests/vmtest/splat_check.sh: 6.1 and 6.12)" splat \
	"$srcdir/tests/vmtest/splat_check.sh" splat-checks
# 6a'''. The series' bpf_testmod for Debian's kernels (built against their
#     headers, with split BTF and resolved BTF ids): its BTF shows in 6.1
#     and 6.12 guests; the same module without BTF fails the check.
counted_stage "bpf_testmod (tests/vmtest/testmod_check.sh: 6.1 and 6.12)" testmod \
	"$srcdir/tests/vmtest/testmod_check.sh" testmod-checks
# 6a'. vmtest's cache under faults (a tmpfs): a full disk, an unreachable
#     mirror, a damaged cached kernel each name their cause; the next run
#     with the cause gone passes.
counted_stage "vmtest under faults (tests/vmtest/faults_check.sh: full disk, mirror, cache)" \
	vmtest-faults "$srcdir/tests/vmtest/faults_check.sh" vmtest-faults-checks
# 6b. Bring your own program: host commands and a user's binary with its
#     own library in the guests, runner.sh as go test -exec, and
#     examples/pktclass's README CI block and cost gate.
counted_stage "bring your own program (tests/vmtest/vmtest_byo_check.sh: 6.1 and 6.12)" byo \
	"$srcdir/tests/vmtest/vmtest_byo_check.sh" byo-checks
# 6c. vmtest --bench --icount: a short benchmark matrix on 6.12 (twice) and
#     6.1 counted in guest instructions: the tables, the gate's verdicts,
#     determinism across boots; the sweep's regimes.
counted_stage "vmtest --bench --icount (tests/vmtest/vmtest_bench_check.sh: 6.12 and 6.1)" \
	vmtest-bench "$srcdir/tests/vmtest/vmtest_bench_check.sh" vmtest-bench-checks
# 8. The example GitHub workflow: YAML, schema, jobs, its scripts run here.
counted_stage "CI workflow (tests/scripts/workflow_check.sh: .github/workflows/vmtest.yml)" \
	workflow "$srcdir/tests/scripts/workflow_check.sh" workflow-checks
# 9. Bad input to every tool: exit code, one line naming the value,
#    nothing left behind; Documentation/bad-inputs.md is its table.
counted_stage "bad input (tests/scripts/bad_inputs.sh: test_progs, bench, vmtest, scripts)" \
	bad-inputs "$srcdir/tests/scripts/bad_inputs.sh" bad-input-checks
# 10. What people expect of a tool: signals, --version, completion,
#     man pages, progress, the sweep's plot.
counted_stage "tool conventions (tests/scripts/ux_check.sh)" ux "$srcdir/tests/scripts/ux_check.sh" ux-checks
# 13. make kernel-tests, small: three 7.2 tests on 6.1, 6.12, 7.2 (each
#    with its bpf_testmod) and the host, one table, a red cell's evidence,
#    its denylist fed back green.
counted_stage "a series' selftests on every kernel (tests/vmtest/kernel_tests_run_check.sh)" \
	kernel-tests-run "$srcdir/tests/vmtest/kernel_tests_run_check.sh" kernel-tests-run-checks
join_background_lane
end=$(date +%s)

echo
if [ -n "$failed_stages" ]; then
	echo "check: failed stages:$failed_stages"
fi
echo "check took $((end - start)) s"
echo "check: $passed passed, $failed failed, $skipped skipped"
[ -z "$failed_stages" ] && [ "$failed" -eq 0 ]
