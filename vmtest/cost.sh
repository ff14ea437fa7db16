# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# vmtest --cost (sourced; POSIX sh): the verifier's figures of every
# program of some BPF objects on each kernel, and the test_run cost of
# those that run on packets.  The guest runs "bench verifier-cost --run
# 100000 --json /results/cost.json OBJ..." (no OBJ: the
# objects of the build, /bpfcheck/bpf); the host names each report's
# rows after the kernel's label and prints one table of every kernel,
# then each kernel against the first (bench verifier-compare --kernels).
# Documentation/verifier-cost.md.

: "${VT_SRCDIR:?cost.sh needs VT_SRCDIR}"

# The objects named after --cost, one absolute path a line.
COST_OBJS=

# An OBJ (a BPF object or a directory of them) goes into the guest at
# the same path.
cost_obj() {	# PATH
	[ -e "$1" ] ||
		vt_usage_die "--cost '$1': no such file or directory (expected BPF objects or directories of them)"
	case "$1" in
	*"
"*) vt_usage_die "--cost: a path with a newline is not supported" ;;
	esac
	payload_add "$1"
	COST_OBJS="$COST_OBJS$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
"
}

# The guest's command, sh-quoted.
cost_guest_cmd() {
	set -- bench verifier-cost --run 100000 --json /results/cost.json
	# Under icount a guest's idle clock jumps: settling costs no wall time
	# and keeps 7.2's deferred boot work out of the figures.
	[ "${VMTEST_ICOUNT:-0}" = 0 ] || set -- "$@" --settle 5
	while IFS= read -r o; do
		[ -z "$o" ] || set -- "$@" "$o"
	done <<EOF_OBJS
$COST_OBJS
EOF_OBJS
	vt_quote "$@"
}

# After the guests: work directory WORK's NK kernels' reports, relabelled
# with each kernel's label, as one table in FORMAT (text|markdown) and
# the comparison with the first kernel, and into the files given ("" for
# none).  Exit 0 when every kernel gave its report, else 1.
cost_report() {	# WORK NK FORMAT JSON-FILE CSV-FILE BMF-FILE
	w=$1 n=$2 fmt=$3
	bench=$OUTPUT/bench
	set -- "$4" "$5" "$6"
	reports='' files='' missing=0 i=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		d=$w/k$i
		# shellcheck disable=SC1091
		. "$d/kernel.env"
		if jq --arg k "$K_LABEL" '.programs[].kernel = $k' "$d/results/cost.json" \
			>"$d/cost.json" 2>/dev/null; then
			reports="$reports --report $d/cost.json"
			files="$files $d/cost.json"
			continue
		fi
		missing=$((missing + 1))
		echo "---- [$K_LABEL] $(cat "$d/status"): no report; last console lines"
		tr -d '\r' <"$d/console.log" | grep -v '^$' | tail -n 15
	done
	[ -n "$reports" ] || return 1
	# shellcheck disable=SC2086 # the --report words
	"$bench" verifier-cost $reports -o "$fmt" ${1:+--json "$1"} ${2:+--csv "$2"} \
		${3:+--bmf "$3"} || return 1
	echo
	# shellcheck disable=SC2086
	"$bench" verifier-compare --kernels -o "$fmt" --min-change 0.01 $files || return 1
	[ "$missing" = 0 ]
}
