#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vmtest's overhead: the wall time of "vmtest.sh -k KERNEL -- COMMAND"
# against a bare boot of the same kernel and initramfs (QEMU started
# directly with vmtest's command line, nothing else), in turns, so that
# both see the same load.  Prints one line per run and the means.
#
# Usage: vmtest/bare-boot.sh [-k KERNEL] [-n RUNS] [-- COMMAND [ARG]...]
#   -k KERNEL   what vmtest.sh -k takes (default 6.12); cached first
#   -n RUNS     runs of each (default 5)
#   COMMAND     default: true
# Exit 0 when every run of both finished (whatever the ratio), 1 if one
# did not, 2 on bad usage.
set -u

VT_SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=lib.sh
. "$VT_SRCDIR/vmtest/lib.sh"
# shellcheck source=qemu.sh
. "$VT_SRCDIR/vmtest/qemu.sh"

kernel=6.12
runs=5
while [ $# -gt 0 ]; do
	case "$1" in
	-k) [ $# -ge 2 ] || vt_usage_die "-k needs a KERNEL"; kernel=$2; shift 2 ;;
	-n)
		case "${2:-}" in
		"" | *[!0-9]* | 0*) vt_usage_die "-n needs a positive number of runs, not '${2:-}'" ;;
		esac
		runs=$2
		shift 2
		;;
	--) shift; break ;;
	*) vt_usage_die "unknown option '$1' (usage: bare-boot.sh [-k KERNEL] [-n RUNS] [-- COMMAND...])" ;;
	esac
done
[ $# -gt 0 ] || set -- true

T=$(mktemp -d "${TMPDIR:-/tmp}/bare-boot.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 130' INT TERM HUP
export VMTEST_OUT="$T/vm"

# One run with --keep: the kernel is cached, and its initramfs is kept
# for the bare boots.
sh "$VT_SRCDIR/vmtest/vmtest.sh" --keep -k "$kernel" -- "$@" >"$T/first.out" 2>&1
work=$(ls -d "$T"/vm/run.* 2>/dev/null | head -n 1)
if [ -z "$work" ] || [ ! -f "$work/k1/initrd" ]; then
	cat "$T/first.out" >&2
	vt_die "the first vmtest run left no initramfs"
fi
# shellcheck disable=SC1091
. "$work/k1/kernel.env"
accel=$(jq -r .accelerator "$work/matrix.json")

vmtest_run() {
	t0=$(vt_now)
	sh "$VT_SRCDIR/vmtest/vmtest.sh" -k "$kernel" -- "$@" >"$T/run.out" 2>&1
	rc=$?
	vt_elapsed "$t0"
	[ "$rc" = 0 ] || grep -Eq " (PASS|FAIL) " "$T/run.out"
}

# QEMU with the same kernel, initramfs and command line, and nothing else:
# no resolving, no packing, no result parsing.
bare_run() {
	mkdir -p "$T/bare"
	vm_boot "$T/bare" "$accel" "$K_IMAGE" "$work/k1/initrd" 600
	cat "$T/bare/seconds"
	grep -q '@@VMTEST END' "$T/bare/results.ser"
}

echo "kernel $kernel ($K_RELEASE), $(echo "$accel" | tr '[:lower:]' '[:upper:]'), command: $*"
printf '%-4s %10s %10s\n' run vmtest bare
ok=0
i=1
sum_v=0
sum_b=0
while [ "$i" -le "$runs" ]; do
	v=$(vmtest_run "$@") || ok=1
	b=$(bare_run) || ok=1
	printf '%-4s %9ss %9ss\n' "$i" "$v" "$b"
	sum_v=$(awk -v a="$sum_v" -v b="$v" 'BEGIN { print a + b }')
	sum_b=$(awk -v a="$sum_b" -v b="$b" 'BEGIN { print a + b }')
	i=$((i + 1))
done
awk -v v="$sum_v" -v b="$sum_b" -v n="$runs" 'BEGIN {
	printf "mean %9.2fs %9.2fs   vmtest / bare = %.2f\n", v / n, b / n, v / b }'
[ "$ok" = 0 ] || vt_die "a run did not finish (see $T/run.out)"
