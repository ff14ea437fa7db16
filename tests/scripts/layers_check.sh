#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The shape of the tree ("layers-checks" stage of make check): the quote
# includes of every .c and .h, and the calls between .c files (a function
# one object defines and another uses, by nm over the build's objects),
# form no cycle (x.c and x.h counted as one module) and follow the folder
# arrows (tests/scripts/layers.awk):
#   bench/benchs, bench/prog_cost, bench/gate -> bench, lib
#   bench -> lib;  prog_tests -> helpers -> harness -> lib;  lib -> nothing
# with the headers in progs/ shared with the BPF side; nothing between
# bench and harness/helpers.  Negative controls: scratch copies with an
# injected include cycle, an injected call cycle and an injected arrow are
# flagged.  Also: every target "make help" prints exists.
# Ends with "layers-checks: P passed, F failed".
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=layers
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

SRC_DIRS="bench harness helpers lib prog_tests progs tests"

# The calls come from the build's objects: test_progs and the bench built.
need layers-checks "make all bench-bin" "$OUTPUT/obj/harness/runner.o" \
	"$OUTPUT/obj/bench/main.o"

# calls_scan ROOT OBJDIR [OVERRIDE]: "C caller.c callee.c" when callee.c
# (its object, OBJDIR/callee.o) defines a function caller.o uses, for the
# sources under ROOT.  An object in OVERRIDE replaces OBJDIR's.  The
# generated registry (the suite's list of tests) is not a source.  Names
# are matched across test_progs and the bench alike: a function name
# defined in both is an arrow to each (keep non-static names unique).
# A C library function test_progs replaces (harness/usleep.c, as the
# kernel's test_progs does) is the library's everywhere else: not a call.
LIBC_OVERRIDES="usleep"
calls_scan() {
	(cd "$2" && find . -name '*.o' ! -name registry.o) | sed 's|^\./||' | sort |
	while read -r o; do
		[ -f "$1/${o%.o}.c" ] || continue
		if [ -f "${3:-/nonexistent}/$o" ]; then echo "$3/$o"; else echo "$2/$o"; fi
	done | tr '\n' '\0' |
	# One nm for all objects (a process per file made this stage slow on
	# a loaded machine), POSIX format: "OBJ: name TYPE [value size]".
	xargs -0 -r nm -A -P | awk -v o2="$2/" -v o3="${3:-/nonexistent}/" '
		{
			obj = $1; sub(/:$/, "", obj)
			if (index(obj, o3) == 1) src = substr(obj, length(o3) + 1)
			else src = substr(obj, length(o2) + 1)
			sub(/\.o$/, ".c", src)
		}
		$3 == "U" { print "U", src, $2 }
		$3 == "T" { print "T", src, $2 }' | awk -v libc=" $LIBC_OVERRIDES " '
		index(libc, " " $3 " ") { next }
		$1 == "T" { def[$3] = def[$3] " " $2; next }
		{ use[++n] = $2 " " $3 }
		END {
			for (i = 1; i <= n; i++) {
				split(use[i], u, " ")
				k = split(def[u[2]], d, " ")
				for (j = 1; j <= k; j++)
					if (d[j] != u[1] && !seen[u[1], d[j]]++)
						print "C", u[1], d[j]
			}
		}'
}

# layers_scan ROOT [OVERRIDE]: the include and call graph of the sources
# under ROOT (calls from the build's objects, $OUTPUT/obj).
layers_scan() {
	(
		cd "$1" || exit 2
		# shellcheck disable=SC2086
		files=$(find $SRC_DIRS -name '*.[ch]' | sort)
		# shellcheck disable=SC2086
		printf 'F %s\n' $files
		# shellcheck disable=SC2086
		awk '/^#[[:space:]]*include[[:space:]]*"[^"]*"/ {
			inc = $0
			sub(/^#[[:space:]]*include[[:space:]]*"/, "", inc)
			sub(/".*/, "", inc)
			print "I", FILENAME, inc
		}' $files
		calls_scan "$1" "$OUTPUT/obj" "${2:-}"
	) | awk -f "$HERE/layers.awk"
}

# A copy of the sources to break on purpose.
scratch_tree() {
	rm -rf "$T/tree"
	mkdir "$T/tree"
	for d in $SRC_DIRS; do
		cp -R "$REPO/$d" "$T/tree/"
	done
}

check_tree() {
	begin "the include and call graph has no cycle and follows the folder arrows"
	run layers_scan "$REPO"
	expect_exit 0
	expect_match "$OUT" '^files [0-9]+, includes [0-9]+, calls [0-9]+, modules [0-9]+$'
	expect_no_match "$OUT" '^(cycle|arrow):'
	end_check
	cat "$OUT"
}

check_injected_cycle() {
	begin "negative control: an injected cycle lib/utf8 -> lib/json_writer is flagged"
	scratch_tree
	printf '#include "json_writer.h"\n' >>"$T/tree/lib/utf8.c"
	run layers_scan "$T/tree"
	expect_exit 1
	expect_match "$OUT" '^cycle: lib/(utf8 -> lib/json_writer|json_writer -> lib/utf8) -> '
	end_check
}

check_injected_call_cycle() {
	begin "negative control: an injected call cycle harness/runner <-> capture is flagged"
	scratch_tree
	# A call with its own prototype: no include says capture.c needs runner.c.
	printf '%s\n' 'struct runner_slot;' 'void runner_kill(struct runner_slot *slot);' \
		'void capture_kill_cycle(void);' \
		'void capture_kill_cycle(void) { runner_kill((struct runner_slot *)0); }' \
		>>"$T/tree/harness/capture.c"
	mkdir -p "$T/obj/harness"
	run "${CC:-cc}" -std=gnu11 -c -o "$T/obj/harness/capture.o" "$T/tree/harness/capture.c"
	expect_exit 0
	run layers_scan "$T/tree" "$T/obj"
	expect_exit 1
	expect_match "$OUT" '^cycle: harness/(runner -> harness/capture|capture -> harness/runner) -> '
	end_check
}

check_injected_arrows() {
	begin "negative control: lib -> harness and bench -> bench/gate are flagged"
	scratch_tree
	printf '#include "test_api.h"\n' >>"$T/tree/lib/clock.h"
	printf '#include "gate/gate.h"\n' >>"$T/tree/bench/cpus.c"
	printf '#include "bench.h"\n' >>"$T/tree/harness/select.c"
	run layers_scan "$T/tree"
	expect_exit 1
	expect_line "$OUT" 'arrow: lib/clock.h includes harness/test_api.h (lib -> harness)'
	expect_line "$OUT" 'arrow: bench/cpus.c includes bench/gate/gate.h (bench -> bench/gate)'
	expect_line "$OUT" 'arrow: harness/select.c includes bench/bench.h (harness -> bench)'
	end_check
}

# help_targets MAKEFILE: the targets "make help" prints.
help_targets() {
	make -s -f "$1" help | awk '$1 == "make" { print $2 }'
}

# missing_targets MAKEFILE: those the Makefile does not define.
missing_targets() {
	db="$T/make-db"
	make -s -f "$1" -pnq help >"$db" 2>/dev/null
	for t in $(help_targets "$1"); do
		grep -q "^$t:" "$db" || echo "$t"
	done
}

check_help() {
	begin "make help prints one line per target, and every target exists"
	run help_targets "$REPO/Makefile"
	expect_exit 0
	for t in all run_tests check help bench bench-regress vmtest clean; do
		expect_line "$OUT" "$t"
	done
	run missing_targets "$REPO/Makefile"
	expect_empty "$OUT"
	end_check

	begin "negative control: a help line for a target that does not exist is flagged"
	mkdir -p "$T/mk"
	cp -R "$REPO/scripts" "$T/mk/"
	sed 's/^#   make clean  /#   make no-such-target  /' "$REPO/Makefile" >"$T/mk/Makefile"
	run missing_targets "$T/mk/Makefile"
	expect_line "$OUT" "no-such-target"
	end_check
}

# make_var MAKEFILE VAR [ARGS...]: the value make gives VAR.
make_var() {
	mf=$1 var=$2
	shift 2
	make -s -f "$mf" -pnq "$@" help 2>/dev/null | sed -n "s|^$var :\{0,1\}= ||p"
}

# The kselftest Makefile passes the source tree as OUTPUT: the binaries
# must still land in build/, never beside bench/ (the bench binary would
# meet the bench/ folder).
check_output_dir() {
	begin "OUTPUT set to the source tree builds in its build/"
	bench=$(make_var "$REPO/Makefile" BENCH OUTPUT="$REPO")
	progs=$(make_var "$REPO/Makefile" TEST_PROGS_BIN OUTPUT="$REPO")
	expect_eq "the bench binary" "$REPO/build/bench" "$bench"
	expect_eq "test_progs" "$REPO/build/test_progs" "$progs"
	bench=$(make_var "$REPO/Makefile" BENCH OUTPUT="$T/out")
	expect_eq "the bench binary with OUTPUT=$T/out" "$T/out/bench" "$bench"
	end_check
}

check_tree
check_output_dir
check_injected_cycle
check_injected_call_cycle
check_injected_arrows
check_help
echo "layers-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
