#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The parts of a kernel tree that bpfcheck builds with, from Debian's
# linux-source package: the kselftest framework (tools/testing/selftests:
# Makefile, lib.mk, run_kselftest.sh, kselftest/, ...), so that bpfcheck
# can be built and run the way a kernel tree does, and libbpf and bpftool
# with what their Makefiles read (tools/lib/bpf, tools/bpf/bpftool,
# tools/include, tools/build, scripts/bpf_doc.py, ...), which the default
# build compiles (scripts/libbpf-build.sh), and KUnit's tools
# (tools/testing/kunit: kunit.py parse reads bpfcheck's KTAP in
# tests/harness/trust_check.sh).  Prints the root of a minimal
# kernel tree that holds those files, cached in
# $VMTEST_CACHE/linux-source/PACKAGE_VERSION (default vmtest/cache).
#
# Usage: scripts/linux-source.sh [--checkpatch | -b | -t] [SERIES]
#   -b: the kernel's BPF selftests instead (tools/testing/selftests/bpf,
#   which tests/scripts/kernel_tests_check.sh builds here unmodified), cached
#   apart in $VMTEST_CACHE/linux-source/bpf-selftests, so that fetching
#   them leaves the trees libbpf is built from as they are.
#   -t: the host tools a module's build runs (tools/bpf/resolve_btfids,
#   tools/objtool and the tools/lib they link, scripts/mod's modpost with
#   what it includes), for scripts/testmod-build.sh
#   when a kernel's linux-kbuild lacks them or cannot run here, cached
#   apart in $VMTEST_CACHE/linux-source/kbuild-tools.
#   SERIES: 6.1 (the default: bookworm's kernel), 6.12, 7.2, ..., or
#   "newest", the highest linux-source-X.Y of the package lists.
#   --checkpatch: only scripts/checkpatch.pl and the two files it reads
#   beside it (spelling.txt, const_structs.checkpatch), for "make lint",
#   cached apart in $VMTEST_CACHE/checkpatch (default SERIES: newest).
#
# A cached tree of the series that has every file below is used as it is,
# without apt (remove the directory to fetch the current package again).
# Otherwise the package comes through vmtest's private apt state
# (vmtest/kernel.sh: the host's Debian mirror; bookworm, bookworm-security
# and sid), is checked against the SHA256 of the signed index, and only
# the files listed below are taken from the source tarball inside it,
# streamed through xz; the .deb is deleted.  Exit: 0, 1 when it cannot be fetched, 2 bad usage.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
VT_SRCDIR=$srcdir
VT_CACHE=${VMTEST_CACHE:-$srcdir/vmtest/cache}
# shellcheck source=../vmtest/lib.sh
. "$srcdir/vmtest/lib.sh"
# shellcheck source=../vmtest/kernel.sh
. "$srcdir/vmtest/kernel.sh"

# What the selftests Makefile and lib.mk read, and what an install copies.
KSFT_MEMBERS="tools/testing/selftests/Makefile tools/testing/selftests/lib.mk
tools/testing/selftests/run_kselftest.sh tools/testing/selftests/kselftest
tools/testing/selftests/kselftest_install.sh
tools/testing/selftests/gen_kselftest_tar.sh tools/testing/selftests/kselftest.h
tools/testing/selftests/kselftest_harness.h scripts/subarch.include"
# What libbpf's and bpftool's Makefiles read: their sources, the tools
# headers and build system, the verifier's disassembler (bpftool) and the
# script that writes bpf_helper_defs.h.
BPF_MEMBERS="tools/lib/bpf tools/bpf/bpftool tools/include tools/arch tools/build
tools/scripts kernel/bpf/disasm.c kernel/bpf/disasm.h scripts/bpf_doc.py"
# kunit.py and its parser: the kernel's own reader of KTAP.
KUNIT_MEMBERS="tools/testing/kunit"
MEMBERS="$KSFT_MEMBERS $BPF_MEMBERS $KUNIT_MEMBERS"
# What checkpatch.pl --no-tree reads: itself and two lists next to it.
CHECKPATCH_MEMBERS="scripts/checkpatch.pl scripts/spelling.txt
scripts/const_structs.checkpatch"

log() {
	echo "linux-source: $*" >&2
}

usage_die() {
	log "$*"
	exit 2
}

top=$VT_CACHE/linux-source
cp_top=$VT_CACHE/checkpatch
series_default=6.1
case "${1:-}" in
--checkpatch)
	shift
	# A set of its own, so that the trees cached for the build stay complete.
	MEMBERS=$CHECKPATCH_MEMBERS
	top=$cp_top
	series_default=newest
	;;
-b)
	shift
	MEMBERS="tools/testing/selftests/bpf"
	top=$top/bpf-selftests
	;;
-t)
	shift
	MEMBERS="tools/bpf/resolve_btfids tools/objtool tools/lib tools/include
tools/arch tools/build tools/scripts scripts
include/linux"
	top=$top/kbuild-tools
	;;
esac
series=${1:-$series_default}
[ $# -le 1 ] ||
	usage_die "usage: linux-source.sh [--checkpatch | -b | -t] [SERIES] (6.1, 7.2, ..., newest)"
case $series in
newest) ;;
[0-9]*.[0-9]*)
	case $series in *[!0-9.]*)
		usage_die "bad SERIES '$series' (expected e.g. 6.1, 7.2 or newest)" ;;
	esac ;;
*) usage_die "bad SERIES '$series' (expected e.g. 6.1, 7.2 or newest)" ;;
esac

# A tree extracted completely, with every member (trees cached before a
# member was added to the list lack it, and are fetched again).
tree_complete() {	# DIR
	[ -f "$1/.complete" ] || return 1
	for m in $MEMBERS; do
		[ -e "$1/$m" ] || return 1
	done
}

# The newest complete cached tree of linux-source-SERIES, if any.
cached_tree() {	# PACKAGE
	for d in "$top/$1"_*; do
		tree_complete "$d" && echo "$d"
	done | sort -V | tail -n 1
}

# "newest" is remembered as a link, so that it costs no apt call either.
if [ "$series" = newest ] && tree_complete "$top/newest"; then
	(cd "$top/newest" && pwd -P)
	exit 0
fi
if [ "$series" != newest ]; then
	tree=$(cached_tree "linux-source-$series")
	if [ -n "$tree" ]; then
		echo "$tree"
		exit 0
	fi
fi

mkdir -p "$top"
kernel_apt_sources
kernel_apt_update
t0=$(vt_now)
if [ "$series" = newest ]; then
	pkg=$(kernel_apt_cache pkgnames linux-source- 2>/dev/null |
		grep -E '^linux-source-[0-9]+\.[0-9]+$' | sort -V | tail -n 1)
	[ -n "$pkg" ] || vt_die "no linux-source-X.Y package in $KAPT_SUITES"
	# Fetched already under its own series.
	tree=$(cached_tree "$pkg")
	if [ -n "$tree" ]; then
		ln -sfn "$(basename "$tree")" "$top/newest"
		echo "$tree"
		exit 0
	fi
else
	pkg=linux-source-$series
fi
deb=$(kernel_deb_download "$pkg") || exit 1
ver=$(dpkg-deb -f "$deb" Version)
tree=$top/${pkg}_$(vt_slug "$ver")
mb=$(($(wc -c <"$deb") / 1048576))
t1=$(vt_now)

# A fetch for the build takes checkpatch's files along when they are not
# cached for this package yet: one download serves the build and make lint.
cp_tree=$cp_top/${pkg}_$(vt_slug "$ver")
also=
[ "$top" = "$cp_top" ] || [ -f "$cp_tree/.complete" ] || also=$CHECKPATCH_MEMBERS

rm -rf "$tree.tmp"
mkdir -p "$tree.tmp"
# shellcheck disable=SC2046 # the member names are words
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/src/$pkg.tar.xz" | xz -dc |
	tar -x -C "$tree.tmp" --strip-components=1 \
		$(for m in $MEMBERS $also; do echo "$pkg/$m"; done) ||
	vt_die "cannot extract the kernel tree's files from $deb"
rm -f "$deb"
for m in $MEMBERS $also; do
	[ -e "$tree.tmp/$m" ] || vt_die "$pkg $ver has no $m"
done
# Like a tree of their own (linux-source.sh --checkpatch).
if [ -n "$also" ]; then
	rm -rf "$cp_tree.tmp"
	mkdir -p "$cp_tree.tmp/scripts"
	for m in $also; do
		mv "$tree.tmp/$m" "$cp_tree.tmp/$m" || vt_die "cannot move $m to $cp_tree.tmp"
	done
	touch "$cp_tree.tmp/.complete"
	rm -rf "$cp_tree"
	mv "$cp_tree.tmp" "$cp_tree"
	[ "$series" != newest ] || ln -sfn "$(basename "$cp_tree")" "$cp_top/newest"
fi
touch "$tree.tmp/.complete"
rm -rf "$tree"
mv "$tree.tmp" "$tree"
if [ "$series" = newest ]; then
	ln -sfn "$(basename "$tree")" "$top/newest"
fi
log "$pkg $ver: downloaded $mb MiB in $(vt_elapsed "$t0" "$t1") s, extracted $(find "$tree" -type f | wc -l) files in $(vt_elapsed "$t1") s"
echo "$tree"
