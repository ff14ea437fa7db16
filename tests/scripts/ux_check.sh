#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# What people expect of a tool: signals stop it cleanly, --version, bash
# completion, progress lines.  Prints "ok N - what" / "not ok N - what"
# and ends with "ux-checks: P passed, F failed".
# UX_VMTEST=0 leaves out the checks that boot a guest.
set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=ux
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

TP=$OUTPUT/test_progs
BENCH=${BENCH:-$OUTPUT/bench}
VMTEST=$REPO/vmtest/vmtest.sh
need ux-checks "make" "$TP" "$BENCH"

# ---- --version -------------------------------------------------------------

VERSION=$(sh "$REPO/scripts/version.sh")
# The VERSION file, then the commit of the build (which may be older than
# the checkout's when a binary was not rebuilt since).
VERSION_RE="$(sed 's/\./\\./g' "$REPO/VERSION")( \\(git [0-9a-f]+(-dirty)?\\))?"
CLANG_VERSION=$(sed -n 's/^#define BUILD_CLANG_VERSION "\(.*\)"$/\1/p' \
	"$OUTPUT/gen/build_info.h")

# version_check NAME CMD...: exit 0, nothing on stderr, the project's
# version and the build's libbpf and clang.
version_check() {
	name=$1
	shift
	begin "$name --version: the version, libbpf and clang $CLANG_VERSION"
	run "$@" --version
	expect_exit 0
	expect_empty "$ERR"
	expect_match "$OUT" "^$name \\(bpfcheck\\) $VERSION_RE\$"
	expect_match "$OUT" "built with libbpf v[0-9]+\.[0-9]+ .*, clang $CLANG_VERSION\$"
	end_check
}
version_check test_progs "$TP"
version_check bench "$BENCH"
version_check vmtest.sh sh "$VMTEST"

begin "version.sh: VERSION and the git commit; a C header only rewritten on change"
run sh "$REPO/scripts/version.sh"
expect_exit 0
expect_match "$OUT" "^$VERSION_RE\$"
sh "$REPO/scripts/version.sh" -h "$T/v.h"
touch -d @1 "$T/v.h"
sh "$REPO/scripts/version.sh" -h "$T/v.h"
expect_has "$T/v.h" "#define BPFCHECK_VERSION \"$VERSION\""
[ "$(stat -c %Y "$T/v.h")" = 1 ] || bad "an unchanged version.h was rewritten"
end_check

# ---- man pages, make install PREFIX= DESTDIR= -----------------------------

begin "make man: a page per tool from its --help, rendered by man -l without warnings"
run make -s -C "$REPO" man OUTPUT="$OUTPUT"
expect_exit 0
for p in test_progs bench vmtest.sh; do
	page=$OUTPUT/man/$p.1
	if [ ! -s "$page" ]; then
		bad "no $page"
		continue
	fi
	MANWIDTH=80 man --warnings -l "$page" >"$T/$p.txt" 2>"$T/$p.err" ||
		bad "man -l $page failed"
	[ -s "$T/$p.err" ] && bad "man -l $p.1: $(head -n 1 "$T/$p.err")"
	grep -q "^ *$p - " "$T/$p.txt" || bad "$p.1 has no NAME line"
	grep -q -- "--version" "$T/$p.txt" || bad "$p.1 does not document --version"
	grep -q -- "--json" "$T/$p.txt" || bad "$p.1 does not document --json"
done
end_check

begin "make install PREFIX=/usr DESTDIR=dir: tools, man pages, completion"
run make -s -C "$REPO" install PREFIX=/usr DESTDIR="$T/dest" OUTPUT="$OUTPUT"
expect_exit 0
for f in bin/test_progs bin/bench share/man/man1/test_progs.1 \
	share/man/man1/bench.1 share/bash-completion/completions/test_progs \
	share/bash-completion/completions/bench; do
	[ -s "$T/dest/usr/$f" ] || bad "not installed: /usr/$f"
done
"$T/dest/usr/bin/test_progs" --version >"$T/iv" 2>&1 ||
	bad "the installed test_progs --version failed"
expect_match "$T/iv" "^test_progs \\(bpfcheck\\) "
bash -c '. "$1"; complete -p test_progs' - \
	"$T/dest/usr/share/bash-completion/completions/test_progs" >/dev/null 2>&1 ||
	bad "the installed completion does not register test_progs"
end_check

# ---- a full disk is ENOSPC --------------------------------------------------

# enospc_case WHAT CMD...: with stdout to $FULL_OUT (a file on the full
# tmpfs or /dev/full): a non-zero exit naming ENOSPC, not "Input/output
# error", and no temporary file left on the full file system.
enospc_case() {
	begin "full disk: $1: 'No space left on device', non-zero exit"
	shift
	CMD=$*
	"$@" </dev/null >"$FULL_OUT" 2>"$ERR"
	RC=$?
	[ "$RC" != 0 ] || bad "exit 0 with the output lost"
	expect_has "$ERR" "No space left on device"
	expect_no "$ERR" "Input/output error"
	[ -z "$(find "$FULL" -name '*.tmp*')" ] ||
		bad "left behind: $(find "$FULL" -name '*.tmp*' | tr '\n' ' ')"
	end_check
}

FULL=$T/full
mkdir -p "$FULL"
trap 'umount "$FULL" 2>/dev/null; rm -rf "$T"' EXIT
if mount -t tmpfs -o size=8k tmpfs "$FULL" 2>"$T/mount.err"; then
	dd if=/dev/zero of="$FULL/fill" bs=1k count=64 2>/dev/null
	FULL_OUT=/dev/null
	enospc_case "test_progs -J on a full file system" "$TP" -t isa_versions \
		-J "$FULL/r.json"
	enospc_case "bench --json on a full file system" "$BENCH" -q -w 0 -d 1 \
		--json "$FULL/b.json" trig-syscall
	FULL_OUT=$FULL/out.txt
	enospc_case "test_progs --ktap >file on a full file system" "$TP" \
		-t isa_versions --ktap
	FULL_OUT=/dev/full
	enospc_case "test_progs >/dev/full" "$TP" -t isa_versions
	enospc_case "bench >/dev/full" "$BENCH" -q -w 0 -d 1 trig-syscall
	umount "$FULL"
else
	begin "full disk: a small tmpfs to fill"
	bad "cannot mount a tmpfs: $(cat "$T/mount.err")"
	end_check
fi

# ---- bash completion ---------------------------------------------------------

# complete FILE FUNCTION WORD...: what the completion function offers for
# the last WORD (the line typed so far), one per line, sorted.
complete_words() {
	bash -c '. "$1"; f=$2; shift 2; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		"$f"; printf "%s\n" "${COMPREPLY[@]}"' - "$@" | sed '/^$/d' | sort
}

# expect_offers WHAT EXPECTED-FILE FILE FUNCTION WORD...
expect_offers() {
	what=$1 want=$2
	shift 2
	begin "completion: $what"
	CMD=$*
	complete_words "$@" >"$OUT"
	sort "$want" >"$T/want"
	[ -s "$T/want" ] || bad "nothing to expect (empty list of names)"
	cmp -s "$T/want" "$OUT" || bad "offered: $(tr '\n' ' ' <"$OUT")" \
		"expected: $(tr '\n' ' ' <"$T/want")"
	end_check
}

C=$REPO/completion
"$TP" --list=detail | grep '^fizz' >"$T/fizz"
expect_offers "test_progs -t fizz: fizzbuzz and its subtests (--list=detail)" \
	"$T/fizz" "$C/test_progs.bash" _bpfcheck_test_progs "$TP" -t fizz
"$TP" --list=detail | grep '^fizzbuzz/o' | sed 's/^/bloom_filter,/' >"$T/list"
expect_offers "test_progs -a bloom_filter,fizzbuzz/o: the last entry of a list" \
	"$T/list" "$C/test_progs.bash" _bpfcheck_test_progs "$TP" -a bloom_filter,fizzbuzz/o
echo --version >"$T/ver"
expect_offers "test_progs --vers: --version" "$T/ver" "$C/test_progs.bash" \
	_bpfcheck_test_progs "$TP" --vers
"$BENCH" -l | awk '$1 ~ /^prog-cost-/ { print $1 }' >"$T/pc"
expect_offers "bench prog-cost-: the prog-cost benchmarks (bench -l)" "$T/pc" \
	"$C/bench.bash" _bpfcheck_bench "$BENCH" prog-cost-
{ "$BENCH" -l | awk '{ print $1 }'; echo compare; echo sweep-table; } >"$T/all"
expect_offers "bench <TAB>: every benchmark, compare and sweep-table" "$T/all" \
	"$C/bench.bash" _bpfcheck_bench "$BENCH" ""
printf '%s\n' update >"$T/op"
expect_offers "bench --op u: update" "$T/op" "$C/bench.bash" _bpfcheck_bench \
	"$BENCH" prog-cost-map-batch --op u

# ---- Ctrl-C during a prog-cost benchmark ----------------------------------

# Most of a prog-cost second is spent inside BPF_PROG_TEST_RUN with a
# large repeat, which a signal interrupts with EINTR: six interrupts at
# different points of the run, each a clean stop (before the fix, 4 of 5
# such runs exited 1 with "BPF_PROG_TEST_RUN on input N: EINTR").
begin "Ctrl-C during prog-cost-fizzbuzz: exit 130, no EINTR error, 6 of 6"
for ms in 1100 1250 1400 1550 1700 1850; do
	CMD="bench -q -w 0 -d 30 prog-cost-fizzbuzz (SIGINT after $ms ms)"
	"$BENCH" -q -w 0 -d 30 prog-cost-fizzbuzz >"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	sleep "$(echo "$ms" | awk '{ print $1 / 1000 }')"
	kill -INT "$pid"
	wait "$pid"
	RC=$?
	[ "$RC" = 130 ] || bad "SIGINT after $ms ms: exit $RC, expected 130"
	expect_no "$ERR" "EINTR"
	expect_no "$ERR" "BPF_PROG_TEST_RUN"
done
end_check

# ---- downloads say what and how much first ------------------------------

# A small package (jq) through the path kernels and linux-source take,
# into a scratch cache that shares the package lists of the real one.
begin "download: 'downloading jq (N MiB) from HOST' first, the size right"
CACHE=${VMTEST_CACHE:-$REPO/vmtest/cache}
mkdir -p "$T/cache/debs"
if [ -d "$CACHE/apt/lists" ]; then
	ln -s "$CACHE/apt" "$T/cache/apt"
	CMD="kernel_deb_download jq (VT_CACHE=\$T/cache)"
	VT_SRCDIR=$REPO VT_CACHE=$T/cache VMTEST_APT_MAX_AGE=525600 sh -c '
		. "$VT_SRCDIR/vmtest/lib.sh"; . "$VT_SRCDIR/vmtest/kernel.sh"
		kernel_apt_sources; kernel_apt_update; kernel_deb_download jq' \
		>"$OUT" 2>"$ERR" </dev/null
	RC=$?
	expect_exit 0
	deb=$(cat "$OUT")
	if [ -f "$deb" ]; then
		mib=$(awk -v b="$(wc -c <"$deb")" 'BEGIN { printf "%.1f", b / 1048576 }')
		expect_match "$ERR" "^vmtest: downloading jq \\($mib MiB\\) from [a-z0-9.-]+\$"
		expect_before "$ERR" "downloading jq" "downloaded $mib MiB in"
	else
		bad "no .deb downloaded (printed: $deb)"
	fi
else
	bad "no package lists in $CACHE/apt (make all fetches them)"
fi
end_check

# ---- the bench sweep: progress and its plot -------------------------------

SW=$T/sweep
begin "sweep: 'run N of M, ~T left' for each of its 6 runs"
run env BENCH="$BENCH" sh "$REPO/bench/run_ringbuf_vs_queue.sh" -o "$SW" -w 0 -d 2 \
	-p 1 -b "1 500" -V "rb-libbpf queue-pop" -g 0
expect_exit 0
expect_count "$ERR" ' run [1-6] of 6, ~[0-9hms]+ left$' 6
expect_has "$ERR" " run 6 of 6, ~"
expect_has "$ERR" "6 runs of -w 0 -d 2 each"
end_check

begin "sweep plot: SVG and PNG beside it, drops, error bars, legend in words"
png=$SW/ringbuf_vs_queue.png
svg=$SW/ringbuf_vs_queue.svg
if [ -s "$png" ]; then
	# The PNG signature, then the IHDR chunk: width and height.
	python3 - "$png" >"$T/png" 2>&1 <<'PY'
import struct, sys
d = open(sys.argv[1], 'rb').read(33)
assert d[:8] == b'\x89PNG\r\n\x1a\n', 'no PNG signature'
assert d[12:16] == b'IHDR', 'no IHDR chunk first'
w, h = struct.unpack('>II', d[16:24])
print(w, h)
PY
	read -r w h <"$T/png" || w=
	case "$w" in
	"" | *[!0-9]*) bad "not a PNG: $(head -n 1 "$T/png")" ;;
	*) if [ "$w" -lt 800 ] || [ "$w" -gt 4000 ] || [ "$h" -lt 500 ] ||
		[ "$h" -gt 4000 ]; then
		bad "PNG of ${w}x$h"
	   fi ;;
	esac
else
	bad "no $png"
fi
[ -s "$svg" ] || bad "no $svg"
expect_has "$svg" "records dropped, %"
expect_has "$svg" "ring buffer, libbpf consumer: every record wakes the consumer, batch 500"
expect_has "$svg" "queue map, one pop per syscall: every record wakes the consumer, batch 1"
expect_has "$SW/plot.gp" "yerrorlines"
# Every data line's colour stands out on white: a contrast ratio of at
# least 3, WCAG's for graphical objects (the grid is light on purpose).
grep ' index ' "$SW/plot.gp" | grep -o "lc rgb '#[0-9A-Fa-f]*'" | sort -u | sed "s/.*#//; s/'//" |
	while read -r c; do
		python3 -c '
import sys
c = sys.argv[1]
l = [int(c[i:i + 2], 16) / 255 for i in (0, 2, 4)]
l = [x / 12.92 if x <= 0.03928 else ((x + 0.055) / 1.055) ** 2.4 for x in l]
y = 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2]
sys.exit(0 if 1.05 / (y + 0.05) >= 3 else 1)' "$c" || echo "#$c"
	done >"$T/low"
[ -s "$T/low" ] && bad "low-contrast line colours: $(tr '\n' ' ' <"$T/low")"
end_check

# ---- SIGTERM to vmtest.sh alone, while a guest boots ---------------------

# term_check DELAY: vmtest on 6.12, SIGTERM to its pid DELAY seconds after
# its QEMU appears; within 8 s it must be gone, with QEMU, the guest
# job's subshells and its work directory.
term_check() {
	begin "SIGTERM to vmtest.sh ${1} s into the boot: QEMU, jobs, work dir gone in 8 s"
	CMD="VMTEST_OUT=\$T/vm vmtest.sh -k 6.12 --accel tcg -- sleep 300"
	VMTEST_OUT=$T/vm sh "$VMTEST" -k 6.12 --accel tcg -- sleep 300 \
		>"$OUT" 2>"$ERR" </dev/null &
	pid=$!
	wait_our_qemu
	sleep "$1"
	kids=$(ps -o pid= --ppid "$pid" | tr '\n' ' ')
	kill -TERM "$pid"
	wait_gone "$pid" 8 || bad "vmtest still runs 8 s after SIGTERM"
	left=$(our_qemus)
	[ -z "$left" ] || bad "QEMU left behind: pids $left"
	for k in $kids; do
		if kill -0 "$k" 2>/dev/null; then
			bad "vmtest's child $k left behind: $(ps -o args= -p "$k")"
		fi
	done
	for d in "$T"/vm/run.*; do
		[ -e "$d" ] && bad "work directory left behind: $d"
	done
	# shellcheck disable=SC2086 # pids, one word each
	kill -KILL "$pid" $left 2>/dev/null
	wait "$pid"
	RC=$?
	expect_exit 130
	expect_has "$ERR" "interrupted"
	end_check
}

if [ "${UX_VMTEST:-1}" = 1 ]; then
	term_check 0
	term_check 2
fi

echo "ux-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
