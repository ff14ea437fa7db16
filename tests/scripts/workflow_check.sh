#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# Checks of the example GitHub Actions workflow, .github/workflows/vmtest.yml,
# which this project does not run:
#   - it is YAML (yq) and valid against the GitHub workflow schema
#     (SchemaStore's, from sid's python3-check-jsonschema: bookworm has no
#     actionlint; scripts/workflow-schema.sh), which rejects a broken copy;
#   - its jobs: plan -> vmtest (a kernel x shard matrix from plan's
#     outputs) -> merge (always), real actions only, no ${{ }} inside
#     scripts, and every repository file a script names exists;
#   - its own scripts, run here as the runner would (bash -e): the plan
#     gives kernels.conf's kernels and SHARDS shards, the shard step keeps
#     the guest's test_progs JSON, the merge step merges each kernel's
#     shards (fixture runner JSON) and fails on a missing shard or a
#     failed test.
#
# Usage: [OUTPUT=build-dir] sh tests/scripts/workflow_check.sh
# Prints "ok N - ..." / "not ok N - ..." per check, then
# "workflow-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=workflow
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

FIXTURE=$OUTPUT/test_progs_fixture
WF=$REPO/.github/workflows/vmtest.yml
# Debian's, where python3-jsonschema is (not a python3 earlier in PATH).
JSONSCHEMA=/usr/bin/jsonschema

for t in yq jq bash "$JSONSCHEMA" "$FIXTURE"; do
	if ! command -v "$t" >/dev/null; then
		echo "workflow-checks: $t is missing (make deps; make check builds the fixture)"
		exit 1
	fi
done

JSON=$T/workflow.json

# The run: script of the step named NAME of job JOB.
step_script() {	# JOB NAME
	jq -r --arg j "$1" --arg n "$2" \
		'.jobs[$j].steps[] | select(.name == $n) | .run' "$JSON"
}

# Run a step's script as GitHub's runner does (bash -e) in directory DIR.
run_step() {	# JOB NAME DIR
	step_script "$1" "$2" >"$T/step.sh"
	[ -s "$T/step.sh" ] || bad "no step '$2' in job '$1'"
	CMD="step '$2' of job '$1'"
	(cd "$3" && bash -e "$T/step.sh") </dev/null >"$OUT" 2>"$ERR"
	RC=$?
}

begin "the workflow is YAML"
run yq . "$WF"
expect_exit 0
cp "$OUT" "$JSON"
expect_jq "$JSON" 'type == "object" and (.jobs | type == "object")'
end_check

begin "the workflow is valid against the GitHub workflow schema; a broken copy is not"
run sh "$REPO/scripts/workflow-schema.sh"
expect_exit 0
schema=$(cat "$OUT")
run "$JSONSCHEMA" -i "$JSON" "$schema"
expect_exit 0
expect_empty "$ERR"
jq '.jobs.vmtest.strategy["fail-fast"] = "no" | del(.jobs.plan["runs-on"])' \
	"$JSON" >"$T/broken.json"
run "$JSONSCHEMA" -i "$T/broken.json" "$schema"
[ "$RC" != 0 ] || bad "the schema accepts a job without runs-on"
end_check

begin "jobs: plan -> vmtest (kernel x shard matrix from plan) -> merge (always); history"
expect_jq "$JSON" '.jobs | keys == ["history", "kernel-tests", "kernel-tests-merge", "merge",
	"plan", "vmtest"]'
expect_jq "$JSON" '.jobs.plan.outputs | has("kernels") and has("shards")'
expect_jq "$JSON" '.jobs.vmtest.needs == "plan"'
expect_jq "$JSON" '.jobs.vmtest.strategy | .["fail-fast"] == false and
	(.matrix.kernel | test("needs\\.plan\\.outputs\\.kernels")) and
	(.matrix.shard | test("needs\\.plan\\.outputs\\.shards"))'
expect_jq "$JSON" '.jobs.merge.needs == ["plan", "vmtest"] and
	(.jobs.merge.if | test("always\\(\\)"))'
# Each vmtest cell uploads under its own name, which merge downloads.
# shellcheck disable=SC2016 # ${{ }} is the workflow's, not the shell's
expect_jq "$JSON" '[.jobs.vmtest.steps[] | select(.uses // "" |
	startswith("actions/upload-artifact")) | .with.name] ==
	["vmtest-${{ matrix.kernel }}-shard${{ matrix.shard }}"]'
expect_jq "$JSON" '.jobs.merge.steps[] | select(.uses != null and
	(.uses | startswith("actions/download-artifact"))) |
	.with.pattern == "vmtest-*" and .with["merge-multiple"] == true'
# shellcheck disable=SC2016 # the script's variables
expect_has "$T/workflow.json" 'suite --shard \"$SHARD/$SHARDS\"'
end_check

begin "kernel-tests: a kernel x shard matrix of a series' selftests, merged into one table"
expect_jq "$JSON" '.jobs["kernel-tests"].needs == "plan" and
	(.jobs["kernel-tests"].strategy.matrix.kernel | test("needs\\.plan\\.outputs\\.kernels")) and
	(.jobs["kernel-tests"].strategy.matrix.shard | test("needs\\.plan\\.outputs\\.shards"))'
expect_jq "$JSON" '.jobs["kernel-tests-merge"].needs == ["plan", "kernel-tests"] and
	(.jobs["kernel-tests-merge"].if | test("always\\(\\)"))'
# shellcheck disable=SC2016 # the script's variables
expect_has "$T/workflow.json" '--shard \"$SHARD/$SHARDS\"'
expect_has "$T/workflow.json" 'kernel-tests/kernel-tests.sh merge -o merged'
end_check

begin "only actions/checkout, cache, upload-artifact and download-artifact v4; no \${{ }} in scripts"
jq -r '.jobs[].steps[] | .uses // empty' "$JSON" | sort -u >"$T/uses"
expect_content "$T/uses" "actions/cache/restore@v4
actions/cache/save@v4
actions/cache@v4
actions/checkout@v4
actions/download-artifact@v4
actions/upload-artifact@v4"
jq -r '.jobs[].steps[] | .run // empty' "$JSON" >"$T/scripts"
# shellcheck disable=SC2016 # the workflow's expression syntax
expect_no "$T/scripts" '${{'
end_check

begin "every repository file the scripts name exists"
grep -oE '(vmtest|scripts)/[A-Za-z0-9_.-]+' "$T/scripts" | sort -u >"$T/paths"
[ -s "$T/paths" ] || bad "the scripts name no repository file"
while read -r p; do
	[ -e "$REPO/$p" ] || bad "$p does not exist"
done <"$T/paths"
end_check

begin "plan: the kernels of vmtest/kernels.conf and SHARDS shards; a bad SHARDS fails"
: >"$T/gh_output"
GITHUB_OUTPUT=$T/gh_output SHARDS=3 run_step plan plan "$REPO"
expect_exit 0
want=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$REPO/vmtest/kernels.conf" |
	jq -R . | jq -cs .)
expect_content "$T/gh_output" "kernels=$want
shards=[1,2,3]"
for bad_shards in 0 x 1.5 ""; do
	GITHUB_OUTPUT=$T/gh_output SHARDS=$bad_shards run_step plan plan "$REPO"
	[ "$RC" != 0 ] || bad "SHARDS='$bad_shards' accepted"
	expect_has "$OUT" "::error::SHARDS must be a positive number"
done
end_check

begin "shard results: the guest's test_progs JSON kept, none without results"
mkdir -p "$T/cell/results"
"$FIXTURE" -t pass_ -J "$T/guest.json" >/dev/null 2>&1
jq -n --slurpfile r "$T/guest.json" '{kernels: [{results: $r[0]}]}' \
	>"$T/cell/results/matrix-6.1-1.json"
KERNEL=6.1 SHARD=1 run_step vmtest "shard results" "$T/cell"
expect_exit 0
expect_eq "results/test_progs-6.1-1.json (jq -cS)" \
	"$(jq -cS . "$T/guest.json")" \
	"$(jq -cS . "$T/cell/results/test_progs-6.1-1.json" 2>&1)"
echo '{"kernels": [{"results": null}]}' >"$T/cell/results/matrix-6.1-2.json"
KERNEL=6.1 SHARD=2 run_step vmtest "shard results" "$T/cell"
expect_exit 0
[ ! -e "$T/cell/results/test_progs-6.1-2.json" ] ||
	bad "a shard without results left a test_progs JSON"
end_check

# Shard JSON files of the fixture runner for merge: SELECTION KERNEL...
make_shards() {
	rm -rf "$T/merge"
	mkdir -p "$T/merge/results" "$T/merge/scripts"
	cp "$REPO/scripts/merge-results.sh" "$REPO/scripts/publish.sh" "$T/merge/scripts/"
	sel=$1
	shift
	for k in "$@"; do
		for s in 1 2; do
			# shellcheck disable=SC2086 # the selection's words
			"$FIXTURE" $sel --shard "$s/2" \
				-J "$T/merge/results/test_progs-$k-$s.json" >/dev/null 2>&1
		done
	done
}

merge_step() {	# KERNELS_JSON
	: >"$T/summary"
	KERNELS=$1 SHARDS=2 GITHUB_STEP_SUMMARY=$T/summary \
		run_step merge merge "$T/merge"
}

begin "merge: each kernel's shards merged into one summary"
make_shards "-t pass_,skip_" 6.1 7.2
merge_step '["6.1","7.2"]'
expect_exit 0
for k in 6.1 7.2; do
	expect_jq "$T/merge/merged-$k.json" '.shards == 2 and .failed == 0 and
		(.results | length) == 7'
done
expect_match "$T/summary" "^6\\.1: merged 2 shards: 7 tests"
expect_match "$T/summary" "^7\\.2: merged 2 shards: 7 tests"
end_check

begin "merge: a missing shard fails, naming it"
make_shards "-t pass_" 6.1
rm "$T/merge/results/test_progs-6.1-2.json"
merge_step '["6.1"]'
[ "$RC" != 0 ] || bad "a missing shard passed"
expect_has "$OUT" "::error::6.1: shard 2/2 brought no test_progs results"
end_check

begin "merge: a failed test fails the job, naming it"
make_shards "-t pass_,fail_returns" 6.1
merge_step '["6.1"]'
[ "$RC" != 0 ] || bad "a failed test passed"
expect_has "$OUT" "::error::6.1: fail_returns failed"
end_check

# The history job: the cache restored before the check, saved after the
# add, both on push only; its check step, run here on a made-up history,
# fails the job on an alert and passes a run inside the limits.
BENCH=$OUTPUT/bench
begin "history: the cache around check and add; the check step fails on an alert, passes otherwise"
# shellcheck disable=SC2016 # the workflow's expressions
expect_jq "$JSON" '[.jobs.history.steps[] | .uses // .name] == ["git and make",
	"actions/checkout@v4", "packages", "build", "actions/cache/restore@v4", "measure",
	"check", "add", "actions/cache/save@v4"]'
# shellcheck disable=SC2016
expect_jq "$JSON" '[.jobs.history.steps[] | select(.name == "add" or
	(.uses // "" | startswith("actions/cache/save"))) | .if] ==
	["github.event_name == '"'push'"'", "github.event_name == '"'push'"'"]'
mkdir -p "$T/hist/build" "$T/hist/results" "$T/hist/history"
ln -s "$BENCH" "$T/hist/build/bench"
# vmtest --bench --json of one kernel, test_run at MEAN insns/run.
vmrep() {	# MEAN
	jq -n --argjson v "$1" '{accelerator: "tcg", icount: true, kernels: [{label: "6.12"}],
		cells: [{name: "fizz/lookup", kernel: "6.12", status: "ok", config: "fizz",
			metrics: [{name: "test_run", unit: "insns/run", better: "lower",
				available: true, samples: [$v, $v + 0.01, $v - 0.01]}]}]}' \
		>"$T/hist/results/bench.json"
}
for i in 1 2 3 4 5 6; do
	vmrep "17$i"
	"$BENCH" history add --db "$T/hist/history/bench.db" --branch main --commit "c$i" \
		"$T/hist/results/bench.json" >/dev/null
done
vmrep 200
GITHUB_STEP_SUMMARY=$T/summary GITHUB_HEAD_REF=feature GITHUB_BASE_REF=main \
	GITHUB_REF_NAME=1/merge GITHUB_SHA=abc run_step history check "$T/hist"
expect_exit 1
expect_match "$OUT" '^alert: fizz/lookup test_run: 200 insns/run above the upper limit'
expect_has "$T/summary" "1 alert"
vmrep 173
GITHUB_STEP_SUMMARY=$T/summary GITHUB_HEAD_REF=feature GITHUB_BASE_REF=main \
	GITHUB_REF_NAME=1/merge GITHUB_SHA=abc run_step history check "$T/hist"
expect_exit 0
expect_has "$OUT" "0 alerts"
end_check

echo "workflow-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
