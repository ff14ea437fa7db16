#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# "make install INSTALL_PATH=DIR": lay out DIR as the kernel's kselftest
# install does (tools/testing/selftests "make install"), so its
# run_kselftest.sh can run bpfcheck:
#
#   DIR/kselftest-list.txt        COLLECTION:ENTRY lines (other collections'
#                                 lines are kept: DIR may be a kernel's
#                                 kselftest_install directory)
#   DIR/COLLECTION/               entries, programs and files
#   DIR/run_kselftest.sh, DIR/kselftest/   the kernel's runner, copied from
#                                 KSFT_DIR (a kernel's tools/testing/selftests)
#
# Usage: kselftest-install.sh [-C COLLECTION] [-k KSFT_DIR] [-e ENTRY]...
#                             [-x PROGRAM]... [-f FILE]... DIR
# ENTRY: run by the runner and listed; PROGRAM: installed executable, not
# listed; FILE: installed read-only.  Everything is checked before anything
# is copied.  Exit: 0, 1 on a failed copy, 2 bad input.
set -eu

die() {
	echo "install: $*" >&2
	exit 2
}

collection=bpfcheck
ksft_dir=
entries=
programs=
files=
while getopts C:k:e:x:f: opt; do
	case $opt in
	C) collection=$OPTARG ;;
	k) ksft_dir=$OPTARG ;;
	e) entries="$entries $OPTARG" ;;
	x) programs="$programs $OPTARG" ;;
	f) files="$files $OPTARG" ;;
	*) die "usage: kselftest-install.sh [-C COLLECTION] [-k KSFT_DIR] [-e ENTRY]... [-x PROGRAM]... [-f FILE]... DIR" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || die "one install directory expected, got $#"
dir=$1

case $collection in
"" | *[!A-Za-z0-9_.-]*)
	die "bad COLLECTION '$collection' (a directory name: letters, digits, '_', '.', '-')" ;;
esac
[ ! -e "$dir" ] || [ -d "$dir" ] ||
	die "INSTALL_PATH '$dir' exists and is not a directory"
for f in $entries $programs $files; do
	[ -f "$f" ] || die "'$f' is missing (build it first)"
done
if [ -n "$ksft_dir" ]; then
	for f in run_kselftest.sh kselftest/runner.sh; do
		[ -f "$ksft_dir/$f" ] ||
			die "KSFT_DIR '$ksft_dir' has no $f (expected a kernel's tools/testing/selftests)"
	done
fi

dest=$dir/$collection
mkdir -p "$dest"
# shellcheck disable=SC2086 # the lists are space-separated paths
{
	[ -z "$entries$programs" ] || install -m 755 $entries $programs "$dest/"
	[ -z "$files" ] || install -m 644 $files "$dest/"
}
if [ -n "$ksft_dir" ]; then
	# As the kernel's install target: the runner and its helpers, 744.
	mkdir -p "$dir/kselftest"
	for f in "$ksft_dir"/kselftest/*; do
		[ ! -f "$f" ] || install -m 744 "$f" "$dir/kselftest/"
	done
	install -m 744 "$ksft_dir/run_kselftest.sh" "$dir/"
fi

# This collection's lines replace its old ones; the rest stay as they were.
list=$dir/kselftest-list.txt
trap 'rm -f "$list.tmp"' EXIT
{
	[ ! -f "$list" ] || grep -v "^$collection:" "$list" || true
	for e in $entries; do
		echo "$collection:$(basename "$e")"
	done
} >"$list.tmp"
mv "$list.tmp" "$list"

n=$(echo "$entries $programs $files" | wc -w)
echo "install: $n files in $dest, $(echo "$entries" | wc -w) entries in $list"
if [ -f "$dir/run_kselftest.sh" ]; then
	echo "install: run them with $dir/run_kselftest.sh -c $collection"
else
	echo "install: $dir has no run_kselftest.sh: give KSFT_DIR=<linux>/tools/testing/selftests, or install into a kernel's kselftest_install directory"
fi
