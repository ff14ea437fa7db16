#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# Black-box checks of vmtest (vmtest/vmtest.sh): it boots the Debian 6.1 and
# 6.12 kernels in QEMU and checks that
#   - bad input (unknown alias, missing image, bad option) fails at once
#     with one clear line and exit 2, before anything boots;
#   - the matrix of the whole suite on 6.1, 6.12 and 7.2 (what "make vmtest"
#     runs) is complete and green: no FAIL, every SKIP with a reason; the guests'
#     test_progs JSON comes back intact, and the text and Markdown
#     renderings hold the matrix;
#   - tests that SKIP on the host for lack of fentry or kprobes PASS in 6.12;
#   - a command that crashes the guest is reported PANIC within seconds;
#   - a command that hangs is reported TIMEOUT soon after --timeout;
#   - an interrupted run (Ctrl-C, SIGTERM) leaves no QEMU behind.
#
# Usage: [OUTPUT=build-dir] sh tests/vmtest/vmtest_check.sh   ("make check-vmtest")
# Needs build/test_progs and the vm packages (make deps); downloads the two
# kernels into vmtest/cache on first use.  Prints "ok N - ..." /
# "not ok N - ..." per check, then "vmtest-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=vmtest
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

VMTEST=$REPO/vmtest/vmtest.sh
# Every vmtest run of these checks works under $T/vm: a QEMU of ours is
# one whose command line names it.
export VMTEST_OUT="$T/vm"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }
less_than() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

expect_nothing_booted() {
	expect_no "$ERR" "booting"
	[ -z "$(ls -A "$T/vm" 2>/dev/null)" ] ||
		bad "expected no work directory left in $T/vm, got: $(ls -A "$T/vm")"
}

t_start=$(now)

# ---- bad input ------------------------------------------------------------

begin "an unknown kernel alias fails before anything boots (exit 2, one line)"
t0=$(now)
run sh "$VMTEST" -k 6.1 -k 9.99 -- true
expect_exit 2
expect_has "$ERR" "unknown kernel alias '9.99'"
expect_count "$ERR" "^vmtest: unknown kernel alias" 1
expect_nothing_booted
less_than "$(secs "$t0")" 60 || bad "took $(secs "$t0") s"
end_check

begin "a missing kernel image path fails before anything boots (exit 2)"
run sh "$VMTEST" -k 6.1 -k /nonexistent/bzImage -- true
expect_exit 2
expect_has "$ERR" "kernel image '/nonexistent/bzImage' does not exist"
expect_nothing_booted
end_check

begin "a file that is not a bzImage is refused (exit 2)"
echo "not a kernel" >"$T/vmlinuz-fake"
run sh "$VMTEST" -k "$T/vmlinuz-fake" -- true
expect_exit 2
expect_has "$ERR" "is not an x86 bzImage"
expect_nothing_booted
end_check

begin "bad options fail with exit 2: -j 0, --timeout x, --modules before -k"
run sh "$VMTEST" -j 0 -k 6.1
expect_exit 2
expect_has "$ERR" "-j needs a positive integer, not '0'"
run sh "$VMTEST" --timeout x -k 6.1
expect_exit 2
expect_has "$ERR" "--timeout needs a positive integer"
run sh "$VMTEST" --modules /tmp -k 6.1
expect_exit 2
expect_has "$ERR" "--modules DIR goes after the -k"
expect_nothing_booted
end_check

# ---- the matrix: the whole suite on every kernel of "make vmtest" ----------

M=$T/matrix.json
t0=$(now)
run sh "$VMTEST" -k 6.1 -k 6.12 -k 7.2 -j 2 --json "$M"
matrix_secs=$(secs "$t0")
save matrix

begin "the suite on 6.1, 6.12 and 7.2: a complete matrix ($matrix_secs s)"
use matrix
expect_jq "$M" '.kernels | map(.label) == ["6.1", "6.12", "7.2"]'
expect_jq "$M" '.complete == true'
expect_jq "$M" '(.tests | length) > 0 and
	([.tests[] | ., .subtests[] | .outcomes | keys] | all(. == ["6.1", "6.12", "7.2"]))'
expect_jq "$M" '.accelerator == "kvm" or .accelerator == "tcg"'
expect_has "$ERR" "vmtest: accelerator:"
end_check

# The matrix "make vmtest" shows must be green: every test of the suite
# (no selection) passes or skips with a reason on every kernel.
begin "the matrix is green: no FAIL cell, every kernel PASS, exit 0"
use matrix
expect_exit 0
expect_jq "$M" '[.kernels[].status] | all(. == "PASS")'
expect_jq "$M" '[.tests[] | ., .subtests[] | .outcomes[]] | all(. == "PASS" or . == "SKIP")'
expect_jq "$M" '(.failures | length) == 0'
expect_jq "$M" 'all(.kernels[]; (.results.results | length) ==
	([.results.results[] | select(.outcome != null)] | length))'
end_check

begin "every SKIP in the guests says why"
expect_jq "$M" '[.kernels[].results.results[] | (., .subtests[]) |
	select(.outcome == "SKIP" and ((.skip_reason // "") == ""))] | length == 0'
end_check

begin "each guest's test_progs JSON comes back intact, from that kernel"
expect_jq "$M" 'all(.kernels[]; .results.environment.kernel_release == .release)'
# The kernel's counts: every test that ran either succeeded or failed.
expect_jq "$M" 'all(.kernels[]; (.results.results | length) ==
	(.results.success + .results.failed))'
expect_jq "$M" 'all(.kernels[]; .exit_code != null and .seconds > 0)'
end_check

begin "the text matrix: a status line per kernel, a row per test, complete"
use matrix
expect_match "$OUT" '^6\.1 +6\.1\.0-[0-9]+-cloud-amd64 +(PASS|FAIL) '
expect_match "$OUT" '^6\.12 +6\.12\.[0-9]+\+deb12-cloud-amd64 +(PASS|FAIL) '
expect_match "$OUT" '^7\.2 +7\.2\.[0-9]+\+deb[0-9]+-cloud-amd64 +(PASS|FAIL) '
expect_match "$OUT" '^  test +6\.1 +6\.12 +7\.2$'
expect_match "$OUT" '^[ *] ringbuf +PASS +PASS +PASS$'
expect_has "$OUT" "matrix: complete, "
end_check

begin "the Markdown matrix of the same run"
run sh "$REPO/vmtest/matrix.sh" markdown "$M"
expect_exit 0
expect_line "$OUT" "| test | 6.1 | 6.12 | 7.2 |"
expect_match "$OUT" '^\| ringbuf \| PASS \| PASS \| PASS \|$'
expect_match "$OUT" '^\| 6\.12 \| 6\.12\.[0-9]+\+deb12-cloud-amd64 \| \*\*(PASS|FAIL)\*\* \|'
end_check

# What the host kernel cannot run (DESIGN.md: no fentry, no kprobes).
H=$T/host.json
"$OUTPUT/test_progs" -t fentry_getpgid,syscall_count -J "$H" >/dev/null 2>&1
host_of() {	# TEST [SUBTEST]
	jq -r --arg t "$1" --arg s "${2:-}" '.results[] | select(.name == $t) |
		if $s == "" then .outcome
		else (.subtests[] | select(.name == $s) | .outcome) end' "$H" 2>/dev/null
}
for ts in fentry_getpgid syscall_count/fentry syscall_count/kprobe; do
	t=${ts%%/*} s=
	[ "$t" = "$ts" ] || s=${ts#*/}
	h=$(host_of "$t" "$s")
	begin "$ts PASSes in 6.12 (on this host: ${h:-not run})"
	if [ -z "$s" ]; then
		expect_jq "$M" ".tests[] | select(.name == \"$t\") | .outcomes[\"6.12\"] == \"PASS\""
	else
		expect_jq "$M" ".tests[] | select(.name == \"$t\") | .subtests[] |
			select(.name == \"$s\") | .outcomes[\"6.12\"] == \"PASS\""
	fi
	end_check
done

# ---- crashes, hangs, interruptions ------------------------------------------

# How long these take is the boot's wall time under TCG, which a loaded
# machine stretches (10 s quiet, 30 s and more beside other guests).  The
# bounds only tell "noticed at once" from "noticed by a limit": 120 s is
# half of TCG's default command timeout (240 s), a fifth of the hang's
# sleep 600.

begin "a command that crashes the guest is PANIC within seconds"
t0=$(now)
run sh "$VMTEST" -k 6.12 --json "$T/panic.json" -- sh -c 'echo c > /proc/sysrq-trigger'
took=$(secs "$t0")
expect_exit 1
expect_jq "$T/panic.json" '.kernels[0].status == "PANIC"'
expect_jq "$T/panic.json" '.kernels[0].seconds < 120'
expect_match "$OUT" '^6\.12 .* PANIC .*(sysrq|Kernel panic)'
less_than "$took" 150 || bad "the whole run took $took s"
end_check

begin "a command that hangs is TIMEOUT soon after --timeout (--json through a symlink)"
mkdir -p "$T/art"
ln -s art/timeout.json "$T/timeout.json"
t0=$(now)
run sh "$VMTEST" -k 6.1 --timeout 3 --json "$T/timeout.json" -- sleep 600
took=$(secs "$t0")
expect_exit 1
# --json follows a symlink, never replaces it (scripts/publish.sh).
[ -L "$T/timeout.json" ] || bad "--json replaced the symlink $T/timeout.json"
expect_jq "$T/timeout.json" '.kernels[0].status == "TIMEOUT"'
expect_jq "$T/timeout.json" '.kernels[0].seconds < 120'
expect_match "$OUT" '^6\.1 .* TIMEOUT .*longer than 3 s'
less_than "$took" 150 || bad "the whole run took $took s"
end_check

# Ctrl-C: SIGINT to the whole foreground process group.  A background job of
# a script starts with SIGINT ignored; perl (essential in Debian) restores
# the default, as a terminal's foreground job has it.
interrupt_check() {	# SIGNAL WHOM
	setsid perl -e '$SIG{INT} = "DEFAULT"; exec @ARGV' \
		sh "$VMTEST" -k 6.1 -k 6.12 -- sleep 300 >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	wait_our_qemu
	sleep 1
	if [ "$2" = group ]; then
		/bin/kill -s "$1" -- "-$pid"
	else
		/bin/kill -s "$1" "$pid"
	fi
	if ! wait_gone "$pid" 15; then
		bad "vmtest still runs 15 s after SIG$1"
		kill -KILL "$pid" 2>/dev/null
	fi
	wait "$pid"
	RC=$?
	left=$(our_qemus)
	[ -z "$left" ] || bad "QEMU left behind: pids $left"
	expect_has "$ERR" "interrupted"
	expect_nothing_booted_dir
}
expect_nothing_booted_dir() {
	[ -z "$(ls -A "$T/vm" 2>/dev/null)" ] ||
		bad "expected the work directory removed, got: $(ls -A "$T/vm")"
}

begin "Ctrl-C (SIGINT to the process group) leaves no QEMU behind"
CMD="vmtest.sh -k 6.1 -k 6.12 -- sleep 300, then SIGINT to its group"
interrupt_check INT group
expect_exit 130
end_check

begin "SIGTERM to vmtest alone leaves no QEMU behind"
CMD="vmtest.sh -k 6.1 -k 6.12 -- sleep 300, then SIGTERM to it"
interrupt_check TERM driver
expect_exit 130
end_check

# A leftover from a failed check must not outlive the checks.
for p in $(our_qemus); do
	kill -KILL "$p" 2>/dev/null
done

echo "vmtest checks took $(secs "$t_start") s (the 6.1 + 6.12 + 7.2 matrix: $matrix_secs s)"
echo "vmtest-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
