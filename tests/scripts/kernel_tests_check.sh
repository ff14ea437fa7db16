#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# The kernel's own selftests, unmodified, in bpfcheck (Documentation/
# kernel-tests.md).  For each series of KERNEL_TESTS_SERIES (default
# "6.12 7.2"): the kernel's tools/testing/selftests/bpf of Debian's
# linux-source (scripts/linux-source.sh -b, cached); a scratch copy of
# this tree with the tests below dropped into prog_tests/ and progs/
# (scripts/kernel-tests-import.sh) and compared with the kernel's files;
# the scratch tree builds; each test passes on the host kernel.  The
# tests are examples of the kernel's API at large: maps, XDP and tc test
# runs, skeletons, global data, a light skeleton (map_ptr), RUN_TESTS
# verifier tests.
#
# The negative controls (tests/scripts/kernel_tests/) are built into the last scratch
# tree: RUN_TESTS() expectations and CHECK()-style checks that do not
# hold fail their subtests, and the output says which and why.
#
# Usage: [OUTPUT=build-dir] [KERNEL_TESTS_SERIES="6.12 7.2"]
#        sh tests/scripts/kernel_tests_check.sh
# Prints "ok N - ..." / "not ok N - ...", then
# "kernel-tests-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=kernel-tests
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

need kernel-tests-checks "make all" "$OUTPUT/test_progs"
SERIES=${KERNEL_TESTS_SERIES:-"6.12 7.2"}
# Named by the issue (maps, XDP, tc, skeletons, global data, stacks).
NAMED="ringbuf_multi queue_stack_map xdp global_data for_each skeleton
map_lookup_percpu_elem stacktrace_map btf_map_in_map xdp_adjust_tail"
# A light skeleton, and verifier tests written with RUN_TESTS(), where
# the series has them.
# The kernel-gap control: fentry_fexit (6.12's, light skeletons) loads
# fentry and fexit programs, which this host refuses with EPERM.
GAP_SERIES=6.12
GAP_TEST=fentry_fexit
# (7.2's iter_buf_null_fail passed here until the host's kernel build
# changed: 6.18.44-fc-v782 refuses its iter programs with EPERM, as it
# refuses fentry; the kernel-tests slice runs it in a 7.2 guest.)
EXTRA="map_ptr async_stack_depth jeq_infer_not_null"
# RUN_TESTS programs of the kernel's prog_tests/verifier.c that use
# __xlated (verifier_sdiv) and __jited (verifier_jit_convergence), each
# run by a driver written here, as verifier.c's RUN() would:
# SERIES:PROGRAM.  (7.2's verifier_sdiv expects 7.x's rewrites.)
VERIFIER_PROGS="6.12:verifier_sdiv 6.12:verifier_jit_convergence
7.2:verifier_jit_convergence"
VMTEST_CACHE=${VMTEST_CACHE:-$REPO/vmtest/cache}
export VMTEST_CACHE

# The makes below are a user's, not part of the make that may run this.
unset MAKEFLAGS MFLAGS MAKELEVEL
jobs=-j$(nproc 2>/dev/null || echo 1)

# A copy of the project's sources (no build, caches or .git), with the
# libbpf the main build made, so that it is not built again.
make_scratch() {	# DEST
	mkdir -p "$1/build" || return 1
	set -- "$1" --exclude-vcs --exclude=./build --exclude=./vmtest/cache
	case $OUTPUT in
	"$REPO"/*) set -- "$@" "--exclude=./${OUTPUT#"$REPO"/}" ;;
	esac
	dest=$1
	shift
	tar -C "$REPO" "$@" -cf - . | tar -C "$dest" -xf - || return 1
	if [ -d "$OUTPUT/libbpf" ]; then
		cp -a "$OUTPUT/libbpf" "$dest/build/" || return 1
	fi
}

# Each file the import printed is byte for byte the kernel's.
expect_unmodified() {	# KDIR TREE LIST
	while read -r f; do
		base=${f#*/}
		for src in "$1/$f" "$1/progs/$base" "$1/$base"; do
			[ -f "$src" ] && break
		done
		cmp -s "$src" "$2/$f" || bad "$f differs from the kernel's $src"
	done <"$3"
}

# The series' programs of VERIFIER_PROGS, copied unmodified, and a test
# of the same name for each: prints the names.
add_verifier_progs() {	# SERIES KDIR TREE
	for sp in $VERIFIER_PROGS; do
		[ "${sp%%:*}" = "$1" ] || continue
		p=${sp#*:}
		cp "$2/progs/$p.c" "$3/progs/" || return 1
		printf '#include "test_progs.h"\n#include "%s.skel.h"\n' "$p" \
			>"$3/prog_tests/$p.c"
		printf 'void test_%s(void)\n{\n\tRUN_TESTS(%s);\n}\n' "$p" "$p" \
			>>"$3/prog_tests/$p.c"
		echo "$p"
	done
}

comma_list() {
	printf '%s\n' "$TESTS" | tr -s ' \n' ',,' | sed 's/,$//'
}

check_series() {	# SERIES [NEGATIVE]
	s=$1
	tree=$T/tree-$s
	begin "$s: the kernel's BPF selftests of linux-source-$s (fetched, or cached)"
	run sh "$REPO/scripts/linux-source.sh" -b "$s"
	expect_exit 0
	kdir=$(tail -n 1 "$OUT")/tools/testing/selftests/bpf
	[ -d "$kdir/prog_tests" ] || bad "no prog_tests/ in $kdir"
	end_check
	TESTS=$NAMED
	for t in $EXTRA; do
		[ ! -f "$kdir/prog_tests/$t.c" ] || TESTS="$TESTS $t"
	done

	begin "$s: $(printf '%s\n' "$TESTS" | wc -w) tests and what they load, copied unmodified"
	make_scratch "$tree" || bad "cannot copy the project to $tree"
	# shellcheck disable=SC2086 # the test names are words
	run sh "$REPO/scripts/kernel-tests-import.sh" "$kdir" "$tree" $TESTS
	expect_exit 0
	cp "$OUT" "$T/imported-$s"
	expect_unmodified "$kdir" "$tree" "$T/imported-$s"
	if [ "$s" = "$GAP_SERIES" ] && [ -f "$kdir/prog_tests/$GAP_TEST.c" ]; then
		run sh "$REPO/scripts/kernel-tests-import.sh" "$kdir" "$tree" "$GAP_TEST"
		expect_exit 0
	fi
	vprogs=$(add_verifier_progs "$s" "$kdir" "$tree") ||
		bad "cannot add the kernel's verifier programs"
	for p in $vprogs; do
		cmp -s "$kdir/progs/$p.c" "$tree/progs/$p.c" ||
			bad "progs/$p.c differs from the kernel's"
		TESTS="$TESTS $p"
	done
	if [ -n "${2:-}" ]; then
		if ! cp "$REPO"/tests/scripts/kernel_tests/prog_tests/*.c "$tree/prog_tests/" ||
		   ! cp "$REPO"/tests/scripts/kernel_tests/progs/*.c "$tree/progs/"; then
			bad "cannot add the RUN_TESTS negative control"
		fi
	fi
	end_check

	begin "$s: the tree with them builds (make)"
	run make -C "$tree" OUTPUT="$tree/build" "$jobs" all
	expect_exit 0
	expect_no "$ERR" "error:"
	end_check

	# From another directory: each test finds its objects by itself.
	begin "$s: test_progs -t <the tests> runs them all, exit 0"
	run sh -c "cd '$T' && '$tree/build/test_progs' -t '$(comma_list)' -J '$T/$s.json'"
	expect_exit 0
	save "run-$s"
	end_check
	[ "$s" != "$GAP_SERIES" ] || check_gap "$tree"
	for t in $TESTS; do
		begin "$s: $t passes"
		use "run-$s"
		# Subtests of another arch, or unprivileged ones, may skip.
		expect_match "$OUT" "^#[0-9]+ +$t:OK( \\(SKIP: [0-9]+/[0-9]+\\))?$"
		expect_jq "$T/$s.json" ".results[] | select(.name == \"$t\") |
			.outcome == \"PASS\" and .failed == false"
		end_check
	done
}

# A failure from a feature the kernel lacks is told apart from a bug: the
# summary names it (and its errno) as a kernel gap, and the JSON marks it.
# Where the kernel has fentry the same test must simply pass.
check_gap() {	# TREE
	[ -f "$1/prog_tests/$GAP_TEST.c" ] || return 0
	begin "$GAP_TEST: an EPERM load is named a kernel gap (or it passes with fentry)"
	run "$1/build/test_progs" -t "$GAP_TEST" -J "$T/gap.json"
	if jq -e '.environment.features.fentry.present' "$T/gap.json" >/dev/null; then
		expect_exit 0
		expect_no "$OUT" "Kernel gaps?"
	else
		expect_exit 1
		expect_match "$OUT" "^#[0-9]+ +$GAP_TEST:FAIL$"
		expect_match "$OUT" \
			"^Kernel gaps\\? 1 of 1 failed with EPERM/ENOTSUPP \\(a missing feature\\): $GAP_TEST \\(EPERM\\)$"
		expect_jq "$T/gap.json" ".results[] | select(.name == \"$GAP_TEST\") |
			.kernel_gap == \"EPERM\""
	fi
	end_check
}

# The negative control: every subtest of run_tests_wrong fails, saying why.
check_negative() {	# SERIES
	tree=$T/tree-$1
	begin "RUN_TESTS negative control: each wrong expectation fails, exit 1"
	run "$tree/build/test_progs" -t run_tests_wrong -J "$T/wrong.json"
	expect_exit 1
	save wrong
	for sub in wrong_msg loads_fine wrong_retval; do
		expect_match "$OUT" "^#[0-9]+/[0-9]+ +run_tests_wrong/$sub:FAIL$"
	done
	expect_jq "$T/wrong.json" '[.results[] | select(.name == "run_tests_wrong") |
		.subtests[] | select(.failed)] | length == 3'
	end_check

	begin "RUN_TESTS negative control: the __msg line not found is shown, with the log"
	use wrong
	expect_has "$OUT" "EXPECTED MSG NOT FOUND: 'this line is not in the verifier log'"
	expect_has "$OUT" "VERIFIER LOG:"
	expect_has "$OUT" "R0 invalid mem access 'scalar'"
	end_check

	begin "RUN_TESTS negative control: unexpected load success and a wrong __retval named"
	use wrong
	expect_has "$OUT" "unexpected successful load (expected __failure)"
	expect_has "$OUT" "ASSERT_EQ(__retval) failed: actual 0 (0x0), expected == 1 (0x1)"
	end_check

	begin "CHECK, CHECK_FAIL, ASSERT_HAS_SUBSTR/STRNEQ/FAIL, PRINT_FAIL, SYS fail, saying why"
	run "$tree/build/test_progs" -t kernel_checks_wrong
	expect_exit 1
	for sub in check check_fail has_substr strneq assert_fail print_fail sys; do
		expect_match "$OUT" "^#[0-9]+/[0-9]+ +kernel_checks_wrong/$sub:FAIL$"
	done
	expect_match "$OUT" "^#[0-9]+/[0-9]+ +kernel_checks_wrong/all_hold:OK$"
	expect_no "$OUT" "Kernel gaps?"
	expect_has "$OUT" "test_kernel_checks_wrong:FAIL:arith one and one make 2"
	expect_match "$OUT" "^test_kernel_checks_wrong:FAIL:[0-9]+$"
	expect_has "$OUT" \
		'ASSERT_HAS_SUBSTR(search) failed: "needle" is not a substring of "haystack"'
	expect_has "$OUT" 'ASSERT_STRNEQ(prefix) failed: actual "abcd" != expected "abcx"'
	expect_has "$OUT" "ASSERT_FAIL() failed: gave up after 3 tries"
	expect_match "$OUT" "^test_kernel_checks_wrong:FAIL:[0-9]+ printed failure$"
	expect_has "$OUT" "ASSERT_OK(exit 3) failed"
	expect_no "$OUT" "not reached"
	end_check

	check_texts_negative "$tree"

	begin "RUN_TESTS: the right expectations pass (run_tests_api: 6 pass, s390x's skips)"
	run "$tree/build/test_progs" -t run_tests_api
	expect_exit 0
	expect_count "$OUT" '^#[0-9]+/[0-9]+ +run_tests_api/[^:]+:OK$' 6
	expect_match "$OUT" \
		'^#[0-9]+/[0-9]+ +run_tests_api/s390x_only:SKIP \(not for this architecture\)$'
	end_check
}

# __xlated, __jited, __stderr, __linear_size, __caps_unpriv,
# __btf_func_path: right expectations pass, wrong ones fail and show
# what they did not find.
check_texts_negative() {	# TREE
	begin "RUN_TESTS texts: __xlated/__jited/__btf_func_path that hold pass"
	run "$1/build/test_progs" -a run_tests_texts
	expect_exit 0
	for sub in xlated_lines xlated_forms jited_x86 jit_on_only btf_func_names; do
		expect_match "$OUT" "^#[0-9]+/[0-9]+ +run_tests_texts/$sub:OK$"
	done
	end_check

	begin "RUN_TESTS texts negative control: each wrong expectation fails, exit 1"
	run "$1/build/test_progs" -t run_tests_texts_wrong
	expect_exit 1
	save texts_wrong
	for sub in xlated_absent xlated_not_next jited_absent stderr_silent \
		linear_on_xdp "caps_bogus @unpriv" btf_func_path_missing stdout_silent \
		jited_wrong_retval btf_path_missing log_stats_only strict_alignment_refused; do
		expect_match "$OUT" "^#[0-9]+/[0-9]+ +run_tests_texts_wrong/$sub:FAIL$"
	done
	end_check

	begin "RUN_TESTS texts negative control: what was not found, and the text seen"
	use texts_wrong
	expect_has "$OUT" "EXPECTED XLATED NOT FOUND: '1: r0 = 12345'"
	expect_has "$OUT" "XLATED ON THE WRONG LINE: '2: r0 += r1' expected at line 2, found at line 3"
	expect_has "$OUT" "1: r1 = 2"
	expect_has "$OUT" "EXPECTED JITED NOT FOUND: '	ud2'"
	expect_match "$OUT" "^c:	31 c0 +	xorl	%eax, %eax$"
	expect_has "$OUT" "reading the program's stderr stream"
	expect_has "$OUT" "__linear_size for a xdp program (tc and cgroup_skb only)"
	expect_has "$OUT" "__caps_unpriv(39|bogus): not capability numbers"
	expect_has "$OUT" '__btf_func_path("no_such_object.bpf.o"): No such file or directory'
	expect_has "$OUT" "reading the program's stdout stream"
	# __load_if_JITed: loaded and run on this JIT host.
	expect_has "$OUT" "ASSERT_EQ(__retval) failed: actual 1 (0x1), expected == 99 (0x63)"
	expect_has "$OUT" "failed to parse target BTF: -ENOENT"
	# __log_level(4): the statistics, which do not have the instruction.
	expect_has "$OUT" "EXPECTED MSG NOT FOUND: '0: (b7) r0 = 0'"
	expect_has "$OUT" "processed 2 insns"
	# __flag(BPF_F_STRICT_ALIGNMENT) reached the verifier.
	expect_has "$OUT" "misaligned packet access off 2+0+0+3 size 4"
	end_check
}

# The kernel runner's ns_ convention (prog_tests/netns_own.c): the ns_
# test gets a namespace of its own and sets lo's MTU to 10 there; the
# host's lo keeps its MTU and 127.0.0.1.
check_netns() {	# SERIES
	tree=$T/tree-$1
	begin "an ns_ test runs in a network namespace of its own with lo up; the host's lo is untouched"
	mtu=$(cat /sys/class/net/lo/mtu)
	run "$tree/build/test_progs" -t ns_netns_own,netns_shared
	expect_exit 0
	expect_match "$OUT" "^#[0-9]+ +ns_netns_own:OK$"
	expect_match "$OUT" "^#[0-9]+ +netns_shared:OK$"
	[ "$(cat /sys/class/net/lo/mtu)" = "$mtu" ] ||
		bad "the host's lo has MTU $(cat /sys/class/net/lo/mtu), was $mtu"
	ip -4 addr show dev lo | grep -q 'inet 127\.0\.0\.1/' ||
		bad "the host's lo lost 127.0.0.1"
	end_check
}

last=
for s in $SERIES; do
	last=$s
done
for s in $SERIES; do
	if [ "$s" = "$last" ]; then
		check_series "$s" negative
	else
		check_series "$s"
	fi
done
check_negative "$last"
check_netns "$last"

echo "kernel-tests-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
