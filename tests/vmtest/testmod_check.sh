#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# The kernel series' bpf_testmod for Debian's kernels
# (scripts/testmod-build.sh): built for 6.12 and 6.1 from their own
# linux-source, each .ko carries split BTF and resolved BTF ids; loaded in
# a guest of its kernel, it shows its BTF as /sys/kernel/btf/bpf_testmod
# and the kernel logs no BTF or kfunc error, and test_progs' testmod_kfunc
# (a tc program that calls one of its kfuncs) passes.  The negative control loads
# the same module with its .BTF section removed: the same guest check
# must then fail.  7.2 builds, or says in one line why not.  Bad usage
# exits 2 with one line.
#
# Usage: [OUTPUT=build-dir] sh tests/vmtest/testmod_check.sh
# Prints "ok N - ..." / "not ok N - ...", then
# "testmod-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=testmod
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

need testmod "make" "$OUTPUT/test_progs"
VMTEST=$REPO/vmtest/vmtest.sh
BUILD=$REPO/scripts/testmod-build.sh
export VMTEST_OUT="$T/vm"

# What the guest asserts: the module's BTF is there, the module is live,
# no line of the kernel log says BTF or a kfunc set failed, and a program
# that calls one of its kfuncs loads and runs.
# shellcheck disable=SC2016 # expanded by the guest's shell
GUEST_CHECK='test -s /sys/kernel/btf/bpf_testmod || { echo "no /sys/kernel/btf/bpf_testmod"; exit 1; }
grep "^bpf_testmod " /proc/modules || exit 1
if dmesg | grep -iE "btf.*(fail|error|mismatch)|kfunc.*(fail|error)|missing module BTF"; then exit 1; fi
echo "bpf_testmod BTF: $(wc -c </sys/kernel/btf/bpf_testmod) bytes"
suite -t testmod_kfunc'

has_section() {	# KO SECTION
	objcopy --dump-section "$2=$T/section" "$1" "$T/probe.o" 2>/dev/null &&
		[ -s "$T/section" ]
}

# ---- host: the builds --------------------------------------------------------

built() {	# KERNEL: the path of its bpf_testmod.ko, or nothing
	sh "$BUILD" "$1" 2>"$T/build-$1.err" | grep '/bpf_testmod\.ko$'
}

for k in 6.12 6.1; do
	begin "$k: bpf_testmod.ko of its own series, with .BTF and .BTF_ids"
	ko=$(built "$k")
	if [ -z "$ko" ]; then
		bad "testmod-build.sh $k failed: $(tail -n 1 "$T/build-$k.err")"
	else
		has_section "$ko" .BTF || bad "$ko has no .BTF section"
		has_section "$ko" .BTF_ids || bad "$ko has no .BTF_ids section"
		case $ko in
		*/linux-source-"$k"_*/bpf_testmod.ko) ;;
		*) bad "$ko is not built from linux-source-$k" ;;
		esac
	fi
	end_check
done

begin "a cached build answers at once and prints the same path"
t0=$(date +%s)
run sh "$BUILD" 6.12
expect_exit 0
expect_match "$OUT" '/bpf_testmod\.ko$'
[ $(($(date +%s) - t0)) -le 5 ] || bad "a cached build took $(($(date +%s) - t0)) s"
end_check

begin "kernel-btf.sh: 6.12's BTF is the .BTF of its headers' vmlinux"
run sh "$REPO/scripts/kernel-btf.sh" 6.12
expect_exit 0
hdr=$(sh "$REPO/scripts/kmod-build.sh" --headers 6.12 2>/dev/null)
if [ -f "$hdr/vmlinux" ] && objcopy --dump-section .BTF="$T/hdr.btf" \
	"$hdr/vmlinux" "$T/probe.o" 2>/dev/null; then
	cmp -s "$T/hdr.btf" "$(cat "$OUT")" || bad "$(cat "$OUT") differs from $hdr/vmlinux's .BTF"
else
	bad "no .BTF in 6.12's headers' vmlinux ($hdr)"
fi
end_check

begin "7.2: its modules, or one line that says why not"
run sh "$BUILD" 7.2
if [ "$RC" = 0 ]; then
	expect_match "$OUT" '/bpf_testmod\.ko$'
else
	expect_exit 1
	expect_nlines "$ERR" 1
	expect_has "$ERR" "does not build for 7.2"
fi
end_check

check_rejected "a bad SERIES is refused" "bad SERIES '6.x'" - sh "$BUILD" 6.12 6.x
check_rejected "an unknown KERNEL is refused" "unknown KERNEL 'no-such-kernel'" - \
	sh "$BUILD" no-such-kernel

# ---- guests -------------------------------------------------------------------

# A guest that crashed before init never saw the module: it is booted
# once more (TCG on a busy host has crashed 6.12 that early), and says so.
guest() {	# NAME KERNEL KO: vmtest's exit, its output in $T/NAME.out
	for try in 1 2; do
		sh "$VMTEST" -k "$2" --kmod "$3" -- sh -c "$GUEST_CHECK" >"$T/$1.out" 2>&1
		echo $? >"$T/$1.rc"
		if [ "$try" = 2 ] || ! grep -q ': BOOT_FAIL after' "$T/$1.out"; then
			break
		fi
		echo "# $2: BOOT_FAIL before the module loaded: $(grep -m 1 BOOT_FAIL "$T/$1.out" |
			cut -c 1-120); booting again"
	done
	: >"$T/$1.err"
}

KO612=$(built 6.12)
KO61=$(built 6.1)
if [ -n "$KO612" ]; then
	# The control: the same module without its BTF.
	cp "$KO612" "$T/bpf_testmod.ko"
	objcopy --remove-section .BTF "$T/bpf_testmod.ko"
	guest 612 6.12 "$KO612" &
	guest 61 6.1 "${KO61:-$KO612}" &
	wait
	guest nobtf 6.12 "$T/bpf_testmod.ko"
fi

for g in 612:6.12 61:6.1; do
	begin "a ${g#*:} guest shows bpf_testmod's BTF, no BTF or kfunc error"
	if [ ! -f "$T/${g%%:*}.rc" ]; then
		bad "no module to load"
	else
		use "${g%%:*}"
		expect_exit 0
		expect_match "$OUT" "^bpf_testmod [0-9]+ 0 - Live"
		expect_match "$OUT" "^bpf_testmod BTF: [0-9]+ bytes$"
		expect_match "$OUT" "testmod_kfunc:OK"
	fi
	end_check
done

begin "control: bpf_testmod without .BTF fails the same guest check"
if [ ! -f "$T/nobtf.rc" ]; then
	bad "no module to load"
else
	use nobtf
	expect_exit 1
	expect_no_match "$OUT" '^bpf_testmod BTF: [0-9]'
	expect_match "$OUT" '^no /sys/kernel/btf/bpf_testmod$'
	expect_match "$OUT" '^6\.12 .* FAIL'
fi
end_check

for p in $(our_qemus); do
	kill -KILL "$p" 2>/dev/null
done
echo "testmod-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
