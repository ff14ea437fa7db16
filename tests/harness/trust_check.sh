#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Trust in bpfcheck's outputs ("make check-trust", issue 12): writing a
# result never destroys what is at its path (devices, FIFOs, symlinks,
# /dev/stdout, a full disk), no false FAIL or PASS (empty shards, empty
# @FILE, no privileges, another holder of BPF stats), and the outputs
# their consumers accept (junitparser and Jenkins xunit's junit-10.xsd
# rules for JUnit, the kernel's kunit.py for KTAP).
# Prints "ok N - what" / "not ok N - what" and ends with
# "trust-checks: P passed, F failed"; exits non-zero if a check failed.
#
# shellcheck disable=SC2016
# (jq programs are single-quoted on purpose.)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
# shellcheck disable=SC2034 # read by lib.sh
SCRATCH_NAME=trust
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

FIXTURE=$OUTPUT/test_progs_fixture
TEST_PROGS=$OUTPUT/test_progs
BENCH=$OUTPUT/bench
MERGE=$REPO/scripts/merge-results.sh
PUBLISH=$REPO/scripts/publish.sh
# pyenv's python may come first on PATH: Debian's has junitparser.
PYTHON=/usr/bin/python3

need trust-checks "make check-trust" "$FIXTURE" "$TEST_PROGS" "$BENCH"

# Quick real tests for the runs of the real test_progs.
REAL_TESTS=ringbuf,bpf_to_bpf_calls,queue_stack_map

# test_progs's exit code for bad usage, whatever it is.
"$FIXTURE" -j 0 >/dev/null 2>&1
USAGE_RC=$?

TINY=
cleanup_mount() {
	[ -z "$TINY" ] || umount "$TINY" 2>/dev/null
	TINY=
}
trap 'cleanup_mount; rm -rf "$T"' EXIT

# ---- 1. outputs that never destroy ---------------------------------------------

check_device_nodes() {
	if ! mknod "$T/null" c 1 3 || ! mknod "$T/full" c 1 7; then
		begin "device nodes for the checks"
		bad "mknod failed"
		end_check
		return
	fi
	begin "-J to a device node: written through, the node stays"
	run "$FIXTURE" -t pass_plain -J "$T/null"
	expect_exit 0
	[ -c "$T/null" ] || bad "$T/null is no longer a character device"
	end_check

	begin "-J to a full device: exit 3, ENOSPC named, the node stays"
	run "$FIXTURE" -t pass_plain -J "$T/full"
	expect_exit 3
	expect_has "$ERR" "No space left on device"
	[ -c "$T/full" ] || bad "$T/full is no longer a character device"
	end_check

	begin "-J /dev/stdout into a file: the JSON follows the text, not over it"
	run sh -c '"$1" -t pass_plain -J /dev/stdout >"$2"' sh "$FIXTURE" "$T/so.txt"
	expect_exit 0
	expect_has "$T/so.txt" "Summary: 1/0 PASSED"
	tail -n 1 "$T/so.txt" >"$T/so.json"
	expect_jq "$T/so.json" '.success == 1'
	end_check

	begin "--junit into a FIFO a reader waits on: written through"
	mkfifo "$T/fifo"
	cat "$T/fifo" >"$T/fifo.out" &
	reader=$!
	run timeout 60 "$FIXTURE" -t pass_plain --junit "$T/fifo"
	# The reader ends when the writer closes; if the FIFO was replaced,
	# nobody ever will: give it 10 s, then end it.
	i=0
	while kill -0 "$reader" 2>/dev/null && [ "$i" -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	kill "$reader" 2>/dev/null
	wait "$reader"
	expect_exit 0
	[ -p "$T/fifo" ] || bad "$T/fifo is no longer a FIFO"
	xmllint --noout "$T/fifo.out" 2>/dev/null || bad "the reader got no valid XML"
	end_check
}

check_symlinks() {
	begin "-J through a symlink: its target replaced, the link kept"
	mkdir -p "$T/art"
	echo old >"$T/art/r.json"
	ln -s art/r.json "$T/link.json"
	run "$FIXTURE" -t pass_plain -J "$T/link.json"
	expect_exit 0
	[ -L "$T/link.json" ] || bad "link.json is no longer a symlink"
	expect_jq "$T/art/r.json" '.success == 1'
	end_check

	begin "-J through a dangling symlink: its target created"
	ln -s art/new.json "$T/dangling.json"
	run "$FIXTURE" -t pass_plain -J "$T/dangling.json"
	expect_exit 0
	[ -L "$T/dangling.json" ] || bad "dangling.json is no longer a symlink"
	expect_jq "$T/art/new.json" '.success == 1'
	end_check
}

check_same_file() {	# WHAT JSON JUNIT
	begin "-J and --junit on one file ($1): refused before any test"
	rm -f "$T/same.out"
	run "$FIXTURE" -t pass_plain -J "$2" --junit "$3"
	expect_exit "$USAGE_RC"
	expect_nlines "$ERR" 1
	expect_has "$ERR" "name the same file"
	expect_empty "$OUT"
	[ ! -e "$T/same.out" ] || bad "a refused run wrote $T/same.out"
	end_check
}

check_full_disk() {
	begin "a full tmpfs: exit 3, ENOSPC named, no file or temporary left"
	mkdir "$T/tiny"
	if ! mount -t tmpfs -o size=4k tmpfs "$T/tiny"; then
		bad "cannot mount a tmpfs on $T/tiny"
		end_check
		return
	fi
	TINY=$T/tiny
	# The fixture's whole JSON summary is over 8 KiB.
	run "$FIXTURE" -J "$T/tiny/r.json"
	expect_exit 3
	expect_has "$ERR" "No space left on device"
	left=$(ls -A "$T/tiny")
	[ -z "$left" ] || bad "left in the full tmpfs: $left"
	cleanup_mount
	end_check
}

check_bench_outputs() {
	begin "bench --json to a device node, --bmf through a symlink"
	ln -s art/b.bmf "$T/b.link"
	run "$BENCH" -q -w 0 -d 1 --json "$T/null" --bmf "$T/b.link" prog-cost-subprog
	expect_exit 0
	[ -c "$T/null" ] || bad "$T/null is no longer a character device"
	[ -L "$T/b.link" ] || bad "b.link is no longer a symlink"
	expect_jq "$T/art/b.bmf" 'keys | length >= 1'
	end_check

	check_rejected "bench --json and --bmf on one file through a symlink" \
		"name the same file" - "$BENCH" -q --json "$T/art/b.bmf" \
		--bmf "$T/b.link" prog-cost-subprog
}

# scripts/publish.sh writes vmtest --json and merge-results.sh's output.
check_publish() {
	echo '{"x": 1}' >"$T/src.json"
	begin "publish.sh: a device node written through, a full one named"
	run sh "$PUBLISH" "$T/src.json" "$T/null"
	expect_exit 0
	run sh "$PUBLISH" "$T/src.json" "$T/full"
	expect_exit 1
	expect_has "$ERR" "No space left on device"
	for node in "$T/null" "$T/full"; do
		[ -c "$node" ] || bad "$node was replaced"
	done
	end_check

	begin "publish.sh: a symlink followed, /dev/stdout into a file appended"
	ln -s art/p.json "$T/p.link"
	run sh "$PUBLISH" "$T/src.json" "$T/p.link"
	expect_exit 0
	[ -L "$T/p.link" ] || bad "p.link is no longer a symlink"
	expect_jq "$T/art/p.json" '.x == 1'
	run sh -c 'echo before >"$3"; sh "$1" "$2" /dev/stdout >>"$3"' sh \
		"$PUBLISH" "$T/src.json" "$T/p.out"
	expect_exit 0
	expect_content "$T/p.out" "$(printf 'before\n{"x": 1}')"
	end_check
}

# ---- 2. no false FAIL or PASS ---------------------------------------------------

check_merge_shards() {
	"$FIXTURE" -t pass_,skip_ --shard 1/2 -J "$T/s1.json" >/dev/null 2>&1
	"$FIXTURE" -t pass_,skip_ --shard 2/2 -J "$T/s2.json" >/dev/null 2>&1
	: >"$T/empty.json"
	printf '  \n' >"$T/blank.json"
	head -c 200 "$T/s2.json" >"$T/cut.json"
	cat "$T/s2.json" "$T/s2.json" >"$T/twice.json"
	for bad_shard in empty blank cut twice; do
		check_rejected "merge-results.sh: a shard '$bad_shard' is bad input" \
			"$bad_shard.json" "$T/merged.json" \
			sh "$MERGE" "$T/merged.json" "$T/s1.json" "$T/$bad_shard.json"
	done

	begin "merge-results.sh: the merged summary through a symlink"
	ln -s art/m.json "$T/m.link"
	run sh "$MERGE" "$T/m.link" "$T/s1.json" "$T/s2.json"
	expect_exit 0
	[ -L "$T/m.link" ] || bad "m.link is no longer a symlink"
	expect_jq "$T/art/m.json" '.shards == 2'
	end_check
}

check_selection_files() {
	mkdir "$T/seldir"
	: >"$T/sel-empty"
	printf '# only a comment\n\n' >"$T/sel-comments"
	for spec in "-t @$T/seldir:is not a file" "-a @$T/sel-empty:names no test" \
		    "-t @$T/sel-comments:names no test"; do
		begin "@FILE selection '${spec%%:*}': refused, not the whole suite"
		# shellcheck disable=SC2086 # option and argument are two words
		run "$FIXTURE" ${spec%%:*}
		expect_exit "$USAGE_RC"
		expect_nlines "$ERR" 1
		expect_has "$ERR" "${spec#*:}"
		expect_empty "$OUT"
		end_check
	done
	begin "an empty deny list (-b @FILE) denies nothing"
	run "$FIXTURE" -t pass_plain -b "@$T/sel-empty"
	expect_exit 0
	expect_has "$OUT" "Summary: 1/0 PASSED"
	end_check
}

check_unprivileged() {
	chmod 755 "$T"
	mkdir -m 777 "$T/nobody"
	cp "$TEST_PROGS" "$T/nobody/test_progs"
	off=$(cat /proc/sys/kernel/unprivileged_bpf_disabled 2>/dev/null || echo 1)
	begin "as uid 65534: the missing privilege said once, no test blames the kernel"
	run setpriv --reuid 65534 --regid 65534 --clear-groups \
		"$T/nobody/test_progs" -t "$REAL_TESTS" -J "$T/nobody/r.json"
	expect_nlines "$ERR" 1
	expect_has "$ERR" "without CAP_BPF or CAP_SYS_ADMIN"
	expect_no "$OUT" "not supported by this kernel"
	if [ "$off" != 0 ]; then
		expect_exit 4
		expect_jq "$T/nobody/r.json" '.failed == 0 and ([.results[] |
			select(.outcome != "SKIP" or (.skip_reason |
			contains("needs CAP_BPF or CAP_SYS_ADMIN") | not))] | length == 0)'
	fi
	end_check

	begin "without CAP_NET_ADMIN: named at start"
	run setpriv --bounding-set -net_admin "$TEST_PROGS" -c
	expect_exit 0
	expect_has "$ERR" "running without CAP_NET_ADMIN"
	end_check

	begin "nothing can run (prepare says why): every test SKIPs with it, exit 4"
	FIXTURE_SKIP_ALL="needs a gizmo" run "$FIXTURE" -t pass_,fail_mixed --ktap
	expect_exit 4
	expect_line "$OUT" "ok 1 fail_mixed # SKIP needs a gizmo"
	expect_count "$OUT" "^ok [0-9]+ .* # SKIP needs a gizmo$" 3
	end_check
}

check_stats_holder() {
	begin "bpf_stats beside a holder of BPF stats: 5 runs, never a FAIL"
	run sh "$HERE/stats_holder_loop.sh" 5
	expect_exit 0
	expect_match "$OUT" "5 runs, [0-9]+ passed, [0-9]+ skipped, 0 failed"
	end_check
}

# ---- 4. outputs every consumer accepts ------------------------------------------

# check_junit WHAT CMD...: CMD writes $T/j.json and $T/j.xml.
check_junit() {
	what=$1
	shift
	begin "JUnit of $what: junitparser's counts, the JSON's, junit-10.xsd rules"
	rm -f "$T/j.json" "$T/j.xml"
	"$@" -J "$T/j.json" --junit "$T/j.xml" >/dev/null 2>&1
	run "$PYTHON" "$HERE/junit_check.py" "$T/j.xml" "$T/j.json"
	expect_exit 0
	end_check
}

check_failure_message() {
	line=$(grep -n 'ASSERT_TRUE(false, "broken")' "$HERE/fixtures/fail.c" |
		cut -d: -f1)
	begin "<failure message> is the first failed assert, or how the test died"
	run "$FIXTURE" -t fail_mixed,crash_segv --junit "$T/f.xml"
	expect_has "$T/f.xml" "<failure message=\"fail.c:$line: ASSERT_TRUE(broken) failed: false is false, expected true\">"
	expect_has "$T/f.xml" '<failure message="test process killed by signal 11 (Segmentation fault)">'
	end_check
}

check_ktap_controls() {
	begin "KTAP: control characters of test output escaped as \\xNN"
	run "$FIXTURE" -t output_escapes --ktap
	expect_has "$OUT" 'bell\x07 ctrl\x01 bad'
	tr -d '\t' <"$OUT" >"$T/ktap.notab"
	expect_printable "$T/ktap.notab"
	end_check
}

# Leaf counts as kunit.py prints them: subtests, or the test itself;
# "Ran N tests: passed: P, failed: F, skipped: S" without the zeros.
leaf_counts() {	# JSON
	jq -r '[.results[] | if (.subtests | length) > 0 then .subtests[] else . end] |
		[["passed", (map(select(.outcome == "PASS")) | length)],
		 ["failed", (map(select(.failed)) | length)],
		 ["skipped", (map(select(.outcome == "SKIP")) | length)]] as $c |
		"Ran \(length) tests: " +
		([$c[] | select(.[1] > 0) | "\(.[0]): \(.[1])"] | join(", "))' "$1"
}

# check_kunit WHAT CMD...: CMD --ktap -J $T/k.json; kunit.py parses the KTAP.
check_kunit() {
	what=$1
	shift
	begin "kunit.py parse of $what: its counts are the JSON's, no error"
	if [ -z "$KUNIT" ]; then
		bad "no tools/testing/kunit (scripts/linux-source.sh newest failed)"
		end_check
		return
	fi
	"$@" --ktap -J "$T/k.json" >"$T/k.ktap" 2>/dev/null
	run "$PYTHON" "$KUNIT/kunit.py" parse --junit="$T/kunit.xml" "$T/k.ktap"
	expect_has "$OUT" "$(leaf_counts "$T/k.json")"
	expect_no_match "$OUT" '\[ERROR\]|Traceback|CRASHED'
	expect_no_match "$ERR" 'Traceback'
	# kunit.py's own JUnit writer choked on a raw \x01 in diagnostics.
	xmllint --noout "$T/kunit.xml" 2>"$T/xmllint.err" ||
		bad "kunit.py's JUnit: $(head -n 1 "$T/xmllint.err")"
	end_check
}

check_device_nodes
check_symlinks
touch "$T/same.json"
ln -s same.out "$T/same.link"
check_same_file "one name" "$T/same.out" "$T/same.out"
check_same_file "another spelling" "$T/same.out" "$T/./same.out"
check_same_file "through a symlink" "$T/same.link" "$T/same.out"
check_full_disk
check_bench_outputs
check_publish

check_merge_shards
check_selection_files
check_unprivileged
check_stats_holder

check_junit "the fixture runner" "$FIXTURE"
check_junit "test_progs -t $REAL_TESTS" "$TEST_PROGS" -t "$REAL_TESTS"
check_failure_message
check_ktap_controls
KUNIT=$(sh "$REPO/scripts/linux-source.sh" newest 2>"$T/ls.err")/tools/testing/kunit
[ -f "$KUNIT/kunit.py" ] || KUNIT=
check_kunit "the fixture runner" "$FIXTURE"
check_kunit "test_progs -t $REAL_TESTS" "$TEST_PROGS" -t "$REAL_TESTS"

echo "trust-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
