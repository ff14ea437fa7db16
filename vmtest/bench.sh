# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# vmtest --bench (sourced; POSIX sh): which benchmarks run in the guests.
# SPEC is a comma-separated list of sets, run names or benchmarks of
# vmtest/bench.conf ("default" is every set); the plan is a line per run,
# "N<TAB>NAME<TAB>BENCH ARGUMENTS", in bench.conf's order.  The guest
# runs it with vmtest/bench-guest; vmtest/bench-report.sh makes the tables.

: "${VT_SRCDIR:?bench.sh needs VT_SRCDIR}"

VT_BENCH_CONF=$VT_SRCDIR/vmtest/bench.conf
VT_BENCH_ARGS_DEFAULT="-w 1 -d 3"
VT_BENCH_ARGS=${VMTEST_BENCH_ARGS:-$VT_BENCH_ARGS_DEFAULT}

# bench.conf without comments: "SET NAME ARGS..." lines.
bench_conf() {
	sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$VT_BENCH_CONF"
}

# The plan for SPEC on stdout; an unknown item is bad usage (exit 2).
bench_plan() {	# SPEC
	case "$1" in
	"" | ,* | *, | *,,*)
		vt_usage_die "--bench '$1': expected comma-separated names of" \
			"vmtest/bench.conf (see vmtest.sh --help)" ;;
	esac
	case "$VT_BENCH_ARGS" in
	*[!A-Za-z0-9\ ._=-]*)
		vt_usage_die "VMTEST_BENCH_ARGS '$VT_BENCH_ARGS': expected bench options" \
			"such as '-w 1 -d 3'" ;;
	esac
	sets="$(bench_conf | awk '{ print $1 }' | uniq | tr '\n' ' ')default"
	for item in $(printf '%s' "$1" | tr ',' ' '); do
		bench_conf | awk -v i="$item" '
			i == "default" || $1 == i || $2 == i { f = 1 }
			substr($2, 1, index($2, "/") - 1) == i { f = 1 }
			END { exit !f }' ||
			vt_usage_die "--bench: no set, run or benchmark '$item' in" \
				"vmtest/bench.conf (sets: $sets)"
	done
	bench_conf | awk -v spec=",$1," -v common="$VT_BENCH_ARGS" '
	{
		b = substr($2, 1, index($2, "/") - 1)
		if (spec !~ ",default," && index(spec, "," $1 ",") == 0 &&
		    index(spec, "," $2 ",") == 0 && index(spec, "," b ",") == 0)
			next
		args = $0
		sub(/^[[:space:]]*[^[:space:]]+[[:space:]]+[^[:space:]]+[[:space:]]+/, "", args)
		gsub(/[[:space:]]+/, " ", args)
		printf "%d\t%s\t%s -q %s\n", ++n, $2, common, args
	}'
}

# The guest's command for the plan on stdin, sh-quoted.  Under icount an
# idle guest's clock jumps ahead at no cost: the guest first sleeps 5 s,
# long enough for what a kernel defers after boot (on 7.2 it made the
# first test_run sample 472 insns/run where the next ones read 177 and
# 166, -w 0).
bench_guest_cmd() {
	set -- bench-guest
	[ "${VMTEST_ICOUNT:-0}" = 0 ] || set -- bench-guest --settle 5
	while IFS="$(printf '\t')" read -r n _ args; do
		set -- "$@" "$n" "$args"
	done
	vt_quote "$@"
}

# A command timeout for the plan on stdin: each run's -w + -d seconds, and
# set-up, times what TCG (and icount) costs.
bench_timeout() {
	awk -v icount="${VMTEST_ICOUNT:-0}" '
	{
		w = 1; d = 5
		n = split($0, a, /[ \t]+/)
		for (i = 1; i < n; i++) {
			if (a[i] == "-w") w = a[i + 1]
			if (a[i] == "-d") d = a[i + 1]
		}
		s += w + d + 5
	}
	END { printf "%d\n", 60 + s * (icount == 1 ? 12 : 4) }'
}

# After the guests: the report of PLAN's runs on work directory WORK's NK
# kernels, in FORMAT (text|markdown) on stdout, as JSON and BMF into the
# files given ("" for none).
# Exit 0 when every kernel ran its plan and every cell was measured or is
# unmeasurable (with why), 1 otherwise.
bench_report() {	# WORK NK SELF FORMAT JSON-FILE BMF-FILE PLAN
	w=$1
	thr=${VMTEST_BENCH_THRESHOLD:-$([ "${VMTEST_ICOUNT:-0}" = 1 ] && echo 0.5 || echo 5)}
	printf '%s\n' "$7" >"$w/bench.plan"
	jq -n --arg accel "$VT_ACCEL" --arg note "$VT_ACCEL_NOTE" \
		--argjson icount "$([ "${VMTEST_ICOUNT:-0}" = 1 ] && echo true || echo false)" \
		--arg args "$VT_BENCH_ARGS" --arg dflt "$VT_BENCH_ARGS_DEFAULT" \
		--arg thr "$thr" --arg self "$3" \
		--arg bench "$OUTPUT/bench" '{accelerator: $accel, accelerator_note: $note,
		icount: $icount, bench_args: $args, bench_args_default: $dflt,
		threshold: ($thr | tonumber),
		vmtest: $self, bench: $bench}' >"$w/bench-meta.json" ||
		vt_die "VMTEST_BENCH_THRESHOLD '$thr': expected a percentage"
	fmt=$4 jf=$5 bf=$6
	n=$2
	set --
	i=0
	while [ "$i" -lt "$n" ]; do
		i=$((i + 1))
		set -- "$@" "$w/k$i"
	done
	r=$VT_SRCDIR/vmtest/bench-report.sh
	sh "$r" build "$w/bench-meta.json" "$w/bench.plan" "$@" >"$w/bench.json" ||
		vt_die "cannot build the bench report"
	for d in "$@"; do
		case "$(cat "$d/status")" in
		PASS) ;;
		*)
			echo "---- [$(jq -r .label "$d/record.json")] $(cat "$d/status"):" \
				"last console lines"
			tr -d '\r' <"$d/console.log" | grep -v '^$' | tail -n 15
			;;
		esac
	done
	sh "$r" "$fmt" "$w/bench.json"
	if [ -n "$jf" ] && ! { cp "$w/bench.json" "$jf.tmp.$$" && mv "$jf.tmp.$$" "$jf"; }; then
		rm -f "$jf.tmp.$$"
		vt_die "cannot write $jf"
	fi
	if [ -n "$bf" ] && ! { sh "$r" bmf "$w/bench.json" >"$bf.tmp.$$" &&
		mv "$bf.tmp.$$" "$bf"; }; then
		rm -f "$bf.tmp.$$"
		vt_die "cannot write $bf"
	fi
	sh "$r" status "$w/bench.json"
}
