#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# kernel-tests/build.sh, a kernel series' selftests in one test_progs:
# four 7.2 tests (XDP test runs, a map walk, global data, a light
# skeleton) and a test of our own whose program does not build on purpose
# (tests/scripts/kernel_tests_build/).  The good ones are built and listed
# by test_progs -l; the broken one is listed as not built with its
# program's first error and blocks nothing; the link happens; a second run
# with nothing changed compiles nothing.
#
# The programs build against KERNEL_TESTS_BTF (default: scripts/kernel-btf.sh
# 7.2, else the host's BTF: the check is of the build's isolation, not
# of the series' kfuncs).
#
# Usage: [OUTPUT=build-dir] [KERNEL_TESTS_BTF=file]
#        sh tests/scripts/kernel_tests_build_check.sh
# Prints "ok N - ..." / "not ok N - ...", then
# "kernel-tests-build-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=kernel-tests-build
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

need kernel-tests-build-checks "make all" "$OUTPUT/libbpf"
VMTEST_CACHE=${VMTEST_CACHE:-$REPO/vmtest/cache}
export VMTEST_CACHE
GOOD="xdp for_each global_data map_ptr"
BROKEN=kt_build_broken

btf=${KERNEL_TESTS_BTF:-}
if [ -z "$btf" ]; then
	btf=$(sh "$REPO/scripts/kernel-btf.sh" 7.2 2>/dev/null) || btf=
	[ -n "$btf" ] || btf=/sys/kernel/btf/vmlinux
fi
dir=$T/kt

begin "build.sh 7.2 $GOOD + $BROKEN (ours, broken): exit 0, the summary line"
# shellcheck disable=SC2086 # the test names are words
run sh "$REPO/kernel-tests/build.sh" -o "$dir" -b "$btf" -a "$HERE/kernel_tests_build" \
	7.2 $GOOD $BROKEN
expect_exit 0
expect_match "$OUT" '^kernel-tests build: 7\.2: 5 tests, 4 built, 1 not built \(80\.0%\) in [0-9]+ s$'
save first
end_check

begin "the link happened: DIR/build/test_progs, -l lists the good tests only"
[ -x "$dir/build/test_progs" ] || bad "no $dir/build/test_progs"
run "$dir/build/test_progs" -l
expect_exit 0
for t in $GOOD; do
	expect_line "$OUT" "$t"
done
expect_no "$OUT" "$BROKEN"
end_check

begin "built.txt lists the good tests, not the broken one"
for t in $GOOD; do
	expect_line "$dir/built.txt" "$t"
done
expect_no "$dir/built.txt" "$BROKEN"
end_check

begin "not-built.tsv: the broken test and its program's first error, relative"
expect_nlines "$dir/not-built.tsv" 1
expect_match "$dir/not-built.tsv" \
	"^$BROKEN	progs/$BROKEN\\.c:[0-9]+:[0-9]+: error: .*kt_no_such_function"
expect_no "$dir/not-built.tsv" "$dir"
use first
expect_match "$OUT" "^ +1 (undeclared identifier|implicit declaration of) kt_no_such_function"
end_check

begin "a second run with nothing changed compiles nothing, same lists"
cp "$dir/not-built.tsv" "$T/nb1"
# shellcheck disable=SC2086
run sh "$REPO/kernel-tests/build.sh" -o "$dir" -b "$btf" -a "$HERE/kernel_tests_build" \
	7.2 $GOOD $BROKEN
expect_exit 0
for log in bpf objs link; do
	expect_no_match "$dir/build/$log.log" "^  (CLNG-BPF|CC|GEN-SKEL|BINARY) "
done
cmp -s "$T/nb1" "$dir/not-built.tsv" || bad "not-built.tsv changed on the rerun"
end_check

begin "bad usage: exit 2, one line"
run sh "$REPO/kernel-tests/build.sh" -b "$btf" 7.x
expect_exit 2
expect_nlines "$ERR" 1
expect_has "$ERR" "bad SERIES '7.x'"
end_check

echo "kernel-tests-build-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
