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
# Usage: kernel-tests/reference.sh [-j N] [-t "TEST..."] SERIES
# Prints the directory of the build: test_progs, the BPF objects and what
# the tests run beside them (bpftool, urandom_read, ...), and
# not-built.txt, the tests left out because their objects did not build.  Cached in
# $VMTEST_CACHE/reference/linux-source-SERIES_VERSION (the make log as
# build.log beside it); remove it to build again.
#   -t TESTS  only these tests (prog_tests/TEST.c): the kernel's Makefile
#             in a copy of the tree whose prog_tests/ and progs/ keep only
#             those tests, the programs they load (as kernel-tests-import.sh
#             finds them) and the ones the Makefile names itself (light and
#             linked skeletons); everything else is the tree's, linked.
#             Minutes instead of the whole series' build; cached apart, per
#             set of tests (.../linux-source-SERIES_VERSION-t<cksum>);
#             the whole series' build is used instead where it is there.
# Exit: 0, 1 when it cannot be built, 2 bad usage.
set -eu
# (One compound command: sh reads it whole before running it, so an edit
# does not break a build of minutes.)
{
srcdir=$(cd "$(dirname "$0")/.." && pwd)
VT_CACHE=${VMTEST_CACHE:-$srcdir/vmtest/cache}
export VMTEST_CACHE="$VT_CACHE"
# shellcheck source=../vmtest/lib.sh
. "$srcdir/vmtest/lib.sh"

usage() {
	echo "reference: $* (usage: kernel-tests/reference.sh [-j N] [-t \"TEST...\"] SERIES," \
		"e.g. 7.2)" >&2
	exit 2
}

jobs=$(vt_nproc)
tests=
while getopts j:t: opt; do
	case $opt in
	j) jobs=$OPTARG ;;
	t) tests="$tests $OPTARG" ;;
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
for t in $tests; do
	case $t in *[!A-Za-z0-9_]*) usage "bad test name '$t': a prog_tests/NAME.c's NAME" ;; esac
done

# A tree at DIR that is TREE's: real directories down to selftests/bpf
# (its Makefile reaches the rest through ../../../..), selftests/bpf a
# copy (29 MB), links to the tree everywhere else.
link_tree() {	# TREE DIR
	rm -rf "$2"
	mkdir -p "$2/tools/testing/selftests" || return 1
	for d in . tools tools/testing tools/testing/selftests; do
		for p in "$1/$d"/* "$1/$d"/.[!.]*; do
			[ -e "$p" ] || [ -L "$p" ] || continue
			e=${p##*/}
			case "$d/$e" in
			./tools | tools/testing | tools/testing/selftests | */selftests/bpf) ;;
			*) ln -s "$1/$d/$e" "$2/$d/$e" ;;
			esac
		done
	done
	# A copy, not links: 6.12's Makefile writes prog_tests/tests.h in the
	# tree, which would then be the tree's too (and list the wrong tests).
	cp -a "$1/tools/testing/selftests/bpf" "$2/tools/testing/selftests/bpf" &&
		rm -f "$2/tools/testing/selftests/bpf/prog_tests/tests.h"
}

# TREE at DIR with a selftests/bpf of only TESTS: their prog_tests/, the
# programs they load, and the ones the Makefile names itself (its light
# skeletons and the parts of its linked ones).
prune_tree() {	# TREE DIR TESTS...
	from=$1 to=$2
	shift 2
	link_tree "$from" "$to" || return 1
	kb=$from/tools/testing/selftests/bpf
	b=$to/tools/testing/selftests/bpf
	rm -f "$b"/prog_tests/*.c "$b"/progs/*.c
	imp=$to.import
	rm -rf "$imp"
	mkdir -p "$imp"
	sh "$srcdir/scripts/kernel-tests-import.sh" -d -k "$from" "$kb" "$imp" "$@" >/dev/null ||
		return 1
	for f in "$imp"/prog_tests/*.c "$imp"/progs/*.c; do
		[ ! -f "$f" ] || cp -p "$kb/${f#"$imp"/}" "$b/${f#"$imp"/}"
	done
	rm -rf "$imp"
	for p in $(sed -n '/^LINKED_SKELS :=/,/^LINKED_BPF_OBJS :=/p' "$kb/Makefile" |
		grep -o '[A-Za-z0-9_]*\.\(c\|bpf\.o\)\b' | sed 's/\.bpf\.o$/.c/' | sort -u); do
		[ ! -f "$kb/progs/$p" ] || cp -p "$kb/progs/$p" "$b/progs/$p"
	done
}

# TREE at DIR without the tests named (prog_tests/TEST.c).
tree_without() {	# TREE DIR TEST...
	from=$1 to=$2
	shift 2
	link_tree "$from" "$to" || return 1
	for t in "$@"; do
		rm -f "$to/tools/testing/selftests/bpf/prog_tests/$t.c"
	done
}

# The kernel's make of test_progs in selftests/bpf DIR, its log to LOG.
# Its test modules are neither made (-o) nor copied beside test_progs
# (TRUNNER_EXTRA_FILES without them): their Makefiles want the configured
# kernel tree they are part of, and 6.12's links no test_progs when they
# fail; scripts/testmod-build.sh builds them for each guest's kernel.
make_reference() {	# DIR LOG
	kos=
	for ko in $(grep -o '[A-Za-z0-9_]*\.ko\b' "$1/Makefile" | sort -u); do
		kos="$kos -o $ref.tmp/$ko"
	done
	extras=$(awk '/^TRUNNER_BPF_BUILD_RULE/ && on { exit }
		/^TRUNNER_EXTRA_FILES :=/ { on = 1; sub(/^TRUNNER_EXTRA_FILES :=/, "") }
		on { sub(/\\$/, ""); print }' "$1/Makefile" | tr -s ' \t\n' ' ' |
		sed 's/\$(OUTPUT)\/[A-Za-z0-9_]*\.ko//g; s/\$(TEST_KMOD_TARGETS)//g')
	# shellcheck disable=SC2086 # options are words
	make -C "$1" -k -j"$jobs" $kos TRUNNER_EXTRA_FILES="$extras" LLVM=-22 BPF_STRICT_BUILD=0 \
		VMLINUX_BTF="$btf" OUTPUT="$ref.tmp" "$ref.tmp/test_progs" >>"$2" 2>&1 || true
}

tree=$(sh "$srcdir/scripts/linux-source.sh" -f "$series") || exit 1
ref=$VT_CACHE/reference/$(basename "$tree")
selftests=$tree/tools/testing/selftests/bpf
for t in $tests; do
	[ -f "$selftests/prog_tests/$t.c" ] ||
		usage "bad test '$t': not a test of $series's selftests (prog_tests/$t.c)"
done
# The whole series' build, where there is one, has every test.
if [ -f "$ref/.complete" ]; then
	echo "$ref"
	exit 0
fi
if [ -n "$tests" ]; then
	tests=$(printf '%s\n' $tests | sort -u | tr '\n' ' ')
	ref=$ref-t$(echo "$tests" | cksum | cut -d ' ' -f 1)
fi
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
if [ -n "$tests" ]; then
	vt_log "a tree of the tests $tests"
	# shellcheck disable=SC2086 # test names are words
	prune_tree "$tree" "$ref.src" $tests || vt_die "cannot make the tree of $tests in $ref.src"
	selftests=$ref.src/tools/testing/selftests/bpf
fi
: >"$ref.log"
# (A stopped build's test dependencies may name headers as they were then,
# not where the build makes them: they are made again.)
rm -f "$ref.tmp"/*.test.d
make_reference "$selftests" "$ref.log"
# Older Makefiles (6.12's) link test_progs only when every test's object
# built: one that does not (6.12.117's bpf_attr_size.c includes the
# skeleton of a program its tree lacks; clang 22 finds new warnings) is
# left out, as 7.x's own Makefile leaves it out, and listed.
failed=$(sed -n 's|^make: \*\*\* \[.*/\([A-Za-z0-9_]*\)\.test\.o\] Error.*|\1|p' "$ref.log" |
	sort -u | tr '\n' ' ')
if [ ! -x "$ref.tmp/test_progs" ] && [ -n "$failed" ]; then
	vt_log "tests whose objects did not build, left out: $failed"
	if [ -n "$tests" ]; then
		# The tree of -t is this script's own copy.
		for t in $failed; do
			rm -f "$selftests/prog_tests/$t.c"
		done
	else
		# shellcheck disable=SC2086 # test names are words
		tree_without "$tree" "$ref.src" $failed ||
			vt_die "cannot make the tree without $failed in $ref.src"
		selftests=$ref.src/tools/testing/selftests/bpf
	fi
	# shellcheck disable=SC2086 # test names are words
	printf '%s\n' $failed >"$ref.tmp/not-built.txt"
	make_reference "$selftests" "$ref.log"
fi
if [ ! -x "$ref.tmp/test_progs" ]; then
	grep -m 1 -E 'No such file|undefined reference|Error [0-9]' "$ref.log" >&2 ||
		tail -n 3 "$ref.log" >&2
	vt_die "the kernel's test_progs of $series did not build (see $ref.log)"
fi
nobj=$(find "$ref.tmp" -maxdepth 1 -name '*.bpf.o' | wc -l)
nerr=$(grep -c 'error:' "$ref.log" || true)
mv "$ref.log" "$ref.tmp/build.log"
touch "$ref.tmp/.complete"
rm -rf "$ref" "$ref.src"
mv "$ref.tmp" "$ref"
vt_log "the kernel's test_progs of $series: $nobj BPF objects, $nerr compiler errors," \
	"in $(vt_elapsed "$t0") s"
echo "$ref"
}
