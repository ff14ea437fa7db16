#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel's own BPF selftests of one series (Debian's linux-source-SERIES)
# on every kernel of the matrix: build them into one test_progs
# (kernel-tests/build.sh: against the series' BTF, each test on its own
# terms), build the series' bpf_testmod for each kernel
# (scripts/testmod-build.sh), run test_progs in a guest of each kernel
# (vmtest/vmtest.sh --test-progs, the module loaded first) and on the host
# when asked, and print one table: a test per row, a kernel per column
# (kernel-tests/report.sh), with the tests not built, the failing cells and
# the command that reproduces each, and a DENYLIST per kernel.
#
# Usage: kernel-tests.sh [options] SERIES
#        kernel-tests.sh merge -o DIR [--json FILE] [--markdown] RUN_DIR...
# Options:
#   -k KERNEL      a kernel of the matrix (repeatable; default: vmtest/kernels.conf)
#   --host         also run on the host's kernel (column "host")
#   -t "TEST..."   only these tests of the series (prog_tests/TEST.c)
#   -a ADD         tests of your own, laid out like selftests/bpf
#                  (ADD/prog_tests, ADD/progs), built and run beside them
#   -d DENY        test_progs -d for every kernel (@FILE is brought into the guest)
#   -D DIR         a kernel's test_progs -d @DIR/DENYLIST.<kernel>, where one exists
#   -j N           test_progs workers in each guest (default 2)
#   -w SEC         test_progs watchdog per test (default 180)
#   -J N           guests at once (default: one per kernel, at most the cores)
#   --shard I/N    the Ith of N parts of the tests (CI jobs; see merge)
#   --timeout SEC  the limit of each guest's run (default 5400)
#   --resumes N    a guest that crashed in a test named by its splat runs
#                  the rest of its column again without it, up to N times
#                  (default 3; 0: never)
#   -B DIR         the series' build (default $OUTPUT/kernel-tests/SERIES)
#   -o DIR         results: kernels/*.json, logs, DENYLIST.*, kernel-tests.json
#                  (default $OUTPUT/kernel-tests/run-SERIES)
#   --json FILE    the whole table as JSON (default DIR/kernel-tests.json)
#   --markdown     the table in Markdown
#   --no-testmod   do not build or load bpf_testmod
# Where the run has the verifier suites (prog_tests/verifier.c), their
# programs are tabulated after the table (kernel-tests/programs.sh), each
# program's verdict per kernel in DIR/programs.tsv.
# merge: one table and one set of denylists from the run directories of
# several jobs (kernels, shards) of the same series.
# Environment: OUTPUT (build/), VMTEST_CACHE, VMTEST_ACCEL and the rest of
# vmtest.sh's.
# Exit: 0 all passed, 1 a failure (or a guest that did not finish), 2 bad usage.
set -eu
# (One compound command: sh reads it whole before running it, so a run of
# an hour is not broken by an edit of this file.)
{
srcdir=$(cd "$(dirname "$0")/.." && pwd)
OUTPUT=${OUTPUT:-$srcdir/build}
case $OUTPUT in /*) ;; *) OUTPUT=$PWD/$OUTPUT ;; esac
export OUTPUT
# A series' test_progs and objects take a few hundred MiB of the guest's
# initramfs (about 500 MiB for 7.2), unpacked in its memory: with 2 GiB
# the 7.2 guests could not mount their root (measured), so 4 GiB.
VMTEST_MEM=${VMTEST_MEM:-4096}
export VMTEST_MEM

usage() {
	echo "kernel-tests: $* (usage: kernel-tests.sh [-k KERNEL]... [--host] [-t \"TEST...\"] [-a ADD] [-d DENY] [-D DIR] [-j N] [-w SEC] [-J N] [--shard I/N] [--timeout SEC] [--resumes N] [-B DIR] [-o DIR] [--json FILE] [--markdown] [--no-testmod] SERIES; kernel-tests.sh merge -o DIR RUN_DIR...)" >&2
	exit 2
}

say() {
	echo "kernel-tests: $*" >&2
}

now() {
	date +%s
}

count() {	# WORD...
	echo $#
}

# ---- merge: the runs of several CI jobs into one table ----------------------
if [ "${1:-}" = merge ]; then
	shift
	out=''
	rargs=''
	while [ $# -gt 0 ]; do
		case $1 in
		-o) [ $# -ge 2 ] || usage "-o needs a DIR"; out=$2; shift 2 ;;
		--json) [ $# -ge 2 ] || usage "--json needs a FILE"; rargs="$rargs --json $2"; shift 2 ;;
		--markdown) rargs="$rargs --markdown"; shift ;;
		-*) usage "unknown option '$1' of merge" ;;
		*) break ;;
		esac
	done
	[ -n "$out" ] || usage "merge needs -o DIR"
	[ $# -ge 1 ] || usage "merge needs RUN_DIR... (the -o directories of the jobs)"
	first=$1 reports=
	for d in "$@"; do
		ls "$d"/kernels/*.json >/dev/null 2>&1 ||
			usage "'$d' is not a kernel-tests run directory (no kernels/*.json in it)"
		reports="$reports $(ls "$d"/kernels/*.json | tr '\n' ' ')"
	done
	mkdir -p "$out" || exit 1
	for d in "$@"; do
		[ ! -f "$d/modules.tsv" ] || cat "$d/modules.tsv"
	done | sort -u >"$out/modules.tsv"
	# shellcheck disable=SC2086 # options and file names are words
	exec sh "$srcdir/kernel-tests/report.sh" -o "$out" $rargs \
		-B "$first/built.txt" -n "$first/not-built.tsv" -m "$out/modules.tsv" $reports
fi

# ---- options -----------------------------------------------------------------
kernels='' tests='' add='' deny='' denydir='' guests='' shard='' out='' json='' markdown='' bdir=''
host=0 workers=2 watchdog=180 tmo=5400 testmod=1 resumes=3
while [ $# -gt 0 ]; do
	case $1 in
	-k) [ $# -ge 2 ] || usage "-k needs a KERNEL"; kernels="$kernels $2"; shift 2 ;;
	--host) host=1; shift ;;
	-t) [ $# -ge 2 ] || usage "-t needs test names"; tests="$tests $2"; shift 2 ;;
	-a) [ $# -ge 2 ] || usage "-a needs a DIR"; add=$2; shift 2 ;;
	-d) [ $# -ge 2 ] || usage "-d needs NAMES or @FILE"; deny=$2; shift 2 ;;
	-D) [ $# -ge 2 ] || usage "-D needs a DIR"; denydir=$2; shift 2 ;;
	-j) [ $# -ge 2 ] || usage "-j needs N"; workers=$2; shift 2 ;;
	-w) [ $# -ge 2 ] || usage "-w needs SEC"; watchdog=$2; shift 2 ;;
	-J) [ $# -ge 2 ] || usage "-J needs N"; guests=$2; shift 2 ;;
	--shard) [ $# -ge 2 ] || usage "--shard needs I/N"; shard=$2; shift 2 ;;
	--timeout) [ $# -ge 2 ] || usage "--timeout needs SEC"; tmo=$2; shift 2 ;;
	--resumes) [ $# -ge 2 ] || usage "--resumes needs N"; resumes=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || usage "-o needs a DIR"; out=$2; shift 2 ;;
	-B) [ $# -ge 2 ] || usage "-B needs a DIR"; bdir=$2; shift 2 ;;
	--json) [ $# -ge 2 ] || usage "--json needs a FILE"; json=$2; shift 2 ;;
	--markdown) markdown=--markdown; shift ;;
	--no-testmod) testmod=0; shift ;;
	-h | --help) sed -n '3,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	-*) usage "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# = 1 ] || usage "one SERIES expected (a linux-source series such as 7.2 or 6.12)"
series=$1
case $series in
[0-9]*.[0-9]* ) ;;
*) usage "bad SERIES '$series': a linux-source series such as 6.1, 6.12 or 7.2" ;;
esac
for n in "$workers:-j" "$watchdog:-w" "$tmo:--timeout" "${guests:-1}:-J"; do
	case ${n%:*} in
	'' | *[!0-9]* | 0) usage "bad ${n##*:} '${n%:*}': a whole number >= 1" ;;
	esac
done
case $resumes in '' | *[!0-9]*) usage "bad --resumes '$resumes': a whole number >= 0" ;; esac
case $shard in
'') ;;
*[!0-9/]* | /* | */ | */*/*) usage "bad --shard '$shard': I/N with 1 <= I <= N" ;;
*) [ "${shard%/*}" -ge 1 ] && [ "${shard%/*}" -le "${shard#*/}" ] ||
	usage "bad --shard '$shard': I/N with 1 <= I <= N" ;;
esac
case $deny in
@*) [ -f "${deny#@}" ] || usage "-d '$deny': no such file (@FILE: a test or test/subtest a line)"
	deny=@$(cd "$(dirname "${deny#@}")" && pwd)/$(basename "${deny#@}") ;;
esac
[ -z "$add" ] || [ -d "$add/prog_tests" ] || usage "-a '$add' has no prog_tests/ (ADD: prog_tests/*.c and progs/*.c, as in selftests/bpf)"
[ -z "$denydir" ] || [ -d "$denydir" ] || usage "-D '$denydir' is not a directory (one holding DENYLIST.<kernel> files)"
[ -z "$denydir" ] || denydir=$(cd "$denydir" && pwd)
if [ -z "$kernels" ] && [ "$host" = 0 ]; then
	kernels=$(sed -n 's/^[ \t]*\([^#[:space:]][^[:space:]]*\).*/\1/p' "$srcdir/vmtest/kernels.conf")
fi
out=${out:-$OUTPUT/kernel-tests/run-$series}
mkdir -p "$out/kernels" "$out/logs" || exit 1
out=$(cd "$out" && pwd)
# -D may name this very directory: its denylists are read before the run
# replaces them.
if [ -n "$denydir" ]; then
	rm -rf "$out/deny.in" && mkdir "$out/deny.in" || exit 1
	for f in "$denydir"/DENYLIST.*; do
		[ ! -f "$f" ] || cp "$f" "$out/deny.in/"
	done
	denydir=$out/deny.in
fi
rm -f "$out"/kernels/*.json "$out"/DENYLIST.*
start=$(now)

# ---- 1: the series' tests, built against the series' BTF ---------------------
bdir=${bdir:-$OUTPUT/kernel-tests/$series}
say "building the $series series' tests (kernel-tests/build.sh; log $out/logs/build.log)"
# shellcheck disable=SC2086 # the test names are words
if ! sh "$srcdir/kernel-tests/build.sh" -o "$bdir" ${add:+-a "$add"} "$series" $tests >"$out/logs/build.log" 2>&1; then
	tail -n 5 "$out/logs/build.log" >&2
	say "the series could not be built (the whole log: $out/logs/build.log)"
	exit 1
fi
grep '^kernel-tests build' "$out/logs/build.log" >&2 || true
tp=$bdir/build/test_progs
[ -x "$tp" ] || { say "no test_progs at $tp after the build"; exit 1; }
cp "$bdir/built.txt" "$out/built.txt"
cp "$bdir/not-built.tsv" "$out/not-built.tsv"
"$tp" -l >"$out/logs/tests.list" 2>/dev/null || : >"$out/logs/tests.list"
built_at=$(now)

# ---- 2: bpf_testmod for each kernel -------------------------------------------
: >"$out/modules.tsv"
kmod_args() {	# KERNEL: the --kmod options of its bpf_testmod (none if it has none)
	[ "$testmod" = 1 ] || return 0
	if [ ! -f "$srcdir/scripts/testmod-build.sh" ]; then
		printf '%s\tnot built: scripts/testmod-build.sh is missing\n' "$1" >>"$out/modules.tsv"
		return 0
	fi
	if kos=$(sh "$srcdir/scripts/testmod-build.sh" "$1" 2>"$out/logs/testmod-$1.log"); then
		main_ko=$(echo "$kos" | grep '/bpf_testmod\.ko$' || true)
		others=$(echo "$kos" | grep -v '/bpf_testmod\.ko$' | sed 's|.*/||' | tr '\n' ' ')
		printf '%s\t%s\n' "$1" "${main_ko:-no bpf_testmod.ko among $others}${main_ko:+ (loaded)}${others:+; also built: $others}" \
			>>"$out/modules.tsv"
		# The kernel's test_progs loads bpf_testmod.ko before its tests;
		# the other modules are the business of the tests that load them.
		for ko in $kos; do
			case $ko in */bpf_testmod.ko) printf ' --kmod %s' "$ko" ;; esac
		done
	else
		printf '%s\tnot built: %s\n' "$1" "$(tail -n 1 "$out/logs/testmod-$1.log")" >>"$out/modules.tsv"
	fi
}

# ---- 3: a guest per kernel ----------------------------------------------------
# The test_progs arguments of KERNEL's run.
tp_args() {	# KERNEL
	printf '%s' "-w $watchdog -j $workers"
	[ -z "$shard" ] || printf ' --shard %s' "$shard"
	[ -z "$deny" ] || printf ' -d %s' "$deny"
	[ -z "$denydir" ] || [ ! -f "$denydir/DENYLIST.$1" ] || printf ' -d @%s' "$denydir/DENYLIST.$1"
}

# The --add options bringing the deny files into the guest.
add_args() {	# KERNEL
	case $deny in @*) printf ' --add %s' "${deny#@}" ;; esac
	[ -z "$denydir" ] || [ ! -f "$denydir/DENYLIST.$1" ] || printf ' --add %s' "$denydir/DENYLIST.$1"
}

# BPFCHECK_KMSG=console: test_progs marks each test's start where the
# serial console shows it, so that a guest that panics still names the
# test it was running.  An Oops only kills the test's own process and
# the column goes on; the splat fails the kernel's run and names the
# test.  That undoes vmtest's oops=panic by the sysctl (the kernel takes
# no panic_on_oops= on its command line, measured on 6.12).  A soft
# lockup still panics: 7.2's tailcall_bpf2bpf_hierarchy_1 held a 6.1 CPU
# for 40 minutes without it, where the panic and a resume cost a minute.
guest_run() {	# KERNEL NAME CRASHED...
	k=$1 name=$2
	shift 2
	skip=$(echo "$*" | tr ' ' ',')
	# shellcheck disable=SC2046,SC2016 # options are words; $@ is the guest's
	sh "$srcdir/vmtest/vmtest.sh" -k "$k" --test-progs "$tp" $(cat "$out/logs/kmod-args.$k") \
		$(add_args "$k") --timeout "$tmo" --json "$out/kernels/$name.json" -- \
		sh -c 'echo 0 >/proc/sys/kernel/panic_on_oops && exec "$@"' sh \
		env BPFCHECK_KMSG=console suite $(tp_args "$k") ${skip:+-d "$skip"} \
		>"$out/logs/$name.log" 2>&1 || true
}

# The splat that crashed a guest (jq, on a vmtest report): the one whose
# line the console's panic line is (the detail of a PANIC), else the
# first crash of a kind that names its task, else the first with a test.
# An RCU stall names no pid on its first line and takes the last marker,
# which with two workers may be the other test.
CULPRIT='.kernels[0] as $k | [$k.splats[] | select(.test != null)]
	| ([.[] | select(.line == $k.detail)] +
	   [.[] | select(.kind | IN("panic", "Oops", "BUG", "soft lockup", "KASAN"))] + .)[0] // empty'

# A guest that still crashed (PANIC, TIMEOUT, NO_RESULT) lost the rest of
# its column: when a splat names the test that was running, the column
# runs again without that test, up to $resumes times, and the test is a
# FAIL carrying the splat (fold_crashes).
run_kernel() {	# KERNEL
	name=$1${shard:+.s${shard%/*}}
	crashed='' n=0
	while :; do
		# shellcheck disable=SC2086 # test names are words
		guest_run "$1" "$name" $crashed
		json=$out/kernels/$name.json
		[ -s "$json" ] || break
		st=$(jq -r '.kernels[0].status' "$json")
		case $st in PANIC | TIMEOUT | NO_RESULT) ;; *) break ;; esac
		t=$(jq -r "$CULPRIT"' | .test // empty | split("/")[0]' "$json")
		if [ -z "$t" ] || [ "$n" -ge "$resumes" ]; then break; fi
		case " $crashed " in *" $t "*) break ;; esac
		n=$((n + 1))
		mv "$json" "$out/logs/$name.crash$n.json"
		mv "$out/logs/$name.log" "$out/logs/$name.crash$n.log"
		crashed="$crashed $t"
		say "$1: $st in $t after $(jq -r '.kernels[0].seconds' "$out/logs/$name.crash$n.json") s;" \
			"running the rest of the column without it"
	done
	[ "$n" = 0 ] || [ ! -s "$json" ] || fold_crashes "$name" "$n"
	if [ -s "$json" ]; then
		say "$1: $(jq -r '.kernels[0] | "\(.status) in \(.seconds) s \(.detail)"' "$json")"
	else
		say "$1: no result (the log: $out/logs/$name.log)"
		tail -n 3 "$out/logs/$name.log" >&2
	fi
}

# The column of the last run, with each crashed test as a FAIL carrying
# its splat, the splats and seconds of the crashed runs added.
fold_crashes() {	# NAME CRASHES
	json=$out/kernels/$1.json
	crashes=''
	i=1
	while [ "$i" -le "$2" ]; do
		crashes="$crashes $out/logs/$1.crash$i.json"
		i=$((i + 1))
	done
	# shellcheck disable=SC2086 # file names are words
	jq -s --rawfile list "$out/logs/tests.list" "def culprit: $CULPRIT;"'
		($list | split("\n") | map(select(. != ""))) as $names
		| .[0] as $last | .[1:] as $crashes
		| [$crashes[] | .kernels[0] as $c
		   | (culprit) as $s
		   | ($s.test | split("/")[0]) as $t
		   | {name: $t, number: ((($names | index($t)) // 0) + 1),
		      message: "the kernel crashed in this test (\($c.status)): \($s.kind): \($s.line)\nthe rest of the column ran again without it",
		      failed: true, outcome: "FAIL", duration_ns: 0, subtests: []}] as $added
		| $last | .kernels[0] |= (
			(if .results then .results.results = ((.results.results + $added) | sort_by(.number))
				| .results.failed += ($added | length)
				| .results.outcomes.FAIL += ($added | length) else . end)
			| .splats = ([$crashes[] | .kernels[0].splats[]] + .splats)
			| .seconds = (((([$crashes[] | .kernels[0].seconds] | add) + .seconds) * 10 | round) / 10)
			| .detail = "\($added | length) crash(es), resumed without \([$added[].name] | join(", ")); \(.detail)"
			| .status = (if .status == "PASS" or .status == "SKIP" then "FAIL" else .status end))' \
		"$json" $crashes >"$json.tmp" && mv "$json.tmp" "$json" ||
		{
			# Never a green column that hides a crash: the crashed run stands.
			rm -f "$json.tmp"
			cp "$out/logs/$1.crash1.json" "$json"
			say "$1: the runs after the crash could not be folded in (logs/$1.*)"
		}
}

# The host as one more column: test_progs run here, its summary shaped
# like a vmtest report.
run_host() {
	hs=$(now)
	# shellcheck disable=SC2046 # options are words
	"$tp" -J "$out/logs/host.results.json" $(tp_args host) >"$out/logs/host.log" 2>&1 && rc=0 || rc=$?
	case $rc in 0 | 4) st=PASS ;; 1) st=FAIL ;; *) st=FAIL ;; esac
	res=$out/logs/host.results.json
	[ -s "$res" ] || { echo null >"$res"; st=NO_RESULT; }
	jq -n --slurpfile r "$res" --arg st "$st" --arg rel "$(uname -r)" --argjson s $(($(now) - hs)) \
		--arg rc "$rc" --arg tp "$tp" \
		'{accelerator: "none", accelerator_note: "the host", command: "test_progs", runner: "host",
		  test_progs: $tp, vmtest: "",
		  kernels: [{label: "host", kernel_args: "", reproduce_with: $tp,
			release: $rel, source: "host", status: $st,
			detail: (if $st == "PASS" then "" else "test_progs exited \($rc)" end),
			exit_code: ($rc | tonumber), seconds: $s, splats: [], results: $r[0]}]}' \
		>"$out/kernels/host${shard:+.s${shard%/*}}.json"
	say "host: $st in $(($(now) - hs)) s"
}

# The modules first, one kernel at a time (they share the apt state).
for k in $kernels; do
	kmod_args "$k" >"$out/logs/kmod-args.$k"
done
nk=$(count $kernels)
if [ -z "$guests" ]; then
	guests=$(nproc)
	[ "$guests" -le "$nk" ] || guests=$nk
fi
[ "$guests" -ge 1 ] || guests=1
say "running on$kernels$([ "$host" = 1 ] && echo ' and the host') ($guests guests at once, test_progs -j $workers)"
# A pool of $guests: the next kernel starts when any guest is done (a
# column may take an hour where another takes twenty minutes).
rm -f "$out"/logs/.done.*
started=''
for k in $kernels; do
	while [ "$(count $started)" -ge "$guests" ]; do
		sleep 5
		left=''
		for d in $started; do
			[ -e "$out/logs/.done.$d" ] || left="$left $d"
		done
		started=$left
	done
	{ run_kernel "$k"; : >"$out/logs/.done.$k"; } &
	started="$started $k"
done
wait
rm -f "$out"/logs/.done.*
[ "$host" = 0 ] || run_host
ran_at=$(now)

# ---- 4: the table -------------------------------------------------------------
ls "$out"/kernels/*.json >/dev/null 2>&1 || { say "no kernel gave a result"; exit 1; }
sh "$srcdir/kernel-tests/report.sh" -o "$out" ${json:+--json "$json"} $markdown \
	-B "$out/built.txt" -n "$out/not-built.tsv" -m "$out/modules.tsv" "$out"/kernels/*.json &&
	rc=0 || rc=$?
# The verifier suites (prog_tests/verifier.c) program by program, where
# the run had them: which of the kernel's verifier tests hold where.
if jq -e '[.kernels[].results.results[]?.name | select(test("^verifier_"))] | length > 0' \
	"${json:-$out/kernel-tests.json}" >/dev/null 2>&1; then
	echo
	echo "The verifier suites, program by program (PASS n/N: n of its N programs passed):"
	sh "$srcdir/kernel-tests/programs.sh" $markdown -o "$out/programs.tsv" \
		"${json:-$out/kernel-tests.json}" || rc=1
fi
say "wall time: $((ran_at - start)) s (build $((built_at - start)) s, runs $((ran_at - built_at)) s);" \
	"denylists: $out/DENYLIST.*; JSON: ${json:-$out/kernel-tests.json}"
exit "$rc"
}
