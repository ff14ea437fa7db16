#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench verifier-cost and verifier-compare ("make check"): the report on
# bpfcheck's own objects in every format, agreement with the kernel's
# veristat (built from linux-source-7.2 at test time, cached in
# $OUTPUT/veristat, never committed) on verdicts, instructions and states,
# the gate on a candidate with one more branch (flagged in every one of
# repeated runs, the unchanged program never), a program that stopped
# verifying, kernel against kernel, filters, bad input (exit 2), and one
# short guest run of vmtest --cost (6.12, --icount; VERIFIER_COST_GUEST=0
# leaves it out).  Negative controls: a tampered figure is a difference
# for the veristat comparison and a regression for the gate.
# Prints "ok N - what" / "not ok N - what" and ends with
# "verifier-cost-checks: P passed, F failed".
#
# shellcheck disable=SC2016
# (jq programs are single-quoted on purpose.)
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=verifier-cost
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

BENCH=${BENCH:-$OUTPUT/bench}
BPF=$OUTPUT/bpf
SRC=$HERE/verifier_cost/branchy.bpf.c
RUNS=${VERIFIER_COST_RUNS:-10}
export VMTEST_CACHE="${VMTEST_CACHE:-$REPO/vmtest/cache}"

need verifier-cost-checks "make bench-bin" "$BENCH" "$BPF/fizzbuzz_lookup.bpf.o"

if [ -z "${CLANG:-}" ]; then
	for c in clang-22 clang-19 clang; do
		command -v "$c" >/dev/null && CLANG=$c && break
	done
fi

# branchy.bpf.o into DIR, with the clang flags given.
build_branchy() {	# DIR [FLAGS...]
	d=$1
	shift
	mkdir -p "$d" && "${CLANG:-clang}" -g -O2 -target bpf -mcpu=v3 \
		-I"$OUTPUT/libbpf/include" -idirafter /usr/include/x86_64-linux-gnu \
		-idirafter /usr/include "$@" -c "$SRC" -o "$d/branchy.bpf.o"
}

# The columns veristat and we both have, one program a line, sorted:
# file,prog,verdict,insns,states,peak_states.  A figure we leave empty
# (the verifier never ran) is veristat's 0.
our_columns() {	# CSV
	awk -F, 'NR > 1 { for (i = 5; i <= 7; i++) if ($i == "") $i = 0
		print $1 "," $2 "," $3 "," $5 "," $6 "," $7 }' OFS=, "$1" | sort
}

veristat_columns() {	# CSV
	awk 'NR > 1' "$1" | sort
}

# veristat from linux-source-7.2 against the build's libbpf.a, once.
VERISTAT=$OUTPUT/veristat/veristat
build_veristat() {
	sel=$(sh "$REPO/scripts/linux-source.sh" -b 7.2) || return 1
	tree=$(sh "$REPO/scripts/linux-source.sh" 7.2) || return 1
	src=$sel/tools/testing/selftests/bpf/veristat.c
	[ -x "$VERISTAT" ] && [ -z "$(find "$src" "$OUTPUT/libbpf/obj/libbpf.a" \
		-newer "$VERISTAT")" ] && return 0
	mkdir -p "$(dirname "$VERISTAT")"
	gcc -O2 -o "$VERISTAT.tmp" "$src" -I"$OUTPUT/libbpf/include" \
		-I"$tree/tools/include" -I"$tree/tools/include/uapi" \
		"$OUTPUT/libbpf/obj/libbpf.a" -lelf -lz -lm -lpthread &&
		mv "$VERISTAT.tmp" "$VERISTAT"
}

check_report() {
	begin "verifier-cost on bpfcheck's objects: text, JSON, CSV, BMF"
	run "$BENCH" verifier-cost -k host --run 1000 --json "$T/host.json" \
		--csv "$T/host.csv" --bmf "$T/host.bmf" "$BPF"
	expect_exit 0
	expect_match "$OUT" '^Kernel +File +Program +Verdict +Insns +States +Peak '
	expect_match "$OUT" '^host +fizzbuzz_lookup\.bpf\.o +fizzbuzz_lookup +success +[1-9][0-9]* '
	expect_has "$OUT" "failure: host test_run_tests.bpf.o/deref_scalar: R0 invalid mem access 'scalar'"
	expect_jq "$T/host.json" '.report == "verifier-cost" and (.programs | length > 40)'
	expect_jq "$T/host.json" '[.programs[] | select(.verdict == "success") |
		.total_insns > 0 and .xlated_size > 0 and .prog_size > 0] | all'
	expect_jq "$T/host.json" '[.programs[] | select(.verdict == "failure") |
		.error | length > 0] | all'
	expect_jq "$T/host.json" '[.programs[] | select(.prog_name | test("^fizzbuzz")) |
		.run_ns > 0] | all and length == 4'
	expect_jq "$T/host.json" '[.programs[] | select(.prog_type == "tracepoint") |
		.run_ns == null] | all'
	expect_jq "$T/host.bmf" '."host/fizzbuzz_lookup.bpf.o/fizzbuzz_lookup" |
		.total_insns.value > 0 and .total_states.value >= 0'
	line=$(head -n 1 "$T/host.csv")
	expect_eq "the CSV header" "file_name,prog_name,verdict,duration,total_insns,total_states,peak_states,max_states_per_insn,mark_read,stack_depth,max_stack_depth,prog_size,xlated_size,prog_size_jited,run_ns,kernel,prog_type,error" "$line"
	n=$(jq '.programs | length' "$T/host.json" 2>/dev/null)
	expect_eq "CSV rows" "$n" "$(($(wc -l <"$T/host.csv") - 1))"
	end_check
}

check_veristat() {
	begin "the kernel's veristat (7.2) agrees on verdicts, insns and states"
	if ! build_veristat >"$T/vs-build.log" 2>&1; then
		bad "cannot build veristat: $(tail -n 3 "$T/vs-build.log")"
		end_check
		return
	fi
	# shellcheck disable=SC2046 # the objects are words
	run "$VERISTAT" -o csv -e file,prog,verdict,insns,states,peak_states \
		$(ls "$BPF"/*.bpf.o) "$T/base/branchy.bpf.o" "$T/cand/branchy.bpf.o"
	expect_exit 0
	cp "$OUT" "$T/veristat.csv"
	# shellcheck disable=SC2046
	"$BENCH" verifier-cost -o csv $(ls "$BPF"/*.bpf.o) "$T/base/branchy.bpf.o" \
		"$T/cand/branchy.bpf.o" >"$T/ours.csv" 2>"$T/ours.err"
	our_columns "$T/ours.csv" >"$T/ours.cols"
	veristat_columns "$T/veristat.csv" >"$T/vs.cols"
	n=$(wc -l <"$T/vs.cols")
	[ "$n" -gt 50 ] || bad "expected more than 50 programs, veristat listed $n"
	diff "$T/vs.cols" "$T/ours.cols" >"$T/vs.diff" ||
		bad "veristat (<) and verifier-cost (>) differ:" "$(head -n 10 "$T/vs.diff")"
	echo "  # programs compared with veristat: $n, differences: $(grep -c '^>' "$T/vs.diff")"
	end_check

	begin "negative control: one instruction more is a veristat difference"
	sed '2s/^\([^,]*,[^,]*,[^,]*,[^,]*,\)\([0-9]*\)/\1\2\2/' "$T/ours.csv" >"$T/tampered.csv"
	our_columns "$T/tampered.csv" >"$T/tampered.cols"
	if diff "$T/vs.cols" "$T/tampered.cols" >/dev/null; then
		bad "a tampered total_insns went unnoticed"
	fi
	end_check
}

# RUNS reports of each build, base-N.json and cand-N.json.
measure_runs() {
	i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		"$BENCH" verifier-cost -k host --json "$T/base-$i.json" "$T/base" >/dev/null &&
			"$BENCH" verifier-cost -k host --json "$T/cand-$i.json" "$T/cand" >/dev/null ||
			bad "run $i of verifier-cost failed"
	done
}

check_gate_branch() {
	begin "gate: one more branch flagged in $RUNS of $RUNS runs, 0 false alarms"
	measure_runs
	flagged=0 false=0 i=0
	while [ "$i" -lt "$RUNS" ]; do
		i=$((i + 1))
		run "$BENCH" verifier-compare "$T/base-1.json" "$T/cand-$i.json"
		[ "$RC" = 1 ] && grep -q '^REGRESSED: host branchy.bpf.o/branchy: total_insns ' "$OUT" &&
			flagged=$((flagged + 1))
		grep -q 'steady' "$OUT" && grep -q '^REGRESSED: .*steady' "$OUT" &&
			false=$((false + 1))
		run "$BENCH" verifier-compare "$T/base-1.json" "$T/base-$i.json"
		[ "$RC" = 0 ] || false=$((false + 1))
	done
	expect_eq "candidates flagged" "$RUNS" "$flagged"
	expect_eq "false alarms (base vs base, the steady program)" 0 "$false"
	echo "  # one branch more: flagged $flagged of $RUNS; base against itself: $false false alarms of $RUNS"
	end_check

	begin "gate: a threshold above the growth lets the candidate pass"
	run "$BENCH" verifier-compare --threshold total_insns=50 "$T/base-1.json" "$T/cand-1.json"
	expect_exit 0
	expect_match "$OUT" '^host +branchy\.bpf\.o +branchy +success +[0-9]+ +[0-9]+ +\+[0-9]+ \(\+[0-9.]+%\)'
	end_check

	begin "negative control: one instruction less in the base is a regression"
	jq '(.programs[] | select(.prog_name == "steady") | .total_insns) -= 1' \
		"$T/base-1.json" >"$T/tampered.json"
	run "$BENCH" verifier-compare "$T/tampered.json" "$T/base-2.json"
	expect_exit 1
	expect_has "$OUT" "REGRESSED: host branchy.bpf.o/steady: total_insns 5 -> 6"
	end_check
}

check_stopped() {
	begin "gate: a program that stopped verifying fails, with the error"
	"$BENCH" verifier-cost -k host --json "$T/broken.json" "$T/broken" >/dev/null 2>&1
	run "$BENCH" verifier-compare "$T/base-1.json" "$T/broken.json"
	expect_exit 1
	expect_match "$OUT" '^REGRESSED: host branchy.bpf.o/branchy: stopped verifying: R2 offset is outside of the packet$'
	expect_match "$OUT" 'branchy +success -> failure'
	end_check
}

check_kernels() {
	begin "--kernels: each kernel against the first, filters, min change"
	"$BENCH" verifier-cost -k a --json "$T/ka.json" "$T/base" >/dev/null
	"$BENCH" verifier-cost -k b --json "$T/kb.json" "$T/cand" >/dev/null
	run "$BENCH" verifier-compare --kernels "$T/ka.json" "$T/kb.json"
	expect_exit 0
	expect_match "$OUT" '^a -> b +branchy\.bpf\.o +branchy '
	expect_has "$OUT" "grew: a -> b branchy.bpf.o/branchy: total_insns"
	expect_has "$OUT" "; not gated"
	run "$BENCH" verifier-compare --kernels --gate --min-change 1 -f '*/steady' \
		"$T/ka.json" "$T/kb.json"
	expect_exit 0
	expect_no "$OUT" "branchy.bpf.o            branchy"
	expect_has "$OUT" "1 programs compared, 0 changed"
	run "$BENCH" verifier-compare --kernels --gate -o csv "$T/ka.json" "$T/kb.json"
	expect_exit 1
	expect_line "$OUT" "file_name,prog_name,kernel_a,kernel_b,verdict_a,verdict_b,total_insns_a,total_insns_b,total_insns_diff,total_insns_pct,total_states_a,total_states_b,total_states_diff,total_states_pct,peak_states_a,peak_states_b,peak_states_diff,peak_states_pct"
	end_check
}

check_bad_input() {
	check_rejected "bad input: a missing object" "'$T/none.bpf.o': No such file" - \
		"$BENCH" verifier-cost "$T/none.bpf.o"
	check_rejected "bad input: a file that is no BPF object" "not a BPF object" - \
		"$BENCH" verifier-cost "$SRC"
	check_rejected "bad input: --format" "--format 'yaml': expected text, markdown" "$T/x.json" \
		"$BENCH" verifier-cost --format yaml --json "$T/x.json" "$T/base"
	check_rejected "bad input: --run" "--run '0': expected a number of runs" - \
		"$BENCH" verifier-cost --run 0 "$T/base"
	check_rejected "bad input: --threshold" "--threshold 'insns=lots': expected a percentage" - \
		"$BENCH" verifier-compare --threshold insns=lots "$T/ka.json" "$T/kb.json"
	check_rejected "bad input: an unknown figure" "unknown figure 'speed'" - \
		"$BENCH" verifier-compare -e speed "$T/ka.json" "$T/kb.json"
	check_rejected "bad input: one file" "expected two files" - \
		"$BENCH" verifier-compare "$T/ka.json"
	check_rejected "bad input: not a report" "expected a bench verifier-cost --json report" - \
		"$BENCH" verifier-compare "$T/host.bmf" "$T/ka.json"
	check_rejected "bad input: --base-kernel" "--base-kernel 'c': no such kernel" - \
		"$BENCH" verifier-compare --kernels --base-kernel c "$T/ka.json" "$T/kb.json"
	check_rejected "bad input: vmtest --cost of a missing object" \
		"--cost '$T/none.bpf.o': no such file" - \
		sh "$REPO/vmtest/vmtest.sh" -k 6.12 --cost "$T/none.bpf.o"
}

check_guest() {
	begin "vmtest --cost on 6.12 (--icount): the guest's report, CSV and comparison"
	VMTEST_OUT=$T/vm run sh "$REPO/vmtest/vmtest.sh" -k 6.12 --icount --cost \
		"$T/base" --csv "$T/g.csv" --json "$T/g.json"
	expect_exit 0
	expect_match "$OUT" '^6\.12 +branchy\.bpf\.o +branchy +success +[1-9]'
	expect_jq "$T/g.json" '[.programs[].kernel] | unique == ["6.12"]'
	expect_match "$T/g.csv" '^branchy\.bpf\.o,branchy,success,[0-9]+,[1-9][0-9]*,.*,[1-9][0-9]*,6\.12,xdp,$'
	expect_has "$OUT" "verifier-compare: 0 programs compared"
	end_check
}

began=$(date +%s)
build_branchy "$T/base" || echo "verifier-cost-checks: cannot build $SRC"
build_branchy "$T/cand" -DONE_MORE_BRANCH
build_branchy "$T/broken" -DBROKEN
check_report
check_veristat
check_gate_branch
check_stopped
check_kernels
check_bad_input
[ "${VERIFIER_COST_GUEST:-1}" = 0 ] || check_guest
echo "verifier-cost-checks took $(($(date +%s) - began)) s"
echo "verifier-cost-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
