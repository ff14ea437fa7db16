#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build a kernel series' own BPF selftests into one bpfcheck test_progs,
# each test on its own terms: one that does not build is listed with its
# first compiler error and blocks none of the others.
#
# DIR gets the series' tests (scripts/kernel-tests-import.sh -d: every
# prog_tests/T.c, or the TESTs named, with the programs they load, the
# headers and the kernel's helper sources they need), and DIR/kernel the
# kernel tree's tools/ headers they reach (links into the cached
# linux-source; nothing of the kernel is kept in bpfcheck).  The programs
# build against a vmlinux.h of the series' BTF (-b FILE, VMLINUX_BTF, or
# scripts/kernel-btf.sh SERIES where that exists); bpfcheck's own build
# keeps the host's.  Then, with "make TESTS_DIR=DIR" (scripts/tests-dir.mk):
#
#   1. every BPF object and skeleton, make -k;
#   2. the objects of the tests whose programs all built (and the helper
#      sources), make -k;
#   3. the link of those that built; a test the linker rejects (an
#      undefined reference) is left out and the link done again.
#
# A file that failed is left out of the next step (DIR/build/exclude.txt),
# never deleted.  DIR/not-built.tsv: "TEST<TAB>first error" (paths
# relative to DIR); DIR/built.txt: the tests in DIR/build/test_progs.
# A rerun is incremental: objects are reused, and when nothing changed
# since the last run (bpfcheck's sources, DIR's files, the BTF) the known
# failures are not tried again.
#
# Usage: kernel-tests/build.sh [-o DIR] [-b BTF] [-j N] [-a ADD] SERIES [TEST...]
#   SERIES  linux-source series: 6.1, 6.12, 7.2, ...
#   TEST    the series' test names (default: all of them, and ADD's)
#   -a ADD  tests of your own laid out like selftests/bpf (ADD/prog_tests,
#           ADD/progs) built beside the series' ones
#   -o DIR  default build/kernel-tests/SERIES
#   -b BTF  the series' vmlinux BTF (default $VMLINUX_BTF, else
#           scripts/kernel-btf.sh SERIES)
#   -j N    make jobs (default: the number of CPUs)
# Environment: VMTEST_CACHE (where linux-source trees are cached).
# Exit: 0 test_progs linked, 1 it could not be, 2 bad usage.
set -eu
# (One compound command: sh reads it whole before running it, so the
# script may be edited while a long build runs.)
{
srcdir=$(cd "$(dirname "$0")/.." && pwd)
here=$srcdir/kernel-tests
dir=
add=
btf=${VMLINUX_BTF:-}
jobs=$(nproc 2>/dev/null || echo 1)

usage() {
	echo "usage: kernel-tests/build.sh [-o DIR] [-b BTF] [-j N] [-a ADD] SERIES [TEST...]" \
		"($*)" >&2
	exit 2
}

die() {
	echo "kernel-tests build: $*" >&2
	exit 1
}

while getopts o:b:j:a: opt; do
	case $opt in
	o) dir=$OPTARG ;;
	a)
		if ! add=$(cd "$OPTARG" 2>/dev/null && pwd) || [ ! -d "$add/prog_tests" ]; then
			usage "bad -a '$OPTARG': a directory with prog_tests/"
		fi
		;;
	b) btf=$OPTARG ;;
	j) jobs=$OPTARG ;;
	*) usage "unknown option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -ge 1 ] || usage "no SERIES"
series=$1
shift
case $series in
[0-9]*.[0-9]*) case $series in *[!0-9.]*) usage "bad SERIES '$series': e.g. 7.2" ;; esac ;;
*) usage "bad SERIES '$series': e.g. 7.2" ;;
esac
case $jobs in '' | *[!0-9]* | 0) usage "bad -j '$jobs': a count >= 1" ;; esac

if [ -z "$btf" ]; then
	[ -f "$srcdir/scripts/kernel-btf.sh" ] ||
		die "no BTF of $series: pass -b FILE (a $series kernel's /sys/kernel/btf/vmlinux)"
	btf=$(sh "$srcdir/scripts/kernel-btf.sh" "$series") || die "no BTF of $series (pass -b FILE)"
fi
[ -f "$btf" ] || die "-b $btf: no such file (a $series kernel's /sys/kernel/btf/vmlinux)"
btf=$(cd "$(dirname "$btf")" && pwd)/$(basename "$btf")

export VMTEST_CACHE="${VMTEST_CACHE:-$srcdir/vmtest/cache}"
kdir=$(sh "$srcdir/scripts/linux-source.sh" -b "$series")/tools/testing/selftests/bpf ||
	die "no selftests of linux-source-$series"
ksrc=$(sh "$srcdir/scripts/linux-source.sh" "$series") || die "no linux-source-$series tree"

dir=${dir:-$srcdir/build/kernel-tests/$series}
mkdir -p "$dir/build"
dir=$(cd "$dir" && pwd)
b=$dir/build
t0=$(date +%s)
export LC_ALL=C
# The makes below are this script's, not part of a make that may run it.
unset MAKEFLAGS MFLAGS MAKELEVEL

# The test names of a selftests/bpf-like directory.
names_in() {	# DIR
	find "$1/prog_tests" -maxdepth 1 -name '*.c' | sed 's|.*/||; s/\.c$//' | sort
}

if [ $# -eq 0 ]; then
	# shellcheck disable=SC2046 # test names are words
	set -- $(names_in "$kdir") $([ -z "$add" ] || names_in "$add")
fi

# A name as the table shows it (ns_check_mtu, a test of check_mtu.c) stands
# for the file that defines the test.
file_of() {	# NAME
	for d in "$kdir" $add; do
		[ ! -f "$d/prog_tests/$1.c" ] || { echo "$1"; return; }
	done
	f=$(grep -lE "^void (serial_)?test_$1\(void\)" "$kdir"/prog_tests/*.c \
		${add:+"$add"/prog_tests/*.c} 2>/dev/null | head -n 1)
	if [ -n "$f" ]; then basename "$f" .c; else echo "$1"; fi
}
# shellcheck disable=SC2046 # test names are words
set -- $(for t in "$@"; do file_of "$t"; done | awk '!seen[$0]++')

# The kernel tree's headers, as the selftests reach them (-I paths, and
# "../../../include/..." from selftests/bpf): links into the cache.
mkdir -p "$dir/kernel/tools/testing/selftests/bpf"
for d in include lib arch; do
	[ "$(readlink "$dir/kernel/tools/$d")" = "$ksrc/tools/$d" ] ||
		ln -sfn "$ksrc/tools/$d" "$dir/kernel/tools/$d"
done

# ---- import ------------------------------------------------------------

# The import again only when the series, the selection, the import or
# DIR's files changed since the last run (it takes minutes for a series).
key="$kdir $ksrc $(cksum <"$srcdir/scripts/kernel-tests-import.sh") $add $*"
import_fresh() {
	[ -f "$b/.built" ] && [ -f "$b/import.txt" ] &&
		[ "$(cat "$b/import.key" 2>/dev/null)" = "$key" ] &&
		[ -z "$(find "$dir" ${add:+"$add"} -path "$b" -prune -o ! -type d \
			-cnewer "$b/.built" -print | head -n 1)" ]
}

# Each named test from the series, or from ADD.
import_tests() {	# FROM NAME...
	from=$1
	shift
	[ $# -eq 0 ] || sh "$srcdir/scripts/kernel-tests-import.sh" -d -k "$ksrc" "$from" \
		"$dir" "$@" 2>>"$b/import.err" || true
}
if ! import_fresh; then
	: >"$b/import.err"
	{
		# shellcheck disable=SC2046 # test names are words
		import_tests "$kdir" $(for t in "$@"; do
			[ -n "$add" ] && [ -f "$add/prog_tests/$t.c" ] || echo "$t"
		done)
		# shellcheck disable=SC2046
		[ -z "$add" ] || import_tests "$add" $(for t in "$@"; do
			[ ! -f "$add/prog_tests/$t.c" ] || echo "$t"
		done)
	} >"$b/import.txt"
	echo "$key" >"$b/import.key"
fi
# Tests and programs of an earlier run that are not selected now.
for f in "$dir"/prog_tests/*.c "$dir"/progs/*.c "$dir"/progs/*.linked; do
	[ -e "$f" ] || continue
	grep -qx "${f#"$dir"/}" "$b/import.txt" || rm -f "$f"
done
# "T X": test T loads progs/X.c.
awk '/^prog_tests\// { t = $0; sub(/^prog_tests\//, "", t); sub(/\.c$/, "", t) }
	/^progs\/.*\.(c|linked)$/ { p = $0; print t, p }' "$b/import.txt" | sort -u >"$b/loads.txt"

# ---- what is known not to build ---------------------------------------

# The last run's failures still hold when nothing it read changed since
# (ctime: the import writes only files that differ).
known=$b/failed.txt
stamp=$b/.built
if [ -f "$stamp" ] && [ -f "$known" ] && [ -z "$(find "$btf" -newer "$stamp")" ] &&
	[ -z "$(find "$srcdir/compat" "$srcdir/helpers" "$srcdir/harness" "$srcdir/lib" \
		"$srcdir/progs" "$srcdir/Makefile" "$srcdir/scripts" "$dir" \
		-path "$b" -prune -o ! -type d -cnewer "$stamp" -print 2>/dev/null | head -n 1)" ]; then
	cp "$known" "$b/failed.new"
else
	: >"$b/failed.new"
fi
rm -f "$stamp"

# Programs the tests name that the series does not have (the parts of a
# linked skeleton, "X.skel.h" made of X1.c and X2.c, are not built).
sed -n 's/^\([A-Za-z0-9_]*\): no progs\/\([A-Za-z0-9_]*\)\.c in .*/\1\t\2/p' \
	"$b/import.err" | while IFS='	' read -r t p; do
	printf 'prog_tests/%s.c\tprog_tests/%s.c: error: no progs/%s.c in the series' \
		"$t" "$t" "$p"
	printf ' (a linked skeleton: not built)\n'
done >>"$b/failed.new"

# Left out of the next make: the failed files (and tests of failed progs).
exclude() {
	cut -f1 "$b/failed.new" | sort -u >"$b/exclude.txt"
}

mk() {	# TARGET LOG
	make -C "$srcdir" TESTS_DIR="$dir" OUTPUT="$b" VMLINUX_BTF="$btf" TESTS_KERNEL_TREE="$dir/kernel" \
		TESTS_KERNEL_SERIES="$(echo "$series" | awk -F. '{ print $1 * 100 + $2 }')" \
		TESTS_EXCLUDE="$b/exclude.txt" -k -Otarget -j"$jobs" "$1" >"$2" 2>&1
}

# Record FILE's first error (the make log's for TARGET) unless known.
failed() {	# FILE TARGET LOG
	grep -q "^$1	" "$b/failed.new" && return 0
	err=$(awk -v t="$2" -F '\t' '$1 == t { print $2; exit }' "$3.errors")
	[ -n "$err" ] || err="$1: error: not built (see ${3#"$dir"/})"
	printf '%s\t%s\n' "$1" "$err" | sed "s|$dir/||g; s|$srcdir/|bpfcheck/|g" \
		>>"$b/failed.new"
}

first_errors() {	# LOG
	awk -f "$here/first-errors.awk" "$1" >"$1.errors"
}

# ---- 1. BPF objects and skeletons --------------------------------------

exclude
mk tests-dir-bpf "$b/bpf.log" || true
first_errors "$b/bpf.log"
# The parts of linked skeletons (progs/X.linked) have no skeleton.
cat "$dir"/progs/*.linked 2>/dev/null | tr ' ' '\n' >"$b/parts.txt"
for f in "$dir"/progs/*.c; do
	[ -e "$f" ] || continue
	x=$(basename "$f" .c)
	grep -qx "progs/$x.c" "$b/exclude.txt" && continue
	if [ ! -f "$b/bpf/$x.bpf.o" ]; then
		failed "progs/$x.c" "bpf/$x.bpf.o" "$b/bpf.log"
	elif [ ! -f "$b/bpf/$x.skel.h" ] && ! grep -qx "$x" "$b/parts.txt"; then
		# Without a skeleton, for the tests that open X.bpf.o.
		if grep -q "^[ \t]*#[ \t]*include[ \t]*[<\"]$x\.skel\.h" "$dir"/prog_tests/*.c; then
			failed "progs/$x.c" "bpf/$x.skel.h" "$b/bpf.log"
		else
			printf 'progs/%s.skel.h\tno skeleton\n' "$x" >>"$b/failed.new"
		fi
	fi
done
for f in "$dir"/progs/*.linked; do
	[ -e "$f" ] || continue
	x=$(basename "$f" .linked)
	grep -qx "progs/$x.linked" "$b/exclude.txt" && continue
	# (X.linked.o is intermediate: X.skel.h says it all.)
	[ -f "$b/bpf/$x.skel.h" ] && continue
	if grep -q "^bpf/$x\.linked\.o	" "$b/bpf.log.errors"; then
		failed "progs/$x.linked" "bpf/$x.linked.o" "$b/bpf.log"
	else
		failed "progs/$x.linked" "bpf/$x.skel.h" "$b/bpf.log"
	fi
done
# A light skeleton that failed: its test only.
for f in "$dir"/prog_tests/*.c; do
	[ -e "$f" ] || continue
	sed -n 's/^[ \t]*#[ \t]*include[ \t]*[<"]\(.*\)\.lskel\.h[>"].*/\1/p' "$f" |
		while read -r x; do
			[ -f "$b/bpf/$x.lskel.h" ] || [ ! -f "$b/bpf/$x.bpf.o" ] ||
				failed "prog_tests/$(basename "$f")" "bpf/$x.lskel.h" "$b/bpf.log"
		done
done
# A test fails with the first program it loads that failed.
while read -r t p; do
	err=$(awk -F '\t' -v p="$p" '$1 == p { print $2; exit }' "$b/failed.new")
	[ -z "$err" ] || grep -q "^prog_tests/$t.c	" "$b/failed.new" ||
		printf 'prog_tests/%s.c\t%s\n' "$t" "$err" >>"$b/failed.new"
done <"$b/loads.txt"

# ---- 2. test objects and helper sources --------------------------------

exclude
mk tests-dir-objs "$b/objs.log" || true
first_errors "$b/objs.log"
for f in "$dir"/helpers/*.c "$dir"/prog_tests/*.c; do
	[ -e "$f" ] || continue
	rel=${f#"$dir"/}
	grep -qx "$rel" "$b/exclude.txt" && continue
	case $rel in
	helpers/*) o=obj/tests_helpers/$(basename "$f" .c).o ;;
	*) o=obj/prog_tests/$(basename "$f" .c).o ;;
	esac
	[ -f "$b/$o" ] || failed "$rel" "$o" "$b/objs.log"
done
# A test that includes the header of a helper source that failed.
sed -n 's|^helpers/\([^\t]*\)\.c\t\(.*\)|\1\t\2|p' "$b/failed.new" >"$b/failed.helpers"
while IFS='	' read -r h err; do
	grep -l "^[ \t]*#[ \t]*include[ \t]*[<\"]$h\.h[>\"]" "$dir"/prog_tests/*.c |
		while read -r f; do
			printf 'prog_tests/%s\t%s\n' "$(basename "$f")" "$err"
		done
done <"$b/failed.helpers" >>"$b/failed.new"

# ---- 3. the link -------------------------------------------------------

# A test object the linker names in an error is left out; again, at most
# five times (each round drops at least one).
rounds=0
rm -f "$b"/link.*.log
while :; do
	exclude
	if mk all "$b/link.log"; then
		break
	fi
	rounds=$((rounds + 1))
	log=$b/link.$rounds.log
	mv "$b/link.log" "$log"
	# "FILE<TAB>error" for each object the linker names before an error.
	bad=$(awk '
		match($0, /\/obj\/(prog_tests|tests_helpers)\/[A-Za-z0-9_]+\.o/) {
			o = substr($0, RSTART + 5, RLENGTH - 7)
			sub(/^tests_helpers/, "helpers", o)
			cur = o ".c"
		}
		cur != "" && !(cur in seen) && /undefined reference|multiple definition/ {
			seen[cur] = 1
			print cur "\t" $0
		}' "$log")
	if [ -z "$bad" ] || [ "$rounds" -gt 5 ]; then
		die "test_progs does not link ($log): $(grep -m1 -i error "$log")"
	fi
	printf '%s\n' "$bad" | sed "s|$dir/||g; s|$b/||g; s|/usr/bin/ld: ||" >>"$b/failed.new"
done

# ---- results -----------------------------------------------------------

sort -u "$b/failed.new" >"$known"
rm -f "$b/failed.new"
# shellcheck disable=SC2059 # the format is a tab
for t in "$@"; do
	if ! [ -f "$dir/prog_tests/$t.c" ]; then
		printf "$t\\t%s\\n" "no prog_tests/$t.c in the series"
	else
		awk -F '\t' -v f="prog_tests/$t.c" -v t="$t" \
			'$1 == f { print t "\t" $2; exit }' "$known"
	fi
done >"$dir/not-built.tsv"
for t in "$@"; do
	grep -q "^$t	" "$dir/not-built.tsv" || echo "$t"
done >"$dir/built.txt"
# After the lists: what this run wrote is not a change the next one sees.
touch "$stamp"

n=$#
nb=$(wc -l <"$dir/not-built.tsv")
nok=$((n - nb))
echo "kernel-tests build: $series: $n tests, $nok built, $nb not built" \
	"($(awk -v a="$nok" -v n="$n" 'BEGIN { printf "%.1f%%", n ? 100 * a / n : 0 }'))" \
	"in $(($(date +%s) - t0)) s"
echo "  test_progs: $b/test_progs; lists: $dir/built.txt, $dir/not-built.tsv"
if [ "$nb" -gt 0 ]; then
	echo "  the commonest causes of not built:"
	awk -F '\t' -f "$here/causes.awk" "$dir/not-built.tsv" | sort | uniq -c |
		sort -rn | head -n 10 | sed 's/^ */    /'
fi
exit 0
}
