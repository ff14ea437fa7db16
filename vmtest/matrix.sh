#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The kernel x test matrix of a vmtest run.
#
#   matrix.sh build META.json RECORD.json...   the matrix as JSON, on stdout
#   matrix.sh text MATRIX.json                 rendered as text
#   matrix.sh markdown MATRIX.json             rendered as Markdown
#
# META: {"accelerator", "accelerator_note", "command", "runner" (qemu|vng),
# "vmtest" (the driver as the user should type it), "test_progs" (its path
# in the guest)}.  A RECORD is one kernel:
# {"label", "kernel_args", "release", "source", "status", "detail",
# "exit_code", "seconds", "guest", "splats", "results"}, where results is
# that guest's test_progs JSON, intact, or null, and splats the kernel's
# splats (vmtest/splat.sh: kind, line, test, during, module, file, text).
#
# The matrix JSON: the META fields, "kernels" (the records), "tests" (one
# per test: name, outcomes {label: PASS|FAIL|SKIP|MISSING|null}, differs,
# subtests likewise), "complete" (every kernel has a verdict for every
# test: PASS, FAIL, SKIP or TIMEOUT, the runner's watchdog; a subtest one
# kernel lacks is one its test did not run there), "failures" (kernel, test, reproduce; and splat, the kind,
# for a test the kernel splatted under).  A null outcome
# means the kernel has no test_progs results at all (see its status);
# MISSING, that its results lack the test.
set -eu

usage() {
	echo "usage: matrix.sh build META.json RECORD.json... | text FILE | markdown FILE" >&2
	exit 2
}

build() {
	meta=$1
	shift
	jq -n --slurpfile meta "$meta" '
	def ordered_union: reduce .[] as $x ([]; if any(.[]; . == $x) then . else . + [$x] end);
	def differs: [.[] | select(. != null)] | unique | length > 1;

	[inputs] as $ks
	| ($ks | map(select(.results != null))) as $with
	| ([$with[] | .results.results[] | .name] | ordered_union) as $names
	| [ $names[] as $t
	    | ($ks | map({key: .label, value:
		(if .results == null then null
		 else ([.results.results[] | select(.name == $t)][0]) as $r
		 | if $r == null then "MISSING" else $r.outcome end end)})
	      | from_entries) as $cells
	    | ([$with[] | .results.results[] | select(.name == $t)
		| (.subtests // [])[] | .name] | ordered_union) as $subs
	    | {name: $t, outcomes: $cells,
	       differs: ([$cells[]] | differs),
	       subtests: [ $subs[] as $s
		| ($ks | map({key: .label, value:
		    (if .results == null then null
		     else ([.results.results[] | select(.name == $t)
			| (.subtests // [])[] | select(.name == $s)][0]) as $r
		     | if $r == null then "MISSING" else $r.outcome end end)})
		  | from_entries) as $sc
		| {name: $s, outcomes: $sc, differs: ([$sc[]] | differs)} ] } ] as $tests
	| $meta[0] + {
	    kernels: $ks,
	    tests: $tests,
	    complete: (($ks | all(.results != null)) and ($ks | length > 0) and
		([$tests[] | .outcomes[]] |
		 all(. == "PASS" or . == "FAIL" or . == "SKIP" or . == "TIMEOUT"))),
	    failures: ([ $ks[] as $k | ($k.results // {results: []}).results[]
		| select(.outcome == "FAIL") as $r
		| ([($r.subtests // [])[] | select(.outcome == "FAIL") | .name]) as $fs
		| (if ($fs | length) > 0 then $fs[] | "\($r.name)/\(.)" else $r.name end)
		| {kernel: $k.label, test: .,
		   reproduce: "\($meta[0].vmtest) \($k.kernel_args) -- \($meta[0].test_progs // "/bpfcheck/test_progs") -t \(.)"} ]
	      # A test the kernel splatted under, whatever its outcome.
	      + ([ $ks[] as $k | ($k.splats // [])[] | select(.test != null)
		| {kernel: $k.label, test: .test, splat: .kind,
		   reproduce: "\($meta[0].vmtest) \($k.kernel_args) -- \($meta[0].test_progs // "/bpfcheck/test_progs") -t \(.test)"} ]
		 | unique_by([.kernel, .test, .splat])))
	  }' "$@"
}

# Shared by both renderings: cell text, and the rows to show (every test;
# subtests when they differ across kernels or fail somewhere).
JQ_COMMON='
def pad($n): if length < $n then . + (" " * ($n - length)) else . end;
def cell($k): (.outcomes[$k.label]) // ($k.status | if . == "PASS" or . == "FAIL" or . == "SKIP" then "-" else . end);
def shown_subtests: .subtests[] | select(.differs or any(.outcomes[]; . == "FAIL"));
def counts: if .results == null then "" else
	[.results.results[] | .outcome] as $o
	| "\($o | map(select(. == "PASS")) | length)/\($o | map(select(. == "FAIL")) | length)/\($o | map(select(. == "SKIP")) | length)" end;
def secs: if .seconds == null then "-" else "\(.seconds) s" end;
def splat_of: if .splat then " (kernel splat: \(.splat))" else "" end;
def splat_lines($item; $q): [.kernels[] | .label as $l | (.splats // [])[] | . + {label: $l}]
	| if length == 0 then empty else
	  "", "kernel splats (a kernel with one FAILs; full texts in --json):",
	  (.[] | "\($item)[\(.label)] \(.kind)\(if .module then " in \(.module)" else "" end) during \(.during): \($q)\(.line)\($q)")
	  end;
'

text() {
	jq -r "$JQ_COMMON"'
	. as $m
	| ($m.kernels | map(.label | length) + [6] | max) as $lw
	| ($m.kernels | map(.release | length) + [7] | max) as $rw
	| ($m.kernels | map(.status | length) + [6] | max) as $sw
	| "accelerator: \($m.accelerator | ascii_upcase) (\($m.accelerator_note))\(if $m.runner == "vng" then ", guests started by vng" else "" end)",
	  "command: \($m.command)",
	  "",
	  "\("kernel" | pad($lw))  \("release" | pad($rw))  \("status" | pad($sw))  \("P/F/S" | pad(8))  \("boot-to-result" | pad(14))  detail",
	  ($m.kernels[] | "\(.label | pad($lw))  \(.release | pad($rw))  \(.status | pad($sw))  \(counts | pad(8))  \(secs | pad(14))  \(.detail)"),
	  (if ($m.tests | length) == 0 then empty else
	    ([$m.tests[] | .name as $n | $n, (shown_subtests | "  \($n)/\(.name)")] | map(length) + [4] | max + 2) as $tw
	    | ($m.kernels | map([.label | length, 7] | max)) as $cw
	    | "",
	      ("  \("test" | pad($tw))\([range($m.kernels | length) as $i | $m.kernels[$i].label | pad($cw[$i] + 2)] | add)" | sub(" +$"; "")),
	      ($m.tests[] as $t
	       | ($t, ($t | shown_subtests | .name = "\($t.name)/\(.name)")) as $row
	       | (if $row == $t then $row.name else "  " + $row.name end) as $name
	       | "\(if $row.differs then "* " else "  " end)\($name | pad($tw))\([range($m.kernels | length) as $i | $m.kernels[$i] as $k | $row | cell($k) | pad($cw[$i] + 2)] | add)" | sub(" +$"; "")),
	      "",
	      "* outcome differs across kernels.  Subtests are shown where they differ or fail.",
	      "matrix: \(if $m.complete then "complete" else "INCOMPLETE" end), \($m.tests | length) tests x \($m.kernels | length) kernels"
	   end),
	  (splat_lines("  "; "")),
	  (if ($m.failures | length) == 0 then empty else
	    "", "failing cells, each reproduced alone by:",
	    ($m.failures[] | "  [\(.kernel)] \(.test)\(splat_of): \(.reproduce)") end)
	' "$1"
}

markdown() {
	jq -r "$JQ_COMMON"'
	def esc: gsub("\\|"; "\\|");
	. as $m
	| "**vmtest** on \($m.accelerator | ascii_upcase) (\($m.accelerator_note | esc)): `\($m.command)`",
	  "",
	  "| kernel | release | status | P/F/S | boot-to-result | detail |",
	  "|---|---|---|---|---|---|",
	  ($m.kernels[] | "| \(.label) | \(.release) | **\(.status)** | \(counts) | \(secs) | \(.detail | esc) |"),
	  (if ($m.tests | length) == 0 then empty else
	    "",
	    "| test | \([$m.kernels[] | .label] | join(" | ")) |",
	    "|---|\([$m.kernels[] | "---"] | join("|"))|",
	    ($m.tests[] as $t
	     | ($t, ($t | shown_subtests | .name = "\($t.name)/\(.name)")) as $row
	     | (if $row.differs then "**\($row.name)** (differs)" else $row.name end) as $name
	     | "| \($name) | \([$m.kernels[] as $k | $row | cell($k) | if . == "FAIL" then "**FAIL**" else . end] | join(" | ")) |"),
	    "",
	    "Matrix \(if $m.complete then "complete" else "**incomplete**" end): \($m.tests | length) tests x \($m.kernels | length) kernels; subtests are listed where they differ or fail."
	   end),
	  (splat_lines("- "; "`") | esc),
	  (if ($m.failures | length) == 0 then empty else
	    "", "Failing cells, each reproduced alone by:", "",
	    ($m.failures[] | "- `\(.kernel)` \(.test)\(splat_of): `\(.reproduce)`") end)
	' "$1"
}

[ $# -ge 2 ] || usage
cmd=$1
shift
case "$cmd" in
build) build "$@" ;;
text) text "$1" ;;
markdown) markdown "$1" ;;
*) usage ;;
esac
