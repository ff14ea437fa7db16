#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bpfcheck's verdicts against the kernel's own runner, test by test and
# subtest by subtest: the series' tests built by bpfcheck
# (kernel-tests/build.sh) and by the kernel's Makefile
# (kernel-tests/reference.sh), both runners on the same tests in the same
# guest of each kernel (bpfcheck's first, then the kernel's, the same -j
# and watchdog, each kernel's bpf_testmod where both look for it), and the
# verdicts of every name both printed compared.  Prints each disagreement
# with both logs' files, the wall time of each runner, and ends with
# "disagreements: N of M verdicts".
#
# Usage: kernel-tests/compare.sh [-k KERNEL]... [-t "TEST..."] [-a "GLOB..."] [-j N]
#                                [-w SEC] [--ref-add DIR] [-B DIR] [-o DIR] SERIES
#   -k KERNEL   a kernel to compare on (repeatable; default: SERIES's own)
#   -t TESTS    test files or names of the series (default: all it builds)
#   -a GLOBS    of the tests built, only those these shell patterns match
#               (e.g. the few verifier suites of verifier.c wanted)
#   --ref-add DIR  files put in the kernel's runner's directory, over its
#               own (a fixture a test reads there; a broken object, to see
#               a disagreement named)
#   -j N        test_progs workers of both runners (default 2)
#   -B DIR      bpfcheck's build of the series (default
#               $OUTPUT/kernel-tests/SERIES, as make kernel-tests builds it)
#   -w SEC      both runners' watchdog per test (default 180)
#   -o DIR      results (default $OUTPUT/kernel-tests/compare-SERIES):
#               KERNEL.kernel.out and .kernel.stderr (the kernel's runner),
#               KERNEL.record.json (bpfcheck's, vmtest --json),
#               KERNEL.verdicts.tsv (name, the kernel's verdict, bpfcheck's),
#               disagreements/KERNEL.TEST.log (both runners' logs of TEST)
# Exit: 0 no disagreement, 1 disagreements or a kernel without both
# runs, 2 bad usage.
set -eu
# (One compound command: sh reads it whole before running it, so the
# script may be edited while a comparison of an hour runs.)
{
srcdir=$(cd "$(dirname "$0")/.." && pwd)
here=$srcdir/kernel-tests
OUTPUT=${OUTPUT:-$srcdir/build}
export VMTEST_CACHE="${VMTEST_CACHE:-$srcdir/vmtest/cache}"

usage() {
	echo "compare: $* (usage: kernel-tests/compare.sh [-k KERNEL]... [-t \"TEST...\"]" \
		"[-a \"GLOB...\"] [-j N] [-w SEC] [--ref-add DIR] [-B DIR] [-o DIR] SERIES)" >&2
	exit 2
}

say() {
	echo "compare: $*" >&2
}

kernels='' tests='' globs='' jobs=2 wd=180 out='' refadd='' bdir=''
while [ $# -gt 0 ]; do
	case $1 in
	-k) [ $# -ge 2 ] || usage "-k needs a KERNEL"; kernels="$kernels $2"; shift 2 ;;
	-t) [ $# -ge 2 ] || usage "-t needs test names"; tests="$tests $2"; shift 2 ;;
	-a) [ $# -ge 2 ] || usage "-a needs patterns"; globs="$globs $2"; shift 2 ;;
	--ref-add)
		if [ $# -lt 2 ] || [ ! -d "$2" ]; then
			usage "bad --ref-add '${2:-}': a directory"
		fi
		refadd=$(cd "$2" && pwd)
		shift 2
		;;
	-j) [ $# -ge 2 ] || usage "-j needs N"; jobs=$2; shift 2 ;;
	-w) [ $# -ge 2 ] || usage "-w needs SEC"; wd=$2; shift 2 ;;
	-o) [ $# -ge 2 ] || usage "-o needs DIR"; out=$2; shift 2 ;;
	-B) [ $# -ge 2 ] || usage "-B needs DIR"; bdir=$2; shift 2 ;;
	-*) usage "unknown option '$1'" ;;
	*) break ;;
	esac
done
[ $# = 1 ] || usage "one SERIES"
series=$1
case $series in
[0-9]*.[0-9]*) case $series in *[!0-9.]*) usage "bad SERIES '$series': e.g. 7.2" ;; esac ;;
*) usage "bad SERIES '$series': e.g. 7.2" ;;
esac
for n in "$jobs" "$wd"; do
	case $n in '' | *[!0-9]* | 0) usage "bad count '$n': a number >= 1" ;; esac
done
kernels=${kernels:-$series}
out=${out:-$OUTPUT/kernel-tests/compare-$series}
mkdir -p "$out/disagreements"
out=$(cd "$out" && pwd)

# ---- the two builds ------------------------------------------------------

bdir=${bdir:-$OUTPUT/kernel-tests/$series}
# shellcheck disable=SC2086 # test names are words
sh "$here/build.sh" -o "$bdir" "$series" $tests >"$out/build.log" 2>&1 ||
	{ tail -n 3 "$out/build.log" >&2; exit 1; }
tp=$bdir/build/test_progs
# The kernel's build of the tests bpfcheck built (all of the series' when
# no test was named).
if [ -n "$tests" ]; then
	ref=$(sh "$here/reference.sh" -t "$(cat "$bdir/built.txt")" "$series") || exit 1
else
	ref=$(sh "$here/reference.sh" "$series") || exit 1
fi
kdir=$(sh "$srcdir/scripts/linux-source.sh" -b "$series")/tools/testing/selftests/bpf
# Every test bpfcheck built, by name: both runners run exactly these.
"$tp" -l 2>/dev/null | grep -v / | while read -r name; do
	[ -n "$globs" ] || { echo "$name"; continue; }
	for g in $globs; do
		# shellcheck disable=SC2254 # the pattern is the user's
		case $name in $g) echo "$name"; break ;; esac
	done
done >"$out/tests.list" || true
[ -s "$out/tests.list" ] || { say "$tp lists no test"; exit 1; }
say "$(wc -l <"$out/tests.list") tests; the kernel's runner: $ref/test_progs"

# The reference as the kernel's CI runs it, from its build directory:
# test_progs, the BPF objects, the programs tests run beside them
# (bpftool, urandom_read, ...), progs/ for the tests that read sources,
# and the kernel's bpf_testmod where test_progs loads it from.
stage_reference() {	# KERNEL DIR
	rm -rf "$2"
	mkdir -p "$2/progs"
	find "$ref" -maxdepth 1 -type f \( -name test_progs -o -name '*.so' \
		-o \( -perm -u+x ! -name '*.sh' ! -name '*.o' \) \) -exec cp -l {} "$2/" \;
	# (bpftool is a link into the build's tools/.)
	[ ! -e "$ref/bpftool" ] || cp -L "$ref/bpftool" "$2/bpftool"
	# The objects of the programs of the tests compared (those bpfcheck
	# imported for them): a whole series' are hundreds of MiB of the
	# guest's initramfs.
	for p in "$bdir"/progs/*.c; do
		o=$ref/$(basename "$p" .c).bpf.o
		[ ! -f "$o" ] || cp -l "$o" "$2/"
	done
	cp "$kdir/progs"/*.c "$2/progs/" || return 1
	kos=$(sh "$srcdir/scripts/testmod-build.sh" "$1" 2>"$out/$1.testmod.log") || kos=
	for ko in $kos; do
		cp "$ko" "$2/"
	done
	cp "$out/tests.list" "$2/tests.list"
	# (Replacing, not writing through: the staged files are links into
	# the cached reference.)
	[ -z "$refadd" ] || cp -R --remove-destination "$refadd/." "$2/"
}

# ---- each kernel ----------------------------------------------------------

# The guest's part: bpfcheck's runner (the suite, whose JSON comes back in
# vmtest's record), then the kernel's, each timed by the guest's clock.
# In that order because the kernel's runner unloads bpf_testmod when it
# ends (it loads it from its directory when it starts).
cat >"$out/guest.sh" <<'EOF'
#!/bin/sh
up() { read -r u _ </proc/uptime; echo "$u"; }
jobs=$1 wd=$2
cd /tmp || exit 1
t0=$(up)
suite -j "$jobs" -w "$wd" -a @/ref/tests.list
rc=$?
echo "==== bpfcheck: exit $rc, $(awk -v a="$t0" -v b="$(up)" 'BEGIN { print b - a }') s ===="
cd /ref || exit 1
echo "==== reference: the kernel's test_progs ===="
t0=$(up)
# (-jN in one word: the kernel's -j takes its count only that way; -w
# where it has one: 6.12's runner has its own fixed watchdog.)  Its
# stderr apart: a worker's watchdog warning lands inside result lines.
w=
! ./test_progs --help 2>&1 | grep -q -e '--watchdog-timeout' || w="-w $wd"
# shellcheck disable=SC2086 # an option and its value
./test_progs -j"$jobs" $w -a @/ref/tests.list 2>"${VMTEST_RESULTS:-/tmp}/reference.stderr"
rc=$?
echo "==== reference: exit $rc, $(awk -v a="$t0" -v b="$(up)" 'BEGIN { print b - a }') s ===="
exit 0
EOF
chmod +x "$out/guest.sh"

# NAME<TAB>VERDICT of bpfcheck's results (a timeout is the kernel's FAIL).
our_verdicts() {	# RECORD.json
	jq -r '.kernels[0].results.results[]? | . as $t
		| def v: if .outcome == "PASS" then "OK"
			 elif .outcome == "SKIP" then "SKIP" else "FAIL" end;
		"\($t.name)\t\($t | v)", ((.subtests // [])[] | "\($t.name)/\(.name)\t\(v)")' "$1"
}

# B / A as "1.07x", or "?".
ratio() {	# B A
	awk -v b="${1:-0}" -v a="${2:-0}" 'BEGIN { if (a > 0) printf "%.2fx", b / a; else print "?" }'
}

compare_kernel() {	# KERNEL
	k=$1
	stage_reference "$k" "$out/ref-$k"
	kmod=
	[ ! -f "$out/ref-$k/bpf_testmod.ko" ] || kmod="--kmod $out/ref-$k/bpf_testmod.ko"
	# The shared libraries of its programs (libz3 and LLVM's for
	# test_progs): an --add directory brings its files only.
	libs=$(find "$out/ref-$k" -maxdepth 1 -type f -perm -u+x -exec ldd {} + 2>/dev/null |
		awk '$2 == "=>" && $3 ~ /^\// && !seen[$3]++ { printf " --add %s", $3 }')
	say "$k: both runners in one guest"
	# The guest's whole output is in the work directory vmtest keeps
	# (its own report shows the last lines only); the rest of that
	# directory (the initramfs) goes.
	vmout=${VMTEST_OUT:-$OUTPUT/vmtest}/compare.$$.$k
	rm -rf "$vmout"
	# shellcheck disable=SC2086 # options are words
	VMTEST_OUT=$vmout sh "$srcdir/vmtest/vmtest.sh" -k "$k" --keep --test-progs "$tp" \
		$kmod $libs --add "$out/ref-$k:/ref" --timeout 10800 \
		--json "$out/$k.record.json" -- "$out/guest.sh" "$jobs" "$wd" >"$out/$k.log" 2>&1 ||
		true
	cat "$vmout"/run.*/k1/results/output.log >"$out/$k.output.log" 2>/dev/null ||
		cp "$out/$k.log" "$out/$k.output.log"
	cat "$vmout"/run.*/k1/results/reference.stderr >"$out/$k.kernel.stderr" 2>/dev/null ||
		: >"$out/$k.kernel.stderr"
	rm -rf "$vmout"
	sed -n '/^==== reference: the kernel/,/^==== reference: exit/p' "$out/$k.output.log" \
		>"$out/$k.kernel.out"
	awk -f "$here/verdicts.awk" "$out/$k.kernel.out" | sort -t '	' -k 1,1 \
		>"$out/$k.kernel.tsv"
	our_verdicts "$out/$k.record.json" 2>/dev/null | sort -t '	' -k 1,1 \
		>"$out/$k.bpfcheck.tsv" || :
	join -t '	' "$out/$k.kernel.tsv" "$out/$k.bpfcheck.tsv" >"$out/$k.verdicts.tsv"
	n=$(wc -l <"$out/$k.verdicts.tsv")
	d=$(awk -F '\t' '$2 != $3' "$out/$k.verdicts.tsv" | wc -l)
	tk=$(sed -n 's/^==== reference: exit .*, \(.*\) s ====$/\1/p' "$out/$k.output.log")
	tb=$(sed -n 's/^==== bpfcheck: exit .*, \(.*\) s ====$/\1/p' "$out/$k.output.log")
	echo "$k: $n verdicts compared, $d disagree; only the kernel's:" \
		"$(join -t '	' -v 1 "$out/$k.kernel.tsv" "$out/$k.bpfcheck.tsv" | wc -l)," \
		"only bpfcheck's: $(join -t '	' -v 2 "$out/$k.kernel.tsv" "$out/$k.bpfcheck.tsv" |
			wc -l);" "wall: kernel ${tk:-?} s, bpfcheck ${tb:-?} s ($(ratio "$tb" "$tk"))"
	awk -F '\t' '$2 != $3 { printf "  %s: kernel %s, bpfcheck %s\n", $1, $2, $3 }' \
		"$out/$k.verdicts.tsv"
	[ "$d" = 0 ] || write_evidence "$k"
	total_n=$((total_n + n))
	total_d=$((total_d + d))
	# Both runners ran and each gave verdicts (a runner that could not
	# start prints none).
	if [ -z "$tk" ] || [ -z "$tb" ] || [ ! -s "$out/$k.kernel.tsv" ] ||
		[ ! -s "$out/$k.bpfcheck.tsv" ]; then
		missing="$missing $k"
	fi
}

# Both logs of each disagreement: what the kernel's runner printed of the
# test, and bpfcheck's log of it (its JSON's messages).
write_evidence() {	# KERNEL
	awk -F '\t' '$2 != $3 { print $1 }' "$out/$1.verdicts.tsv" | while read -r name; do
		t=${name%%/*}
		f=$out/disagreements/$1.$(echo "$t" | tr -c 'A-Za-z0-9_.\n-' _).log
		[ -f "$f" ] && continue
		{
			echo "== $t on $1: the kernel's runner"
			# Each result line with the log lines printed before it.
			awk -v t="$t" '/^#[0-9]+(\/[0-9]+)? / {
				n = $0
				sub(/^#[0-9]+(\/[0-9]+)? +/, "", n)
				sub(/:(OK|SKIP|FAIL).*$/, "", n)
				if (n == t || index(n, t "/") == 1) { printf "%s", buf; print }
				buf = ""
				next
			}
			{ buf = buf $0 "\n" }' "$out/$1.kernel.out"
			grep -F -- "$t" "$out/$1.kernel.stderr" || :
			echo "== $t on $1: bpfcheck"
			jq -r --arg t "$t" '.kernels[0].results.results[] | select(.name == $t) |
				.message // "", ((.subtests // [])[]
				| "-- \(.name): \(.outcome)\n\(.message // "")")' \
				"$out/$1.record.json"
		} >"$f"
		echo "    both logs: $f"
	done
}

total_n=0 total_d=0 missing=''
for k in $kernels; do
	compare_kernel "$k"
done
[ -z "$missing" ] || echo "no complete run of both runners on:$missing (see $out/KERNEL.log)"
echo "disagreements: $total_d of $total_n verdicts"
[ "$total_d" = 0 ] && [ -z "$missing" ]
}
