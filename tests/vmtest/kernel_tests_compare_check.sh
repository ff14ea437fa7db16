#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# make kernel-tests REFERENCE=kernel, kept small: bpfcheck's verdicts
# against the kernel's own test_progs (kernel-tests/compare.sh), built by
# its own Makefile from linux-source-7.2 for a few tests
# (kernel-tests/reference.sh -t), both runners in one 7.2 guest:
#   - RUN_TESTS suites of 7.2's prog_tests/verifier.c that expect
#     translated (__xlated) and JITed (__jited) instructions, __caps_unpriv
#     and unprivileged runs, a light skeleton (map_ptr) and XDP attaching
#     (xdp_attach): every verdict, test and subtest, agrees;
#   - the control: the kernel's runner is given a broken test_xdp.bpf.o
#     (--ref-add), so its xdp_attach fails where bpfcheck's passes: that
#     disagreement, and no other, is named, with both runners' logs, and
#     the run exits 1.
# Before any guest: verdicts.awk reads the kernel's runner's result lines
# (the first verdict of a name counts, "OK (SKIP: n/m)" is OK), and bad
# input is refused.
#
# Usage: [OUTPUT=build-dir] sh tests/vmtest/kernel_tests_compare_check.sh
# Prints "ok N - ..." / "not ok N - ...", then
# "kernel-tests-compare-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=kernel-tests-compare
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

need kernel-tests-compare-checks "make all" "$OUTPUT/test_progs" "$OUTPUT/libbpf"
VMTEST_CACHE=${VMTEST_CACHE:-$REPO/vmtest/cache}
export VMTEST_CACHE
export VMTEST_OUT="$T/vm"
CMP=$REPO/kernel-tests/compare.sh
# The test files built by both, and the suites of verifier.c run: __xlated
# (verifier_sdiv, verifier_movsx, verifier_bpf_fastcall), __jited
# (verifier_jit_convergence, verifier_jit_inline, verifier_private_stack),
# unprivileged runs with __caps_unpriv (verifier_and, verifier_unpriv).
FILES="verifier xdp_attach map_ptr"
NAMES="verifier_sdiv verifier_movsx verifier_bpf_fastcall verifier_jit_convergence
verifier_jit_inline verifier_private_stack verifier_and verifier_unpriv map_ptr xdp_attach"
RUN=$T/cmp

begin "verdicts.awk: each name's first verdict; OK (SKIP: n/m) is OK; the error logs are not read"
cat >"$T/kernel.out" <<'EOF'
#1/1     alpha/one:OK
#1/2     alpha/two:SKIP
#1       alpha:OK (SKIP: 1/2)
#2       beta:FAIL
#3/1     gamma/x y:FAIL
#3       gamma:FAIL
test_progs: a line that is no verdict:OK but says so
#4       delta:SKIP

All error logs:
#2       beta:OK
#5       epsilon:OK
EOF
run awk -f "$REPO/kernel-tests/verdicts.awk" "$T/kernel.out"
expect_exit 0
printf 'alpha/one\tOK\nalpha/two\tSKIP\nalpha\tOK\nbeta\tFAIL\ngamma/x y\tFAIL\ngamma\tFAIL\ndelta\tSKIP\n' \
	>"$T/want"
cmp -s "$OUT" "$T/want" || bad "expected:" "$(cat "$T/want")" "got:" "$(cat "$OUT")"
end_check

check_rejected "a bad SERIES is refused" "bad SERIES 'seven'" - sh "$CMP" seven
check_rejected "a bad -j is refused" "bad count 'x'" - sh "$CMP" -j x 7.2
check_rejected "--ref-add that is not a directory is refused" "bad --ref-add '$T/none'" - \
	sh "$CMP" --ref-add "$T/none" 7.2
echo '{"kernels": []}' >"$T/empty.json"
: >"$T/nothing.json"
check_rejected "programs.sh: an empty file is refused" \
	"'$T/nothing.json' is not a kernel-tests JSON" - \
	sh "$REPO/kernel-tests/programs.sh" "$T/nothing.json"
check_rejected "programs.sh: a bad -t REGEX is refused" "bad -t '(': a jq regular expression" - \
	sh "$REPO/kernel-tests/programs.sh" -t "(" "$T/empty.json"

# The control's broken object: the kernel's runner opens ./test_xdp.bpf.o.
mkdir -p "$T/broken"
echo "not an ELF object" >"$T/broken/test_xdp.bpf.o"

begin "7.2: the kernel's test_progs and bpfcheck's in one 7.2 guest; one disagreement, the control"
run sh "$CMP" -k 7.2 -B "$T/series" -o "$RUN" -t "$FILES" -a "$NAMES" \
	--ref-add "$T/broken" 7.2
save first
expect_exit 1
expect_match "$OUT" '^disagreements: [1-9][0-9]* of [0-9]+ verdicts$'
expect_match "$OUT" '^7\.2: [0-9]+ verdicts compared, [1-9][0-9]* disagree; .*wall: kernel [0-9.]+ s, bpfcheck [0-9.]+ s'
# Every disagreement is the control's test (or one of its subtests).
awk -F '\t' '$2 != $3 { print $1 }' "$RUN/7.2.verdicts.tsv" >"$T/differ"
expect_match "$T/differ" '^xdp_attach$'
grep -v -E '^xdp_attach(/|$)' "$T/differ" >"$T/others"
expect_empty "$T/others"
expect_jq "$RUN/7.2.record.json" '.kernels[0].results.results[] | select(.name == "xdp_attach")
	| .outcome == "PASS"'
expect_match "$RUN/7.2.kernel.tsv" '^xdp_attach	FAIL$'
end_check

begin "the disagreement's file holds both runners' logs of it"
use first
f=$RUN/disagreements/7.2.xdp_attach.log
expect_match "$OUT" "^    both logs: $f\$"
expect_has "$f" "== xdp_attach on 7.2: the kernel's runner"
expect_has "$f" "== xdp_attach on 7.2: bpfcheck"
expect_match "$f" 'xdp_attach:FAIL'
end_check

begin "everything else agrees, subtest by subtest: __xlated, __jited, unprivileged runs"
for t in $NAMES; do
	[ "$t" = xdp_attach ] && continue
	expect_match "$RUN/7.2.verdicts.tsv" "^$t	(OK	OK|SKIP	SKIP)\$"
done
# Programs with __xlated and __jited expectations, run (not skipped) and
# passed by both: LLVM's library came into the guest with bpfcheck's.
for p in "verifier_sdiv/SDIV64, overflow r/r, LLONG_MIN/-1" \
	"verifier_jit_convergence/bpf_jit_convergence je <-> jmp" \
	verifier_jit_inline/inline_bpf_get_current_task; do
	grep -q -x -F "$p	OK	OK" "$RUN/7.2.verdicts.tsv" || bad "$p: not OK in both"
done
n=$(grep -c '/' "$RUN/7.2.verdicts.tsv")
[ "$n" -ge 100 ] || bad "only $n subtest verdicts compared (expected 100 or more)"
grep -q ' @unpriv	' "$RUN/7.2.verdicts.tsv" || bad "no unprivileged run compared"
end_check

# (After the run: with the tree fetched, the refusal is the only line.)
check_rejected "reference.sh: a test the series lacks is refused" "bad test 'no_such_test'" - \
	sh "$REPO/kernel-tests/reference.sh" -t no_such_test 7.2

for p in $(our_qemus); do
	kill -KILL "$p" 2>/dev/null
done
echo "kernel-tests-compare-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
