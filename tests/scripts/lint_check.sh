#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The first stage of "make check": scripts/lint.sh over the whole tree
# (checkpatch, shellcheck, C lines within 100 columns, no file over 450
# lines), and the controls that show each of its checks can fail: scratch
# files with one known defect each are flagged, naming the file, the line
# and the kind of finding, and the same files without the defect pass.
#
# Usage: sh tests/scripts/lint_check.sh
# Prints "ok N - ..." / "not ok N - ..." per check, then
# "lint-checks: P passed, F failed"; exits non-zero if a check failed.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=lint
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

LINT=$REPO/scripts/lint.sh
S=$T/src
mkdir -p "$S"

# The stage line of lint.sh for NAME: "lint: P passed, F failed".
expect_lint_line() {	# PASSED FAILED
	expect_line "$OUT" "lint: $1 passed, $2 failed"
}

# A C file, clean but for what the caller appends.
c_file() {	# FILE
	printf '// SPDX-License-Identifier: GPL-2.0\n#include <stdio.h>\n\n' >"$1"
	printf 'int pick(int x)\n{\n\tswitch (x) {\n' >>"$1"
}

check_tree() {
	begin "the tree is lint-clean (scripts/lint.sh over every file)"
	run sh "$LINT"
	expect_exit 0
	expect_match "$OUT" '^lint: [0-9]+ passed, 0 failed$'
	# What is left, by top folder and kind, then every finding.
	[ "$RC" = 0 ] || bad "findings by folder and kind:" "$(finding_kinds <"$OUT")" \
		"every finding:" "$(grep -E '^[^ :]+:[0-9]+:' "$OUT")"
	end_check
}

# "COUNT FOLDER KIND" lines for lint.sh's findings on stdin.
finding_kinds() {
	awk -F: '/^[^ :]+:[0-9]+:/ {
		n = index($1, "/")
		dir = n ? substr($1, 1, n - 1) : "."
		if (match($0, /\[SC[0-9]+\]$/))
			kind = "shellcheck:" substr($0, RSTART + 1, RLENGTH - 2)
		else if (match($0, /(ERROR|WARNING|CHECK):[A-Z_0-9]+/))
			kind = substr($0, RSTART, RLENGTH)
		else if (match($0, /: [A-Z]+:/))
			kind = substr($0, RSTART + 2, RLENGTH - 3)
		else
			kind = "other"
		print dir, kind
	}' | sort | uniq -c | sort -k1,1rn -k2
}

check_checkpatch() {
	c_file "$S/bad.c"
	printf '\tcase 1: x = 2; break;\n\t}\n\treturn x;\n}\n' >>"$S/bad.c"
	begin "checkpatch: a one-line 'case 1: stmt;' is an error"
	run sh "$LINT" "$S/bad.c"
	expect_exit 1
	expect_has "$OUT" "$S/bad.c:7: ERROR:TRAILING_STATEMENTS:"
	expect_lint_line 0 1
	end_check

	c_file "$S/good.c"
	printf '\tcase 1:\n\t\tx = 2;\n\t\tbreak;\n\t}\n\treturn x;\n}\n' >>"$S/good.c"
	begin "checkpatch: the same switch, a statement a line, passes"
	run sh "$LINT" "$S/good.c"
	expect_exit 0
	expect_empty "$ERR"
	expect_lint_line 1 0
	end_check

	# volatile is ignored through .checkpatch.conf, for any file.
	c_file "$S/conf.c"
	printf '\t}\n\treturn x;\n}\n\nvolatile int flag;\n' >>"$S/conf.c"
	begin "checkpatch: .checkpatch.conf applies (volatile is allowed)"
	run sh "$LINT" "$S/conf.c"
	expect_exit 0
	expect_lint_line 1 0
	end_check
}

check_columns() {
	c_file "$S/wide.c"
	{
		printf '\t}\n\treturn x;\n}\n\n'
		printf 'static const char * const msgs[] = {\n\t"%0120d",\n\t"tail",\n};\n' 0 |
			tr 0 a
		printf 'int wide_enough_to_be_flagged_%0100d;\n' 0
	} >>"$S/wide.c"
	begin "a C line over 100 columns is flagged, a long string alone is not"
	run sh "$LINT" "$S/wide.c"
	expect_exit 1
	expect_has "$OUT" "$S/wide.c:15: COLUMNS: 131 columns, more than 100"
	expect_count "$OUT" "COLUMNS" 1
	expect_lint_line 0 1
	end_check
}

check_shellcheck() {
	printf '%s\n' '#!/bin/sh' '# SPDX-License-Identifier: GPL-2.0' 'unused=1' \
		'echo "$undefined_var"' >"$S/bad.sh"
	begin "shellcheck: an unused and an unassigned variable are flagged"
	run sh "$LINT" "$S/bad.sh"
	expect_exit 1
	expect_has "$OUT" "$S/bad.sh:3:1: warning:"
	expect_has "$OUT" "[SC2034]"
	expect_has "$OUT" "[SC2154]"
	expect_lint_line 0 1
	end_check

	# A script without the .sh suffix is found by its #! line.
	printf '%s\n' '#!/bin/sh' '# SPDX-License-Identifier: GPL-2.0' 'used=1' \
		'echo "$used"' >"$S/good"
	cp "$S/bad.sh" "$S/bad"
	begin "shellcheck: scripts are found by their #! line; a clean one passes"
	run sh "$LINT" "$S/good" "$S/bad"
	expect_exit 1
	expect_has "$OUT" "$S/bad:3:1: warning:"
	expect_no "$OUT" "$S/good:"
	expect_lint_line 1 1
	end_check
}

# A shell script of N lines, clean otherwise.
long_script() {	# FILE N
	{
		printf '%s\n' '#!/bin/sh' '# SPDX-License-Identifier: GPL-2.0'
		i=2
		while [ "$i" -lt "$2" ]; do
			echo ':'
			i=$((i + 1))
		done
	} >"$1"
}

check_length() {
	long_script "$S/long.sh" 451
	long_script "$S/just.sh" 450
	mkdir -p "$S/tests/harness/fixtures"
	long_script "$S/tests/harness/fixtures/long_fixture.sh" 700
	begin "a file over 450 lines is flagged; 450 lines and fixtures pass"
	run sh "$LINT" "$S/long.sh" "$S/just.sh" "$S/tests/harness/fixtures/long_fixture.sh"
	expect_exit 1
	expect_has "$OUT" "$S/long.sh:451: LENGTH: 451 lines, more than 450"
	expect_no "$OUT" "just.sh"
	expect_no "$OUT" "long_fixture.sh"
	expect_lint_line 2 1
	end_check
}

check_usage() {
	begin "bad usage: an unknown option is refused (exit 2, one line)"
	run sh "$LINT" --strict
	expect_exit 2
	expect_nlines "$ERR" 1
	expect_has "$ERR" "unknown option '--strict'"
	expect_empty "$OUT"
	end_check

	begin "bad usage: a file that does not exist is refused (exit 2, one line)"
	run sh "$LINT" "$S/nothing.c"
	expect_exit 2
	expect_nlines "$ERR" 1
	expect_has "$ERR" "no file '$S/nothing.c'"
	expect_empty "$OUT"
	end_check
}

need lint-checks "make deps" "$LINT"
check_checkpatch
check_columns
check_shellcheck
check_length
check_usage
check_tree
echo "lint-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
