#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Try the kernel's own selftests in bpfcheck, one at a time, and print a
# table: for each test, whether it builds, its outcome on this kernel and
# why it failed (the first error, or the kind of kernel gap: a program
# load refused with EPERM or ENOTSUPP, the kernel's bpf_testmod.ko).
#
# A scratch copy of this tree is built once; each test is then imported
# unmodified (scripts/kernel-tests-import.sh), built, run alone in a
# network namespace of its own (test_progs -w 60), and removed again.
#
# Usage: scripts/kernel-tests-survey.sh [-o DIR] [-e N] SERIES [TEST...]
#   SERIES  linux-source series, e.g. 6.12 or 7.2
#   TEST    kernel test names (default: every prog_tests/*.c of SERIES)
#   -e N    only every Nth of them (a sample, in name order)
#   -o DIR  keep the scratch tree and each test's logs there
# Environment: OUTPUT (the build whose libbpf is reused; default build/).
# Exit: 0, 1 when the survey could not run, 2 bad usage.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
OUTPUT=${OUTPUT:-$srcdir/build}
every=1
dir=

usage() {
	echo "usage: kernel-tests-survey.sh [-o DIR] [-e N] SERIES [TEST...] ($*)" >&2
	exit 2
}

while getopts o:e: opt; do
	case $opt in
	o) dir=$OPTARG ;;
	e) every=$OPTARG ;;
	*) usage "unknown option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage "no SERIES"
case $every in '' | *[!0-9]* | 0) usage "bad -e '$every': a count >= 1" ;; esac
series=$1
shift

root=$(sh "$srcdir/scripts/linux-source.sh" -b "$series") || exit 1
kdir=$root/tools/testing/selftests/bpf
if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046 # test names are words
	set -- $(find "$kdir/prog_tests" -maxdepth 1 -name '*.c' |
		sed 's|.*/||; s/\.c$//' | LC_ALL=C sort |
		awk -v n="$every" '(NR - 1) % n == 0')
fi

if [ -z "$dir" ]; then
	dir=$(mktemp -d "${TMPDIR:-/tmp}/bpfcheck-survey.XXXXXX")
	trap 'rm -rf "$dir"' EXIT
fi
tree=$dir/tree
logs=$dir/logs
mkdir -p "$tree/build" "$logs"
tar -C "$srcdir" --exclude-vcs --exclude=./build --exclude=./vmtest/cache -cf - . |
	tar -C "$tree" -xf -
[ ! -d "$OUTPUT/libbpf" ] || cp -a "$OUTPUT/libbpf" "$tree/build/"
unset MAKEFLAGS MFLAGS MAKELEVEL
export VMTEST_CACHE="${VMTEST_CACHE:-$srcdir/vmtest/cache}"
if ! make -C "$tree" -j"$(nproc)" all >"$logs/base.log" 2>&1; then
	echo "kernel-tests-survey: the scratch tree does not build ($logs/base.log)" >&2
	exit 1
fi

# Why a run failed, from its output (not the start-up's feature notes):
# a kernel gap, or the first failure.
why_failed() {	# LOG
	grep -v -e '^feature ' -e '^mounted ' "$1" >"$1.why"
	if grep -q 'bpf_testmod' "$1.why"; then
		echo "needs bpf_testmod.ko (not built by bpfcheck)"
	elif grep -qE 'failed to load: -(EPERM|1)$' "$1.why" ||
	     grep -qE '(fentry|fexit|skel_load).*(fail|FAIL)' "$1.why"; then
		echo "kernel gap: fentry/fexit load refused (EPERM on this host)"
	elif grep -qE 'kprobe.*-(ENOENT|EOPNOTSUPP|ENOTSUPP)' "$1.why"; then
		echo "kernel gap: no kprobes on this host"
	elif grep -qE 'failed to load: -EINVAL$' "$1.why"; then
		echo "load refused with EINVAL: $(grep -m1 -B1 'failed to load' "$1.why" |
			head -n1 | cut -c1-70)"
	else
		grep -m1 -E 'FAIL|failed|error' "$1.why" | cut -c1-100
	fi
}

# The test entry points a file defines (as scripts/gen-tests.sh finds them).
names_in() {	# FILE
	sed -n 's/^void[ \t]\{1,\}\(serial_\)\{0,1\}test_\([A-Za-z0-9_]*\)[ \t]*(.*/\2/p' "$1" |
		tr '\n' ',' | sed 's/,$//'
}

# Put back the tree as it was: remove what the import added, restore
# bpfcheck's own files it replaced.
restore() {	# LIST
	while read -r f; do
		rm -f "$tree/$f"
		[ ! -f "$srcdir/$f" ] || cp "$srcdir/$f" "$tree/$f"
	done <"$1"
}

n=0 built=0 pass=0 fail=0 skip=0 gap=0
printf '%-36s %-6s %-7s %s\n' TEST BUILDS RESULT WHY
for t in "$@"; do
	n=$((n + 1))
	log=$logs/$t.log
	sh "$srcdir/scripts/kernel-tests-import.sh" "$kdir" "$tree" "$t" \
		>"$logs/$t.files" 2>"$log" || true
	if ! make -C "$tree" all >>"$log" 2>&1; then
		why=$(grep -m1 -E 'error|Error' "$log" | sed "s|$tree/||g" | cut -c1-110)
		printf '%-36s %-6s %-7s %s\n' "$t" no - "$why"
		restore "$logs/$t.files"
		continue
	fi
	built=$((built + 1))
	unshare -n sh -c 'ip link set lo up; exec "$@"' sh \
		"$tree/build/test_progs" -w 60 -t "$(names_in "$tree/prog_tests/$t.c")" -v \
		>"$log.run" 2>&1 && rc=0 || rc=$?
	case $rc in
	0) res=PASS; why=; pass=$((pass + 1)) ;;
	4) res=SKIP; why=$(grep -m1 -o 'SKIP.*' "$log.run" | cut -c1-100); skip=$((skip + 1)) ;;
	*)
		res=FAIL
		why=$(why_failed "$log.run")
		fail=$((fail + 1))
		case $why in "kernel gap"* | *bpf_testmod*) gap=$((gap + 1)) ;; esac
		;;
	esac
	printf '%-36s %-6s %-7s %s\n' "$t" yes "$res" "$why"
	restore "$logs/$t.files"
done
echo "kernel-tests-survey: linux-source-$series: $n tried, $built build," \
	"$pass pass, $skip skip, $fail fail ($gap of them kernel gaps or bpf_testmod)"
