#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# Black-box checks of "vmtest.sh --bench" and "--icount", and of the
# sweep's regimes:
#   - bad input (an unknown benchmark, --bench with a command, --icount
#     with KVM, --bmf without --bench, a bad VMTEST_ICOUNT) fails at once,
#     exit 2, before anything boots;
#   - a short --bench --icount matrix on 6.12, 6.12 again and 6.1: the
#     tables in guest instructions, the gate flags lookup-bounds (the
#     lookup classifier plus one bounds check) against lookup on every
#     kernel and boot, passes the second 6.12 boot against the first (the
#     same program: figures within 0.1%) and tells 6.1 apart from 6.12;
#     queue-batch is unmeasurable
#     with its reason and a reproduce command; JSON, BMF and Markdown;
#   - the gate demo ("make bench-regress") in a 6.12 --icount guest: the
#     loop classifier flagged on both methods, the control (lookup
#     again) "no change" on both, exactly;
#   - the report of guests whose runs failed, from made-up guest results:
#     a failed cell fails the run (exit 1), an unmeasurable one does not;
#   - the sweep table (bench/run_ringbuf_vs_queue.sh -R) shows the range of
#     the runs ("regimes") where they disagree beyond their within-run
#     spread, and one mean where they agree.
#
# Usage: [OUTPUT=build-dir] sh tests/vmtest/vmtest_bench_check.sh
# ("make check-vmtest-bench").  Needs build/test_progs, build/bench and
# the vm packages (make deps); downloads 6.1 and 6.12 on first use.
# Prints "ok N - ..." / "not ok N - ..." per check, then
# "vmtest-bench-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=vmtest-bench
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

VMTEST=$REPO/vmtest/vmtest.sh
REPORT=$REPO/vmtest/bench-report.sh
export VMTEST_OUT="$T/vm"
t_start=$(date +%s)

expect_nothing_booted() {
	expect_no "$ERR" "booting"
	[ -z "$(ls -A "$T/vm" 2>/dev/null)" ] ||
		bad "expected no work directory left in $T/vm, got: $(ls -A "$T/vm")"
}

# ---- bad input ------------------------------------------------------------

begin "--bench with an unknown benchmark: exit 2, one line, nothing boots"
run sh "$VMTEST" -k 6.1 --bench prog-cost-fizzbuzz,nosuch
expect_exit 2
expect_has "$ERR" "no set, run or benchmark 'nosuch' in vmtest/bench.conf"
expect_nlines "$ERR" 1
expect_nothing_booted
end_check

begin "--bench with a command, --bmf alone, --icount with KVM: exit 2 each"
run sh "$VMTEST" -k 6.1 --bench prog-cost -- true
expect_exit 2
expect_has "$ERR" "--bench runs its own command"
run sh "$VMTEST" -k 6.1 --bmf "$T/x.bmf"
expect_exit 2
expect_has "$ERR" "--bmf goes with --bench"
run sh "$VMTEST" -k 6.1 --icount --accel kvm --bench prog-cost
expect_exit 2
expect_has "$ERR" "--icount needs TCG"
run env VMTEST_ICOUNT=yes sh "$VMTEST" -k 6.1 --bench prog-cost
expect_exit 2
expect_has "$ERR" "VMTEST_ICOUNT is 0 or 1, not 'yes'"
expect_nothing_booted
end_check

# ---- the gate demo in a guest, started beside the matrix ---------------------

# bench/run_gate_demo.sh as "make bench-regress" runs it, in one 6.12 guest
# under icount: the control is the same program in the same guest, so
# "no change" holds by construction, and the candidate's extra work is
# counted, not timed.  Both verdicts are asserted exactly (below); a gate
# that always passes or always flags fails there.  0.5% is the gate's
# threshold under icount (vmtest --bench).  The guest's figures are
# instructions, whatever unit bench compare prints.  It runs beside the
# matrix (icount figures do not depend on what else runs), in its own
# work directory; the 5 s sleep lets the kernel finish its deferred boot
# work, and under icount costs no wall time (an idle guest's clock jumps).
# Its 9 runs take about 20 s alone, minutes beside other guests: --timeout
# 600 as vmtest --bench gives such a plan under icount.
GD=$REPO/bench/run_gate_demo.sh
DEMO_CMD="vmtest.sh -k 6.12 --icount -- run_gate_demo.sh -w 0 -d 1 -r 3 -t 0.5 (after 5 s)"
demo_t0=$(date +%s)
{
	VMTEST_OUT=$T/vm-demo sh "$VMTEST" -k 6.12 --icount --timeout 600 --add "$GD" \
		--add "$REPO/bench/lib.sh" --add "$(command -v jq)" -- \
		sh -c 'sleep 5; BENCH=/bpfcheck/bench exec sh "$@"' sh "$GD" \
		-w 0 -d 1 -r 3 -t 0.5 -o /tmp/gate-demo </dev/null >"$T/demo.out" 2>"$T/demo.err"
	echo "$?" >"$T/demo.rc"
	date +%s >"$T/demo.end"
} &
demo_pid=$!

# ---- the matrix under icount ----------------------------------------------

J=$T/bench.json
B=$T/bench.bmf
t0=$(date +%s)
CMD="vmtest.sh -k 6.12 -k 6.12 -k 6.1 --icount --bench (lookup, lookup-bounds, queue-batch)"
VMTEST_BENCH_ARGS="-w 1 -d 3" sh "$VMTEST" -k 6.12 -k 6.12 -k 6.1 --icount -j 2 \
	--bench prog-cost-fizzbuzz/lookup,prog-cost-fizzbuzz/lookup-bounds,p1-b1/queue-batch \
	--json "$J" --bmf "$B" </dev/null >"$OUT" 2>"$ERR"
RC=$?
save matrix
matrix_secs=$(($(date +%s) - t0))

begin "--bench --icount on 6.12, 6.12, 6.1: exit 0, tables in guest instructions"
use matrix
expect_exit 0
expect_has "$OUT" "icount: the guests' clocks count instructions"
expect_has "$OUT" "accelerator: TCG (--icount runs TCG); icount:"
expect_line "$OUT" "prog-cost-fizzbuzz: test_run (insns/run, lower is better)"
expect_match "$OUT" '^  lookup-bounds +[0-9.]+ ± [0-9.]+ +[0-9.]+ ± [0-9.]+ +[0-9.]+ ± [0-9.]+$'
expect_jq "$J" '.icount and .threshold == 0.5 and
	([.kernels[].label] == ["6.12", "6.12#2", "6.1"])'
expect_jq "$J" '[.cells[] | select(.status == "ok") | .metrics[] | .unit] | unique == ["insns/run"]'
end_check

begin "icount figures are deterministic: stddev <= 0.1% in a run, boots of 6.12 within 0.1%"
use matrix
expect_jq "$J" '[.cells[] | select(.status == "ok") | .metrics[] | select(.name == "test_run")
	| .stddev / .mean] | length == 6 and all(. <= 0.001)'
expect_jq "$J" '[.cells[] | select(.kernel == "6.12" or .kernel == "6.12#2")
	| select(.status == "ok") | {name, m: (.metrics[] | select(.name == "test_run") | .mean)}]
	| group_by(.name) | length == 2 and all(length == 2 and
		((.[0].m - .[1].m) | fabs) / .[0].m <= 0.001)'
end_check

begin "the gate flags the one-bounds-check candidate on every kernel, a few insns/run more"
use matrix
expect_jq "$J" '[.vs_first_variant[] | select(.name == "prog-cost-fizzbuzz/lookup-bounds"
	and .metric == "test_run") | .verdict] == ["regressed", "regressed", "regressed"]'
# The extra check is a few x86 instructions per run on every kernel.
expect_jq "$J" '[.cells[] | select(.benchmark == "prog-cost-fizzbuzz")] | group_by(.kernel)
	| length == 3 and all(map(.metrics[] | select(.name == "test_run") | .mean)
		| (.[1] - .[0]) | . >= 1 and . <= 10)'
expect_match "$OUT" \
	'^  prog-cost-fizzbuzz/lookup-bounds vs lookup test_run +6\.12: \+[0-9.]+% regressed'
end_check

begin "the unchanged program on a second boot is no change; another kernel is told apart"
use matrix
expect_jq "$J" '[.vs_first_kernel[] | select(.kernel == "6.12#2" and .metric == "test_run")
	| .verdict] == ["no change", "no change"]'
expect_jq "$J" '[.vs_first_kernel[] | select(.kernel == "6.1" and .metric == "test_run")
	| .verdict] | length == 2 and all(. == "regressed" or . == "improved")'
expect_match "$OUT" '^  prog-cost-fizzbuzz/lookup test_run +6\.12#2: [-+][0-9.]+% no change +'\
'6\.1: [-+][0-9.]+% (regressed|improved)$'
end_check

begin "queue-batch is unmeasurable (ENOTSUPP) with a reproduce command, and does not fail the run"
use matrix
expect_jq "$J" '[.cells[] | select(.variant == "queue-batch") | .status] ==
	["unmeasurable", "unmeasurable", "unmeasurable"]'
expect_jq "$J" '[.cells[] | select(.variant == "queue-batch") | .reason] | all(test("ENOTSUPP"))'
expect_match "$OUT" '^  \[6\.1\] p1-b1/queue-batch: unmeasurable: bench exit 1: .*ENOTSUPP'
expect_has "$OUT" "vmtest/vmtest.sh -k 6.1 --icount --bench p1-b1/queue-batch"
expect_no "$OUT" "VMTEST_BENCH_ARGS="
end_check

begin "BMF names carry the kernel; Markdown renders the same tables"
use matrix
expect_jq "$B" '.["6.12#2/prog-cost-fizzbuzz/lookup/test_run"].instructions.value > 0'
expect_jq "$B" 'keys | length == 12'
run sh "$REPORT" markdown "$J"
expect_exit 0
expect_line "$OUT" "| variant | 6.12 | 6.12#2 | 6.1 |"
expect_match "$OUT" '^\| prog-cost-fizzbuzz/lookup-bounds \| prog-cost-fizzbuzz/lookup \| '\
'test_run \| \+[0-9.]+% regressed'
end_check

# ---- the gate demo, counted in guest instructions ---------------------------

wait "$demo_pid"
demo_secs=$(($(cat "$T/demo.end") - demo_t0))
begin "gate demo in a 6.12 --icount guest: loop flagged on both methods, control exactly passed"
use demo
CMD=$DEMO_CMD
expect_exit 0
as_expected="gate demo: as expected: loop vs lookup exit 1 (regressed),"
expect_line "$OUT" "$as_expected lookup vs lookup exit 0"
verdicts="1 benchmark, 2 metrics:"
expect_line "$OUT" "$verdicts 2 regressed, 0 improved, 0 no change, 0 inconclusive, 0 unavailable"
expect_line "$OUT" "$verdicts 0 regressed, 0 improved, 2 no change, 0 inconclusive, 0 unavailable"
expect_count "$OUT" '^prog-cost-fizzbuzz/octets +(test_run|bpf_stats) .* regressed$' 2
expect_count "$OUT" '^prog-cost-fizzbuzz/octets +(test_run|bpf_stats) .* no change$' 2
expect_count "$OUT" 'samples of 3 baseline and 3 candidate runs pooled' 2
expect_match "$OUT" '^6\.12 +6\.12\.[0-9]+.* PASS '
end_check

# ---- the report of guests that did not run everything ---------------------

# A guest directory as vmtest leaves it: record.json and results/.
fake_guest() {	# DIR LABEL STATUS
	mkdir -p "$1/results"
	jq -n --arg l "$2" --arg s "$3" '{label: $l, kernel_args: "-k \($l)", release: "r-\($l)",
		status: $s, detail: "made up", seconds: 1}' >"$1/record.json"
}

# A bench report with test_run samples around MEAN.
fake_run() {	# FILE VARIANT MEAN
	jq -n --arg v "$2" --argjson m "$3" '{bench: "prog-cost-fizzbuzz",
		config: "prog-cost-fizzbuzz/octets", variant: $v, metrics: [{name: "test_run",
		unit: "ns/run", better: "lower", available: true,
		samples: [$m, $m + 0.01, $m - 0.01]}]}' >"$1"
}

F=$T/fake
fake_guest "$F/k1" 6.1 PASS
fake_guest "$F/k2" 6.12 TIMEOUT
{
	printf '1\tprog-cost-fizzbuzz/lookup\t-q prog-cost-fizzbuzz\n'
	printf '2\tp1-b1/queue-batch\t-q queue-batch\n'
	printf '3\tp1-b1/rb-libbpf\t-q rb-libbpf\n'
	printf '4\tprog-cost-task/task-storage\t-q prog-cost-task\n'
} >"$F/plan"
fake_run "$F/k1/results/bench-1.json" lookup 100
fake_run "$F/k2/results/bench-1.json" lookup 120
printf '1 0\n2 1\n3 1\n4 1\n' >"$F/k1/results/bench.status"
printf '1 0\n' >"$F/k2/results/bench.status"
echo "bench: queue-batch: BPF_MAP_LOOKUP_AND_DELETE_BATCH on a queue map: ENOTSUPP" \
	>"$F/k1/results/bench-2.err"
echo "bench: rb-libbpf: counters disagree: hits + drops != produced" >"$F/k1/results/bench-3.err"
REFUSED="bench: prog-cost-task: loading bench_cost_task (task-storage): EINVAL"
echo "$REFUSED" >"$F/k1/results/bench-4.err"
jq -n --arg b "$OUTPUT/bench" '{accelerator: "tcg", accelerator_note: "made up", icount: false,
	bench_args: "-w 0 -d 3", bench_args_default: "-w 1 -d 3", threshold: 5,
	vmtest: "vmtest.sh", bench: $b}' >"$F/meta.json"

begin "failed, unmeasurable and missing cells are told apart; only failures fail the run"
run sh "$REPORT" build "$F/meta.json" "$F/plan" "$F/k1" "$F/k2"
expect_exit 0
cp "$OUT" "$F/report.json"
expect_jq "$F/report.json" '[.cells[] | "\(.kernel) \(.variant) \(.status)"] ==
	["6.1 lookup ok", "6.1 queue-batch unmeasurable", "6.1 rb-libbpf failed",
	 "6.1 task-storage unmeasurable", "6.12 lookup ok", "6.12 queue-batch missing",
	 "6.12 rb-libbpf missing", "6.12 task-storage missing"]'
expect_jq "$F/report.json" '.vs_first_kernel | length == 1 and .[0].verdict == "regressed"
	and .[0].delta_pct == 20'
expect_jq "$F/report.json" '[.cells[] | .metrics[] | .unit] | unique == ["ns/run"]'
run sh "$REPORT" status "$F/report.json"
expect_exit 1
run sh "$REPORT" text "$F/report.json"
expect_line "$OUT" "  [6.1] p1-b1/rb-libbpf: failed: bench exit 1: bench: rb-libbpf: counters\
 disagree: hits + drops != produced"
expect_line "$OUT" "      VMTEST_BENCH_ARGS=\"-w 0 -d 3\" vmtest.sh -k 6.1 --bench p1-b1/rb-libbpf"
expect_has "$OUT" "[6.12] p1-b1/queue-batch: missing: no result (guest TIMEOUT: made up)"
expect_has "$OUT" "[6.1] prog-cost-task/task-storage: unmeasurable: bench exit 1: $REFUSED\
 (this kernel refuses the program)"
# Only the unmeasurable cell left: the run passes.
printf '1 0\n2 1\n3 0\n4 1\n' >"$F/k1/results/bench.status"
fake_run "$F/k1/results/bench-3.json" p1 1000
printf '1 0\n2 1\n3 0\n4 1\n' >"$F/k2/results/bench.status"
cp "$F/k1/results/bench-2.err" "$F/k1/results/bench-4.err" "$F/k2/results/"
fake_run "$F/k2/results/bench-3.json" p1 1000
fake_guest "$F/k2" 6.12 PASS
sh "$REPORT" build "$F/meta.json" "$F/plan" "$F/k1" "$F/k2" >"$F/report.json"
run sh "$REPORT" status "$F/report.json"
expect_exit 0
end_check

# ---- the host sweep: regimes -----------------------------------------------

# A run of a previous sweep, as bench --json leaves it (the fields the
# table reads): hits/s mean and per-second stddev.
sweep_run() {	# NAME HITS STDDEV
	jq -n --argjson h "$2" --argjson sd "$3" '{summary: {hits_per_sec: {mean: $h,
		stddev: $sd}, drops_per_sec: {mean: 0}, other_cpus: {mean: 0.01},
		steal_cpus: {mean: 0}, wakeups_per_sec: {mean: ($h / 100)}}}' >"$S/runs/$1.json"
}

S=$T/sweep
mkdir -p "$S/runs"
sweep_run trig-prog---p1-b--r1 2800000 10000
sweep_run trig-prog---p1-b--r2 2810000 10000
# Three runs that settled in different regimes, each steady (1% stddev).
sweep_run rb-libbpf-every-p1-b100-r1 700000 7000
sweep_run rb-libbpf-every-p1-b100-r2 1210000 12100
sweep_run rb-libbpf-every-p1-b100-r3 950000 9500
# Two that agree within their spread: one mean (the negative control).
sweep_run rb-custom-every-p1-b100-r1 1000000 10000
sweep_run rb-custom-every-p1-b100-r2 1010000 10000

begin "the sweep table gives the range of runs in different regimes, one mean otherwise"
run sh "$REPO/bench/run_ringbuf_vs_queue.sh" -R -o "$S"
expect_exit 0
expect_match "$OUT" '^rb-libbpf +every +1 +100 +0\.70-1\.21M\* +53\.5% +- +- '
expect_line "$OUT" "* rb-libbpf every p1 batch 100: regimes: 0.70-1.21M/s over 3 runs\
 (within a run: stddev 1.0% of the mean)"
expect_match "$OUT" '^rb-custom +every +1 +100 +1\.005M/s +1\.0% +995\.02 '
expect_count "$OUT" 'regimes' 1
expect_has "$S/ringbuf_vs_queue.csv" "rb-libbpf,every,1,100,3,953333,53.50,"
expect_match "$S/ringbuf_vs_queue.csv" '^rb-custom,.*,0$'
expect_match "$S/ringbuf_vs_queue.csv" '^rb-libbpf,.*,1$'
end_check

echo "vmtest bench checks took $(($(date +%s) - t_start)) s (the icount matrix: $matrix_secs s,"\
	"the gate demo: $demo_secs s)"
echo "vmtest-bench-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
