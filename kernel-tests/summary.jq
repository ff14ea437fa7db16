# SPDX-License-Identifier: GPL-2.0
#
# kernel-tests/report.sh: what follows the matrix (kernel-tests.json in,
# text or Markdown out, $fmt): per kernel built/passed/failed/skipped and
# the wall time, the tests not built, each kernel's bpf_testmod, and the
# commonest causes of "not built" and of red cells.

def pct($a; $b): if $b == 0 then "-" else "\(($a * 1000 / $b | floor) / 10)%" end;

. as $m
| ($m.not_built | length) as $nb
| ($m.built // [] | length) as $built
| "",
  (if $fmt == "markdown" then "| kernel | tests | passed | failed | skipped | time |", "|---|--:|--:|--:|--:|--:|" else "built: \($built) of \($built + $nb) test files (\(pct($built; $built + $nb)))", "per kernel (tests of test_progs):" end),
  ($m.kernels[] | .label as $l | ($m.counts[$l]) as $c
   | if $c == null then
	(if $fmt == "markdown" then "| \($l) | - | - | - | - | \(.status) |"
	 else "  \($l): \(.status): \(.detail)" end)
     else
	(if $fmt == "markdown" then "| \($l) | \($c.tests) | \($c.passed) | \($c.failed) | \($c.skipped) | \(.seconds) s |"
	 else "  \($l): \($c.tests) tests, passed \($c.passed), failed \($c.failed), skipped \($c.skipped), \(.seconds) s" end)
     end),
  (if ($m.modules | length) == 0 then empty else
    "", "bpf_testmod:", ($m.modules[] | "  \(.kernel): \(.module)") end),
  (if $nb == 0 then empty else
    "", "not built (\($nb)): the first compiler error of each",
    ($m.not_built[] | "  \(.test): \(.error)"),
    "commonest causes of not built (numbers as N):",
    (($m.not_built_causes // [])[] | "  \(.count)\t\(.cause)") end),
  (if ([($m.causes // {})[] | length] | add // 0) == 0 then empty else
    "", "commonest causes of red cells, per kernel (denylist entries; numbers as N):",
    (($m.causes // {}) | to_entries[] | select(.value | length > 0)
     | "  \(.key):", (.value[] | "    \(.count)\t\(.cause)")) end)
