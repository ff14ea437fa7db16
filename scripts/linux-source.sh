#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's kselftest framework (tools/testing/selftests: Makefile,
# lib.mk, run_kselftest.sh, kselftest/, ...) from Debian's linux-source
# package, so that bpfcheck can be built and run the way a kernel tree
# does.  Prints the root of a minimal kernel tree that holds those files
# (ROOT/tools/testing/selftests, ROOT/scripts/subarch.include), cached in
# $VMTEST_CACHE/linux-source/PACKAGE_VERSION (default vmtest/cache).
#
# Usage: scripts/linux-source.sh [SERIES]
#   SERIES: 6.1 (the default: bookworm's kernel), 6.12, 7.2, ..., or
#   "newest", the highest linux-source-X.Y of the package lists.
#
# A cached tree of the series is used as it is, without apt (remove the
# directory to fetch the current package again).  Otherwise the package
# comes through vmtest's private apt state (vmtest/kernel.sh: the host's
# Debian mirror; bookworm, bookworm-security and sid), is checked against
# the SHA256 of the signed index, and only the files listed below are
# taken from the source tarball inside it, streamed through xz; the .deb
# is deleted.  Exit: 0, 1 when it cannot be fetched, 2 bad usage.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
VT_CACHE=${VMTEST_CACHE:-$srcdir/vmtest/cache}
# shellcheck source=../vmtest/lib.sh
. "$srcdir/vmtest/lib.sh"
# shellcheck source=../vmtest/kernel.sh
. "$srcdir/vmtest/kernel.sh"

# What the selftests Makefile and lib.mk read, and what an install copies.
MEMBERS="tools/testing/selftests/Makefile tools/testing/selftests/lib.mk
tools/testing/selftests/run_kselftest.sh tools/testing/selftests/kselftest
tools/testing/selftests/kselftest_install.sh
tools/testing/selftests/gen_kselftest_tar.sh tools/testing/selftests/kselftest.h
tools/testing/selftests/kselftest_harness.h scripts/subarch.include"

log() {
	echo "linux-source: $*" >&2
}

usage_die() {
	log "$*"
	exit 2
}

series=${1:-6.1}
[ $# -le 1 ] || usage_die "usage: linux-source.sh [SERIES] (6.1, 7.2, ..., newest)"
case $series in
newest) ;;
[0-9]*.[0-9]*)
	case $series in *[!0-9.]*)
		usage_die "bad SERIES '$series' (expected e.g. 6.1, 7.2 or newest)" ;;
	esac ;;
*) usage_die "bad SERIES '$series' (expected e.g. 6.1, 7.2 or newest)" ;;
esac
top=$VT_CACHE/linux-source

# The newest complete cached tree of linux-source-SERIES, if any.
cached_tree() {	# PACKAGE
	for d in "$top/$1"_*; do
		[ -f "$d/.complete" ] && echo "$d"
	done | sort -V | tail -n 1
}

# "newest" is remembered as a link, so that it costs no apt call either.
if [ "$series" = newest ] && [ -f "$top/newest/.complete" ]; then
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
else
	pkg=linux-source-$series
fi
deb=$(kernel_deb_download "$pkg") || exit 1
ver=$(dpkg-deb -f "$deb" Version)
tree=$top/${pkg}_$(vt_slug "$ver")
mb=$(($(wc -c <"$deb") / 1048576))
t1=$(vt_now)

rm -rf "$tree.tmp"
mkdir -p "$tree.tmp"
# shellcheck disable=SC2046 # the member names are words
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "./usr/src/$pkg.tar.xz" | xz -dc |
	tar -x -C "$tree.tmp" --strip-components=1 \
		$(for m in $MEMBERS; do echo "$pkg/$m"; done) ||
	vt_die "cannot extract the kselftest files from $deb"
rm -f "$deb"
for m in $MEMBERS; do
	[ -e "$tree.tmp/$m" ] || vt_die "$pkg $ver has no $m"
done
touch "$tree.tmp/.complete"
rm -rf "$tree"
mv "$tree.tmp" "$tree"
if [ "$series" = newest ]; then
	ln -sfn "$(basename "$tree")" "$top/newest"
fi
log "$pkg $ver: downloaded $mb MiB in $(vt_elapsed "$t0" "$t1") s, extracted $(find "$tree" -type f | wc -l) files in $(vt_elapsed "$t1") s"
echo "$tree"
