#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Bad input to every tool: test_progs, bench, vmtest.sh and the scripts.
# Each case asserts the exit code, exactly one line on stderr that names
# the bad value, nothing on stdout, and nothing left behind (the scratch
# directory the case runs in is unchanged, and so are build/vmtest and
# the bench scripts' output directories).
#
# Usage: tests/scripts/bad_inputs.sh [--table]
#   --table   print the cases as a Markdown table (exit code, message)
#             instead of checking them: Documentation/bad-inputs.md is
#             that output, and the check fails when they differ.
# Prints "ok N - what" / "not ok N - what" and ends with
# "bad-input-checks: P passed, F failed".
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=bad-inputs
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

table_only=0
case "${1:-}" in
--table) table_only=1 ;;
"") ;;
*) echo "bad_inputs.sh: unknown argument '$1' (expected --table)" >&2; exit 2 ;;
esac

TP=$OUTPUT/test_progs
BENCH=${BENCH:-$OUTPUT/bench}
need bad-input-checks "make" "$TP" "$BENCH"
DOC=$REPO/Documentation/bad-inputs.md
ROWS=$T/rows
: >"$ROWS"
WORK=$T/work
mkdir -p "$WORK"
# Every case runs here: relative names it writes land in WORK.
cd "$WORK" || exit 1

# What "nothing left behind" looks at besides the case's own directory.
watched() {
	for d in "$WORK" "$OUTPUT/vmtest" "$OUTPUT/bench-results" \
		"$OUTPUT/prog-cost" "$OUTPUT/gate-demo"; do
		[ -d "$d" ] && find "$d" -maxdepth 2 2>/dev/null
	done | sort
}

# The tools as a case names them, and as they are run.
expand() {	# WORD
	case $1 in
	@tp) printf '%s\n' "$TP" ;;
	@bench) printf '%s\n' "$BENCH" ;;
	@vmtest) printf '%s\n' "$REPO/vmtest/vmtest.sh" ;;
	@bench/* | @scripts/*) printf '%s\n' "$REPO/${1#@}" ;;
	*) printf '%s\n' "$1" ;;
	esac
}

# A message as the table shows it: no paths of this machine, no '|'.
portable() {
	sed -e "s|$WORK/||g" -e "s|$WORK|.|g" -e "s|$OUTPUT/|build/|g" \
		-e "s|$REPO/||g" -e 's/|/\\|/g'
}

n_case=0

# bi EXIT NEEDLE [VAR=VALUE]... TOOL ARG...: one bad input.  NEEDLE is
# the text the one stderr line must contain (the bad value, quoted as
# the tool quotes it).
bi() {
	code=$1 needle=$2
	shift 2
	n_case=$((n_case + 1))
	shown=$(for w in "$@"; do
		case $w in
		@tp) w=test_progs ;;
		@vmtest) w=vmtest/vmtest.sh ;;
		@bench/* | @scripts/*) w=${w#@} ;;
		"" | *[!A-Za-z0-9_./:=@%+,-]*) w="'$w'" ;;
		esac
		printf '%s ' "$w"
	done | sed 's/ $//')
	# Environment assignments first, then the tool and its arguments.
	set -- env "$@"
	n=$#
	i=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		w=$1
		shift
		case $w in
		@bench/*.sh | @scripts/*.sh | @vmtest) set -- "$@" sh "$(expand "$w")" ;;
		*) set -- "$@" "$(expand "$w")" ;;
		esac
	done
	if [ "$table_only" = 1 ]; then
		"$@" </dev/null >/dev/null 2>"$ERR"
		RC=$?
	else
		before=$(watched)
		begin "$shown: exit $code, names $needle"
		run "$@"
		expect_exit "$code"
		expect_nlines "$ERR" 1
		expect_has "$ERR" "$needle"
		expect_empty "$OUT"
		after=$(watched)
		[ "$before" = "$after" ] || bad "left behind: $(printf '%s\n' \
			"$before" "$after" | sort | uniq -u | head -n 3 | tr '\n' ' ')"
		end_check
	fi
	msg=$(head -n 1 "$ERR" | portable)
	# shellcheck disable=SC2016 # Markdown backquotes, not a command
	printf '| %d | `%s` | %s | %s |\n' "$n_case" "$shown" "$RC" "$msg" >>"$ROWS"
}

# ---- test_progs (bad usage: exit 2; an output it cannot create: 3) ------
bi 2 "'0'" @tp -j 0
bi 2 "'abc'" @tp -j abc
bi 2 "'257'" @tp -j 257
bi 2 "'-1'" @tp -w -1
bi 2 "'90000'" @tp -w 90000
bi 2 "'0/2'" @tp --shard 0/2
bi 2 "'3/2'" @tp --shard 3/2
bi 2 "'x'" @tp --shard x
bi 2 "'1/'" @tp --shard 1/
bi 2 "'0'" @tp -n 0
bi 2 "'a-b'" @tp -n a-b
bi 2 "'5-3'" @tp -n 5-3
bi 2 "'1,,2'" @tp -n 1,,2
bi 2 "'missing.list'" @tp -t @missing.list
bi 2 "'missing.list'" @tp -a @missing.list
bi 2 "'--bogus'" @tp --bogus
bi 2 "'-x'" @tp -x
bi 2 "'--json'" @tp --json
bi 2 "'--ktap'" @tp --ktap=1
bi 2 "'3'" @tp --list=3
bi 3 "'no/such/dir/x.json'" @tp -J no/such/dir/x.json
bi 3 "'no/such/dir/x.xml'" @tp --junit no/such/dir/x.xml
bi 2 "'extra-arg'" @tp extra-arg

# ---- bench (exit 2) -------------------------------------------------------
bi 2 "'0'" @bench -d 0 rb-libbpf
bi 2 "'abc'" @bench -d abc rb-libbpf
bi 2 "'100000'" @bench -d 100000 rb-libbpf
bi 2 "'-1'" @bench -w -1 rb-libbpf
bi 2 "'0'" @bench -p 0 rb-libbpf
bi 2 "'65'" @bench -p 65 rb-libbpf
bi 2 "'0'" @bench -c 0 rb-libbpf
bi 2 "'x'" @bench --prod-affinity x rb-libbpf
bi 2 "'1-0'" @bench --cons-affinity 1-0 rb-libbpf
bi 2 "'3000'" @bench --rb-size 3000 rb-libbpf
bi 2 "'2G'" @bench --rb-size 2G rb-libbpf
bi 2 "'3'" @bench --pb-pages 3 pb-libbpf
bi 2 "'0'" @bench --queue-size 0 queue-pop
bi 2 "'0'" @bench --batch-cnt 0 rb-libbpf
bi 2 "'0'" @bench --sampled 0 rb-libbpf
bi 2 "'foo'" @bench --attach foo rb-libbpf
bi 2 "'nosuchbench'" @bench nosuchbench
bi 2 "no benchmark named" @bench
bi 2 "--variant" @bench --variant x rb-libbpf
bi 2 "'0'" @bench --keys 0 prog-cost-bloom
bi 2 "'101'" @bench --hit-pct 101 prog-cost-bloom
bi 2 "'foo'" @bench --op foo prog-cost-map-batch
bi 2 "'missing.o'" @bench --obj missing.o --prog x prog-cost
bi 2 "'no/such/dir/x.json'" @bench --json no/such/dir/x.json rb-libbpf
bi 2 "'no/such/dir/x.bmf'" @bench --bmf no/such/dir/x.bmf rb-libbpf
bi 2 "'--bogus'" @bench --bogus
bi 2 "'extra'" @bench rb-libbpf extra
bi 2 "-c does not apply" @bench -c 2 prog-cost-fizzbuzz
bi 2 "missing.json" @bench compare missing.json missing2.json
bi 2 "got 1" @bench compare a.json
bi 2 "'-5'" @bench compare --threshold -5 a.json b.json
bi 2 "'2'" @bench compare --alpha 2 a.json b.json
bi 2 "'missing.bpf.o'" @bench verifier-cost missing.bpf.o
bi 2 "'yaml'" @bench verifier-cost --format yaml
bi 2 "'0'" @bench verifier-cost --run 0
bi 2 "'700'" @bench verifier-cost --settle 700
bi 2 "'missing.json'" @bench verifier-cost --report missing.json
bi 2 "got 1" @bench verifier-compare a.json
bi 2 "'insns=lots'" @bench verifier-compare --threshold insns=lots a.json b.json
bi 2 "'speed'" @bench verifier-compare -e speed a.json b.json
bi 2 "'ad'" @bench history ad --db h.db
bi 2 "'foo'" @bench history check --db h.db --test foo a.json
bi 2 "1.5 for t_test" @bench history check --db h.db --test t_test --upper-boundary 1.5 a.json
bi 2 "'0'" @bench history check --db h.db --max-sample-size 0 a.json
bi 2 "missing.json" @bench history add --db h.db --branch b --commit c missing.json
bi 2 "--db FILE" @bench history report

# ---- vmtest.sh (exit 2, before anything is built or booted) -------------
bi 2 "'0'" @vmtest -j 0
bi 2 "'65'" @vmtest -j 65
bi 2 "'99999999999999999999'" @vmtest -j 99999999999999999999
bi 2 "'0'" @vmtest --timeout 0
bi 2 "'1e3'" @vmtest --timeout 1e3
bi 2 "'90000'" @vmtest --timeout 90000
bi 2 "'no/such/dir/m.json'" @vmtest --json no/such/dir/m.json
bi 2 "'.'" @vmtest --json .
bi 2 "'/proc/m.json'" @vmtest --json /proc/m.json
bi 2 "'foo'" @vmtest --accel foo
bi 2 "'missing.bpf.o'" @vmtest --cost missing.bpf.o
bi 2 "--csv goes with --cost" @vmtest --csv c.csv
bi 2 "'no/such/dir/c.csv'" @vmtest --cost --csv no/such/dir/c.csv
bi 2 "--cost runs its own command" @vmtest --cost --bench
bi 2 "'--bogus'" @vmtest --bogus
bi 2 "--modules" @vmtest --modules /lib/modules
bi 2 "'64'" VMTEST_MEM=64 @vmtest
bi 2 "'1G'" VMTEST_MEM=1G @vmtest
bi 2 "'0'" VMTEST_SMP=0 @vmtest
bi 2 "'-1'" VMTEST_SMP=-1 @vmtest
bi 2 "'0'" VMTEST_TCG_SCALE=0 @vmtest
bi 2 "'x'" VMTEST_TCG_THREAD=x @vmtest
bi 2 "'qemu'" VMTEST_ACCEL=qemu @vmtest
bi 2 "'-5'" VMTEST_APT_MAX_AGE=-5 @vmtest
bi 2 "'abc'" VMTEST_KVM_PROBE_TIMEOUT=abc @vmtest
bi 2 "'0'" VMTEST_PROGRESS_SEC=0 @vmtest

# ---- scripts (exit 2) -----------------------------------------------------
bi 2 "'-Z'" @bench/run_ringbuf_vs_queue.sh -Z
bi 2 "-d needs a value" @bench/run_ringbuf_vs_queue.sh -d
bi 2 "'0'" @bench/run_ringbuf_vs_queue.sh -d 0
bi 2 "'x'" @bench/run_ringbuf_vs_queue.sh -p x
bi 2 "'foo'" @bench/run_ringbuf_vs_queue.sh -m foo
bi 2 "'abc'" @bench/run_ringbuf_vs_queue.sh -g abc
bi 2 "'nosuch'" @bench/run_ringbuf_vs_queue.sh -V nosuch
bi 2 "'x'" @bench/run_ringbuf_vs_queue.sh -b "1 x"
bi 2 "'0'" @bench/run_ringbuf_vs_queue.sh -s 0
bi 2 "'x'" @bench/run_prog_cost.sh -P x
bi 2 "'abc'" @bench/run_prog_cost.sh -d abc
bi 2 "'-Q'" @bench/run_prog_cost.sh -Q
bi 2 "'x'" @bench/run_gate_demo.sh -t x
bi 2 "'0'" @bench/run_gate_demo.sh -r 0
bi 2 "usage" @scripts/merge-results.sh out.json
bi 2 "'/etc/passwd'" @scripts/merge-results.sh out.json /etc/passwd
bi 2 "'missing.config'" @scripts/config-check.sh missing.config
bi 2 "'9.99x'" @scripts/linux-source.sh 9.99x
bi 2 "'6.x'" @scripts/testmod-build.sh 6.12 6.x
bi 2 "'nosuch'" @scripts/kernel-btf.sh nosuch
bi 2 "'--bogus'" @scripts/deps.sh --bogus
bi 2 "got 0" @scripts/kselftest-install.sh

if [ "$table_only" = 1 ]; then
	cat <<'EOT'
# Bad input: what every tool says

Generated by `tests/scripts/bad_inputs.sh --table`; `make check` (stage
`bad-input-checks`) runs every case and fails when this table is not the
script's output.  Each case must exit with the code shown, print exactly
that one line on stderr (naming the bad value and the accepted form),
nothing on stdout, and leave no file behind.  Bad usage exits 2 in every
tool; test_progs exits 3 (an infrastructure error) when an output file it
was given cannot be created.

| # | command | exit | message |
|---|---------|------|---------|
EOT
	cat "$ROWS"
	exit 0
fi

begin "Documentation/bad-inputs.md is the output of tests/scripts/bad_inputs.sh --table"
sh "$HERE/bad_inputs.sh" --table >"$T/table.md" 2>&1
if ! cmp -s "$T/table.md" "$DOC"; then
	bad "Documentation/bad-inputs.md differs (regenerate it with" \
		"sh tests/scripts/bad_inputs.sh --table >Documentation/bad-inputs.md):" \
		"$(diff "$DOC" "$T/table.md" 2>&1 | head -n 8)"
fi
end_check

echo "bad-input-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
