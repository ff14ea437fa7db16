#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The bench's own tests ("make check-bench"): the statistics unit tests,
# every benchmark for about a second (hits > 0, JSON and BMF valid,
# hits + drops == produced == (triggers - skipped) x batch, skipped <=
# the program's recursion_misses), the notification modes,
# Ctrl-C, and bad input (one stderr line, non-zero exit).  Runs under
# ASan/UBSan where it checks leaks and error paths (build/bench-san).
# Prints "ok N - what" / "not ok N - what" and ends with
# "bench-checks: P passed, F failed"; exits non-zero if a check failed.
#
# shellcheck disable=SC2016,SC2086
# (jq programs are single-quoted on purpose; $SHORT and the option lists
# are split into words on purpose.)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=bench
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

BENCH=${BENCH:-$OUTPUT/bench}
BENCH_SAN=${BENCH_SAN:-$OUTPUT/bench-san}
STATS_TEST=${STATS_TEST:-$OUTPUT/stats_test}
GATE_TEST=${GATE_TEST:-$OUTPUT/gate_test}
JSON_READER_TEST=${JSON_READER_TEST:-$OUTPUT/json_reader_test}
TOTALS_TEST=${TOTALS_TEST:-$OUTPUT/totals_test}

need bench-checks "make check-bench" "$BENCH" "$BENCH_SAN" "$STATS_TEST" \
	"$GATE_TEST" "$JSON_READER_TEST" "$TOTALS_TEST"

J="$T/run.json"
B="$T/run.bmf"
# Short runs: no warm-up, one measured second.
SHORT="-q -w 0 -d 1"

# run_bench ARGS...: the bench with --json $J --bmf $B, files reset first.
run_bench() {
	rm -f "$J" "$B"
	run "$BENCH" --json "$J" --bmf "$B" "$@"
}

# What every successful run must show in its reports.
expect_reports() {
	expect_exit 0
	expect_match "$OUT" '^Summary: hits +[0-9.]+ ± [0-9.]+M/s'
	expect_jq "$J" '.samples | length >= 1'
	expect_jq "$J" '.summary.hits_per_sec.mean > 0'
	expect_jq "$J" '.totals.hits > 0'
	expect_jq "$J" '.environment | (.kernel_release | length > 0) and
		(.cpu_model | length > 0) and .cpus_online >= 1 and
		(.libbpf_version | length > 0)'
	# The same keys as test_progs -J: the architecture is "arch".
	expect_jq "$J" ".environment.arch == \"$(uname -m)\" and
		(.environment | has(\"machine\") | not)"
	expect_jq "$J" '.options | has("duration_sec") and has("producers")'
	# What bench compare reads: the measured samples, higher is better.
	expect_jq "$J" '.metrics | length == 1 and (.[0] | .name == "hits_per_sec"
		and .better == "higher" and .unit == "events/s" and
		(.samples | length) == .summary.n)'
	# How busy the rest of the machine was, per sample and summarized.
	expect_jq "$J" '.summary.other_cpus.mean >= 0 and .summary.steal_cpus.mean >= 0'
	expect_jq "$J" '[.samples[] | has("other_cpus")] | all'
	expect_match "$OUT" '^Machine: other processes used [0-9.]+ ± [0-9.]+ of [0-9]+ CPUs'
	# BMF: the run's configuration name, throughput with its bounds.
	expect_jq "$B" 'keys | length == 1'
	expect_jq "$B" '.[] | .throughput | .value > 0 and
		.lower_value <= .value and .value <= .upper_value'
	name=$(jq -r .config "$J" 2>/dev/null)
	expect_jq "$B" "has(\"$name\")"
}

# Every record the BPF side tried was consumed or dropped, and it tried
# batch_cnt per trigger (1 for the baselines) except for the triggers
# whose run the kernel skipped, which it reports apart (recursion_misses).
expect_consistent() {
	expect_jq "$J" '.totals.consistent'
	expect_jq "$J" '.totals | if .bpf_counts then .hits + .drops == .produced
		else .hits == .triggers end'
	expect_jq "$J" '(.options.batch_cnt // 1) as $b | .totals |
		(.bpf_counts | not) or
		(.produced == (.triggers - .skipped_triggers) * $b and
		 .skipped_triggers <= .missed_runs)'
	if jq -e .totals.bpf_counts "$J" >/dev/null 2>&1; then
		expect_jq "$J" '.totals.missed_runs | type == "number"'
		re='^Skipped runs: [0-9]+ by the kernel \(recursion_misses\), '
		expect_match "$OUT" "${re}[0-9]+ of the bench's triggers\$"
	else
		expect_jq "$J" '.totals | .missed_runs == null and .skipped_triggers == 0'
		expect_no "$OUT" "Skipped runs:"
	fi
}

# unit_test WHAT BINARY LABEL: a unit test binary passes every check.
unit_test() {
	begin "$1"
	run "$2"
	expect_exit 0
	expect_match "$OUT" "^$3: [0-9]+ passed, 0 failed\$"
	expect_count "$OUT" '^not ok' 0
	end_check
}

check_stats_unit() {
	unit_test "stats: unit tests of mean, stddev, median, p99" "$STATS_TEST" \
		stats-test
	unit_test "gate: unit tests of Welch's t-test, the t distribution, verdicts" \
		"$GATE_TEST" gate-test
	unit_test "json reader: unit tests, valid and malformed documents" \
		"$JSON_READER_TEST" json-reader-test
	unit_test "totals: skipped runs excuse exactly the triggers that produced nothing" \
		"$TOTALS_TEST" totals-test
}

# Ring and perf buffer consumers wait and count their wake-ups; the
# others do not wait and report none.
expect_wakeups() {	# BENCH
	case $1 in
	rb-* | pb-*)
		expect_jq "$J" '[.samples[] | .wakeups_per_sec > 0] | all'
		expect_jq "$J" '.summary.wakeups_per_sec.mean > 0'
		expect_match "$OUT" '^Consumer: wake-ups [0-9.]+ ± [0-9.]+k/s, [0-9.]+ records per wake-up$' ;;
	*)
		expect_jq "$J" '[.samples[] | has("wakeups_per_sec")] | any | not'
		expect_no "$OUT" "Consumer: wake-ups" ;;
	esac
}

check_every_bench() {
	for b in rb-libbpf rb-custom rb-output pb-libbpf queue-pop \
		trig-syscall trig-prog; do
		begin "$b: runs, reports and counters add up"
		run_bench $SHORT "$b"
		expect_reports
		expect_consistent
		expect_wakeups "$b"
		end_check
	done
}

check_modes() {
	while IFS='|' read -r what args; do
		begin "$what"
		run_bench $SHORT $args
		expect_reports
		expect_consistent
		case $args in
		*--b2b*)
			# The consumer drains before it triggers: nothing drops.
			expect_jq "$J" '.totals.drops == 0'
			expect_jq "$J" '.options.back_to_back'
			# One wake-up per batch of 500; a 100 ms timeout may add
			# one, and a batch may straddle a sample's boundary.
			expect_jq "$J" '[.samples[] | select(.warmup | not) |
				.hits_per_sec / .wakeups_per_sec] |
				all(. > 450 and . < 510)' ;;
		esac
		end_check
	done <<EOF
rb-libbpf sampled: wake-up every 100 records|--sampled 100 rb-libbpf
rb-custom sampled|--sampled 100 rb-custom
rb-output sampled|--sampled 100 rb-output
pb-libbpf sampled|--sampled 100 pb-libbpf
rb-libbpf back-to-back|--b2b rb-libbpf
rb-custom back-to-back|--b2b rb-custom
rb-output back-to-back|--b2b rb-output
pb-libbpf back-to-back|--b2b pb-libbpf
rb-libbpf batch 1|--batch-cnt 1 rb-libbpf
queue-pop two consumers, batch 1|-c 2 --batch-cnt 1 queue-pop
trig-prog on raw_tp|--attach raw_tp trig-prog
the kernel bench's option names|--rb-b2b --rb-batch-cnt 100 --rb-sampled --rb-sample-rate 50 rb-libbpf
EOF
}

check_producers() {
	begin "rb-libbpf -p 2 -a: per-producer samples and pinned CPUs"
	# shellcheck disable=SC2086
	run_bench $SHORT -p 2 -a rb-libbpf
	expect_reports
	expect_consistent
	expect_jq "$J" '.summary.producers | length == 2'
	expect_jq "$J" '.samples[0].producer_triggers | length == 2'
	expect_jq "$J" '[.summary.producers[].triggers_per_sec.mean > 0] | all'
	expect_jq "$J" '.options.affinity and
		([.options.producer_cpus[] | type == "number"] | all)'
	expect_match "$OUT" '^Producer 1 \(cpu [0-9]+\): triggers'
	end_check

	begin "--prod-affinity and --cons-affinity pin where asked"
	run_bench $SHORT --prod-affinity 0 --cons-affinity 0 queue-pop
	expect_reports
	expect_jq "$J" '.options.producer_cpus == [0] and .options.consumer_cpus == [0]'
	end_check
}

# Warm-up seconds are sampled and printed but left out of the summary.
check_warmup() {
	begin "warm-up samples are excluded from the summary"
	run_bench -w 1 -d 2 trig-prog
	expect_reports
	expect_jq "$J" '.samples | length == 3'
	expect_jq "$J" '[.samples[].warmup] == [true, false, false]'
	expect_jq "$J" '.summary.samples == 2'
	expect_jq "$J" '([.samples[1:][].hits_per_sec] | add / 2) as $m |
		(.summary.hits_per_sec.mean - $m | fabs) <= 1e-6 * $m'
	expect_count "$OUT" '^Iter +[0-9]+ .*\(warm-up\)$' 1
	expect_count "$OUT" '^Iter ' 3
	end_check
}

check_queue_batch() {
	begin "queue-batch runs, or fails with the kernel's reason"
	run_bench $SHORT queue-batch
	if [ "$RC" = 0 ]; then
		expect_reports
		expect_consistent
	else
		expect_exit 1
		expect_nlines "$ERR" 1
		expect_has "$ERR" "BPF_MAP_LOOKUP_AND_DELETE_BATCH"
		[ ! -e "$J" ] || bad "a failed run left $J behind"
	fi
	end_check
}

# check_bad WHAT NEEDLE ARGS...: rejected, one stderr line naming the
# value, exit 2, no report written.
check_bad() {
	what=$1 needle=$2
	shift 2
	check_rejected "bad input: $what" "$needle" "$J" "$BENCH" --json "$J" "$@"
}

check_bad_input() {
	ncpu=$(getconf _NPROCESSORS_CONF)
	check_bad "unknown benchmark" "'nosuch'" nosuch
	check_bad "-p 0" "-p '0'" -p 0 rb-libbpf
	check_bad "-d 0" "-d '0'" -d 0 rb-libbpf
	check_bad "-d -1" "-d '-1'" -d -1 rb-libbpf
	check_bad "-w -1" "-w '-1'" -w -1 rb-libbpf
	check_bad "-d 1.5" "-d '1.5'" -d 1.5 rb-libbpf
	check_bad "a CPU that does not exist" "CPU $ncpu does not exist" \
		--prod-affinity "0,$ncpu" rb-libbpf
	check_bad "a malformed CPU list" "'1-x'" --cons-affinity 1-x rb-libbpf
	check_bad "--b2b with two producers" "-p 2" --b2b -p 2 rb-libbpf
	check_bad "two consumers on one ring" "-c '2'" -c 2 rb-libbpf
	check_bad "--batch-cnt on trig-syscall" "--batch-cnt" \
		--batch-cnt 10 trig-syscall
	check_bad "--sampled on a queue" "--sampled" --sampled 10 queue-pop
	check_bad "--sampled beyond the ring" "--sampled 100000" \
		--sampled 100000 rb-libbpf
	check_bad "unknown option" "'--frobnicate'" --frobnicate rb-libbpf
	check_bad "no benchmark" "no benchmark" -d 1
	check_bad "--bmf into a missing directory" "/nonexistent/x" \
		--bmf /nonexistent/x trig-syscall
}

check_list_help() {
	begin "-l lists every benchmark, --help exits 0"
	run "$BENCH" -l
	expect_exit 0
	for b in rb-libbpf rb-custom rb-output pb-libbpf queue-pop queue-batch \
		trig-syscall trig-prog; do
		expect_match "$OUT" "^$b "
	done
	run "$BENCH" --help
	expect_exit 0
	expect_has "$OUT" "Usage: bench"
	end_check
}

# Under ASan/LSan: a normal run, a failing set-up and a Ctrl-C leave no
# leak and no sanitizer report (run() scans stdout and stderr).
check_sanitized() {
	for args in "rb-custom" "pb-libbpf" "queue-pop -c 2" "trig-prog"; do
		begin "under ASan: $args"
		run "$BENCH_SAN" $SHORT $args
		expect_exit 0
		end_check
	done

	begin "under ASan: a failing set-up frees what it took"
	run "$BENCH_SAN" $SHORT --attach fentry rb-libbpf
	if [ "$RC" != 0 ]; then
		expect_exit 1
		expect_nlines "$ERR" 1
	fi
	run "$BENCH_SAN" $SHORT queue-batch
	[ "$RC" = 0 ] || expect_exit 1
	end_check
}

check_ctrl_c() {
	begin "Ctrl-C: threads joined, summary printed, exit 130, no leak"
	CMD="$BENCH_SAN -w 0 -d 30 rb-libbpf (SIGINT after 2 s)"
	"$BENCH_SAN" -w 0 -d 30 rb-libbpf >"$OUT" 2>"$ERR" &
	pid=$!
	sleep 2
	kill -INT "$pid"
	sent=$(date +%s)
	wait "$pid"
	RC=$?
	took=$(($(date +%s) - sent))
	scan_sanitizers
	expect_exit 130
	[ "$took" -le 2 ] || bad "took $took s to stop after SIGINT"
	expect_has "$OUT" "Interrupted after"
	expect_match "$OUT" '^Totals: .*\(hits \+ drops == produced\)$'
	expect_empty "$ERR"
	end_check
}

began=$(date +%s)
check_stats_unit
check_list_help
check_every_bench
check_modes
check_producers
check_warmup
check_queue_batch
check_bad_input
check_sanitized
check_ctrl_c
echo "bench-checks took $(($(date +%s) - began)) s"
echo "bench-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
