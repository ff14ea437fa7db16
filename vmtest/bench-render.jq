# SPDX-License-Identifier: GPL-2.0
#
# Renders the report of vmtest/bench-report.sh build as text, Markdown or
# BMF ($fmt): per benchmark and metric a variant x kernel table of mean ±
# stddev, then each kernel against the first and each variant against
# its benchmark's first (bench compare's verdicts), then the cells that
# could not be measured, with why and how to run one cell alone.

def pad($n): tostring | if length < $n then . + (" " * ($n - length)) else . end;
def r($d): . as $x | pow(10; $d) as $s | ($x * $s | round) / $s;
# Three significant decimals at most; k and M for rates.
def num: if . == null then "-"
	elif fabs >= 1e6 then "\(. / 1e6 | r(3))M"
	elif fabs >= 1e4 then "\(. / 1e3 | r(2))k"
	elif fabs >= 100 then "\(r(3))"
	else "\(r(4))" end;
def pm: "\(.mean | num) ± \(.stddev | num)";
def md_esc: gsub("\\|"; "\\|");

. as $R
| [$R.kernels[].label] as $ks
| ($R.cells | map(.benchmark) | reduce .[] as $b ([]; if index([$b]) then . else . + [$b] end)) as $bms
| def cell($b; $v; $k): first($R.cells[] | select(.benchmark == $b and .variant == $v and .kernel == $k));
  def variants($b): $R.cells | map(select(.benchmark == $b) | .variant)
	| reduce .[] as $v ([]; if index([$v]) then . else . + [$v] end);
  def metrics($b): [$R.cells[] | select(.benchmark == $b) | .metrics[] | .name]
	| reduce .[] as $v ([]; if index([$v]) then . else . + [$v] end);
  def unit($b; $m): first($R.cells[] | select(.benchmark == $b) | .metrics[]
	| select(.name == $m and .available) | "\(.unit), \(.better) is better") // "";
  def value($c; $m): if $c == null then "-"
	elif $c.status != "ok" then $c.status
	else (first($c.metrics[] | select(.name == $m)) // null) as $x
	| if $x == null then "-" elif $x.available then ($x | pm) else "n/a" end end;
  def verdict: if .verdict == null then "-"
	elif .delta_pct == null then .verdict
	else (.delta_pct | if . == 0 then 0 else . end) as $d
	| "\(if $d >= 0 then "+" else "" end)\($d)% \(.verdict)" end;
  def header: "accelerator: \($R.accelerator | ascii_upcase) (\($R.accelerator_note))"
	+ (if $R.icount then "; icount: the guests' clocks count instructions (-icount shift=0: 1 ns = 1 guest instruction), so every figure is in guest instructions" else "" end);
  def runs_line: "runs: bench \($R.bench_args) each; gate: bench compare --threshold \($R.threshold) (minimum effect \($R.threshold)%, alpha 0.05)";
  def kcount($k; $s): [$R.cells[] | select(.kernel == $k and .status == $s)] | length;
  def problems: [$R.cells[] | select(.status != "ok")];

if $fmt == "bmf" then
	[$R.cells[] | select(.status == "ok") as $c | $c.metrics[] | select(.available)
	 | {key: "\($c.kernel)/\($c.name)/\(.name)",
	    value: {(if (.unit | startswith("insns/")) then "instructions"
		elif (.unit | startswith("ns/")) then "latency" else "throughput" end):
		{value: .mean, lower_value: ([.mean - .stddev, 0] | max),
		 upper_value: (.mean + .stddev)}}}] | from_entries | tojson
elif $fmt == "text" then
	($ks | map(length) + [6] | max) as $lw
	| header, runs_line, "",
	  "\("kernel" | pad($lw))  \("release" | pad(28))  \("status" | pad(9))  \("ok/n.a./failed" | pad(14))  \("boot-to-result" | pad(14))  detail",
	  ($R.kernels[] | . as $k | "\(.label | pad($lw))  \(.release | pad(28))  \(.status | pad(9))  \("\(kcount($k.label; "ok"))/\(kcount($k.label; "unmeasurable"))/\(kcount($k.label; "failed") + kcount($k.label; "missing"))" | pad(14))  \("\(.seconds) s" | pad(14))  \(.detail)"),
	  ($bms[] as $b | metrics($b)[] as $m | variants($b) as $vs
	   | ($vs | map(length) + [7] | max) as $vw
	   | "", "\($b): \($m) (\(unit($b; $m)))",
	     "  \("variant" | pad($vw))  \([$ks[] | pad(24)] | join("") | sub(" +$"; ""))",
	     ($vs[] as $v | "  \($v | pad($vw))  \([$ks[] as $k | value(cell($b; $v; $k); $m) | pad(24)] | join("") | sub(" +$"; ""))")),
	  (if ($R.vs_first_kernel | length) == 0 then empty else
	   ($R.vs_first_kernel | map("\(.name) \(.metric)" | length) + [10] | max) as $nw
	   | "", "every kernel against \($ks[0]) (bench compare):",
	     ($R.vs_first_kernel | group_by(.name + " " + (.metric // "")) | sort_by(.[0].name)[]
	      | "  \("\(.[0].name) \(.[0].metric // "")" | pad($nw))  \(. as $g | [$ks[1:][] as $k | (first($g[] | select(.kernel == $k)) // {verdict: null}) | "\($k): \(verdict)" | pad(28)] | join("") | sub(" +$"; ""))")
	  end),
	  (if ($R.vs_first_variant | length) == 0 then empty else
	   "", "each variant against its benchmark's first, per kernel (bench compare):",
	   ($R.vs_first_variant | group_by(.name + " " + (.metric // "")) | .[]
	    | "  \("\(.[0].name) vs \(.[0].base_name | split("/")[1:] | join("/")) \(.[0].metric // "")" | pad(48))  \(. as $g | [$ks[] as $k | (first($g[] | select(.kernel == $k)) // {verdict: null}) | "\($k): \(verdict)" | pad(28)] | join("") | sub(" +$"; ""))")
	  end),
	  (if (problems | length) == 0 then empty else
	   "", "cells not measured, and how to run each alone:",
	   (problems[] | "  [\(.kernel)] \(.name): \(.status): \(.reason)", "      \(.reproduce)")
	  end),
	  "", "any cell alone: \($R.vmtest) -k KERNEL\(if $R.icount then " --icount" else "" end) --bench BENCHMARK/VARIANT (the JSON lists each cell's command)"
else
	header, "", runs_line, "",
	"| kernel | release | status | ok/n.a./failed | boot-to-result | detail |",
	"|---|---|---|---|---|---|",
	($R.kernels[] | . as $k | "| \(.label) | \(.release) | **\(.status)** | \(kcount($k.label; "ok"))/\(kcount($k.label; "unmeasurable"))/\(kcount($k.label; "failed") + kcount($k.label; "missing")) | \(.seconds) s | \(.detail | md_esc) |"),
	($bms[] as $b | metrics($b)[] as $m
	 | "", "**\($b)**: \($m) (\(unit($b; $m)))", "",
	   "| variant | \($ks | join(" | ")) |", "|---|\($ks | map("---:") | join("|"))|",
	   (variants($b)[] as $v | "| \($v) | \([$ks[] as $k | value(cell($b; $v; $k); $m)] | join(" | ")) |")),
	(if ($R.vs_first_kernel | length) == 0 then empty else
	 "", "Every kernel against \($ks[0]) (bench compare):", "",
	 "| run | metric | \($ks[1:] | join(" | ")) |", "|---|---|\($ks[1:] | map("---") | join("|"))|",
	 ($R.vs_first_kernel | group_by(.name + " " + (.metric // "")) | sort_by(.[0].name)[]
	  | . as $g | "| \(.[0].name) | \(.[0].metric // "-") | \([$ks[1:][] as $k | (first($g[] | select(.kernel == $k)) // {verdict: null}) | verdict] | join(" | ")) |")
	end),
	(if ($R.vs_first_variant | length) == 0 then empty else
	 "", "Each variant against its benchmark's first (bench compare):", "",
	 "| run | vs | metric | \($ks | join(" | ")) |", "|---|---|---|\($ks | map("---") | join("|"))|",
	 ($R.vs_first_variant | group_by(.name + " " + (.metric // "")) | .[]
	  | . as $g | "| \(.[0].name) | \(.[0].base_name) | \(.[0].metric // "-") | \([$ks[] as $k | (first($g[] | select(.kernel == $k)) // {verdict: null}) | verdict] | join(" | ")) |")
	end),
	(if (problems | length) == 0 then empty else
	 "", "Cells not measured:", "",
	 (problems[] | "- `\(.kernel)` \(.name): \(.status): \(.reason | md_esc); alone: `\(.reproduce)`")
	end)
end
