#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# Checks of bpfcheck as a kselftest collection, against the kernel's own
# kselftest files from Debian's linux-source (scripts/linux-source.sh,
# cached in vmtest/cache/linux-source), for each series of KSFT_SERIES
# (default "6.1 newest": bookworm's kernel and the newest Debian has):
#   - make install INSTALL_PATH=DIR KSFT_DIR=... lays out a tree that the
#     kernel's run_kselftest.sh runs; its output is TAP (ktap_check
#     --kselftest) and test_progs' KTAP nested in it is valid and complete;
#   - kselftest exit codes: an all-skip selection exits 4 and is reported
#     "ok 1 ... # SKIP", a failing run exits 1 and is reported
#     "not ok 1 ... # exit=1" (the failing tests are the fixture runner's:
#     the suite has none on purpose), and the installed settings' timeout
#     stops a hanging run;
#   - copied into the kernel tree as tools/testing/selftests/bpfcheck, the
#     project builds, runs (make run_tests), installs and cleans through the
#     kernel's selftests Makefile and lib.mk;
# and, once: make emit_tests, and bad input to make install.
#
# Usage: [OUTPUT=build-dir] [KSFT_SERIES="6.1 7.2"] sh tests/scripts/kselftest_check.sh
# ("make check-kselftest").  Needs build/test_progs, test_progs_fixture and
# ktap_check, and the packages of make deps.  Prints "ok N - ..." /
# "not ok N - ..." per check, then "kselftest-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=kselftest
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

KSFT_SERIES=${KSFT_SERIES:-6.1 newest}
KTAP_CHECK=$OUTPUT/ktap_check
FIXTURE=$OUTPUT/test_progs_fixture
ENTRY=run_test_progs.sh
RESULT="selftests: bpfcheck: $ENTRY"

# The makes below are a user's, not part of the make that may run this.
unset MAKEFLAGS MFLAGS MAKELEVEL

for f in "$OUTPUT/test_progs" "$FIXTURE" "$KTAP_CHECK"; do
	if [ ! -x "$f" ]; then
		echo "kselftest-checks: $f is missing (make check builds it)"
		exit 1
	fi
done

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$(now)" 'BEGIN { printf "%.1f", b - a }'; }

# Like run, but stdout is appended to: the kselftest runner writes the
# test's output through its own "4>>/dev/stdout", which a truncating
# redirection would overwrite.
run_appending() {
	CMD=$*
	: >"$OUT"
	"$@" </dev/null >>"$OUT" 2>"$ERR"
	RC=$?
	scan_sanitizers
}

# FILE MODE WANT: ktap_check [MODE] accepts FILE and says "ktap ok: WANT...".
expect_ktap() {
	# shellcheck disable=SC2086 # MODE is an option or nothing
	"$KTAP_CHECK" $2 "$1" >"$T/ktap.out" 2>&1 ||
		bad "ktap_check $2 rejects $(label "$1"): $(cat "$T/ktap.out")"
	grep -q "^ktap ok: $3" "$T/ktap.out" ||
		bad "expected ktap_check $2 to say 'ktap ok: $3...', got: $(cat "$T/ktap.out")"
}

# The test's own output nested in the runner's: the "# "-prefixed lines
# from its KTAP version line to the runner's result line, unprefixed.
inner_ktap() {	# FILE
	sed -n '/^# KTAP version 1$/,/^\(not \)\{0,1\}ok [0-9]* selftests: /p' "$1" |
		sed '$d' | sed 's/^# \{0,1\}//' >"$T/inner.ktap"
	echo "$T/inner.ktap"
}

# After a failed check: the runner output's failing results and the
# diagnostics just before them (the output itself is too long to show).
show_failures() {	# FILE
	[ "$check_bad" = 1 ] || return 0
	grep -n -B 4 '^# *not ok ' "$1" | head -n 30 >"$T/failures"
	[ ! -s "$T/failures" ] || bad "failing results:" "$(excerpt "$T/failures" 30)"
}

# Live processes started from under $T (zombies have no command line).
ours_alive() {
	for p in /proc/[0-9]*; do
		{ tr '\0' ' ' <"$p/cmdline"; } 2>/dev/null | grep -qF "$T/" &&
			echo "${p#/proc/}"
	done
}

# The suite's BPF objects in the build: those of a progs/ source (NAME.bpf.c,
# or NAME_vN.bpf.o of a multi-ISA NAME.bpf.c).  A long-lived build/bpf may
# also hold objects that other builds left there (an example's, a removed
# program's), which an install rightly leaves out.
built_objects() {
	for o in "$OUTPUT"/bpf/*.bpf.o; do
		n=$(basename "$o" .bpf.o)
		if [ -f "$REPO/progs/$n.bpf.c" ] || [ -f "$REPO/progs/${n%_v[0-9]}.bpf.c" ]; then
			echo "$n.bpf.o"
		fi
	done
}

# Checks DIR's bpfcheck collection holds what an install must.
expect_installed() {	# DIR
	for f in "$ENTRY" test_progs bench; do
		[ -x "$1/bpfcheck/$f" ] || bad "no executable bpfcheck/$f in $1"
	done
	for f in config settings; do
		cmp -s "$REPO/$f" "$1/bpfcheck/$f" || bad "bpfcheck/$f differs from $f"
	done
	want=$(built_objects | LC_ALL=C sort)
	got=$(cd "$1/bpfcheck" && ls -- *.bpf.o 2>/dev/null | LC_ALL=C sort)
	expect_eq "BPF objects in $1/bpfcheck" "$want" "$got"
	expect_content "$1/kselftest-list.txt" "bpfcheck:$ENTRY"
}

# ---- once: emit_tests, bad input ------------------------------------------

check_emit_tests() {
	begin "make emit_tests prints the kselftest-list.txt line, COLLECTION= renames it"
	run make -s -C "$REPO" emit_tests
	expect_exit 0
	expect_content "$OUT" "bpfcheck:$ENTRY"
	run make -s -C "$REPO" emit_tests COLLECTION=bpf_extra
	expect_content "$OUT" "bpf_extra:$ENTRY"
	end_check
}

check_install_bad_input() {
	begin "make install without INSTALL_PATH fails before building anything"
	run make -s -C "$REPO" install OUTPUT="$T/unbuilt"
	expect_exit 2
	expect_count "$ERR" "set INSTALL_PATH to use install" 1
	[ ! -e "$T/unbuilt" ] || bad "make built into $T/unbuilt before failing"
	end_check

	begin "make install with a KSFT_DIR that is no kselftest tree: one line, nothing installed"
	run make -s -C "$REPO" install INSTALL_PATH="$T/bad-inst" KSFT_DIR="$REPO/tests"
	expect_exit 2
	expect_match "$ERR" "^install: KSFT_DIR '.*' has no run_kselftest.sh"
	expect_count "$ERR" "^install:" 1
	[ ! -e "$T/bad-inst" ] || bad "$T/bad-inst was created"
	end_check

	begin "make install into an existing kselftest tree keeps the other collections"
	mkdir -p "$T/shared"
	printf '%s\n' "net:fib_tests.sh" "bpfcheck:old_entry.sh" "size:get_size" \
		>"$T/shared/kselftest-list.txt"
	run make -s -C "$REPO" install INSTALL_PATH="$T/shared"
	expect_exit 0
	expect_content "$T/shared/kselftest-list.txt" "net:fib_tests.sh
size:get_size
bpfcheck:$ENTRY"
	expect_has "$OUT" "has no run_kselftest.sh: give KSFT_DIR="
	end_check
}

# ---- per kernel series: install + run_kselftest.sh ------------------------

check_install() {	# LABEL KSFT_DIR INSTALL_DIR
	begin "$1: make install INSTALL_PATH KSFT_DIR lays out the kselftest tree"
	run make -s -C "$REPO" install INSTALL_PATH="$3" KSFT_DIR="$2"
	expect_exit 0
	expect_installed "$3"
	for f in run_kselftest.sh kselftest/runner.sh kselftest/prefix.pl; do
		cmp -s "$2/$f" "$3/$f" || bad "$f is not the kernel's"
	done
	run "$3/run_kselftest.sh" -l
	expect_content "$OUT" "bpfcheck:$ENTRY"
	end_check
}

check_runner_suite() {	# LABEL INSTALL_DIR
	begin "$1: run_kselftest.sh runs the suite: TAP, 'ok 1 $RESULT', the suite's KTAP nested"
	tests=$("$2/bpfcheck/test_progs" -c)
	run_appending "$2/run_kselftest.sh"
	cp "$OUT" "$T/suite.tap"
	expect_line "$OUT" "ok 1 $RESULT"
	expect_ktap "$T/suite.tap" --kselftest "1 tests (pass 1, fail 0, skip 0)"
	expect_ktap "$(inner_ktap "$T/suite.tap")" "" "$tests tests (pass "
	expect_line "$OUT" "# # Leak check: the run left nothing behind"
	show_failures "$T/suite.tap"
	end_check
}

check_runner_skip() {	# LABEL INSTALL_DIR
	begin "$1: an all-skip selection exits 4, the runner reports 'ok 1 ... # SKIP'"
	sel="-a ringbuf/no_such_subtest"
	# shellcheck disable=SC2086 # two arguments
	run "$2/bpfcheck/$ENTRY" $sel
	expect_exit 4
	KSELFTEST_RUN_TEST_PROGS_SH_ARGS=$sel run_appending "$2/run_kselftest.sh"
	cp "$OUT" "$T/skip.tap"
	expect_line "$OUT" "ok 1 $RESULT # SKIP"
	expect_ktap "$T/skip.tap" --kselftest "1 tests (pass 0, fail 0, skip 1)"
	expect_ktap "$(inner_ktap "$T/skip.tap")" "" "1 tests (pass 0, fail 0, skip 1)"
	end_check
}

# The fixture runner (deliberately failing and hanging tests, the same
# harness) in place of test_progs, in a copy of the installed tree.  It is
# built with ASan, which refuses to start after the LD_PRELOAD of stdbuf,
# which newer runners (7.2) run tests under: that check is turned off.
check_runner_fail() {	# LABEL INSTALL_DIR
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0
	export ASAN_OPTIONS
	rm -rf "$T/fixture-tree"
	cp -a "$2" "$T/fixture-tree" && cp "$FIXTURE" "$T/fixture-tree/bpfcheck/test_progs"
	begin "$1: a failing run exits 1, the runner reports 'not ok 1 ... # exit=1'"
	run "$T/fixture-tree/bpfcheck/$ENTRY" -t fail_asserts
	expect_exit 1
	KSELFTEST_RUN_TEST_PROGS_SH_ARGS="-t fail_asserts" \
		run_appending "$T/fixture-tree/run_kselftest.sh"
	cp "$OUT" "$T/fail.tap"
	expect_line "$OUT" "not ok 1 $RESULT # exit=1"
	expect_ktap "$T/fail.tap" --kselftest "1 tests (pass 0, fail 1, skip 0)"
	expect_ktap "$(inner_ktap "$T/fail.tap")" "" "1 tests (pass 0, fail 1, skip 0)"
	end_check

	begin "$1: the installed settings' timeout stops a hanging run: '# TIMEOUT', nothing left"
	echo "timeout=2" >"$T/fixture-tree/bpfcheck/settings"
	t0=$(now)
	FIXTURE_HANG=1 KSELFTEST_RUN_TEST_PROGS_SH_ARGS="-t with_hang" \
		run_appending "$T/fixture-tree/run_kselftest.sh"
	cp "$OUT" "$T/hang.tap"
	expect_line "$OUT" "not ok 1 $RESULT # TIMEOUT 2 seconds"
	expect_ktap "$T/hang.tap" --kselftest "1 tests (pass 0, fail 1, skip 0)"
	awk -v s="$(secs "$t0")" 'BEGIN { exit !(s < 30) }' ||
		bad "the run took $(secs "$t0") s"
	sleep 0.2
	left=$(ours_alive)
	[ -z "$left" ] || bad "processes left running: $left"
	end_check
}

# ---- per kernel series: in the kernel tree --------------------------------

# A copy of the kernel's kselftest files with the project in
# tools/testing/selftests/bpfcheck (sources only: no build, caches, .git).
make_kernel_tree() {	# ROOT DEST
	rm -rf "$2"
	cp -a "$1" "$2" || return 1
	mkdir -p "$2/tools/testing/selftests/bpfcheck"
	set -- "$2" --exclude-vcs --exclude=./build --exclude=./vmtest/cache
	case $OUTPUT in
	"$REPO"/*) set -- "$@" "--exclude=./${OUTPUT#"$REPO"/}" ;;
	esac
	dest=$1
	shift
	tar -C "$REPO" "$@" -cf - . |
		tar -C "$dest/tools/testing/selftests/bpfcheck" -xf -
}

check_in_tree() {	# LABEL ROOT
	ksft=$T/linux/tools/testing/selftests
	bdir=$ksft/bpfcheck/build
	begin "$1: in a kernel tree, make -C tools/testing/selftests TARGETS=bpfcheck builds it"
	make_kernel_tree "$2" "$T/linux" || bad "cannot copy the kernel files and the project"
	t0=$(now)
	run env -u OUTPUT make -j2 -C "$ksft" TARGETS=bpfcheck
	build_secs=$(secs "$t0")
	expect_exit 0
	for f in "$ENTRY" test_progs bench; do
		[ -x "$bdir/$f" ] || bad "no $f in bpfcheck/build"
	done
	expect_no "$ERR" "warning:"
	end_check

	begin "$1: in a kernel tree, make run_tests (lib.mk): 'ok 1 $RESULT', the suite's KTAP nested"
	run_appending env -u OUTPUT make -s -C "$ksft" TARGETS=bpfcheck run_tests
	expect_exit 0
	cp "$OUT" "$T/intree.tap"
	expect_line "$OUT" "ok 1 $RESULT"
	# Newer lib.mk (7.2; not 6.12) prints no version and plan lines for
	# run_tests: check the rest as the document they would open.
	if [ "$(head -n 1 "$T/intree.tap")" != "TAP version 13" ]; then
		printf 'TAP version 13\n1..1\n' | cat - "$OUT" >"$T/intree.tap"
	fi
	expect_ktap "$T/intree.tap" --kselftest "1 tests (pass 1, fail 0, skip 0)"
	expect_ktap "$(inner_ktap "$T/intree.tap")" "" ""
	show_failures "$T/intree.tap"
	end_check

	begin "$1: in a kernel tree, make install (lib.mk, emit_tests) lays out the same tree"
	run env -u OUTPUT make -s -C "$ksft" TARGETS=bpfcheck install \
		KSFT_INSTALL_PATH="$T/kinst"
	expect_exit 0
	expect_installed "$T/kinst"
	expect_eq "installed files (kernel install vs make install)" \
		"$(ls "$T/inst/bpfcheck")" "$(ls "$T/kinst/bpfcheck")"
	run_appending "$T/kinst/run_kselftest.sh" -t "bpfcheck:$ENTRY"
	expect_line "$OUT" "ok 1 $RESULT"
	end_check

	begin "$1: in a kernel tree, make clean (lib.mk) removes what the build made"
	run env -u OUTPUT make -s -C "$ksft" TARGETS=bpfcheck clean
	expect_exit 0
	left=$(find "$bdir" -mindepth 1 2>/dev/null | head -n 3)
	[ -z "$left" ] || bad "left in bpfcheck/build: $left"
	end_check
}

check_series() {	# SERIES
	begin "$1: the kselftest files of Debian's linux-source (fetched, or cached)"
	t0=$(now)
	run sh "$REPO/scripts/linux-source.sh" "$1"
	fetch_secs=$(secs "$t0")
	expect_exit 0
	root=$(cat "$OUT")
	[ -f "$root/tools/testing/selftests/lib.mk" ] || bad "no lib.mk under '$root'"
	end_check
	[ "$check_bad" = 0 ] || return 0
	pkg=$(basename "$root" | sed 's/_/ /')
	label="$1 ($pkg)"
	[ "$1" != newest ] || label=$pkg
	echo "# $pkg: kselftest files in $fetch_secs s$(sed 's/^linux-source:/,/' "$ERR" | tr -d '\n')"

	rm -rf "$T/inst"
	check_install "$label" "$root/tools/testing/selftests" "$T/inst"
	check_runner_suite "$label" "$T/inst"
	check_runner_skip "$label" "$T/inst"
	check_runner_fail "$label" "$T/inst"
	check_in_tree "$label" "$root"
	echo "# $pkg: the in-tree build took $build_secs s"
}

t_start=$(now)
check_emit_tests
check_install_bad_input
for s in $KSFT_SERIES; do
	check_series "$s"
done
echo "kselftest checks took $(secs "$t_start") s"
echo "kselftest-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
