# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers for the tests/*/*.sh stage scripts (sourced; POSIX sh).  A check reads:
#
#	begin "what is checked"
#	run "$FIXTURE" -t pass_		# stdout -> $OUT, stderr -> $ERR, $RC
#	expect_exit 0
#	expect_line "$OUT" "Summary: 2/3 PASSED, 0 SKIPPED, 0 FAILED"
#	end_check
#
# Every expectation that does not hold records what was expected and what
# was got; end_check then prints "not ok N - what" followed by those lines
# and the first lines of the command's output, else "ok N - what".
# finish prints the totals and returns non-zero if a check failed.

# Sourced with HERE set to the directory of the script that sources it,
# at any depth under tests/: REPO is the project (the directory above
# the tests/ that holds this file), OUTPUT the build directory (exported;
# default REPO/build).
REPO=$HERE
while [ ! -f "$REPO/tests/lib.sh" ]; do
	[ "$REPO" != / ] || { echo "tests/lib.sh: no project above $HERE" >&2; exit 1; }
	REPO=$(dirname "$REPO")
done
OUTPUT=${OUTPUT:-$REPO/build}
export OUTPUT

# A scratch directory, $T, removed on exit; a signal ends the run with
# the shell's usual status.  SCRATCH_NAME (set before sourcing) names it.
T=$(mktemp -d "${TMPDIR:-/tmp}/bpfcheck-${SCRATCH_NAME:-tests}.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 141' PIPE
trap 'exit 143' TERM

n_checks=0
n_passed=0
n_failed=0
check_desc=
check_bad=0
CMD=
RC=
OUT="$T/out"
ERR="$T/err"
DIAG="$T/diag"
SANLOG="$T/sanitizer.log"
: >"$SANLOG"

# What sanitizers print when they find something (or cannot run).
SAN_PATTERN='ERROR: AddressSanitizer|ERROR: LeakSanitizer|runtime error:'
SAN_PATTERN="$SAN_PATTERN|UndefinedBehaviorSanitizer|LeakSanitizer has encountered"

# Before any check: every FILE there and jq installed, else one line, exit 1.
need() {	# LABEL HOW FILE...
	label=$1 how=$2
	shift 2
	for f in "$@"; do
		[ -e "$f" ] && continue
		echo "$label: $f is missing ($how builds it)"
		exit 1
	done
	command -v jq >/dev/null || { echo "$label: jq is missing (make deps)"; exit 1; }
}

# check_rejected WHAT NEEDLE FILE CMD [ARGS...]: a whole check: CMD exits 2
# with one stderr line containing NEEDLE and nothing on stdout, and FILE
# (a report it was asked to write, or -) is not there afterwards.
check_rejected() {
	what=$1 needle=$2 file=$3
	shift 3
	begin "$what"
	[ "$file" = - ] || rm -f "$file"
	run "$@"
	expect_exit 2
	expect_nlines "$ERR" 1
	expect_has "$ERR" "$needle"
	expect_empty "$OUT"
	if [ "$file" != - ] && [ -e "$file" ]; then
		bad "a rejected run left $file behind"
	fi
	end_check
}

begin() {
	check_desc=$1
	check_bad=0
	CMD=
	RC=
	: >"$DIAG"
	: >"$OUT"
	: >"$ERR"
}

# Record a failed expectation (one or more diagnostic lines).
bad() {
	check_bad=1
	for line in "$@"; do
		printf '%s\n' "$line" >>"$DIAG"
	done
}

# Printable, bounded excerpt of FILE (- for stdin): its first N lines,
# cut to 200 columns, with control and non-ASCII bytes shown as '?'.
excerpt() {	# FILE N
	if [ "$1" = - ]; then
		sed -n "1,${2}p"
	else
		sed -n "1,${2}p" "$1"
	fi | cut -c1-200 | LC_ALL=C tr -c '\n\t -~' '?'
}

label() {
	case $1 in
	"$OUT") echo stdout ;;
	"$ERR") echo stderr ;;
	*) basename "$1" ;;
	esac
}

scan_sanitizers() {
	for f in "$OUT" "$ERR"; do
		grep -E -e "$SAN_PATTERN" "$f" >"$T/san.hits" 2>/dev/null ||
			continue
		{
			echo "$CMD:"
			sed 's/^/    /' "$T/san.hits"
		} >>"$SANLOG"
		bad "sanitizer report in $(label "$f"): $(head -n 1 "$T/san.hits")"
	done
}

# run CMD [ARGS...]: stdin from /dev/null; sets $OUT, $ERR, $RC.
run() {
	CMD=$*
	"$@" </dev/null >"$OUT" 2>"$ERR"
	RC=$?
	scan_sanitizers
}

# Keep the last run's output under a name: save NAME -> $T/NAME.{out,err,rc}
save() {
	cp "$OUT" "$T/$1.out"
	cp "$ERR" "$T/$1.err"
	echo "$RC" >"$T/$1.rc"
}

# Make a saved run the current one again (for checks that reuse it).
use() {
	cp "$T/$1.out" "$OUT"
	cp "$T/$1.err" "$ERR"
	RC=$(cat "$T/$1.rc")
	CMD="(saved run '$1')"
}

expect_exit() {
	[ "$RC" = "$1" ] || bad "expected exit code $1, got $RC"
}

expect_eq() {	# WHAT EXPECTED GOT
	[ "$2" = "$3" ] || bad "expected $1: $2" "got: $3"
}

expect_has() {	# FILE TEXT: some line contains TEXT
	grep -qF -e "$2" "$1" ||
		bad "expected $(label "$1") to contain: $2"
}

expect_no() {	# FILE TEXT: no line contains TEXT
	grep -qF -e "$2" "$1" || return 0
	bad "expected $(label "$1") not to contain: $2" \
	    "got: $(grep -F -e "$2" "$1" | excerpt - 1)"
}

expect_line() {	# FILE LINE: some line is exactly LINE
	grep -qxF -e "$2" "$1" ||
		bad "expected $(label "$1") to have the line: $2"
}

expect_match() {	# FILE ERE: some line matches ERE
	grep -qE -e "$2" "$1" ||
		bad "expected $(label "$1") to match /$2/"
}

expect_no_match() {	# FILE ERE: no line matches ERE
	grep -qE -e "$2" "$1" || return 0
	bad "expected $(label "$1") not to match /$2/" \
	    "got: $(grep -E -e "$2" "$1" | excerpt - 1)"
}

expect_printable() {	# FILE: no control characters (tab included)
	LC_ALL=C grep -q '[[:cntrl:]]' "$1" || return 0
	bad "expected $(label "$1") to have no control characters" \
	    "got: $(LC_ALL=C grep '[[:cntrl:]]' "$1" | od -c | head -n 3)"
}

expect_empty() {	# FILE
	[ -s "$1" ] || return 0
	bad "expected $(label "$1") to be empty" \
	    "got: $(excerpt "$1" 1)"
}

expect_nlines() {	# FILE N
	n=$(wc -l <"$1" | tr -d ' ')
	[ "$n" = "$2" ] ||
		bad "expected $(label "$1") to have $2 lines, got $n"
}

expect_count() {	# FILE ERE N: N lines match ERE
	n=$(grep -cE -e "$2" "$1")
	[ "$n" = "$3" ] ||
		bad "expected $3 lines of $(label "$1") to match /$2/, got $n"
}

# FILE A B: the first line containing A comes before the first with B.
expect_before() {
	a=$(grep -nF -e "$2" "$1" | head -n 1 | cut -d: -f1)
	b=$(grep -nF -e "$3" "$1" | head -n 1 | cut -d: -f1)
	if [ -z "$a" ] || [ -z "$b" ] || [ "$a" -ge "$b" ]; then
		bad "expected in $(label "$1"): '$2' before '$3'" \
		    "got: line ${a:-none} and line ${b:-none}"
	fi
}

# FILE TEXT: the file's content is exactly TEXT plus a final newline.
expect_content() {
	printf '%s\n' "$2" >"$T/expected"
	cmp -s "$T/expected" "$1" && return 0
	bad "expected $(label "$1") to be exactly:" \
	    "$(sed 's/^/  /' "$T/expected" | head -n 20)" \
	    "diff (expected -> got):" \
	    "$(diff "$T/expected" "$1" | head -n 12 | excerpt - 12)"
}

# FILE FILTER: the jq FILTER is true for the JSON document in FILE.
expect_jq() {
	jq -e "$2" "$1" >/dev/null 2>&1 && return 0
	bad "expected jq '$2' to be true" \
	    "got: $(jq -c "$2" "$1" 2>&1 | excerpt - 2)"
}

end_check() {
	n_checks=$((n_checks + 1))
	if [ "$check_bad" = 0 ]; then
		n_passed=$((n_passed + 1))
		printf 'ok %d - %s\n' "$n_checks" "$check_desc"
		return 0
	fi
	n_failed=$((n_failed + 1))
	printf 'not ok %d - %s\n' "$n_checks" "$check_desc"
	sed 's/^/  # /' "$DIAG"
	[ -n "$CMD" ] || return 0
	echo "  # command: $CMD (exit $RC)"
	if [ -s "$OUT" ]; then
		echo "  # stdout (first lines):"
		excerpt "$OUT" 8 | sed 's/^/  #   /'
	fi
	if [ -s "$ERR" ]; then
		echo "  # stderr (first lines):"
		excerpt "$ERR" 5 | sed 's/^/  #   /'
	fi
}

finish() {
	echo "self-tests: $n_passed passed, $n_failed failed"
	[ "$n_failed" -eq 0 ]
}

# QEMU processes whose command line names $T/vm (the checks' vmtest work
# directory, VMTEST_OUT=$T/vm).
our_qemus() {
	for p in /proc/[0-9]*; do
		{ tr "\\0" " " <"$p/cmdline"; } 2>/dev/null |
			grep -q "^qemu-system.*$T/vm" && echo "${p#/proc/}"
	done
}

# Wait up to 60 s for one of them to start; records a failure if none did.
wait_our_qemu() {
	n=0
	while [ -z "$(our_qemus)" ] && [ "$n" -lt 600 ]; do
		sleep 0.1
		n=$((n + 1))
	done
	[ -n "$(our_qemus)" ] || bad "no QEMU started within 60 s"
}

# Wait up to SEC seconds for PID to end; non-zero if it still runs.
wait_gone() {	# PID SEC
	n=0
	while kill -0 "$1" 2>/dev/null && [ "$n" -lt $(($2 * 10)) ]; do
		sleep 0.1
		n=$((n + 1))
	done
	! kill -0 "$1" 2>/dev/null
}
