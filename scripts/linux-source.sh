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
# Usage: scripts/linux-source.sh [--checkpatch | -b | -t | -f] [SERIES]
#   -b: the kernel's BPF selftests instead (tools/testing/selftests/bpf,
#   which tests/scripts/kernel_tests_check.sh builds here unmodified), cached
#   apart in $VMTEST_CACHE/linux-source/bpf-selftests, so that fetching
#   them leaves the trees libbpf is built from as they are.
#   -t: the host tools a module's build runs (tools/bpf/resolve_btfids,
#   tools/objtool and the tools/lib they link, scripts/mod's modpost with
#   what it includes), for scripts/testmod-build.sh
#   when a kernel's linux-kbuild lacks them or cannot run here, cached
#   apart in $VMTEST_CACHE/linux-source/kbuild-tools.
#   -f: the whole tree (1.4 GB), where the kernel's own selftests are built
#   as the reference runner (kernel-tests/reference.sh), cached apart in
#   $VMTEST_CACHE/linux-source/full; only on request.
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
# streamed through xz, for every set above not cached yet for that
# package (one download serves them all); the .deb is deleted.
# Exit: 0, 1 when it cannot be fetched, 2 bad usage.
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
# What checkpatch.pl --no-tree reads: itself and two lists next to it.
CHECKPATCH_MEMBERS="scripts/checkpatch.pl scripts/spelling.txt
scripts/const_structs.checkpatch"
# -b: the BPF selftests; -t: what a module's build runs.
SELFTESTS_MEMBERS="tools/testing/selftests/bpf"
KBUILD_MEMBERS="tools/bpf/resolve_btfids tools/objtool tools/lib tools/include
tools/arch tools/build tools/scripts scripts
include/linux"

# The sets of files cached, each in trees of its own (one per package
# version) under its top directory.
SETS="default selftests kbuild checkpatch"

set_top() {	# SET
	case $1 in
	default) echo "$VT_CACHE/linux-source" ;;
	selftests) echo "$VT_CACHE/linux-source/bpf-selftests" ;;
	kbuild) echo "$VT_CACHE/linux-source/kbuild-tools" ;;
	checkpatch) echo "$VT_CACHE/checkpatch" ;;
	full) echo "$VT_CACHE/linux-source/full" ;;
	esac
}

set_members() {	# SET
	case $1 in
	default) echo "$KSFT_MEMBERS $BPF_MEMBERS $KUNIT_MEMBERS" ;;
	selftests) echo "$SELFTESTS_MEMBERS" ;;
	kbuild) echo "$KBUILD_MEMBERS" ;;
	checkpatch) echo "$CHECKPATCH_MEMBERS" ;;
	# What shows the whole tree is there (the kernel's selftests build).
	full) echo "Makefile tools/testing/selftests/bpf/Makefile scripts include arch kernel" ;;
	esac
}

log() {
	echo "linux-source: $*" >&2
}

usage_die() {
	log "$*"
	exit 2
}

want=default
series_default=6.1
case "${1:-}" in
--checkpatch)
	shift
	want=checkpatch
	series_default=newest
	;;
-b)
	shift
	want=selftests
	;;
-t)
	shift
	want=kbuild
	;;
-f)
	shift
	want=full
	;;
esac
top=$(set_top $want)
MEMBERS=$(set_members $want)
series=${1:-$series_default}
[ $# -le 1 ] ||
	usage_die "usage: linux-source.sh [--checkpatch | -b | -t | -f] [SERIES]" \
		"(6.1, 7.2, ..., newest)"
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
tree_complete() {	# DIR MEMBER...
	[ -f "$1/.complete" ] || return 1
	d=$1
	shift
	for m in "$@"; do
		[ -e "$d/$m" ] || return 1
	done
}

# The newest complete cached tree of linux-source-SERIES, if any.
cached_tree() {	# PACKAGE
	for d in "$top/$1"_*; do
		# shellcheck disable=SC2086 # the member names are words
		tree_complete "$d" $MEMBERS && echo "$d"
	done | sort -V | tail -n 1
}

# Prints the cached tree and exits, when there is one: "newest" is
# remembered as a link, so that it costs no apt call either.
answer_from_cache() {
	if [ "$series" = newest ]; then
		# shellcheck disable=SC2086 # the member names are words
		if tree_complete "$top/newest" $MEMBERS; then
			(cd "$top/newest" && pwd -P)
			exit 0
		fi
		return 0
	fi
	tree=$(cached_tree "linux-source-$series")
	if [ -n "$tree" ]; then
		echo "$tree"
		exit 0
	fi
}

answer_from_cache
# One fetch at a time: parallel callers (make check's lanes, kernel-tests'
# guests) would otherwise extract into the same directories.  The lock is
# vmtest's, which also keeps apt's private state to one user.
mkdir -p "$top"
vt_cache_lock 1800
answer_from_cache

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
slug=${pkg}_$(vt_slug "$ver")
mb=$(($(wc -c <"$deb") / 1048576))
t1=$(vt_now)

# One download and one pass of xz serve every set not cached for this
# package yet (a cold make check asks for all four of 7.2's): the tarball's
# decompression is most of a fetch, its extra files are a few MiB.
sets=$want
for s in $SETS; do
	# shellcheck disable=SC2046 # the member names are words
	[ "$s" = "$want" ] || tree_complete "$(set_top "$s")/$slug" $(set_members "$s") ||
		sets="$sets $s"
done
all=$(for s in $sets; do set_members "$s"; done | tr ' ' '\n' | sed '/^$/d' | sort -u)
# The whole tree: every file of the tarball, and the other sets' trees
# copied from it first.
if [ "$want" = full ]; then
	all=
	sets="${sets#full} full"
fi
stage=$VT_CACHE/linux-source/.fetch-$$
rm -rf "$stage"
mkdir -p "$stage" || vt_write_die "$stage"
# tar's status is not the verdict: a set of another use whose files this
# package lacks is left out below, the wanted one must be whole.
# shellcheck disable=SC2046 # the member names are words
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/src/$pkg.tar.xz" | xz -dc |
	tar -x -C "$stage" --strip-components=1 \
		$(for m in ${all:-.}; do echo "$pkg/${m#.}"; done) 2>"$stage.err" || true
rm -f "$deb"

# Moves SET's members from the staging tree into its own cached tree.
install_set() {	# SET
	d=$(set_top "$1")/$slug
	for m in $(set_members "$1"); do
		[ -e "$stage/$m" ] || return 1
	done
	mkdir -p "$(dirname "$d")" || vt_write_die "$d"
	rm -rf "$d.tmp"
	# The last of the sets: the staging tree itself.
	[ "$1" != full ] || mv "$stage" "$d.tmp" || vt_write_die "$d.tmp"
	[ "$1" = full ] || for m in $(set_members "$1"); do
		{ mkdir -p "$(dirname "$d.tmp/$m")" && cp -a "$stage/$m" "$d.tmp/$m"; } ||
			vt_write_die "$d.tmp"
	done
	touch "$d.tmp/.complete"
	rm -rf "$d"
	mv "$d.tmp" "$d"
	[ "$series" != newest ] || ln -sfn "$slug" "$(set_top "$1")/newest"
}

for s in $sets; do
	if ! install_set "$s" && [ "$s" = "$want" ]; then
		head -n 3 "$stage.err" >&2
		rm -rf "$stage" "$stage.err"
		vt_die "cannot extract the kernel tree's files" \
			"($(set_members "$want" | tr '\n' ' ')) from $pkg $ver"
	fi
done
rm -rf "$stage" "$stage.err"
tree=$top/$slug
also=$(echo " $sets " | sed "s/ $want / /; s/^ *//; s/ *$//; s/^$/nothing/")
log "$pkg $ver: downloaded $mb MiB in $(vt_elapsed "$t0" "$t1") s," \
	"extracted $(find "$tree" -type f | wc -l) files in $(vt_elapsed "$t1") s (also cached: $also)"
echo "$tree"
