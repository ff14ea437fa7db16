#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench history end to end: a drift caught by the window, and no false
# alarm on an unchanged benchmark.
#
# Drift (-m drift): a scratch git repository holds one XDP program whose
# loop runs LOOPS times; each of N commits raises LOOPS by 0.3% (a program
# change, not a synthetic series).  Every commit's object is measured by
# prog-cost in one QEMU guest under --icount (guest instructions per run),
# then, commit by commit, "bench history check" against the history so
# far and "bench history add".  The measure's stored threshold is the
# percentage test, 1% over the last 10 results: each commit's 0.3% step
# is under it, the drift over the window is not.  Then the plot.
#
# Host (-m host): N runs of prog-cost-fizzbuzz (lookup) on this machine,
# unchanged, each checked with the default thresholds and added as its own
# commit; the alerts are false alarms.  Each commit is run twice in a row,
# as a CI job that reruns on an alert would: the second run is the check's
# --confirm, consulted only when the first alerts.
#
# Usage: bench/run_history_demo.sh [options]
#   -m MODES    drift, host or "drift host" (default)
#   -n N        commits (default 20)
#   -k KERNEL   the guest's kernel (default 6.12)
#   -w SEC      warm-up seconds per host run (default 1; the guest warms up
#               once, with a run of the first commit)
#   -d SEC      measured seconds per run (default 3)
#   -o DIR      output directory (default build/history-demo)
#   -g CPUS     quiet guard for the host runs (default 0: off)
#   -W SEC      longest wait for a quiet machine (default 300)
#   -R          reuse the reports and commits an earlier run left in DIR
#
# Writes DIR/drift.db and DIR/host.db, each run's report under runs/, the
# alert lines in DIR/*-alerts.txt, the inconclusive ones (a run past a
# limit whose own spread straddles it) in DIR/*-inconclusive.txt and the
# plots under DIR/plot/.  Exits 0
# when the drift was caught and the unchanged runs raised no alert, 1 when
# not, 2 on bad usage or a failed run.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
BENCH=${BENCH:-${OUTPUT:-$srcdir/build}/bench}
CLANG=${CLANG:-$(command -v clang-22 || command -v clang-19 || echo clang)}
LIBBPF_INCLUDE=${LIBBPF_INCLUDE:-${OUTPUT:-$srcdir/build}/libbpf/include}

modes="drift host"
commits=20
kernel=6.12
warmup=1
duration=3
out=$srcdir/build/history-demo
guard=0
max_wait=300
loops0=3000
testbed=vm-tcg-icount-$kernel

SCRIPT=run_history_demo
# shellcheck source=bench/lib.sh
. "$srcdir/bench/lib.sh"

reuse=0
while getopts :m:n:k:w:d:o:g:W:Rh opt; do
	case $opt in
	R) reuse=1 ;;
	m) modes=$(opt_words -m "$OPTARG" "drift host") || exit ;;
	n) commits=$(opt_uint -n "$OPTARG" 3 "a number of commits") || exit ;;
	k) kernel=$OPTARG testbed=vm-tcg-icount-$OPTARG ;;
	d) duration=$(opt_uint -d "$OPTARG" 1 "whole seconds") || exit ;;
	*) common_opt "$opt" "${OPTARG:-}" ;;
	esac
done
[ -x "$BENCH" ] || die "$BENCH not found: run 'make bench-bin'"

mkdir -p "$out/runs" "$out/plot"
out=$(cd "$out" && pwd)
# The first day of the series; a commit a minute, so that the time
# window and the plot's order are the commits'.
t0=1795000000

# The program at a loop count: what each commit changes.
write_prog() {	# FILE LOOPS
	cat >"$1" <<EOF
// SPDX-License-Identifier: GPL-2.0
/* A loop whose length each commit of the demo raises by 0.3%. */
#include <linux/bpf.h>
#include <bpf/bpf_helpers.h>

#define LOOPS $2

SEC("xdp")
int drift(struct xdp_md *ctx)
{
	__u32 acc = ctx->data_end - ctx->data;

	for (int i = 0; i < LOOPS; i++) {
		acc = acc * 31 + i;
		asm volatile("" : "+r"(acc));
	}
	return acc == 0x12345 ? XDP_DROP : XDP_PASS;
}

char LICENSE[] SEC("license") = "GPL";
EOF
}

# The repository: a commit per step, each commit's object in objs/.
make_commits() {
	repo=$out/repo
	rm -rf "$repo" "$out/objs"
	mkdir -p "$repo" "$out/objs"
	git -C "$repo" init -q -b main
	loops=$loops0
	: >"$out/drift-commits.txt"
	i=1
	while [ "$i" -le "$commits" ]; do
		write_prog "$repo/drift.bpf.c" "$loops"
		git -C "$repo" add drift.bpf.c
		git -C "$repo" -c user.name=demo -c user.email=demo@localhost \
			commit -q -m "drift: $loops loops"
		n=$(printf '%02d' "$i")
		"$CLANG" -O2 -g -target bpf -I"$LIBBPF_INCLUDE" \
			-I/usr/include/"$(uname -m)"-linux-gnu \
			-c "$repo/drift.bpf.c" -o "$out/objs/$n.bpf.o" ||
			die "compiling commit $i failed"
		echo "$n $(git -C "$repo" rev-parse HEAD) $loops" >>"$out/drift-commits.txt"
		loops=$((loops + (loops * 3 + 500) / 1000))
		i=$((i + 1))
	done
}

# Every commit's object measured in one guest; reports in runs/drift-NN.json.
measure_in_guest() {
	guest=$out/guest.sh
	{
		echo "#!/bin/sh"
		# The first run after boot settles the guest; the runs need no warm-up.
		echo "bench -q -w 0 -d 1 prog-cost --obj $out/objs/01.bpf.o --prog drift >/dev/null"
		while read -r n _ _; do
			echo "bench -q -w 0 -d $duration --json \$VMTEST_RESULTS/$n.json" \
				"prog-cost --obj $out/objs/$n.bpf.o --prog drift --variant drift" \
				"|| echo \"run $n failed\""
		done <"$out/drift-commits.txt"
	} >"$guest"
	rm -rf "$out/vm"
	VMTEST_OUT=$out/vm "$srcdir/vmtest/vmtest.sh" -k "$kernel" --icount --keep \
		--timeout 3600 --add "$out/objs" --add "$guest" -- sh "$guest" ||
		die "the guest run failed (its console is under $out/vm)"
	while read -r n _ _; do
		f=$(find "$out/vm" -path "*/results/$n.json" | head -n 1)
		[ -s "$f" ] || die "no report of commit $n came back from the guest"
		cp "$f" "$out/runs/drift-$n.json"
	done <"$out/drift-commits.txt"
}

# check, then add, commit by commit; alert and inconclusive lines kept
# (ALERTS, and the same name ending in -inconclusive.txt).  Prints them.
replay() {	# DB ALERTS PREFIX TESTBED [check options]
	rdb=$1 alerts=$2 prefix=$3 tb=$4
	unsure=${alerts%-alerts.txt}-inconclusive.txt
	shift 4
	: >"$alerts"
	: >"$unsure"
	: >"${alerts%-alerts.txt}-unconfirmed.txt"
	while read -r n sha _; do
		when=$((t0 + 60 * ${n#0}))
		where="--db $rdb --branch main --commit $sha --time $when"
		# shellcheck disable=SC2086
		rerun=$out/runs/$prefix-$n-rerun.json
		[ -f "$rerun" ] || rerun=''
		"$BENCH" history check $where ${tb:+--testbed "$tb"} ${rerun:+--confirm "$rerun"} "$@" \
			"$out/runs/$prefix-$n.json" >"$out/check.out" || true
		sed -n "s/^alert: /commit $n: alert: /p" "$out/check.out" | tee -a "$alerts"
		sed -n "s/^unconfirmed: /commit $n: unconfirmed: /p" "$out/check.out" |
			tee -a "${alerts%-alerts.txt}-unconfirmed.txt"
		sed -n "s/^inconclusive: /commit $n: inconclusive: /p" "$out/check.out" |
			tee -a "$unsure"
		# shellcheck disable=SC2086
		"$BENCH" history add $where ${tb:+--testbed "$tb"} \
			"$out/runs/$prefix-$n.json" >/dev/null || die "adding commit $n failed"
	done <"$out/$prefix-commits.txt"
}

drift() {
	if [ "$reuse" = 0 ]; then
		make_commits
		measure_in_guest
	fi
	db=$out/drift.db
	rm -f "$db" "$db-wal" "$db-shm"
	"$BENCH" history threshold --db "$db" --measure test_run --test percentage \
		--upper-boundary 0.01 --max-sample-size 10
	"$BENCH" history threshold --db "$db" --measure bpf_stats --test percentage \
		--upper-boundary 0.01 --max-sample-size 10
	echo "== each commit against the one before it alone (1%): no alert expected"
	replay "$db.prev" "$out/drift-prev-alerts.txt" drift "$testbed" --test percentage \
		--upper-boundary 0.01 --max-sample-size 1 --min-sample-size 1
	rm -f "$db.prev" "$db.prev-wal" "$db.prev-shm"
	echo "== each commit against the window of the last 10 (1%)"
	replay "$db" "$out/drift-alerts.txt" drift "$testbed"
	"$BENCH" history report --db "$db"
	"$BENCH" history plot --db "$db" --out "$out/plot"
}

host() {
	db=$out/host.db
	rm -f "$db" "$db-wal" "$db-shm"
	[ "$reuse" = 1 ] || : >"$out/host-commits.txt"
	i=1
	while [ "$reuse" = 0 ] && [ "$i" -le "$commits" ]; do
		n=$(printf '%02d' "$i")
		echo "$n host$n" >>"$out/host-commits.txt"
		wait_quiet
		for r in "" -rerun; do
			"$BENCH" -q -w "$warmup" -d "$duration" --json "$out/runs/host-$n$r.json" \
				prog-cost-fizzbuzz --variant lookup >/dev/null ||
				die "host run $n$r failed"
		done
		echo "host run $n, load average $(cut -d' ' -f1-3 /proc/loadavg)" \
			>>"$out/host-load.txt"
		i=$((i + 1))
	done
	echo "== $commits host runs of an unchanged benchmark, default thresholds"
	replay "$db" "$out/host-alerts.txt" host ""
	"$BENCH" history report --db "$db"
	"$BENCH" history plot --db "$db" --out "$out/plot"
}

[ "$reuse" = 1 ] || : >"$out/host-load.txt"
ok=0
for m in $modes; do
	$m
done
for m in $modes; do
	a=$(grep -c . "$out/$m-alerts.txt" || true)
	case $m in
	drift)
		p=$(grep -c . "$out/drift-prev-alerts.txt" || true)
		echo "drift: $a alert lines against the window, $p against the previous commit alone"
		[ "$a" -gt 0 ] && [ "$p" -eq 0 ] || ok=1 ;;
	host)
		u=$(grep -c . "$out/host-inconclusive.txt" || true)
		c=$(grep -c . "$out/host-unconfirmed.txt" || true)
		echo "host: $a false alarms, $c alerts the rerun did not confirm and" \
			"$u inconclusive in $commits runs;" \
			"load average, first and last run:" \
			"$(sed -n '1p;$p' "$out/host-load.txt" | sed 's/.*load average //' |
				tr '\n' ';')"
		[ "$a" -eq 0 ] || ok=1 ;;
	esac
done
echo "plots: $out/plot"
exit "$ok"
