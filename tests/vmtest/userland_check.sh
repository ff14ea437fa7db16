#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# The guest userland as a contract (vmtest/userland.conf): in a 6.12 guest,
# tests/vmtest/userland_probe.sh tries what BPF tests do with it (ip netns,
# tc clsact, readelf -n, pthread_exit through libgcc_s, ping, nft,
# iptables, ...) and every item must work.  A negative control builds the
# guest from a list without iproute2's ip and tc, readelf and libgcc_s:
# the probe must then report exactly those four missing, which shows the
# check fails when they go.
#
# Usage: [OUTPUT=build-dir] sh tests/vmtest/userland_check.sh
# Prints "ok N - ..." / "not ok N - ...", then
# "userland-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=userland
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

need userland "make" "$OUTPUT/test_progs"
VMTEST=$REPO/vmtest/vmtest.sh
export VMTEST_OUT="$T/vm"
PROBE=$HERE/userland_probe.sh
ITEMS="sh-not-busybox ip-netns tc-clsact readelf libgcc_s ping nft iptables
iptables-legacy ethtool nc sysctl taskset"
DROPPED="ip-netns tc-clsact readelf libgcc_s"

# A program whose main thread ends in pthread_exit(): glibc dlopens
# libgcc_s.so.1 for the unwinding, and aborts when it is not there.
cat >"$T/pthread_exit.c" <<'EOF'
#include <pthread.h>
#include <stdio.h>

static void *worker(void *arg)
{
	return arg;
}

int main(void)
{
	pthread_t t;

	if (pthread_create(&t, NULL, worker, NULL) || pthread_join(t, NULL))
		return 1;
	printf("pthread_exit: thread ended\n");
	fflush(stdout);
	pthread_exit(NULL);
}
EOF
gcc -O2 -pthread -o "$T/pthread_exit" "$T/pthread_exit.c" || {
	echo "userland: cannot build the pthread_exit probe"
	exit 1
}

# The probe's verdict for ITEM in FILE: ok, MISSING, or absent.
verdict() {	# FILE ITEM
	sed -n "s/^userland: $2 \([A-Za-z]*\).*/\1/p" "$1" | head -n 1
}

probe() {	# NAME [VMTEST_USERLAND]
	VMTEST_USERLAND=${2:-} run sh "$VMTEST" -k 6.12 --add "$T/pthread_exit" --add "$PROBE" \
		-- sh "$PROBE" "$T/pthread_exit"
	save "$1"
}

probe full
begin "every item of the guest userland works in 6.12"
use full
expect_exit 0
for i in $ITEMS; do
	v=$(verdict "$OUT" "$i")
	[ "$v" = ok ] || bad "$i: expected ok, got '${v:-no line}': $(grep "userland: $i " "$OUT")"
done
end_check

begin "the guest's /bpfcheck/userland.txt names each entry's package and version"
run sh "$VMTEST" -k 6.12 -- cat /bpfcheck/userland.txt
expect_exit 0
expect_match "$OUT" '^bin ip /usr/s?bin/ip iproute2 [0-9]'
expect_match "$OUT" '^bin readelf /usr/bin/readelf binutils [0-9]'
expect_match "$OUT" '^lib libgcc_s\.so\.1 /.*/libgcc_s\.so\.1 libgcc-s1 [0-9]'
expect_match "$OUT" '^bin sh /usr/bin/sh dash [0-9]'
end_check

# The negative control: the list without ip, tc, readelf and libgcc_s.
grep -v -e '^bin ip[[:space:]]' -e '^bin tc[[:space:]]' -e '^bin readelf' \
	-e '^lib libgcc_s' "$REPO/vmtest/userland.conf" >"$T/userland-less.conf"
probe less "$T/userland-less.conf"
begin "control: a guest without ip, tc, readelf and libgcc_s fails exactly those"
use less
for i in $ITEMS; do
	v=$(verdict "$OUT" "$i")
	case " $DROPPED " in
	*" $i "*) [ "$v" = MISSING ] || bad "$i: expected MISSING, got '${v:-no line}'" ;;
	*) [ "$v" = ok ] || bad "$i: expected ok, got '${v:-no line}'" ;;
	esac
done
end_check

for p in $(our_qemus); do
	kill -KILL "$p" 2>/dev/null
done
echo "userland-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
