#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Copy kernel selftests, unmodified, into a bpfcheck tree: for each test
# NAME, the kernel's prog_tests/NAME.c, the programs it loads (progs/X.c
# for each X.skel.h or X.lskel.h it includes and each "X.bpf.o" or "X.o"
# it names) and the headers those include that bpfcheck does not provide
# itself (compat/, helpers/, harness/, progs/), found in the kernel's
# progs/ or selftests/bpf/.  A kernel test of the same name as one of
# bpfcheck's replaces it.  Prints each file copied, "NAME: ..." when a
# test is not there.  Used by tests/scripts/kernel_tests_check.sh and
# scripts/kernel-tests-survey.sh.
#
# Usage: scripts/kernel-tests-import.sh SELFTESTS_BPF_DIR TREE NAME...
# Exit: 0, 1 when a named test or a program it loads is missing, 2 usage.
set -eu

if [ $# -lt 3 ] || [ ! -d "$1/prog_tests" ] || [ ! -f "$2/Makefile" ]; then
	echo "usage: kernel-tests-import.sh SELFTESTS_BPF_DIR TREE NAME..." \
		"(a kernel's tools/testing/selftests/bpf; a bpfcheck tree)" >&2
	exit 2
fi
kdir=$1
tree=$2
shift 2
status=0

# Whether bpfcheck's tree has a header of that name where builds look.
provided() {	# NAME
	for d in compat/bpf compat/include progs helpers harness lib; do
		[ -e "$tree/$d/$1" ] && return 0
	done
	return 1
}

# The includes of a file, one per line ("x.h" and <x.h>: the kernel's
# build puts selftests/bpf on the include path).
local_includes() {	# FILE
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*["<]\([^">]*\)[">].*/\1/p' "$1"
}

# Copy header H (and what it includes) unless bpfcheck provides it.
copy_header() {	# H
	case $1 in
	*/* | *.skel.h | *.lskel.h | *.subskel.h | vmlinux.h) return 0 ;;
	esac
	provided "$1" && return 0
	# (sh has no local variables: each function names its own.)
	for hsrc in "$kdir/progs/$1" "$kdir/$1" "$kdir/prog_tests/$1" \
		"$kdir/libarena/include/$1"; do
		[ -f "$hsrc" ] || continue
		cp "$hsrc" "$tree/progs/$1"
		echo "progs/$1"
		for h in $(local_includes "$hsrc"); do
			copy_header "$h"
		done
		return 0
	done
	# Not the kernel's either: the compiler will say what is missing.
	return 0
}

# The programs a test loads.
progs_of() {	# FILE
	{
		sed -n "s/.*#[ \t]*include[ \t]*[<\"]\([A-Za-z0-9_]*\)\.l\{0,1\}skel\.h.*/\1/p" \
			"$1"
		grep -o '"\(\./\)\{0,1\}[A-Za-z0-9_]*\.\(bpf\.\)\{0,1\}o"' "$1" |
			sed 's/^"\(\.\/\)\{0,1\}//; s/\.bpf\.o"$//; s/\.o"$//'
	} | sort -u
}

copy_prog() {	# X
	if [ ! -f "$kdir/progs/$1.c" ]; then
		echo "$1: no progs/$1.c in $kdir" >&2
		status=1
		return 0
	fi
	cp "$kdir/progs/$1.c" "$tree/progs/$1.c"
	echo "progs/$1.c"
	for h in $(local_includes "$kdir/progs/$1.c"); do
		copy_header "$h"
	done
}

for name in "$@"; do
	tsrc=$kdir/prog_tests/$name.c
	if [ ! -f "$tsrc" ]; then
		echo "$name: no prog_tests/$name.c in $kdir" >&2
		status=1
		continue
	fi
	cp "$tsrc" "$tree/prog_tests/$name.c"
	echo "prog_tests/$name.c"
	for h in $(local_includes "$tsrc"); do
		copy_header "$h"
	done
	for p in $(progs_of "$tsrc"); do
		copy_prog "$p"
	done
done
exit "$status"
