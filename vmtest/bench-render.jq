# SPDX-License-Identifier: GPL-2.0
#
# Renders the report of vmtest/bench-report.sh build as text, Markdown or
# BMF ($fmt): per benchmark and metric a variant x kernel table of mean ±
# stddev, then each kernel against the first and each variant against
# its benchmark's first (bench compare's verdicts), then the cells that
# could not be measured, with why and how to run one cell alone.

def pad($n): tostring | if length < $n then . + (" " * ($n - length)) else . end;
def width($min): map(length) + [$min] | max;
def uniq: reduce .[] as $x ([]; if index([$x]) then . else . + [$x] end);
# Padded cells joined, without trailing blanks.
def row($w): map(pad($w)) | join("") | sub(" +$"; "");
def md_row: "| " + join(" | ") + " |";
def md_esc: gsub("\\|"; "\\|");
# X with D decimals, trailing zeros kept.
def fixed($d): (. * pow(10; $d) | round) as $i
	| ($i | fabs | tostring) as $s
	| (if ($s | length) <= $d then ("0" * ($d + 1 - ($s | length))) + $s else $s end) as $z
	| (if $i < 0 then "-" else "" end) + $z[:($z | length) - $d]
	  + (if $d > 0 then "." + $z[($z | length) - $d:] else "" end);
# Mean ± stddev in the mean's scale: M and k for the large rates.
def pm: (.mean | fabs) as $a
	| (if $a >= 1e6 then [1e6, "M", 3] elif $a >= 1e4 then [1e3, "k", 2]
	   else [1, "", 3] end) as $f
	| "\(.mean / $f[0] | fixed($f[2]))\($f[1]) ± \(.stddev / $f[0] | fixed($f[2]))\($f[1])";
def verdict: if .verdict == null then "-"
	elif .delta_pct == null then .verdict
	else (.delta_pct | if . == 0 then 0 else . end) as $d
	| "\(if $d >= 0 then "+" else "" end)\($d)% \(.verdict)" end;
# A comparison group's verdict for kernel $k.
def verdict_of($k): (first(.[] | select(.kernel == $k)) // {verdict: null}) | verdict;
def by_run_metric: group_by(.name + " " + (.metric // "")) | sort_by(.[0].name)[];
def bmf_measure: if (.unit | startswith("insns/")) then "instructions"
	elif (.unit | startswith("ns/")) then "latency" else "throughput" end;

. as $R
| [$R.kernels[].label] as $ks
| ($R.cells | map(.benchmark) | uniq) as $bms
| def cell($b; $v; $k):
	first($R.cells[] | select(.benchmark == $b and .variant == $v and .kernel == $k));
  def variants($b): $R.cells | map(select(.benchmark == $b) | .variant) | uniq;
  def metrics($b): [$R.cells[] | select(.benchmark == $b) | .metrics[] | .name] | uniq;
  def unit($b; $m): first($R.cells[] | select(.benchmark == $b) | .metrics[]
	| select(.name == $m and .available) | "\(.unit), \(.better) is better") // "";
  def value($c; $m): if $c == null then "-"
	elif $c.status != "ok" then $c.status
	else (first($c.metrics[] | select(.name == $m)) // null) as $x
	| if $x == null then "-" elif $x.available then ($x | pm) else "n/a" end end;
  def counts($k): [$R.cells[] | select(.kernel == $k) | .status] as $s
	| "\($s | map(select(. == "ok")) | length)/"
	  + "\($s | map(select(. == "unmeasurable")) | length)/"
	  + "\($s | map(select(. == "failed" or . == "missing")) | length)";
  def header: "accelerator: \($R.accelerator | ascii_upcase) (\($R.accelerator_note))"
	+ (if $R.icount then "; icount: the guests' clocks count instructions"
	   + " (-icount shift=0: 1 ns = 1 guest instruction), so every figure is in"
	   + " guest instructions" else "; wall-clock time: the figures move with"
	   + " whatever else the host runs (--icount counts guest instructions)" end);
  def runs_line: "runs: bench \($R.bench_args) each; gate: bench compare --threshold"
	+ " \($R.threshold) (minimum effect \($R.threshold)%, alpha 0.05)";
  def problems: [$R.cells[] | select(.status != "ok")];
  def tables: $bms[] as $b | metrics($b)[] as $m | {b: $b, m: $m, vs: variants($b),
	rows: [variants($b)[] as $v | [$v] + [$ks[] as $k | value(cell($b; $v; $k); $m)]]};
  def vv_name: "\(.[0].name) vs \(.[0].base_name | split("/")[1:] | join("/"))";

if $fmt == "bmf" then
	[$R.cells[] | select(.status == "ok") as $c | $c.metrics[] | select(.available)
	 | {key: "\($c.kernel)/\($c.name)/\(.name)",
	    value: {(bmf_measure): {value: .mean, lower_value: ([.mean - .stddev, 0] | max),
		upper_value: (.mean + .stddev)}}}] | from_entries | tojson
elif $fmt == "text" then
	($ks | width(6)) as $lw
	| header, runs_line, "",
	  ([("kernel" | pad($lw)), ("release" | pad(28)), ("status" | pad(9)),
	    ("ok/n.a./failed" | pad(14)), ("boot-to-result" | pad(14)), "detail"] | join("  ")),
	  ($R.kernels[] | [(.label | pad($lw)), (.release | pad(28)), (.status | pad(9)),
	    (counts(.label) | pad(14)), ("\(.seconds) s" | pad(14)), .detail] | join("  ")),
	  (tables | (.vs | width(7)) as $vw
	   | "", "\(.b): \(.m) (\(unit(.b; .m)))",
	     "  \("variant" | pad($vw))  \($ks | row(24))",
	     (.rows[] | "  \(.[0] | pad($vw))  \(.[1:] | row(24))")),
	  (if ($R.vs_first_kernel | length) == 0 then empty else
	   ($R.vs_first_kernel | map("\(.name) \(.metric)") | width(10)) as $nw
	   | "", "every kernel against \($ks[0]) (bench compare):",
	     ($R.vs_first_kernel | by_run_metric | . as $g
	      | "  \("\(.[0].name) \(.[0].metric // "")" | pad($nw))  "
		+ ([$ks[1:][] as $k | "\($k): \($g | verdict_of($k))"] | row(28)))
	  end),
	  (if ($R.vs_first_variant | length) == 0 then empty else
	   ([$R.vs_first_variant | by_run_metric | "\(vv_name) \(.[0].metric)"] | width(10)) as $nw
	   | "", "each variant against its benchmark's first, per kernel (bench compare):",
	     ($R.vs_first_variant | by_run_metric | . as $g
	      | "  \("\(vv_name) \(.[0].metric // "")" | pad($nw))  "
		+ ([$ks[] as $k | "\($k): \($g | verdict_of($k))"] | row(28)))
	  end),
	  (if (problems | length) == 0 then empty else
	   "", "cells not measured, and how to run each alone:",
	   (problems[] | "  [\(.kernel)] \(.name): \(.status): \(.reason)", "      \(.reproduce)")
	  end),
	  "", "any cell alone: \($R.vmtest) -k KERNEL\(if $R.icount then " --icount" else "" end)"
	      + " --bench BENCHMARK/VARIANT (the JSON lists each cell's command)"
else
	header, "", runs_line, "",
	"| kernel | release | status | ok/n.a./failed | boot-to-result | detail |",
	"|---|---|---|---|---|---|",
	($R.kernels[] | [.label, .release, "**\(.status)**", counts(.label), "\(.seconds) s",
	  (.detail | md_esc)] | md_row),
	(tables | "", "**\(.b)**: \(.m) (\(unit(.b; .m)))", "",
	  (["variant"] + $ks | md_row), "|---|\($ks | map("---:") | join("|"))|",
	  (.rows[] | md_row)),
	(if ($R.vs_first_kernel | length) == 0 then empty else
	 "", "Every kernel against \($ks[0]) (bench compare):", "",
	 (["run", "metric"] + $ks[1:] | md_row), "|---|---|\($ks[1:] | map("---") | join("|"))|",
	 ($R.vs_first_kernel | by_run_metric | . as $g
	  | [.[0].name, (.[0].metric // "-")] + [$ks[1:][] as $k | $g | verdict_of($k)] | md_row)
	end),
	(if ($R.vs_first_variant | length) == 0 then empty else
	 "", "Each variant against its benchmark's first (bench compare):", "",
	 (["run", "vs", "metric"] + $ks | md_row), "|---|---|---|\($ks | map("---") | join("|"))|",
	 ($R.vs_first_variant | by_run_metric | . as $g
	  | [.[0].name, .[0].base_name, (.[0].metric // "-")]
	    + [$ks[] as $k | $g | verdict_of($k)] | md_row)
	end),
	(if (problems | length) == 0 then empty else
	 "", "Cells not measured:", "",
	 (problems[] | "- `\(.kernel)` \(.name): \(.status): \(.reason | md_esc);"
	   + " alone: `\(.reproduce)`")
	end)
end
