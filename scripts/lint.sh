#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make lint: the kernel's scripts/checkpatch.pl over every C file and
# header, and their lines within 100 columns; shellcheck (-S warning,
# following sourced files) over every shell script; no file over 450
# lines (tests/*/fixtures/ aside: a fixture may be long on purpose).  A file
# is a check: it passes when no tool has anything to say about it.
#
# Usage: scripts/lint.sh [FILE...]
#   Without FILEs: every file git knows of or would add (tracked, or
#   untracked and not ignored), so generated and fetched files, which are
#   ignored, are left alone; outside git, every file under the tree but
#   build/, vmtest/cache/ and .git/.
#
# checkpatch.pl is $CHECKPATCH if set, else the kernel's when bpfcheck sits
# in a kernel tree, else fetched from Debian's linux-source and cached
# (scripts/linux-source.sh --checkpatch).  Its options are in
# .checkpatch.conf; the few exceptions for single files are below.
#
# Prints each finding, then "lint: P passed, F failed".
# Exit: 0 clean, 1 findings or a tool missing, 2 bad usage.
set -u

srcdir=$(cd "$(dirname "$0")/.." && pwd)
MAX_LINES=450

die() {
	echo "lint: $*" >&2
	exit 1
}

case ${1:-} in
-h | --help)
	sed -n '4,22s/^# \{0,1\}//p' "$0"
	exit 0 ;;
-*)
	echo "lint: unknown option '$1' (usage: scripts/lint.sh [FILE...])" >&2
	exit 2 ;;
esac

# Checks checkpatch cannot be told to skip for one file only: FILE TYPES.
#  registry.c builds its declarations and its table from the generated
#  tests list with X-macros: their ";" and unused arguments are the point.
#  BENCH_BATCH_BODY writes a whole producer function, return included.
# The rest reproduce the kernel's BPF API, whose forms are its interface:
#  bpf_experimental.h: private() is an attribute list (no parentheses
#  around it); can_loop and cond_break are statement expressions whose
#  asm goto needs local labels, and cond_break must break its caller's loop.
#  bpf_legacy.h: load_*(skb, off) keep the skb argument of the asm-declared
#  functions they stand for, though the builtins do not take it.
#  compiler.h: __always_inline is "inline __attribute__(...)", not a value.
#  filter.h: BPF_LD_IMM64_RAW and BPF_LD_MAP_VALUE are two initializers of
#  an instruction array, which parentheses would turn into a comma operator.
#  rwonce.h: barrier() is the asm statement itself, as in the kernel.
#  kernel_checks.h: SYS(label, ...) jumps to the caller's label on failure.
#  bpf_util.h: strscpy() picks its 2- or 3-argument form by counting
#  arguments: __bpfcheck_pick's leading parameters only take up places.
#  bpf_misc.h: __imm*() are asm operands ("[name]" "constraint"(expr)), not
#  values, and __sink() is an asm statement.
checkpatch_exceptions() {	# FILE
	case $1 in
	*harness/registry.c) echo TRAILING_SEMICOLON,MACRO_ARG_UNUSED ;;
	*progs/bench_producer.h) echo MACRO_WITH_FLOW_CONTROL ;;
	*compat/bpf/bpf_experimental.h)
		echo COMPLEX_MACRO,MACRO_WITH_FLOW_CONTROL,INDENTED_LABEL ;;
	*compat/bpf/bpf_legacy.h) echo MACRO_ARG_UNUSED ;;
	*compat/include/linux/compiler.h) echo COMPLEX_MACRO ;;
	*compat/include/linux/filter.h) echo COMPLEX_MACRO ;;
	*compat/include/linux/rwonce.h) echo COMPLEX_MACRO ;;
	*harness/kernel_checks.h) echo MACRO_WITH_FLOW_CONTROL ;;
	*helpers/bpf_util.h) echo MACRO_ARG_UNUSED ;;
	*progs/bpf_misc.h) echo BRACKET_SPACE,COMPLEX_MACRO ;;
	esac
}

find_checkpatch() {
	if [ -n "${CHECKPATCH:-}" ]; then
		echo "$CHECKPATCH"
	elif [ -f "$srcdir/../../../../scripts/checkpatch.pl" ]; then
		echo "$srcdir/../../../../scripts/checkpatch.pl"
	else
		tree=$(sh "$srcdir/scripts/linux-source.sh" --checkpatch) ||
			die "cannot fetch checkpatch.pl (scripts/linux-source.sh --checkpatch)"
		echo "$tree/scripts/checkpatch.pl"
	fi
}

# Every file of the tree, relative to it, one a line.
tree_files() {
	if git -C "$srcdir" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
		git -C "$srcdir" ls-files --cached --others --exclude-standard
	else
		(cd "$srcdir" && find . \( -path ./build -o -path ./vmtest/cache -o \
			-path ./.git \) -prune -o -type f -print | sed 's|^\./||')
	fi
}

# c, sh or other (a text file that only has its length checked); nothing
# for what is not text.
file_kind() {	# FILE
	case $1 in
	*.c | *.h) echo c; return ;;
	*.sh) echo sh; return ;;
	esac
	[ -s "$1" ] && grep -Iq . "$1" 2>/dev/null || return 0
	if head -n 1 "$1" | grep -Eq '^#!.*/(env +)?(ba|da|)sh( |$)' ||
	   head -n 5 "$1" | grep -q '^# shellcheck shell='; then
		echo sh
	else
		echo other
	fi
}

# Findings, one a line starting "FILE:", for the files of a kind.
run_checkpatch() {	# FILE...
	plain=
	for f in "$@"; do
		types=$(checkpatch_exceptions "$f")
		if [ -n "$types" ]; then
			CHECKPATCH_CONFIG_DIR=$srcdir perl "$cp" --ignore "$types" "$f"
		else
			plain="$plain $f"
		fi
	done
	# shellcheck disable=SC2086 # the file names have no blanks (checked)
	[ -z "$plain" ] || CHECKPATCH_CONFIG_DIR=$srcdir perl "$cp" $plain
}

run_shellcheck() {	# FILE...
	shellcheck -S warning -x -f gcc "$@"
}

# Files longer than MAX_LINES, as findings (one wc for them all).
check_lengths() {	# FILE...
	# shellcheck disable=SC2046 # file names without blanks (checked)
	set -- $(for f in "$@"; do
		case $f in tests/*fixtures/* | */tests/*fixtures/*) ;; *) echo "$f" ;; esac
	done)
	[ $# -gt 0 ] || return 0
	wc -l "$@" | awk -v max="$MAX_LINES" '$2 != "total" && $1 > max {
		printf "%s:%d: LENGTH: %d lines, more than %d: split it by concern\n", $2, $1, $1, max
	}'
}

# C lines wider than 100 columns (tabs to 8), the kernel's limit, which
# checkpatch enforces on patches but not in --file mode.  As there, a line
# that is only a string (so that it can be grepped for) or holds a URL may
# be longer.
check_columns() {	# FILE...
	awk -v max=100 '
	function width(s,    i, col) {
		col = 0
		for (i = 1; i <= length(s); i++)
			col = substr(s, i, 1) == "\t" ? (int(col / 8) + 1) * 8 : col + 1
		return col
	}
	{
		w = width($0)
		if (w <= max || $0 ~ /^[ \t]*"([^"\\]|\\.)*"[ \t]*(,|\)[ \t]*;)?[ \t]*$/ ||
		    $0 ~ /[a-z]+:\/\/[^ ]/)
			next
		printf "%s:%d: COLUMNS: %d columns, more than %d\n", FILENAME, FNR, w, max
	}' "$@"
}

# The tree's files are named relative to it; FILEs as they were given.
if [ $# -eq 0 ]; then
	cd "$srcdir" || exit 1
	files=$(tree_files)
else
	files=$(for f in "$@"; do echo "$f"; done)
fi

c_files=''
sh_files=''
all=''
for f in $files; do
	if [ ! -f "$f" ]; then
		[ $# -gt 0 ] || continue
		echo "lint: no file '$f' (usage: scripts/lint.sh [FILE...])" >&2
		exit 2
	fi
	case $f in *[[:space:]]*) die "a file name with a blank: '$f'" ;; esac
	case $(file_kind "$f") in
	c) c_files="$c_files $f" ;;
	sh) sh_files="$sh_files $f" ;;
	other) ;;
	*) continue ;;
	esac
	all="$all $f"
done

# The tools, before anything runs.
if [ -n "$c_files" ]; then
	command -v perl >/dev/null || die "perl is missing (make deps)"
	cp=$(find_checkpatch) || exit 1
	[ -f "$cp" ] || die "no checkpatch.pl at $cp"
fi
if [ -n "$sh_files" ]; then
	command -v shellcheck >/dev/null || die "shellcheck is missing (make deps)"
fi

findings=$(mktemp "${TMPDIR:-/tmp}/bpfcheck-lint.XXXXXX") || exit 1
trap 'rm -f "$findings" "$findings.c"' EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
# checkpatch and shellcheck side by side: each is one process that takes
# a minute or more over the tree.
# shellcheck disable=SC2086 # lists of file names without blanks
{
	if [ -n "$c_files" ]; then
		{ run_checkpatch $c_files; check_columns $c_files; } >"$findings.c" 2>&1 &
	fi
	[ -z "$sh_files" ] || run_shellcheck $sh_files
	check_lengths $all
	wait
	[ ! -f "$findings.c" ] || cat "$findings.c"
} >"$findings" 2>&1
cat "$findings"

# A file passes when no finding line starts with its name.
# shellcheck disable=SC2046,SC2086 # file names without blanks (checked)
set -- $(printf '%s\n' $all | awk 'FILENAME != "-" {
		if (match($0, /^[^ :]+:[0-9]+:/)) { sub(/:.*/, ""); bad[$0] = 1 }
		next
	}
	{ if ($0 in bad) f++; else p++ }
	END { print p + 0, f + 0 }' "$findings" -)
passed=$1 failed=$2
# A tool that failed without naming a file is a finding too.
if grep -Ev '^[^ :]+:[0-9]+:' "$findings" | grep -q .; then
	echo "lint: a tool printed something that names no file (above)"
	failed=$((failed + 1))
fi
echo "lint: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
