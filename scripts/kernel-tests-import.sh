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
# test is not there.  Used by tests/scripts/kernel_tests_check.sh,
# scripts/kernel-tests-survey.sh and kernel-tests/build.sh.
#
# With -d, TREE is a tests directory (make TESTS_DIR=TREE) rather than a
# bpfcheck tree: the headers bpfcheck provides are this script's tree's;
# headers reached by relative paths ("../test_btf.h") are copied to the
# same place in TREE; and the kernel's helper sources the tests need
# (X.c beside a helper header X.h the test includes: btf_helpers.c,
# netlink_helpers.c, ...) go to TREE/helpers/, a link into the kernel
# tree (disasm.c) resolved in KERNEL_TREE (-k, the series' source root).
# Files keep the kernel's times and are written only when they differ,
# so that a second import rebuilds nothing.
#
# Usage: scripts/kernel-tests-import.sh [-d [-k KERNEL_TREE]]
#        SELFTESTS_BPF_DIR TREE NAME...
# Exit: 0, 1 when a named test or a program it loads is missing, 2 usage.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
testsdir=
ktree=
while getopts dk: opt; do
	case $opt in
	d) testsdir=1 ;;
	k) ktree=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 3 ] || [ ! -d "$1/prog_tests" ] ||
	{ [ -z "$testsdir" ] && [ ! -f "$2/Makefile" ]; }; then
	echo "usage: kernel-tests-import.sh [-d [-k KERNEL_TREE]] SELFTESTS_BPF_DIR" \
		"TREE NAME... (a kernel's tools/testing/selftests/bpf; a bpfcheck" \
		"tree, or with -d a tests directory)" >&2
	exit 2
fi
kdir=$1
tree=$2
shift 2
status=0
seen=
# Where bpfcheck's own headers are: the tree, or this script's.
own=$tree
compat="compat/bpf compat/include"
if [ -n "$testsdir" ]; then
	own=$srcdir
	compat=
	mkdir -p "$tree/progs" "$tree/prog_tests"
fi

# Whether bpfcheck's tree has a header of that name where builds look.
# In a tests directory the kernel's own BPF-side headers (compat/ has
# bpfcheck's versions of them) are taken from the series: they declare
# its kfuncs as its vmlinux.h does.
provided() {	# NAME
	for d in $compat progs helpers harness lib; do
		[ -e "$own/$d/$1" ] && return 0
	done
	return 1
}

# Copy SRC to DEST unless it is there already, keeping its times.
put() {	# SRC DEST
	cmp -s "$1" "$2" || cp -p "$1" "$2"
}

# A kernel helper's source beside header H (btf_helpers.c for
# btf_helpers.h), into TREE/helpers (with -d).
copy_helper_src() {	# H
	[ -n "$testsdir" ] || return 0
	csrc=$kdir/${1%.h}.c
	if [ -L "$csrc" ] && [ ! -e "$csrc" ] && [ -n "$ktree" ]; then
		# A link into the kernel tree (disasm.c: kernel/bpf/disasm.c).
		rel=$(realpath -m "/tools/testing/selftests/bpf/$(readlink "$csrc")")
		csrc=$ktree$rel
		[ ! -f "${csrc%.c}.h" ] || put "${csrc%.c}.h" "$tree/progs/$1"
	fi
	[ -f "$csrc" ] || return 0
	case $csrc in */test_progs.c | */test_loader.c) return 0 ;; esac
	mkdir -p "$tree/helpers"
	put "$csrc" "$tree/helpers/${1%.h}.c"
	echo "helpers/${1%.h}.c"
	for h in $(local_includes "$csrc"); do
		copy_header "$h"
	done
}

# The includes of a file, one per line ("x.h" and <x.h>: the kernel's
# build puts selftests/bpf on the include path); one by a ../ path that
# stays in selftests/bpf as the file it names ("/.../test_btf.h").
local_includes() {	# FILE
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*["<]\([^">]*\)[">].*/\1/p' "$1" |
		while read -r inc; do
			case $inc in
			../*/*/*) ;;
			../*) realpath -m "$(dirname "$1")/$inc" ;;
			*) echo "$inc" ;;
			esac
		done
}

# Copy header H (and what it includes) unless bpfcheck provides it.
copy_header() {	# H
	case $1 in
	*.skel.h | *.lskel.h | *.subskel.h | vmlinux.h) return 0 ;;
	/*)
		# "../test_btf.h", "../test_kmods/bpf_testmod.h": the same
		# place in a tests directory.
		[ -n "$testsdir" ] || return 0
		rdst=$(realpath -m --relative-to="$kdir" "$1")
		case $rdst in ../* | /*) return 0 ;; esac
		[ -f "$1" ] || return 0
		# (Its own key: "../bpf_experimental.h" is not progs/'s copy.)
		case " $seen " in *" /$rdst "*) return 0 ;; esac
		seen="$seen /$rdst"
		mkdir -p "$(dirname "$tree/$rdst")"
		put "$1" "$tree/$rdst"
		echo "$rdst"
		for h in $(local_includes "$1"); do
			copy_header "$h"
		done
		return 0
		;;
	progs/*/*) return 0 ;;
	progs/*)
		# "progs/cg_storage_multi.h": selftests/bpf is on the path.
		copy_header "${1#progs/}"
		return 0
		;;
	*/*) return 0 ;;
	esac
	provided "$1" && return 0
	# Once per run (headers that include each other).
	case " $seen " in *" $1 "*) return 0 ;; esac
	seen="$seen $1"
	# (sh has no local variables: each function names its own.)
	for hsrc in "$kdir/progs/$1" "$kdir/$1" "$kdir/prog_tests/$1" \
		"$kdir/libarena/include/$1"; do
		[ -f "$hsrc" ] || continue
		put "$hsrc" "$tree/progs/$1"
		echo "progs/$1"
		# (The list is made before the calls, which reuse hsrc.)
		for h in $(local_includes "$hsrc"); do
			copy_header "$h"
		done
		copy_helper_src "$1"
		return 0
	done
	copy_helper_src "$1"
	# Not the kernel's either: the compiler will say what is missing.
	return 0
}

# The programs a test loads.
progs_of() {	# FILE
	{
		sed -n "s/.*#[ \t]*include[ \t]*[<\"]\([A-Za-z0-9_]*\)\.\(l\|sub\)\{0,1\}skel\.h.*/\1/p" \
			"$1"
		grep -o '"\(\./\)\{0,1\}[A-Za-z0-9_]*\.\(bpf\.\)\{0,1\}o"' "$1" |
			sed 's/^"\(\.\/\)\{0,1\}//; s/\.bpf\.o"$//; s/\.o"$//'
		# A name made by the preprocessor, "btf__core_reloc_" #name ".bpf.o"
		# (core_reloc's 70 BTF files): every program the prefix begins.
		grep -o '"[A-Za-z0-9_]\{4,\}"[ \t]*#[ \t]*[A-Za-z_]' "$1" | sed 's/^"\([^"]*\)".*/\1/' |
			sort -u | while read -r prefix; do
				for f in "$kdir/progs/$prefix"*.c; do
					[ -f "$f" ] && basename "$f" .c
				done
			done
	} | sort -u
}

# The parts of a linked skeleton X (the kernel Makefile's
# "X.skel.h-deps := A.bpf.o B.bpf.o"), which a tests directory links
# (progs/X.linked: "A B"; tests-dir.mk).
linked_parts() {	# X
	[ -n "$testsdir" ] && [ -f "$kdir/Makefile" ] || return 0
	sed -n "s/^$1\.skel\.h-deps[ \t]*:=[ \t]*//p" "$kdir/Makefile" | sed 's/\.bpf\.o//g'
}

copy_prog() {	# X
	parts=$(linked_parts "$1")
	if [ -n "$parts" ]; then
		[ "$(cat "$tree/progs/$1.linked" 2>/dev/null)" = "$parts" ] ||
			echo "$parts" >"$tree/progs/$1.linked"
		echo "progs/$1.linked"
		for part in $parts; do
			copy_prog_src "$part"
		done
		return 0
	fi
	copy_prog_src "$1"
}

copy_prog_src() {	# X
	if [ ! -f "$kdir/progs/$1.c" ]; then
		echo "$name: no progs/$1.c in $kdir" >&2
		status=1
		return 0
	fi
	put "$kdir/progs/$1.c" "$tree/progs/$1.c"
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
	put "$tsrc" "$tree/prog_tests/$name.c"
	echo "prog_tests/$name.c"
	for h in $(local_includes "$tsrc"); do
		copy_header "$h"
	done
	for p in $(progs_of "$tsrc"); do
		copy_prog "$p"
	done
	# Sources of the test's own beside selftests/bpf (usdt_1.c and
	# usdt_2.c for usdt), which the kernel's test_progs links.
	for csrc in "$kdir/${name}"_[0-9].c; do
		if [ -z "$testsdir" ] || [ ! -f "$csrc" ]; then
			continue
		fi
		mkdir -p "$tree/helpers"
		put "$csrc" "$tree/helpers/${csrc##*/}"
		echo "helpers/${csrc##*/}"
		for h in $(local_includes "$csrc"); do
			copy_header "$h"
		done
	done
done
exit "$status"
