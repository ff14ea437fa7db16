#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# prog-cost and the regression gate ("make check-bench", "make check"):
# every prog-cost benchmark briefly (both methods measured, reports
# valid, the attached XDP program ran once per frame sent), the reasons
# for what cannot be measured, the gate's verdicts on synthetic samples
# (direction, effect size, pooling), the gate demo end to end (its
# verdicts are asserted in an icount guest, tests/vmtest/vmtest_bench_check.sh)
# and failing a broken gate, bad input to compare (exit 2), and the same
# under ASan/UBSan (build/bench-san).
# Prints "ok N - what" / "not ok N - what" and ends with
# "prog-cost-checks: P passed, F failed"; exits non-zero if a check failed.
#
# shellcheck disable=SC2016,SC2086
# (jq programs are single-quoted on purpose; $SHORT and the option lists
# are split into words on purpose.)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=prog-cost
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

BENCH=${BENCH:-$OUTPUT/bench}
BENCH_SAN=${BENCH_SAN:-$OUTPUT/bench-san}
BPF=$OUTPUT/bpf

need prog-cost-checks "make check-bench" "$BENCH" "$BENCH_SAN" \
	"$BPF/bench_cost_empty.bpf.o"

J="$T/run.json"
B="$T/run.bmf"
SHORT="-q -w 0 -d 1"

run_cost() {
	rm -f "$J" "$B"
	run "$BENCH" $SHORT --json "$J" --bmf "$B" "$@"
}

# What every prog-cost run shows: summaries, JSON metrics, BMF latencies.
expect_cost_reports() {	# METHODS...
	expect_exit 0
	expect_jq "$J" '.kind == "prog-cost" and (.config | length > 0) and
		(.variant | length > 0)'
	expect_jq "$J" '.environment.kernel_release | length > 0'
	name=$(jq -r '.config + "/" + .variant' "$J" 2>/dev/null)
	for m in "$@"; do
		expect_match "$OUT" "^Summary: $m +[0-9.]+ ± [0-9.]+ ns/(run|elem)"
		expect_jq "$J" "[.metrics[] | select(.name == \"$m\")][0] |
			.available and .better == \"lower\" and (.samples | length == 1)
			and .summary.mean > 0"
		expect_jq "$B" "has(\"$name/$m\")"
	done
	expect_jq "$B" "keys | length == $#"
	expect_jq "$B" '[.[] | .latency | .value > 0 and .lower_value <= .value and
		.value <= .upper_value] | all'
	expect_match "$OUT" '^Machine: other processes used'
}

# The XDP program on the veth ran exactly once per frame sent.
expect_veth_exact() {
	expect_jq "$J" '.methods[] | select(.name == "bpf_stats") |
		.runs > 0 and .runs == .triggers'
	expect_has "$OUT" "Methods: bpf_stats / test_run = "
}

check_every_cost_bench() {
	while IFS='|' read -r what args; do
		begin "prog-cost: $what"
		run_cost $args
		expect_cost_reports test_run bpf_stats
		case $args in
		*prog-cost-task*)
			# The tracepoint also runs for others' getpgid().
			expect_jq "$J" '.methods[] | select(.name == "bpf_stats") |
				.runs >= .triggers and .triggers > 0' ;;
		*) expect_veth_exact ;;
		esac
		end_check
	done <<EOF
fizzbuzz lookup (768 frames, veth)|prog-cost-fizzbuzz
fizzbuzz loop|prog-cost-fizzbuzz --variant loop
task: pid-hash, 100 keys|prog-cost-task --keys 100
task: task-storage, 100 tasks (helper threads)|prog-cost-task --variant task-storage --keys 100
bloom filter in front of the hash, 10% hits|prog-cost-bloom --variant bloom --hit-pct 10
subprog inline|prog-cost-subprog --variant inline
isa v1|prog-cost-isa --variant v1
--obj, an empty XDP program|prog-cost --obj $BPF/bench_cost_empty.bpf.o --prog empty_xdp
EOF
	begin "prog-cost: map-batch, batch delete (userspace ns per element)"
	run_cost prog-cost-map-batch --variant batch --op delete
	expect_cost_reports userspace
	expect_jq "$J" '.config == "prog-cost-map-batch/delete/keys10000"'
	end_check
}

# Names the gate matches on: config without the variant, BMF with it.
check_names() {
	begin "prog-cost: config names are stable and leave the variant out"
	run_cost prog-cost-task --variant task-storage --keys 10
	expect_exit 0
	expect_jq "$J" '.config == "prog-cost-task/keys10" and .variant == "task-storage"'
	expect_jq "$B" 'keys == ["prog-cost-task/keys10/task-storage/bpf_stats",
		"prog-cost-task/keys10/task-storage/test_run"]'
	run_cost prog-cost --obj $BPF/bench_cost_empty.bpf.o --prog empty_xdp \
		--variant build-1234
	expect_jq "$J" '.config == "prog-cost/empty_xdp" and .variant == "build-1234"'
	end_check
}

# check_unavailable WHAT NEEDLE ARGS...: exit 1, the reason on one line.
check_unavailable() {
	what=$1 needle=$2
	shift 2
	begin "prog-cost: $what"
	run_cost "$@"
	expect_exit 1
	expect_nlines "$ERR" 1
	expect_has "$ERR" "$needle"
	[ ! -e "$J" ] || bad "a run that measured nothing left $J behind"
	end_check
}

check_reasons() {
	check_unavailable "a tracepoint program cannot be test-run" \
		"the kernel cannot test-run tracepoint programs (BPF_PROG_TEST_RUN: ENOTSUPP)" \
		prog-cost --obj "$BPF/bench_trigger.bpf.o" --prog bench_trig_tp
	check_unavailable "a raw_tp program is test-run without repeat or timing" \
		"neither repeats nor times test runs of raw_tracepoint programs" \
		prog-cost --obj "$BPF/bench_trigger.bpf.o" --prog bench_trig_raw_tp
	if [ -e "$BPF/test_isa_v4.bpf.o" ]; then
		begin "prog-cost: isa v4 (built by this clang)"
		run_cost prog-cost-isa --variant v4
		expect_cost_reports test_run bpf_stats
		end_check
	else
		check_unavailable "isa v4 is not built by this clang" \
			"needs clang 18 or newer" prog-cost-isa --variant v4
	fi
}

# check_bad WHAT NEEDLE ARGS...: rejected, one stderr line naming the
# value, exit 2, no report written.
check_bad() {
	what=$1 needle=$2
	shift 2
	check_rejected "bad input: $what" "$needle" "$J" "$BENCH" --json "$J" "$@"
}

check_bad_options() {
	check_bad "--obj that does not exist" "--obj '$T/nosuch.o'" \
		prog-cost --obj "$T/nosuch.o" --prog x
	check_bad "--obj that is not a BPF object" "not a BPF object" \
		prog-cost --obj "$REPO/Makefile" --prog x
	check_bad "--prog not in the object" "has no such program (it has: empty_xdp)" \
		prog-cost --obj "$BPF/bench_cost_empty.bpf.o" --prog nosuch
	check_bad "prog-cost without --prog" "needs --obj FILE.bpf.o and --prog NAME" \
		prog-cost --obj "$BPF/bench_cost_empty.bpf.o"
	check_bad "--data-in that does not exist" "--data-in '$T/nosuch'" \
		prog-cost --obj "$BPF/bench_cost_empty.bpf.o" --prog empty_xdp \
		--data-in "$T/nosuch"
	check_bad "an unknown variant" "has lookup, loop" \
		prog-cost-fizzbuzz --variant fast
	check_bad "--keys on a benchmark without keys" "--keys does not apply" \
		--keys 10 prog-cost-fizzbuzz
	check_bad "-p on prog-cost" "-p does not apply" -p 2 prog-cost-subprog
	check_bad "--hit-pct above 100" "--hit-pct '101'" --hit-pct 101 prog-cost-bloom
	check_bad "an unknown --op" "expected lookup, update, delete" \
		--op frob prog-cost-map-batch
}

# A report with these samples for the one metric, from a real run's JSON.
synth() {	# SRC OUT METRIC BETTER SAMPLES... (as a JSON array)
	jq --arg m "$3" --arg b "$4" --argjson s "$5" \
		'.metrics = [{name: $m, unit: "ns/run", better: $b, available: true,
		  samples: $s}]' "$1" >"$2"
}

# check_verdict WHAT EXIT VERDICT [compare options] -- BASE CAND BETTER
check_verdict() {
	what=$1 rc=$2 verdict=$3 base=$4 cand=$5 better=$6
	shift 6
	begin "compare: $what"
	synth "$T/ref.json" "$T/a.json" m "$better" "$base"
	synth "$T/ref.json" "$T/b.json" m "$better" "$cand"
	run "$BENCH" compare "$@" "$T/a.json" "$T/b.json"
	expect_exit "$rc"
	expect_match "$OUT" "^prog-cost-subprog +m .* $verdict\$"
	expect_empty "$ERR"
	end_check
}

check_compare_verdicts() {
	run "$BENCH" $SHORT --json "$T/ref.json" prog-cost-subprog
	lat_lo='[10, 10.1, 9.9, 10.05]'
	lat_hi='[12, 12.1, 11.9, 12.05]'
	check_verdict "latency up 20%: regressed, exit 1" 1 regressed \
		"$lat_lo" "$lat_hi" lower
	check_verdict "latency down: improved, exit 0" 0 improved \
		"$lat_hi" "$lat_lo" lower
	check_verdict "throughput down: regressed (direction-aware)" 1 regressed \
		"$lat_hi" "$lat_lo" higher
	check_verdict "throughput up: improved" 0 improved \
		"$lat_lo" "$lat_hi" higher
	check_verdict "+2%, significant, below the 5% effect: no change" 0 \
		"no change" '[10, 10.01, 9.99]' '[10.2, 10.21, 10.19]' lower
	check_verdict "+2% with --threshold 1: regressed" 1 regressed \
		'[10, 10.01, 9.99]' '[10.2, 10.21, 10.19]' lower --threshold 1
	check_verdict "+30% but noisy: inconclusive, exit 0" 0 inconclusive \
		'[5, 15, 10]' '[3, 23, 13]' lower
	check_verdict "zero variance, equal: no change" 0 "no change" \
		'[7, 7, 7]' '[7, 7, 7]' lower
	check_verdict "zero variance, different: regressed" 1 regressed \
		'[7, 7, 7]' '[8, 8, 8]' lower
	check_verdict "one side constant: regressed" 1 regressed \
		'[7, 7, 7]' '[8, 8.1, 7.9]' lower

	begin "compare: runs of one config in a file are pooled"
	synth "$T/ref.json" "$T/p1.json" m lower '[10, 10.1]'
	synth "$T/ref.json" "$T/p2.json" m lower '[9.9, 10.05]'
	jq -s . "$T/p1.json" "$T/p2.json" >"$T/a.json"
	synth "$T/ref.json" "$T/b.json" m lower '[12, 12.1, 11.9]'
	run "$BENCH" compare "$T/a.json" "$T/b.json"
	expect_exit 1
	expect_has "$OUT" "samples of 2 baseline and 1 candidate runs pooled"
	end_check
}

# check_compare_bad WHAT NEEDLE BASE CAND [options]: exit 2, one line.
check_compare_bad() {
	what=$1 needle=$2
	shift 2
	check_rejected "compare, bad input: $what" "$needle" - "$BENCH" compare "$@"
}

check_compare_bad_input() {
	printf '{"bench": ' >"$T/cut.json"
	echo '{"config": "x"}' >"$T/nometrics.json"
	run "$BENCH" -q -w 0 -d 3 --json "$T/isa.json" prog-cost-isa
	run "$BENCH" -q -w 0 -d 2 --json "$T/two.json" prog-cost-subprog
	check_compare_bad "a missing file" "No such file" \
		"$T/nosuch.json" "$T/ref.json"
	check_compare_bad "not JSON" \
		"not valid JSON: line 1, column 11: expected a value" \
		"$T/cut.json" "$T/ref.json"
	check_compare_bad "not a bench report" "no 'metrics' array" \
		"$T/nometrics.json" "$T/ref.json"
	check_compare_bad "different benchmarks" "different benchmarks" \
		"$T/isa.json" "$T/ref.json"
	check_compare_bad "fewer than 3 samples" "2 samples, the t-test needs at least 3" \
		"$T/two.json" "$T/two.json"
	check_compare_bad "one file" "expected two files" "$T/ref.json"
	check_compare_bad "--threshold -1" "--threshold '-1'" \
		--threshold -1 "$T/ref.json" "$T/ref.json"
	check_compare_bad "--alpha 0" "--alpha '0'" --alpha 0 "$T/ref.json" "$T/ref.json"
	# A negative ns/run once gave a wrong-signed delta.
	synth "$T/ref.json" "$T/neg.json" m lower '[10, -10.1, 9.9]'
	synth "$T/ref.json" "$T/pos.json" m lower '[10, 10.1, 9.9]'
	check_compare_bad "a negative sample" "sample 1 is -10.1, expected a finite number >= 0" \
		"$T/pos.json" "$T/neg.json"
}

# The gate demo on the host ("make bench-regress") is a demo: its verdicts
# come from wall-clock runs on a shared machine, and load can flip them
# (the loop classifier is 10-25% slower; Documentation/gate.md says how
# often the control is flagged).  Its verdicts are asserted exactly where
# they are counted, not timed: in a 6.12 --icount guest
# (tests/vmtest/vmtest_bench_check.sh).  Here only what noise cannot
# flip: the demo runs end to end, pools three runs a side and gives a
# verdict; and its verdict logic fails a broken gate, one that always
# passes or always flags (a stub bench whose compare always exits 0 or 1).
check_gate_demo() {
	begin "gate demo on the host: runs end to end, 3 runs a side pooled, a verdict"
	run env BENCH="$BENCH" sh "$REPO/bench/run_gate_demo.sh" -w 0 -d 1 -r 3 \
		-o "$T/demo"
	[ "$RC" = 0 ] || [ "$RC" = 1 ] ||
		bad "exit $RC, expected 0 or 1 (2: a run failed or compare refused its input)"
	expect_match "$OUT" '^gate demo: (NOT )?as expected: loop vs lookup exit [01] '
	expect_count "$OUT" 'samples of 3 baseline and 3 candidate runs pooled' 2
	expect_jq "$T/demo/candidate.json" 'length == 3 and all(.variant == "loop")'
	expect_jq "$T/demo/control.json" 'length == 3 and all(.variant == "lookup")'
	end_check

	cat >"$T/stub-bench" <<'STUB'
#!/bin/sh
# A bench whose runs write a fixed report and whose compare always exits $STUB_RC.
[ "$1" != compare ] || exit "$STUB_RC"
while [ $# -gt 1 ]; do
	[ "$1" != --json ] || cp "$STUB_REPORT" "$2"
	shift
done
STUB
	chmod +x "$T/stub-bench"
	for rc in 0 1; do
		begin "gate demo with a gate that always exits $rc: NOT as expected, exit 1"
		run env BENCH="$T/stub-bench" STUB_RC=$rc STUB_REPORT="$T/ref.json" \
			sh "$REPO/bench/run_gate_demo.sh" -w 0 -d 1 -r 3 -o "$T/stub"
		expect_exit 1
		expect_has "$OUT" "loop vs lookup exit $rc (expected 1), lookup vs lookup exit $rc"
		expect_has "$OUT" "gate demo: NOT as expected: "
		end_check
	done
}

# Another process holding BPF statistics on (a BPF_ENABLE_STATS fd, here
# from python: bpf(2) is syscall 321 on x86-64) makes every run of every
# program pay for them, test_run's too: prog-cost must say so.  Held all
# along, no call is clean, so all are counted and kept.
check_stats_holder() {
	begin "prog-cost beside a holder of BPF statistics: its test_run calls counted, said so"
	if [ "$(uname -m)" != x86_64 ]; then
		echo "# skipped: the holder calls bpf(2) by its x86-64 number"
		end_check
		return
	fi
	python3 -c 'import ctypes, time
a = (ctypes.c_uint32 * 4)(0)
assert ctypes.CDLL(None).syscall(321, 32, a, 16) >= 0
time.sleep(60)' &
	holder=$!
	i=0
	until [ -n "$(find /proc/$holder/fd -lname anon_inode:bpf-stats 2>/dev/null)" ] ||
		[ $i -ge 50 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	run_cost prog-cost-fizzbuzz
	kill $holder
	wait $holder 2>/dev/null
	expect_exit 0
	expect_jq "$J" '.methods[] | select(.name == "test_run") |
		.calls > 0 and .calls_with_stats_on == .calls'
	expect_match "$OUT" '^Note: test_run: ([0-9]+) of \1 calls ran while another process held'
	expect_has "$OUT" "BPF statistics on (BPF_ENABLE_STATS), none was clean: the figures include them"
	end_check
}

# Under ASan/LSan: the veth, helper threads, error paths and compare.
check_sanitized() {
	for args in "prog-cost-fizzbuzz --variant loop" \
		"prog-cost-task --variant task-storage --keys 20" \
		"prog-cost-map-batch --op lookup --variant batch"; do
		begin "under ASan: $args"
		run "$BENCH_SAN" $SHORT $args
		expect_exit 0
		end_check
	done
	begin "under ASan: set-up failures and compare free what they took"
	run "$BENCH_SAN" $SHORT prog-cost --obj "$BPF/bench_trigger.bpf.o" \
		--prog bench_trig_tp
	expect_exit 1
	run "$BENCH_SAN" $SHORT prog-cost --obj "$BPF/bench_trigger.bpf.o" --prog x
	expect_exit 2
	run "$BENCH_SAN" $SHORT prog-cost-isa --variant v4
	run "$BENCH_SAN" compare "$T/a.json" "$T/b.json"
	expect_exit 1
	run "$BENCH_SAN" compare "$T/cut.json" "$T/ref.json"
	expect_exit 2
	run "$BENCH_SAN" compare "$T/isa.json" "$T/ref.json"
	expect_exit 2
	end_check
}

check_ctrl_c() {
	begin "prog-cost Ctrl-C: exit 130, everything released, no report"
	rm -f "$J"
	CMD="$BENCH_SAN -w 0 -d 30 --json $J prog-cost-fizzbuzz (SIGINT after 2 s)"
	"$BENCH_SAN" -w 0 -d 30 --json "$J" prog-cost-fizzbuzz >"$OUT" 2>"$ERR" &
	pid=$!
	sleep 2
	kill -INT "$pid"
	wait "$pid"
	RC=$?
	scan_sanitizers
	expect_exit 130
	expect_has "$OUT" "Interrupted after"
	expect_has "$ERR" "no complete run: --json/--bmf not written"
	[ ! -e "$J" ] || bad "an interrupted run wrote $J"
	end_check
}

check_list() {
	begin "-l lists every prog-cost benchmark"
	run "$BENCH" -l
	expect_exit 0
	for b in prog-cost-fizzbuzz prog-cost-task prog-cost-bloom \
		prog-cost-subprog prog-cost-isa prog-cost-map-batch prog-cost; do
		expect_match "$OUT" "^$b "
	done
	end_check
}

began=$(date +%s)
check_list
check_every_cost_bench
check_names
check_reasons
check_bad_options
check_compare_verdicts
check_compare_bad_input
check_gate_demo
check_stats_holder
check_sanitized
check_ctrl_c
echo "prog-cost-checks took $(($(date +%s) - began)) s"
echo "prog-cost-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
