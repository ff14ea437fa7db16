#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# make kernel-tests, kept small: three tests of the 7.2 series built in a
# scratch directory (kernel-tests.sh -B) and run on 6.1, 6.12, 7.2 and the
# host, with each kernel's own bpf_testmod loaded in its guest:
#   - xdp_adjust_tail (XDP test runs) passes on every kernel;
#   - ksyms_module needs bpf_testmod: it passes in the 7.2 guest, where
#     the module is loaded, and skips on the host, where it is not (the
#     control: the module is what makes it run); in the 6.12 guest, with
#     6.12's module, its libbpf subtest passes and its light skeleton
#     (7.2's, naming a symbol 6.12's module lacks) fails: DENYLIST.6.12
#     says ksyms_module/lskel, a subtest, not the test;
#   - iter_buf_null_fail (a 7.2 RUN_TESTS verifier test) passes in the 7.2
#     guest; the host refuses its iter programs (EPERM), so the host's
#     cell is red, with its log, the command that reproduces it, and a
#     line in DENYLIST.host; -D with that directory then runs the host
#     green;
#   - kt_crash (tests/vmtest/kernel_tests_crash, added with -a) panics the
#     6.12 guest: the run names it from the panic's splat, runs the rest
#     of the column again without it, and the cell is a FAIL with the
#     splat in its log and its denylist line; kt_keep_going finds the
#     guest set not to panic on an Oops, and to panic on a soft lockup.
# The table has a row per test and a column per kernel; the JSON has the
# same cells.  Bad input is refused before anything runs.
#
# Usage: [OUTPUT=build-dir] sh tests/vmtest/kernel_tests_run_check.sh
# Prints "ok N - ..." / "not ok N - ...", then
# "kernel-tests-run-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=kernel-tests-run
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

need kernel-tests-run-checks "make all" "$OUTPUT/test_progs" "$OUTPUT/libbpf"
VMTEST_CACHE=${VMTEST_CACHE:-$REPO/vmtest/cache}
export VMTEST_CACHE
export VMTEST_OUT="$T/vm"
KT=$REPO/kernel-tests/kernel-tests.sh
TESTS="xdp_adjust_tail ksyms_module iter_buf_null_fail"
RUN=$T/run
J=$RUN/kernel-tests.json

# The outcome of TEST (or TEST/SUB) on KERNEL in the run's JSON.
cell() {	# KERNEL TEST
	jq -r --arg k "$1" --arg t "${2%%/*}" --arg s "${2#*/}" '.tests[] | select(.name == $t)
		| if $s == $t then .outcomes[$k] else (.subtests[] | select(.name == $s)
		| .outcomes[$k]) end' "$J"
}

expect_cell() {	# KERNEL TEST OUTCOME
	got=$(cell "$1" "$2")
	[ "$got" = "$3" ] || bad "$2 on $1: expected $3, got ${got:-nothing}"
}

begin "7.2's $TESTS on 6.1, 6.12, 7.2 and the host: one table"
run sh "$KT" -k 6.1 -k 6.12 -k 7.2 --host -B "$T/series" -o "$RUN" -t "$TESTS" 7.2
save first
# The host's iter_buf_null_fail is red: the run says so.
expect_exit 1
expect_match "$OUT" '^  test +6\.1 +6\.12 +7\.2 +host$'
for t in $TESTS; do
	expect_match "$OUT" "^[ *] $t "
done
expect_jq "$J" '[.kernels[] | .label] == ["6.1", "6.12", "7.2", "host"]'
expect_jq "$J" '[.kernels[] | .results != null and (.status == "PASS" or .status == "FAIL")] | all'
expect_jq "$J" '.built | sort == ["iter_buf_null_fail", "ksyms_module", "xdp_adjust_tail"]'
end_check

begin "every guest loaded its own series' bpf_testmod.ko"
use first
for k in 6.1 6.12 7.2; do
	expect_match "$OUT" "^  $k: .*/linux-source-${k}_[^/]*/bpf_testmod\\.ko \\(loaded\\)"
	expect_jq "$RUN/kernels/$k.json" '.vmtest | test("--kmod .*bpf_testmod\\.ko")'
done
end_check

begin "xdp_adjust_tail passes everywhere; ksyms_module runs where bpf_testmod is"
for k in 6.1 6.12 7.2 host; do
	expect_cell "$k" xdp_adjust_tail PASS
done
expect_cell 7.2 ksyms_module PASS
expect_cell 6.12 ksyms_module/libbpf PASS
expect_cell 6.12 ksyms_module/lskel FAIL
expect_cell host ksyms_module SKIP
expect_match "$RUN/DENYLIST.6.12" '^ksyms_module/lskel  # FAIL: '
expect_no "$RUN/DENYLIST.6.12" 'ksyms_module/libbpf'
expect_no "$RUN/DENYLIST.7.2" 'ksyms_module'
end_check

begin "iter_buf_null_fail: passes in 7.2; the host's red cell has its evidence"
use first
expect_cell 7.2 iter_buf_null_fail PASS
expect_cell host iter_buf_null_fail FAIL
expect_match "$OUT" '^  \[host\] iter_buf_null_fail[^:]*: .*/test_progs -t iter_buf_null_fail'
[ -s "$RUN/failures/host/iter_buf_null_fail.log" ] ||
	bad "no log at failures/host/iter_buf_null_fail.log"
expect_match "$RUN/DENYLIST.host" '^iter_buf_null_fail(/[a-z_]+)? +# FAIL'
expect_no "$RUN/DENYLIST.host" 'xdp_adjust_tail'
expect_no "$RUN/DENYLIST.7.2" 'iter_buf_null_fail'
end_check

begin "-D with the run's denylists: the host runs green"
run sh "$KT" --host -B "$T/series" -o "$T/again" -D "$RUN" -t "$TESTS" 7.2
expect_exit 0
J=$T/again/kernel-tests.json
expect_cell host xdp_adjust_tail PASS
expect_jq "$J" '.failures == [] and .kernels[0].status == "PASS"'
J=$RUN/kernel-tests.json
end_check

begin "a test that panics 6.12 costs its cell, not the column"
# tests/vmtest/kernel_tests_crash: kt_crash writes "c" to sysrq-trigger.
run sh "$KT" -k 6.12 -B "$T/series" -a "$HERE/kernel_tests_crash" -o "$T/crash" \
	-t "xdp_adjust_tail kt_crash kt_keep_going" 7.2
expect_exit 1
expect_match "$ERR" '^kernel-tests: 6\.12: PANIC in kt_crash after [0-9.]+ s; running the rest'
# The control: the crashed run itself lost the whole column.
expect_jq "$T/crash/logs/6.12.crash1.json" '.kernels[0] | .status == "PANIC" and .results == null'
J=$T/crash/kernel-tests.json
expect_cell 6.12 xdp_adjust_tail PASS
expect_cell 6.12 kt_crash FAIL
# The guest does not panic on an Oops; it does on a soft lockup.
expect_cell 6.12 kt_keep_going PASS
expect_jq "$T/crash/kernels/6.12.json" '.kernels[0] | .status == "FAIL" and
	any(.splats[]; .kind == "panic" and .test == "kt_crash")'
expect_match "$T/crash/DENYLIST.6.12" '^kt_crash  # FAIL: the kernel crashed in this test'
expect_no "$T/crash/DENYLIST.6.12" 'xdp_adjust_tail'
expect_has "$T/crash/failures/6.12/kt_crash.log" "Kernel panic - not syncing: sysrq triggered crash"
J=$RUN/kernel-tests.json
end_check

check_rejected "a bad SERIES is refused" "bad SERIES 'seven'" - sh "$KT" --host seven
check_rejected "a bad --shard is refused" "bad --shard '3/2'" - sh "$KT" --host --shard 3/2 7.2
check_rejected "-a without prog_tests/ is refused" "has no prog_tests/" - \
	sh "$KT" --host -a "$T" 7.2
check_rejected "-D that is not a directory is refused" "-D '$T/none' is not a directory" - \
	sh "$KT" --host -D "$T/none" 7.2
check_rejected "merge of a directory that is no run is refused" "is not a kernel-tests run" - \
	sh "$KT" merge -o "$T/m" "$T"

for p in $(our_qemus); do
	kill -KILL "$p" 2>/dev/null
done
echo "kernel-tests-run-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
