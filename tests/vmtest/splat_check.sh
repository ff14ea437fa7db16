#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# Kernel splats fail a guest run, naming the splat and what was running
# (vmtest/splat.sh).  On the host: a fixture log with one splat of each
# kind is classified as tests/vmtest/splat/kinds.expect says, in the raw
# and the plain format; with tests in parallel, a splat is named after the
# test whose pid it names (tests/vmtest/splat/parallel.log); a log of
# lines that only look like splats (some the kernel's, some written to
# /dev/kmsg by a test) has none.  In
# guests: test_kmods/bpfcheck_splat, built for 6.12 and 6.1 with
# scripts/kmod-build.sh, makes the run FAIL naming the WARNING, the
# module and the step (insmod, then the command); the negative control,
# a 6.12 guest that runs a test while a process writes a WARNING-like
# line to /dev/kmsg, PASSes with no splat, and its kernel log carries
# test_progs' markers.
#
# Usage: [OUTPUT=build-dir] sh tests/vmtest/splat_check.sh
# Prints "ok N - ..." / "not ok N - ...", then
# "splat-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=splat
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

need splat "make" "$OUTPUT/test_progs"
VMTEST=$REPO/vmtest/vmtest.sh
FIX=$HERE/splat
export VMTEST_OUT="$T/vm"
# shellcheck source=../../vmtest/splat.sh
. "$REPO/vmtest/splat.sh"

# ---- the scan, on fixtures -----------------------------------------------

begin "each splat kind is classified, with its test and module"
mkdir -p "$T/raw"
run splat_scan "$FIX/kinds.log" "$T/raw"
expect_exit 0
if ! diff "$FIX/kinds.expect" "$OUT" >"$T/diff"; then
	bad "scan differs from kinds.expect:"
	sed 's/^/    /' "$T/diff" >>"$DIAG"
fi
expect_has "$T/raw/splat-1.txt" "ringbuf_fake: the message WARN() printed"
expect_has "$T/raw/splat-1.txt" "---[ end trace"
expect_no "$T/raw/splat-1.txt" "a line after the splat"
expect_has "$T/raw/splat-2.txt" "Oops: 0000 [#1]"
end_check

begin "the plain format (no <N>) gives the same splats"
splat_plain "$FIX/kinds.log" >"$T/kinds.plain"
mkdir -p "$T/plain"
run splat_scan "$T/kinds.plain" "$T/plain"
expect_exit 0
diff "$FIX/kinds.expect" "$OUT" >/dev/null || bad "plain scan differs from kinds.expect"
end_check

begin "tests in parallel: a splat names the test whose pid it names"
mkdir -p "$T/par"
run splat_scan "$FIX/parallel.log" "$T/par"
expect_exit 0
if ! diff "$FIX/parallel.expect" "$OUT" >"$T/diff"; then
	bad "scan differs from parallel.expect:"
	sed 's/^/    /' "$T/diff" >>"$DIAG"
fi
# Another test's marker inside the Oops does not cut it short.
expect_has "$T/par/splat-1.txt" "RIP: 0010:check_kfunc_call"
expect_has "$T/par/splat-1.txt" "---[ end trace"
end_check

begin "lines that only look like splats are none"
mkdir -p "$T/harmless"
run splat_scan "$FIX/harmless.log" "$T/harmless"
expect_exit 0
expect_empty "$OUT"
end_check

begin "the splats as JSON keep each text"
splat_scan "$FIX/kinds.log" "$T/raw" >"$T/kinds.tsv"
run splat_json "$T/kinds.tsv" "$T/raw"
expect_exit 0
expect_jq "$OUT" 'length == 11 and all(.[]; .text | length > 0)'
expect_jq "$OUT" '.[1] | .kind == "BUG" and .module == "fake_mod" and
	.test == "bloom_filter/guarded_lookup_stack_key"'
expect_jq "$OUT" '.[9] | .kind == "hung task" and .test == null and .during == "shutdown"'
end_check

check_rejected "--kmod takes only a .ko file" "is not a .ko file" - \
	sh "$VMTEST" -k 6.12 --kmod "$FIX/kinds.log" -- true

# ---- guests ----------------------------------------------------------------

kmod() {	# KERNEL: the module's .ko for KERNEL, or nothing
	sh "$REPO/scripts/kmod-build.sh" "$1" "$REPO/test_kmods/bpfcheck_splat" \
		2>"$T/kmod-$1.err" | head -n 1
}

KO=$(kmod 6.12)
begin "a 6.12 guest that loads bpfcheck_splat FAILs naming the WARNING"
if [ -z "$KO" ]; then
	bad "kmod-build.sh 6.12 failed: $(tail -n 2 "$T/kmod-6.12.err")"
else
	run sh "$VMTEST" -k 6.12 --kmod "$KO" --json "$T/warn.json" -- true
	expect_exit 1
	expect_match "$OUT" '^6\.12 .* FAIL .*kernel splat: WARNING in bpfcheck_splat during insmod bpfcheck_splat\.ko'
	expect_has "$OUT" "[6.12] WARNING in bpfcheck_splat during insmod bpfcheck_splat.ko: WARNING: CPU:"
	expect_jq "$T/warn.json" '.kernels[0] | .status == "FAIL" and (.splats | length == 1)'
	expect_jq "$T/warn.json" '.kernels[0].splats[0] | .kind == "WARNING" and
		.module == "bpfcheck_splat" and .test == null and
		(.text | test("bpfcheck_splat: WARNING on load, on purpose")) and
		(.text | test("bpfcheck_splat_init"))'
fi
end_check

begin "control: a clean 6.12 run, a WARNING-like line from a process, no splat"
run sh "$VMTEST" -k 6.12 --keep --json "$T/clean.json" -- sh -c \
	'echo "<4>WARNING: CPU: 0 PID: 1 at fake.c:1 f+0x0/0x1" >/dev/kmsg && suite -t bpf_stats'
expect_exit 0
expect_jq "$T/clean.json" '.kernels[0] | .status == "PASS" and .splats == []'
raw=$(find "$T/vm" -path '*/k1/results/dmesg.raw' | head -n 1)
if [ -z "$raw" ]; then
	bad "no dmesg.raw came back"
else
	expect_match "$raw" '^<13>\[ *[0-9.]*\] bpfcheck: test bpf_stats/sysctl \(pid [0-9]+\)$'
	expect_match "$raw" '^<12>\[ *[0-9.]*\] WARNING: CPU: 0 PID: 1 at fake\.c'
	expect_has "${raw%.raw}.log" "bpfcheck: test bpf_stats"
fi
rm -rf "$T/vm"
end_check

KO=$(kmod 6.1)
begin "a 6.1 guest: the WARNING on load, and one during the command"
if [ -z "$KO" ]; then
	bad "kmod-build.sh 6.1 failed: $(tail -n 2 "$T/kmod-6.1.err")"
else
	run sh "$VMTEST" -k 6.1 --kmod "$KO" --json "$T/warn61.json" -- \
		sh -c 'echo 1 >/sys/kernel/debug/bpfcheck_splat/warn'
	expect_exit 1
	expect_jq "$T/warn61.json" '[.kernels[0].splats[] | [.kind, .during]] ==
		[["WARNING", "insmod bpfcheck_splat.ko"], ["WARNING", "the command"]]'
	expect_has "$OUT" "[6.1] WARNING in bpfcheck_splat during the command: WARNING: CPU:"
fi
end_check

for p in $(our_qemus); do
	kill -KILL "$p" 2>/dev/null
done
echo "splat-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
