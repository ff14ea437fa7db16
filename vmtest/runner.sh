#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A test runner hook: run one program and its arguments in a vmtest guest
# (one kernel), print what it printed, exit with its exit code.  Other
# ecosystems' test drivers call it with the test binary first:
#
#   CARGO_TARGET_X86_64_UNKNOWN_LINUX_GNU_RUNNER=/path/to/vmtest/runner.sh cargo test
#   go test -exec /path/to/vmtest/runner.sh ./...
#   vmtest/runner.sh ./my_test --my-flag
#
# Environment:
#   VMTEST_KERNEL       the kernel (what vmtest.sh -k takes; default: the
#                       first of vmtest/kernels.conf)
#   VMTEST_RUNNER_ARGS  more vmtest.sh options, split at blanks (e.g.
#                       "--add testdata --timeout 60")
#
# The program's stdout and stderr come back together, after the guest
# stops.  When the guest gives no exit code (TIMEOUT, PANIC, BOOT_FAIL) the
# vmtest report goes to stderr and the exit code is 1; bad usage is 2.
set -u

srcdir=$(cd "$(dirname "$0")/.." && pwd)
if [ $# = 0 ]; then
	echo "vmtest runner: usage: runner.sh PROGRAM [ARG]... (see the comment at its top)" >&2
	exit 2
fi
kernel=${VMTEST_KERNEL:-$(sed -e 's/#.*//' "$srcdir/vmtest/kernels.conf" | awk 'NF { print $1; exit }')}

tmp=$(mktemp -d "${TMPDIR:-/tmp}/vmtest-runner.XXXXXX") || exit 1
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM HUP

# shellcheck disable=SC2086 # VMTEST_RUNNER_ARGS is a list of options
VMTEST_OUT=$tmp sh "$srcdir/vmtest/vmtest.sh" --keep -k "$kernel" \
	${VMTEST_RUNNER_ARGS:-} -- "$@" >"$tmp/vmtest.log" 2>&1
rc=$?
for d in "$tmp"/run.*/k1; do
	[ -f "$d/results/output.log" ] && cat "$d/results/output.log"
	case "$(cat "$d/status" 2>/dev/null)" in
	PASS | FAIL) exit "$rc" ;;
	esac
done
grep -v '^vmtest: kept ' "$tmp/vmtest.log" >&2
exit "$rc"
