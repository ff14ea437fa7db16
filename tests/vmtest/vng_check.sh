#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# Checks of "vmtest.sh --vng": the suite runs inside virtme-ng (the host's
# root shared read-only over 9p, Debian's generic 6.12 kernel) and its
# matrix and JSON come back like those of vmtest's own guests; a crash is
# PANIC.  Needs vng (vmtest/vng-install.sh; "make check-vng" runs it).
#
# Usage: [OUTPUT=build-dir] sh tests/vmtest/vng_check.sh
# Prints ok/not ok lines, then "vng-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=vng
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

VMTEST=$REPO/vmtest/vmtest.sh
export VMTEST_OUT="$T/vm"

begin "the suite inside vng on 6.12-generic: a complete matrix, the JSON intact"
M=$T/vng.json
run sh "$VMTEST" --vng -k 6.12 --json "$M"
case "$RC" in 0 | 1) ;; *) bad "expected exit 0 or 1, got $RC" ;; esac
expect_jq "$M" '.runner == "vng"'
expect_jq "$M" '.kernels[0].label == "6.12-generic"'
expect_jq "$M" '.complete == true'
expect_jq "$M" '.kernels[0].results.environment.kernel_release == .kernels[0].release'
expect_jq "$M" '.kernels[0].release | test("^6\\.12\\.[0-9]+\\+deb12-amd64$")'
expect_has "$OUT" "guests started by vng"
end_check

begin "inside vng, fentry and kprobe tests PASS (the harness works on a read-only 9p root)"
expect_jq "$M" '.tests[] | select(.name == "fentry_getpgid") | .outcomes["6.12-generic"] == "PASS"'
expect_jq "$M" '.tests[] | select(.name == "syscall_count") | .subtests[] |
	select(.name == "fentry" or .name == "kprobe") | .outcomes["6.12-generic"] == "PASS"'
end_check

begin "a crash inside vng is PANIC"
run sh "$VMTEST" --vng -k 6.12 --json "$T/panic.json" -- sh -c 'echo c > /proc/sysrq-trigger'
expect_exit 1
expect_jq "$T/panic.json" '.kernels[0].status == "PANIC"'
end_check

echo "vng-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
