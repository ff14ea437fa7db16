#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own test_progs, the reference bpfcheck's verdicts are
# compared with: built by its own Makefile in the whole tree of Debian's
# linux-source-SERIES (scripts/linux-source.sh -f), with that tree's libbpf
# and bpftool, against the BTF of the series' kernel (scripts/kernel-btf.sh,
# the BTF the series' tests are built against in bpfcheck too), with
# Debian's llvm-22 (scripts/deps.sh reference).  As the kernel's CI does,
# the build goes on past what fails (make -k, BPF_STRICT_BUILD=0): a
# program that does not build against this kernel's BTF leaves its tests
# to fail in the run, as they would there.
#
# Usage: kernel-tests/reference.sh [-j N] SERIES
# Prints the directory of the build: test_progs, the BPF objects and what
# the tests run beside them (bpftool, urandom_read, ...).  Cached in
# $VMTEST_CACHE/reference/linux-source-SERIES_VERSION (the make log as
# build.log beside it); remove it to build again.
# Exit: 0, 1 when it cannot be built, 2 bad usage.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
VT_CACHE=${VMTEST_CACHE:-$srcdir/vmtest/cache}
export VMTEST_CACHE="$VT_CACHE"
# shellcheck source=../vmtest/lib.sh
. "$srcdir/vmtest/lib.sh"

usage() {
	echo "reference: $*" >&2
	echo "usage: kernel-tests/reference.sh [-j N] SERIES (e.g. 7.2)" >&2
	exit 2
}

jobs=$(vt_nproc)
while getopts j: opt; do
	case $opt in
	j) jobs=$OPTARG ;;
	*) usage "unknown option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# = 1 ] || usage "one SERIES"
series=$1
case $series in
[0-9]*.[0-9]*) case $series in *[!0-9.]*) usage "bad SERIES '$series': e.g. 7.2" ;; esac ;;
*) usage "bad SERIES '$series': e.g. 7.2" ;;
esac
case $jobs in '' | *[!0-9]* | 0) usage "bad -j '$jobs': a count >= 1" ;; esac

tree=$(sh "$srcdir/scripts/linux-source.sh" -f "$series") || exit 1
ref=$VT_CACHE/reference/$(basename "$tree")
if [ -f "$ref/.complete" ]; then
	echo "$ref"
	exit 0
fi
sh "$srcdir/scripts/deps.sh" reference >&2 ||
	vt_die "cannot install the packages of scripts/deps.sh reference"
btf=$(sh "$srcdir/scripts/kernel-btf.sh" "$series") || exit 1

mkdir -p "$VT_CACHE/reference"
exec 8>"$ref.lock"
flock -w 3600 8 || vt_die "$ref stays locked by another reference build"
if [ -f "$ref/.complete" ]; then
	echo "$ref"
	exit 0
fi
# The makes below are this script's, not part of a make that may run it.
unset MAKEFLAGS MFLAGS MAKELEVEL
# A build that stopped (or failed) goes on where it was: make redoes only
# what is not there.
mkdir -p "$ref.tmp" || vt_write_die "$ref.tmp"
t0=$(vt_now)
vt_log "building the kernel's test_progs of $(basename "$tree") (-j $jobs; log $ref.log)"
make -C "$tree/tools/testing/selftests/bpf" -k -j"$jobs" LLVM=-22 BPF_STRICT_BUILD=0 \
	VMLINUX_BTF="$btf" OUTPUT="$ref.tmp" "$ref.tmp/test_progs" >"$ref.log" 2>&1 || true
if [ ! -x "$ref.tmp/test_progs" ]; then
	grep -m 1 -E 'No such file|undefined reference|Error [0-9]' "$ref.log" >&2 ||
		tail -n 3 "$ref.log" >&2
	vt_die "the kernel's test_progs of $series did not build (see $ref.log)"
fi
nobj=$(find "$ref.tmp" -maxdepth 1 -name '*.bpf.o' | wc -l)
nerr=$(grep -c 'error:' "$ref.log" || true)
mv "$ref.log" "$ref.tmp/build.log"
touch "$ref.tmp/.complete"
rm -rf "$ref"
mv "$ref.tmp" "$ref"
vt_log "the kernel's test_progs of $series: $nobj BPF objects, $nerr compiler errors," \
	"in $(vt_elapsed "$t0") s"
echo "$ref"
