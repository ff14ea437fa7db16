#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench history ("history" stage of make check): the threshold tests'
# unit test; on made-up reports, each test's alert and its negative
# control, the drift a window catches and a comparison with the previous
# commit alone does not, min sample size, time window, a branch's start
# point, stored thresholds, the report shapes (bench --json, BMF, vmtest
# --bench --json), idempotent adds, export/import, the plot; trust: two
# writers at once lose nothing, corrupt or foreign files refused and left
# as they were, a full disk keeps the old history, the schema migrated,
# bad input and bad usage refused before anything is written.  Then the
# same commands under ASan/UBSan.
# Ends with "history-checks: P passed, F failed".
#
# shellcheck disable=SC2016
# (jq programs are single-quoted on purpose.)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=history
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

BENCH=${BENCH:-$OUTPUT/bench}
BENCH_SAN=${BENCH_SAN:-$OUTPUT/bench-san}
UNIT=${HIST_THRESHOLD_TEST:-$OUTPUT/hist_threshold_test}

need history-checks "make check-bench" "$BENCH" "$UNIT"
command -v python3 >/dev/null || { echo "history-checks: python3 is missing"; exit 1; }

DB=$T/h.db
t0=1795000000

# mkrep FILE MEAN [BETTER [UNIT [CONFIG]]]: a bench --json report whose
# metric test_run has three samples around MEAN (0.1% apart).
mkrep() {
	jq -n --argjson m "$2" --arg better "${3:-lower}" --arg unit "${4:-ns/run}" \
		--arg config "${5:-prog-cost/made-up}" '{bench: "prog-cost", config: $config,
		environment: {kernel_release: "6.99-test", arch: "x86_64",
			cpu_model: "made up", cpus_online: 2},
		metrics: [{name: "test_run", unit: $unit, better: $better, available: true,
			samples: [$m * 0.999, $m, $m * 1.001]}]}' >"$1"
}

# hist CMD [ARGS...]: bench history CMD --db $DB on branch main.
hist() {
	cmd=$1
	shift
	run "$BENCH" history "$cmd" --db "$DB" "$@"
}

# series N MEAN...: commits c1..cN with those means, a minute apart.
series() {
	rm -f "$DB" "$DB-wal" "$DB-shm"
	i=1
	for m in "$@"; do
		mkrep "$T/s.json" "$m"
		hist add --branch main --commit "c$i" --time $((t0 + 60 * i)) "$T/s.json"
		i=$((i + 1))
	done
}

# reports: how many reports the history holds (through export).
reports() {
	rm -rf "$T/exp"
	"$BENCH" history export --db "$1" --out "$T/exp" >/dev/null 2>&1 &&
		jq '.reports | length' "$T/exp/manifest.json"
}

check_unit() {
	begin "the threshold tests' limits against worked values (hist_threshold_test)"
	run "$UNIT"
	expect_exit 0
	expect_match "$OUT" '^hist-threshold-test: [0-9]+ passed, 0 failed$'
	end_check
}

check_add_idempotent() {
	begin "add creates the history; the same run added again adds nothing"
	rm -f "$DB"
	mkrep "$T/a.json" 100
	hist add --branch main --commit c1 "$T/a.json"
	expect_exit 0
	expect_line "$OUT" "bench history: added 1 result of 1 testbed to branch main at commit c1"
	hist add --branch main --commit c1 "$T/a.json"
	expect_exit 0
	expect_has "$OUT" "already in branch main: nothing added"
	expect_eq "reports" 1 "$(reports "$DB")"
	mkrep "$T/a.json" 101
	hist add --branch main --commit c1 "$T/a.json"
	expect_eq "reports after another run of c1" 2 "$(reports "$DB")"
	end_check
}

# The six values before each check: mean 100, stddev ~0.9.
BASE="99 101 100 99.5 100.5 100"

check_tests() {
	for spec in "t_test" "z_score" "percentage" "iqr" "static --upper-boundary 105"; do
		begin "--test $spec: 110 alerts, 100.5 does not (negative control)"
		series $BASE
		mkrep "$T/n.json" 110
		# shellcheck disable=SC2086
		hist check --branch main --commit c9 --test $spec "$T/n.json"
		expect_exit 1
		expect_nlines "$OUT" 2
		expect_match "$OUT" "^alert: prog-cost/made-up test_run: 110 ns/run above the upper limit [0-9.]+ \(${spec%% *}, upper boundary [0-9.]+; window: 6 results of main on x86_64-2cpu-6.99-test, commits c1..c6, max 64\)$"
		expect_line "$OUT" "bench history: 1 result checked on branch main: 1 alert, 0 inconclusive, 0 with too little history"
		mkrep "$T/n.json" 100.5
		# shellcheck disable=SC2086
		hist check --branch main --commit c9 --test $spec "$T/n.json"
		expect_exit 0
		expect_no "$OUT" "alert:"
		end_check
	done
}

check_lower() {
	begin "a measure where higher is better: a drop alerts below the lower limit, a rise does not"
	rm -f "$DB"
	for i in 1 2 3 4 5 6; do
		mkrep "$T/s.json" "$(echo "$BASE" | cut -d' ' -f"$i")" higher events/s
		hist add --branch main --commit "c$i" --time $((t0 + 60 * i)) "$T/s.json"
	done
	mkrep "$T/n.json" 90 higher events/s
	hist check --branch main --commit c9 "$T/n.json"
	expect_exit 1
	expect_match "$OUT" "^alert: .* 90 events/s below the lower limit [0-9.]+ \(t_test, lower boundary 0.999;"
	mkrep "$T/n.json" 110 higher events/s
	hist check --branch main --commit c9 "$T/n.json"
	expect_exit 0
	end_check
}

# 12 commits, each 0.3% above the one before (100 x 1.003^k).
DRIFT=$(jq -rn '[range(0; 12) | 100 * pow(1.003; .)] | map(tostring) | join(" ")')

check_drift() {
	begin "a 0.3%/commit drift: caught by a 10-result window at 1%, not by the previous commit alone"
	rm -f "$DB" "$T/alerts" "$T/prev"
	i=1
	for m in $DRIFT; do
		mkrep "$T/s.json" "$m"
		w="--branch main --commit c$i --time $((t0 + 60 * i))"
		# shellcheck disable=SC2086
		"$BENCH" history check --db "$DB" $w --test percentage --upper-boundary 0.01 \
			--max-sample-size 10 "$T/s.json" >>"$T/alerts"
		# shellcheck disable=SC2086
		"$BENCH" history check --db "$DB" $w --test percentage --upper-boundary 0.01 \
			--max-sample-size 1 --min-sample-size 1 "$T/s.json" >>"$T/prev"
		# shellcheck disable=SC2086
		"$BENCH" history add --db "$DB" $w "$T/s.json" >/dev/null
		i=$((i + 1))
	done
	expect_match "$T/alerts" '^alert: prog-cost/made-up test_run: .* above the upper limit .*\(percentage, upper boundary 0.01; window: [0-9]+ results of main'
	expect_no "$T/prev" "alert:"
	end_check
}

check_window() {
	begin "min sample size and time window: too little history is no alert"
	series $BASE
	mkrep "$T/n.json" 110
	hist check --branch main --commit c9 --min-sample-size 7 "$T/n.json"
	expect_exit 0
	expect_has "$OUT" "0 alerts, 0 inconclusive, 1 with too little history"
	hist check --branch main --commit c9 --time $((t0 + 100000)) --window 3600 "$T/n.json"
	expect_exit 0
	expect_has "$OUT" "0 alerts, 0 inconclusive, 1 with too little history"
	hist check --branch main --commit c9 --time $((t0 + 100000)) --window 200000 "$T/n.json"
	expect_exit 1
	expect_has "$OUT" "within 200000s)"
	end_check
}

check_branches() {
	begin "a branch with a start point is checked against its base's history; one without is not"
	series $BASE
	mkrep "$T/n.json" 110
	hist check --branch feature --start-point main --commit f1 "$T/n.json"
	expect_exit 1
	expect_has "$OUT" "window: 6 results of feature"
	hist check --branch other --commit o1 "$T/n.json"
	expect_exit 0
	expect_has "$OUT" "1 with too little history"
	hist add --branch feature --start-point nosuch --commit f1 "$T/n.json"
	expect_exit 2
	expect_has "$ERR" "--start-point 'nosuch': no such branch"
	end_check
}

check_stored_threshold() {
	begin "a measure's stored threshold is used; the command line overrides it"
	series $BASE
	hist threshold --measure test_run --test percentage --upper-boundary 0.2
	expect_exit 0
	mkrep "$T/n.json" 110
	hist check --branch main --commit c9 "$T/n.json"
	expect_exit 0
	hist check --branch main --commit c9 --upper-boundary 0.05 "$T/n.json"
	expect_exit 1
	expect_has "$OUT" "(percentage, upper boundary 0.05;"
	end_check
}

# mksamples FILE S...: a report whose test_run has exactly those samples.
mksamples() {
	f=$1
	shift
	mkrep "$f" 0
	jq --argjson s "[$(echo "$@" | tr ' ' ',')]" '.metrics[0].samples = $s' "$f" >"$f.tmp" &&
		mv "$f.tmp" "$f"
}

check_candidate() {
	begin "default: a run past the limit whose own spread straddles it is inconclusive"
	series $BASE
	mksamples "$T/n.json" 95 100 130	# mean 108.3, stddev 18.9
	hist check --branch main --commit c9 "$T/n.json"
	expect_exit 0
	expect_match "$OUT" "^inconclusive: prog-cost/made-up test_run: 108.333 ns/run above the upper limit [0-9.]+ \(t_test, upper boundary 0.999; its 95% bound [0-9.]+ from 3 samples, stddev 18.9, not past it; window: 6 results"
	expect_has "$OUT" "0 alerts, 1 inconclusive, 0 with too little history"
	hist check --branch main --commit c9 --candidate-confidence 0 "$T/n.json"
	expect_exit 1
	hist check --branch main --commit c9 --test t_test "$T/n.json"
	expect_exit 1
	expect_match "$OUT" "^alert: .*\(t_test, upper boundary 0.999; window:"
	mksamples "$T/n.json" 109.5 110 110.5	# the negative control: a clear shift
	hist check --branch main --commit c9 "$T/n.json"
	expect_exit 1
	expect_match "$OUT" "^alert: .* 110 ns/run above .* its 95% bound 109.[0-9]+ from 3 samples"
	mksamples "$T/n.json" 95 100 130
	hist add --branch main --commit c9 --time $((t0 + 600)) "$T/n.json"
	hist report
	expect_match "$OUT" " c9 .* inconclusive$"
	hist check --branch main --commit c9 --candidate-confidence 0.3 "$T/n.json"
	expect_exit 2
	expect_has "$ERR" "--candidate-confidence '0.3': expected 0, or a confidence level"
	hist threshold --measure test_run --candidate-confidence 0.9
	expect_exit 2
	end_check
}

check_confirm() {
	begin "--confirm: an alert stands when the rerun repeats it, not when the rerun is fine"
	series $BASE
	mkrep "$T/n.json" 110
	mkrep "$T/fine.json" 100.2
	hist check --branch main --commit c9 --confirm "$T/fine.json" "$T/n.json"
	expect_exit 0
	expect_match "$OUT" "^unconfirmed: prog-cost/made-up test_run: 110 ns/run above the upper limit [0-9.]+ \(t_test"
	expect_line "$OUT" "  rerun ($T/fine.json): 100.2 ns/run, within it: not confirmed"
	expect_has "$OUT" "0 alerts, 0 inconclusive, 1 not confirmed by the rerun,"
	# The negative control: a rerun as slow as the run confirms it.
	mkrep "$T/slow.json" 109
	hist check --branch main --commit c9 --confirm "$T/slow.json" "$T/n.json"
	expect_exit 1
	expect_match "$OUT" "^alert: prog-cost/made-up test_run: 110 ns/run above"
	expect_line "$OUT" "  rerun ($T/slow.json): 109 ns/run, past the limit too: confirmed"
	# A rerun of other benchmarks contradicts nothing.
	mkrep "$T/other.json" 100 lower ns/run prog-cost/other
	hist check --branch main --commit c9 --confirm "$T/other.json" "$T/n.json"
	expect_exit 1
	expect_has "$OUT" "  rerun: no prog-cost/made-up test_run in $T/other.json; the alert stands"
	hist add --branch main --commit c9 --confirm "$T/fine.json" "$T/n.json"
	expect_exit 2
	expect_has "$ERR" "add: --confirm is for check"
	hist check --branch main --commit c9 --confirm "$T/none.json" "$T/n.json"
	expect_exit 2
	end_check
}

. "$HERE/history_trust.sh"

check_unit
check_add_idempotent
check_tests
check_lower
check_drift
check_window
check_branches
check_stored_threshold
check_candidate
check_confirm
trust_checks
echo "history-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
