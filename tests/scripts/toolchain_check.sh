#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# Checks of the two toolchains (Documentation/toolchain.md):
#   - the default build (OUTPUT): libbpf >= 1.7 built from source and
#     linked statically, clang >= 19; the libbpf 1.3 test runs there and
#     passes, and so does isa_versions/v4 where the kernel has ISA v4;
#   - LIBBPF=system CLANG=clang-14, built into OUTPUT/system: Debian's
#     shared libbpf 1.1; the build prints the LEFT-OUT line of the libbpf
#     1.3 test, the suite passes, and that test is a SKIP with its reason;
#   - a no-op make of either build compiles, links and fetches nothing;
#   - the "requires" marker (scripts/requires.awk): newer versions are
#     left out, equal or older ones not, a malformed marker is an error;
#   - a bad LIBBPF value is refused before anything is built.
#
# Usage: [OUTPUT=build-dir] sh tests/scripts/toolchain_check.sh ("make check" runs
# it after building OUTPUT).  Prints "ok N - ..." / "not ok N - ...", then
# "toolchain-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=toolchain
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

need toolchain-checks "make check" "$OUTPUT/test_progs"
SYS=$OUTPUT/system
PER_RING=ringbuf_per_ring
LEFT_OUT_WHY="not built: needs libbpf 1.3 (ring_buffer__ring"

# The makes below are a user's, not part of the make that may run this.
unset MAKEFLAGS MFLAGS MAKELEVEL
jobs=-j$(nproc 2>/dev/null || echo 1)

# The environment block of a test_progs -J run: FIELD's value.
env_field() {	# JSON FIELD
	jq -r --arg f "$2" '.environment[$f]' "$1"
}

# MAJOR.MINOR from "v1.8", "22.1.8" etc.: MAJOR*1000+MINOR, comparable.
version_num() {
	echo "$1" | sed 's/^v//' | awk -F. '{ print $1 * 1000 + $2 }'
}

check_default_build() {
	json=$T/default.json
	begin "default build: libbpf >= 1.7 from linux-source, static; clang >= 19"
	run "$OUTPUT/test_progs" -J "$json" -t "$PER_RING,isa_versions"
	expect_exit 0
	if jq -e . "$json" >/dev/null 2>&1; then
		lv=$(env_field "$json" libbpf_version)
		cv=$(env_field "$json" clang_version)
		[ "$(version_num "$lv")" -ge 1007 ] || bad "libbpf $lv, expected >= 1.7"
		[ "$(version_num "$cv")" -ge 19000 ] || bad "clang $cv, expected >= 19"
		expect_jq "$json" '.environment.libbpf_source | test("^(linux-source-|kernel tree )")'
	else
		bad "test_progs -J wrote no JSON"
	fi
	ldd "$OUTPUT/test_progs" >"$T/ldd" 2>&1
	expect_no "$T/ldd" "libbpf"
	end_check

	begin "default build: the libbpf 1.3 test passes; isa_versions/v4 passes or says why"
	expect_jq "$json" '.results[] | select(.name == "'"$PER_RING"'") | .outcome == "PASS"'
	v4=$(jq -r '.results[] | select(.name == "isa_versions") | .subtests[] |
		select(.name == "v4") | .outcome' "$json" 2>/dev/null)
	if jq -e '.environment.features.isa_v4.present' "$json" >/dev/null 2>&1; then
		expect_eq "isa_versions/v4 on a kernel with ISA v4" PASS "$v4"
	else
		expect_eq "isa_versions/v4 on a kernel without ISA v4" SKIP "$v4"
	fi
	end_check
}

check_system_build() {
	begin "LIBBPF=system CLANG=clang-14 builds, leaving out the libbpf 1.3 test with its reason"
	# The LEFT-OUT line comes with that object: make it (and the
	# program, as objects are .SECONDARY) again.
	rm -f "$SYS/obj/prog_tests/$PER_RING.o" "$SYS/test_progs"
	run make -C "$REPO" "$jobs" LIBBPF=system CLANG=clang-14 OUTPUT="$SYS" all
	expect_exit 0
	expect_has "$OUT" "  LEFT-OUT  prog_tests/$PER_RING.c: $LEFT_OUT_WHY"
	expect_no "$ERR" "warning:"
	ldd "$SYS/test_progs" >"$T/ldd" 2>&1
	expect_has "$T/ldd" "libbpf.so.1"
	end_check
	[ -x "$SYS/test_progs" ] || return 0

	json=$T/system.json
	begin "LIBBPF=system: the suite passes; the left-out test is a SKIP saying what it needs"
	run "$SYS/test_progs" --leak-check -J "$json"
	expect_exit 0
	expect_has "$OUT" " $PER_RING:SKIP ($LEFT_OUT_WHY"
	expect_jq "$json" '.failed == 0'
	failed=$(jq -r '[.results[] | select(.failed) | .name] | join(", ")' "$json" 2>/dev/null)
	[ -z "$failed" ] || bad "failed: $failed"
	expect_jq "$json" '.results[] | select(.name == "'"$PER_RING"'") |
		.outcome == "SKIP" and (.skip_reason | startswith("'"$LEFT_OUT_WHY"'"))'
	expect_jq "$json" '[.results[] | (., .subtests[]) |
		select(.outcome == "SKIP" and ((.skip_reason // "") == ""))] | length == 0'
	expect_jq "$json" '.environment.libbpf_source == "system"'
	expect_jq "$json" '.environment.libbpf_version == "v1.1"'
	expect_jq "$json" '.environment.clang_version | startswith("14.")'
	expect_jq "$json" '.results[] | select(.name == "isa_versions") | .subtests[] |
		select(.name == "v4") | .skip_reason | test("clang-14 .*needs clang 18")'
	end_check

	begin "LIBBPF=system --ktap: the header names libbpf (system) and clang 14"
	run "$SYS/test_progs" --ktap -t "$PER_RING"
	expect_exit 4
	expect_match "$OUT" "^# kernel .*; libbpf v1\\.1 \\(system, shared\\), clang 14\\."
	expect_line "$OUT" "ok 1 $PER_RING # SKIP $(jq -r '.results[] |
		select(.name == "'"$PER_RING"'") | .skip_reason' "$json")"
	end_check
}

# A no-op make builds nothing: no compiler, link, fetch or libbpf line.
check_noop() {	# LABEL MAKE-ARGS...
	label=$1
	shift
	begin "$label: a second make builds nothing"
	run make -C "$REPO" "$@" all
	expect_exit 0
	expect_no_match "$OUT" "^  (CC|BINARY|CLNG-BPF|GEN-SKEL|LIBBPF|BPFTOOL|GEN) "
	expect_empty "$ERR"
	end_check
}

# Marker FILE content, build_info with version HAVE: what requires.awk says.
requires() {	# HAVE MARKER-LINE
	printf '#define BUILD_LIBBPF_VERSION "%s"\n#define BUILD_LIBBPF_ORIGIN "o"\n' \
		"$1" >"$T/build_info.h"
	printf '// test\n%s\nvoid test_x(void) {}\n' "$2" >"$T/x.c"
	run awk -f "$REPO/scripts/requires.awk" "$T/build_info.h" "$T/x.c"
}

check_marker() {
	ok="/* bpfcheck: requires libbpf 1.3 (ring_buffer__ring) */"
	begin "requires.awk: a test needing libbpf 1.3 is left out of 1.1 and 0.9, not of 1.3 or 2.0"
	requires 1.1 "$ok"
	expect_exit 0
	expect_content "$OUT" "$T/x.c	not built: needs libbpf 1.3 (ring_buffer__ring);\
 this build has libbpf 1.1 (o)"
	requires 0.9 "$ok"
	expect_has "$OUT" "needs libbpf 1.3"
	requires 1.3 "$ok"
	expect_exit 0
	expect_empty "$OUT"
	requires 2.0 "$ok"
	expect_empty "$OUT"
	requires 1.12 "/* bpfcheck: requires libbpf 1.9 (ring__consume_n) */"
	expect_empty "$OUT"
	end_check

	begin "requires.awk: a malformed marker is an error naming file, line and form"
	for bad_marker in "/* bpfcheck: requires libbpf 1.x (a) */" \
		"/* bpfcheck: requires libbpf 1.3 */" "// bpfcheck: requires libbpf 1.3 (a)"; do
		requires 1.1 "$bad_marker"
		expect_exit 2
		expect_nlines "$ERR" 1
		expect_has "$ERR" "$T/x.c:2: bad marker '$bad_marker'"
		expect_has "$ERR" "expected: /* bpfcheck: requires libbpf X.Y (API, ...) */"
	done
	end_check
}

check_bad_input() {
	begin "make LIBBPF=static: refused with the accepted values, nothing built"
	run make -C "$REPO" LIBBPF=static OUTPUT="$T/unbuilt" all
	expect_exit 2
	expect_has "$ERR" "LIBBPF=static: expected LIBBPF=source or LIBBPF=system"
	[ ! -e "$T/unbuilt" ] || bad "make created $T/unbuilt"
	end_check
}

t_start=$(date +%s)
check_marker
check_bad_input
check_default_build
check_noop "default build" OUTPUT="$OUTPUT"
check_system_build
check_noop "LIBBPF=system" LIBBPF=system CLANG=clang-14 OUTPUT="$SYS"
echo "toolchain checks took $(($(date +%s) - t_start)) s"
echo "toolchain-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
