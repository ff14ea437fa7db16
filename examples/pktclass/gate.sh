#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The cost gate of pktclass: measure the program in BASE.bpf.o and in
# HEAD.bpf.o in turns (bench prog-cost --obj, BPF_PROG_TEST_RUN and BPF
# statistics), pool each side's rounds and let bench compare decide.
#
# Usage: [BENCH=path/to/bench] sh gate.sh [-r ROUNDS] [-d SEC] [-t PCT]
#        BASE.bpf.o HEAD.bpf.o
#   -r  rounds, each measuring base then head (default 3)
#   -d  seconds (samples) per run (default 2)
#   -t  smallest slowdown that counts, percent (default 200: the program
#       takes some 30 ns a run, and a busy shared machine added up to 50 ns
#       to one side: the same object's two sides differed by up to 43%;
#       the -DSLOW build measured +710% to +1580%.  On a quiet dedicated
#       runner a smaller threshold serves)
# Exit: bench compare's: 0 no regression, 1 regressed, 2 bad input.
set -eu

BENCH=${BENCH:-bench}
rounds=3
secs=2
threshold=200
while getopts r:d:t: opt; do
	case $opt in
	r) rounds=$OPTARG ;;
	d) secs=$OPTARG ;;
	t) threshold=$OPTARG ;;
	*) echo "usage: gate.sh [-r ROUNDS] [-d SEC] [-t PCT] BASE.bpf.o HEAD.bpf.o" >&2; exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# != 2 ]; then
	echo "usage: gate.sh [-r ROUNDS] [-d SEC] [-t PCT] BASE.bpf.o HEAD.bpf.o" >&2
	exit 2
fi

out=build/gate
rm -rf "$out"
mkdir -p "$out"
r=1
while [ "$r" -le "$rounds" ]; do
	for side in base head; do
		obj=$1
		[ "$side" = base ] || obj=$2
		"$BENCH" -q -w 1 -d "$secs" --json "$out/$side-$r.json" \
			prog-cost --obj "$obj" --prog pktclass --variant "$side" >/dev/null
	done
	r=$((r + 1))
done
jq -s . "$out"/base-*.json >"$out/base.json"
jq -s . "$out"/head-*.json >"$out/head.json"
"$BENCH" compare --threshold "$threshold" "$out/base.json" "$out/head.json"
