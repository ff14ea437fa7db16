#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# Black-box checks of "bring your own program" (issue 16):
#   - bad input to vmtest -- CMD, --add, --test-progs, runner.sh and
#     make TESTS_DIR fails at once with one line naming the bad value;
#   - a host program (bpftool, by name) runs in 6.1 and 6.12 guests;
#   - a bash script (#!/usr/bin/env bash) runs a program built here with
#     its own shared library, in the host's working directory; both see
#     what --add brought, a file comes back through $VMTEST_RESULTS, and
#     the exit code (7) is vmtest's;
#   - vmtest/runner.sh as "go test -exec" runs a Go test in the guest
#     (Debian's golang-go; the same test fails on the host's kernel);
#   - examples/pktclass, copied out of bpfcheck's tree, runs its README's
#     CI block (host, 6.12, the cost gate against an identical base), and
#     its gate flags the -DSLOW build; bpfcheck's tree is left as it was.
#
# Usage: [OUTPUT=build-dir] sh tests/vmtest_byo_check.sh
# Prints "ok N - ..." / "not ok N - ..." per check, then
# "byo-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=byo
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

VMTEST=$REPO/vmtest/vmtest.sh
RUNNER=$REPO/vmtest/runner.sh
export VMTEST_OUT="$T/vm"
need byo-checks "make" "$OUTPUT/test_progs"

expect_nothing_booted() {
	expect_no "$ERR" "booting"
	[ -z "$(ls -A "$T/vm" 2>/dev/null)" ] ||
		bad "expected no work directory left in $T/vm, got: $(ls -A "$T/vm")"
}

tree_state() {
	git -C "$REPO" status --porcelain 2>/dev/null
}
tree_before=$(tree_state)

# ---- bad input ------------------------------------------------------------

begin "--add of a missing path, or onto /proc, or a relative guest path: exit 2"
run sh "$VMTEST" -k 6.12 --add "$T/nonexistent" -- true
expect_exit 2
expect_nlines "$ERR" 1
expect_has "$ERR" "--add '$T/nonexistent': no such file or directory"
run sh "$VMTEST" -k 6.12 --add /etc/hostname:/proc/x -- true
expect_exit 2
expect_has "$ERR" "GUEST_PATH '/proc/x' must be an absolute path outside /proc"
run sh "$VMTEST" -k 6.12 --add /etc/hostname:etc/x -- true
expect_exit 2
expect_has "$ERR" "GUEST_PATH 'etc/x' must be an absolute path"
expect_nothing_booted
end_check

begin "a command that is nowhere, or not executable, or --test-progs not a program: exit 2"
run sh "$VMTEST" -k 6.12 -- no_such_command_xyz
expect_exit 2
expect_has "$ERR" "command 'no_such_command_xyz' is not on the host's PATH"
echo 'not a program' >"$T/plain"
chmod 644 "$T/plain"
run sh "$VMTEST" -k 6.12 -- "$T/plain"
expect_exit 2
expect_has "$ERR" "command '$T/plain' is not executable"
run sh "$VMTEST" -k 6.12 --test-progs "$T/plain"
expect_exit 2
expect_has "$ERR" "--test-progs '$T/plain' is not an executable file"
printf '#!/bin/sh\n' >"$T/script"
chmod 755 "$T/script"
run sh "$VMTEST" -k 6.12 --test-progs "$T/script"
expect_exit 2
expect_has "$ERR" "--test-progs '$T/script' is not an ELF program"
expect_nothing_booted
end_check

begin "runner.sh without a program, and with a missing one: exit 2"
run sh "$RUNNER"
expect_exit 2
expect_has "$ERR" "usage: runner.sh PROGRAM"
run sh "$RUNNER" "$T/nonexistent"
expect_exit 2
expect_has "$ERR" "command '$T/nonexistent' does not exist on the host"
expect_nothing_booted
end_check

begin "make TESTS_DIR=DIR without prog_tests/*.c names DIR"
run make -C "$REPO" TESTS_DIR="$T/empty-project"
case "$RC" in 0) bad "make succeeded" ;; esac
expect_has "$ERR" "TESTS_DIR=$T/empty-project: no prog_tests/*.c in it"
end_check

# ---- host programs in the guest --------------------------------------------

begin "vmtest -k 6.1 -k 6.12 -- bpftool prog list: the host's bpftool runs in both"
bpftool_path=$(command -v bpftool)
run sh "$VMTEST" -k 6.1 -k 6.12 -j 2 --json "$T/bpftool.json" -- bpftool prog list
expect_exit 0
expect_has "$OUT" "---- [6.1] output of: $bpftool_path prog list"
expect_has "$OUT" "---- [6.12] output of: $bpftool_path prog list"
expect_jq "$T/bpftool.json" '[.kernels[] | .status, .exit_code] == ["PASS", 0, "PASS", 0]'
end_check

# A program with a shared library of its own, found through its RUNPATH.
P=$T/proj
mkdir -p "$P/lib" "$T/extra"
cat >"$P/lib/answer.c" <<'EOF'
int byo_answer(void)
{
	return 42;
}
EOF
cat >"$P/byo.c" <<'EOF'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int byo_answer(void);

static void show(const char *label, const char *path)
{
	char line[64] = "";
	FILE *f = fopen(path, "r");

	if (f && fgets(line, sizeof(line), f))
		printf("%s: %s", label, line);
	if (f)
		fclose(f);
}

int main(int argc, char **argv)
{
	char cwd[4096], out[4200];
	FILE *f;

	printf("answer %d\n", byo_answer());
	if (getcwd(cwd, sizeof(cwd)))
		printf("cwd %s\n", cwd);
	show("data", "data.txt");
	show("extra", "/opt/extra/file");
	snprintf(out, sizeof(out), "%s/byo.txt", getenv("VMTEST_RESULTS"));
	f = fopen(out, "w");
	if (f) {
		fputs("sent back\n", f);
		fclose(f);
	}
	return argc > 1 ? atoi(argv[1]) : 0;
}
EOF
# A bash script runs it: the script brings bash (#!/usr/bin/env bash),
# --add brings the program and its library.
printf '#!/usr/bin/env bash\necho "bash ${BASH_VERSION%%%%.*}"\nexec ./byo "$@"\n' >"$P/run.sh"
chmod 755 "$P/run.sh"
echo hello >"$P/data.txt"
echo world >"$T/extra/file"
gcc -shared -fPIC -o "$P/lib/libanswer.so" "$P/lib/answer.c" &&
	gcc -o "$P/byo" "$P/byo.c" -L"$P/lib" -lanswer -Wl,-rpath,'$ORIGIN/lib' ||
	bad "cannot build the test program"

begin "a bash script and a program with its own shared library run in the guest; exit code 7"
(cd "$P" && run sh "$VMTEST" -k 6.12 --keep --add byo --add data.txt \
	--add "$T/extra:/opt/extra" --json "$T/byo.json" -- ./run.sh 7
	save byo)
use byo
expect_exit 7
expect_match "$OUT" '^bash [0-9]+$'
expect_has "$OUT" "answer 42"
expect_line "$OUT" "cwd $P"
expect_line "$OUT" "data: hello"
expect_line "$OUT" "extra: world"
expect_jq "$T/byo.json" '.kernels[0] | .status == "FAIL" and .exit_code == 7'
results=$(ls -d "$T"/vm/run.*/k1/results 2>/dev/null | head -n 1)
expect_content "${results:-$T/none}/byo.txt" "sent back"
rm -rf "$T"/vm/run.*
end_check

# ---- the runner hook: go test -exec ------------------------------------------

if ! command -v go >/dev/null 2>&1; then
	sh "$REPO/scripts/deps.sh" go >"$T/deps-go.log" 2>&1
fi
G=$T/kver
mkdir -p "$G"
printf 'module example.com/kver\n\ngo 1.19\n' >"$G/go.mod"
cat >"$G/kver_test.go" <<'EOF'
package kver

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var want = flag.String("want", "", "the kernel release's prefix")

func TestKernelRelease(t *testing.T) {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		t.Fatal(err)
	}
	got := strings.TrimSpace(string(b))
	if !strings.HasPrefix(got, *want) {
		t.Fatalf("kernel %s, want %s*", got, *want)
	}
	t.Logf("kernel %s", got)
}
EOF
gorun() {
	(cd "$G" && HOME=$T GOCACHE=$T/gocache GOPATH=$T/gopath GOPROXY=off \
		GOFLAGS=-count=1 VMTEST_KERNEL=6.12 run go test -v "$@" . -args -want 6.12.
	save go)
	use go
}

begin "go test on the host's kernel fails the 6.12 test (the negative control)"
gorun
expect_exit 1
expect_has "$OUT" "want 6.12.*"
end_check

begin "go test -exec vmtest/runner.sh passes it in a 6.12 guest"
gorun -exec "$RUNNER"
expect_exit 0
expect_match "$OUT" "kernel 6\.12\.[0-9]+"
expect_has "$OUT" "--- PASS: TestKernelRelease"
end_check

# ---- the example project, out of bpfcheck's tree ------------------------------

copy_example() {	# DEST
	mkdir -p "$1" && (cd "$REPO/examples/pktclass" && tar cf - --exclude=./build .) |
		(cd "$1" && tar xf -)
}
E=$T/pktclass
copy_example "$E"
copy_example "$T/base"
# The README's CI block, as it stands (no sudo here: we are root).
sed -n '/^<!-- ci-snippet -->$/,/^```$/p' "$E/README.md" | sed '1,2d;$d' >"$T/ci.sh"

begin "examples/pktclass: its README's CI block passes (host, 6.12, the gate)"
[ -s "$T/ci.sh" ] || bad "no CI block in examples/pktclass/README.md"
(cd "$E" && BPFCHECK=$REPO BASE_DIR=$T/base KERNELS=6.12 \
	run sh -ec 'sudo() { "$@"; }; . "$1"' ci "$T/ci.sh"
	save example)
use example
expect_exit 0
expect_line "$OUT" "Summary: 1/8 PASSED, 0 SKIPPED, 0 FAILED"
expect_match "$OUT" '^6\.12 +6\.12\.[0-9]+\+deb12-cloud-amd64 +PASS +1/0/0 '
expect_match "$OUT" '^  pktclass +PASS$'
expect_match "$OUT" 'metrics: 0 regressed'
end_check

begin "examples/pktclass: the gate flags the -DSLOW build of its program"
(cd "$E" && run make BPFCHECK="$REPO" slow
	[ "$RC" != 0 ] || run make BPFCHECK="$REPO" gate \
		BASE_OBJ=build/bpf/pktclass.bpf.o HEAD_OBJ=build/slow/bpf/pktclass.bpf.o
	save slow)
use slow
# make exits 2 for a failed recipe; gate.sh's own exit (1: regressed,
# not 2: bad input) is in make's message.
expect_exit 2
expect_has "$ERR" "gate] Error 1"
expect_match "$OUT" '^prog-cost/pktclass +test_run .* regressed$'
end_check

begin "building and running the project left bpfcheck's tree as it was"
expect_eq "git status" "$tree_before" "$(tree_state)"
end_check

echo "byo-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
