#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# shellcheck source-path=SCRIPTDIR
#
# vmtest's cache under faults: each must name its cause and the path, exit
# 1 (not 2: the input was right), and leave nothing the next run trusts.
#   - a full file system while the package lists are refreshed says "no
#     space left on device" with the path; with room again, the same
#     command passes;
#   - a package mirror that cannot be reached: lists that a complete update
#     left are used with a warning; lists without that mark are not;
#   - a damaged cached kernel image is noticed, fetched again, and boots.
# The cache lives on a tmpfs of its own (the build's cache copied in:
# package lists and the 6.1 kernel), so the host's file systems never fill.
#
# Usage: [OUTPUT=build-dir] sh tests/vmtest/faults_check.sh
# Prints "ok N - ..." / "not ok N - ...", then
# "vmtest-faults-checks: P passed, F failed".

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=faults
# shellcheck source=../lib.sh
. "$HERE/../lib.sh"

VMTEST=$REPO/vmtest/vmtest.sh
CACHE=${VMTEST_CACHE:-$REPO/vmtest/cache}
export VMTEST_OUT="$T/vm"
FS=$T/fs
C=$FS/cache

cleanup() {
	umount "$FS" 2>/dev/null
	rm -rf "$T"
}
trap cleanup EXIT

# The lists and the 6.1 kernel in the build's cache (a run fetches them).
sh "$VMTEST" -k 6.1 -- true >/dev/null 2>&1 || {
	echo "vmtest-faults: vmtest -k 6.1 does not run here; see make check-vmtest"
	exit 1
}
# 768 MiB: the lists, apt's binary caches made from them (70 MB each),
# the 6.1 kernel, and the 200 MiB an update asks to have free (512 MiB
# left 112 KiB too little once the lists had grown).
mkdir -p "$FS" && mount -t tmpfs -o size=768m bpfcheck-faults "$FS" || {
	echo "vmtest-faults: cannot mount a tmpfs on $FS (needs root)"
	exit 1
}
mkdir -p "$C/kernels" && cp -a "$CACHE/apt" "$CACHE/resolved" "$C/" &&
	cp -a "$CACHE"/kernels/6.1.* "$C/kernels/" || {
	echo "vmtest-faults: cannot copy $CACHE into the tmpfs"
	exit 1
}

vm61() {	# [ENV=VALUE...]: vmtest -k 6.1 -- true on the tmpfs cache
	run env VMTEST_CACHE="$C" "$@" sh "$VMTEST" -k 6.1 -- true
}

# Fill the file system up; "dd" stops at ENOSPC.
dd if=/dev/zero of="$FS/fill" bs=1M 2>/dev/null

begin "a full disk while the lists are refreshed: 'no space left on device', the path, exit 1"
vm61 VMTEST_APT_MAX_AGE=0
expect_exit 1
expect_nlines "$ERR" 1
expect_has "$ERR" "no space left on device"
expect_has "$ERR" "$C/apt"
expect_no "$ERR" "unknown kernel alias"
expect_no "$ERR" "booting"
end_check

rm -f "$FS/fill"
begin "with room again the same command refreshes the lists and passes"
vm61 VMTEST_APT_MAX_AGE=0
expect_exit 0
expect_has "$ERR" "package lists updated"
expect_match "$OUT" '^6\.1 .* PASS '
end_check

# A mirror that cannot be reached: every download goes to a closed port.
DOWN="http_proxy=http://127.0.0.1:9 https_proxy=http://127.0.0.1:9"

begin "an unreachable mirror: lists of a complete update are used, with a warning"
# shellcheck disable=SC2086 # the two variables
vm61 VMTEST_APT_MAX_AGE=0 $DOWN
expect_exit 0
expect_has "$ERR" "warning: apt-get update failed"
expect_has "$ERR" "using the package lists of "
end_check

begin "an unreachable mirror: lists no complete update marked are not trusted (exit 1)"
rm -f "$C/apt/lists/.updated"
# shellcheck disable=SC2086
vm61 VMTEST_APT_MAX_AGE=0 $DOWN
expect_exit 1
expect_has "$ERR" "cannot download the package lists"
expect_no "$ERR" "booting"
end_check

begin "a damaged cached kernel image is noticed, fetched again, and boots"
img=$(find "$C"/kernels/6.1.*/ -name 'vmlinuz-*' -type f | head -n 1)
if [ -z "$img" ]; then
	bad "no cached 6.1 image under $C/kernels"
else
	truncate -s 1M "$img"
	vm61
	expect_exit 0
	expect_has "$ERR" "is damaged (the image's SHA256 is not the one unpacked)"
	expect_has "$ERR" "$C/kernels/6.1."
	expect_match "$OUT" '^6\.1 .* PASS '
fi
end_check

echo "vmtest-faults-checks: $n_passed passed, $n_failed failed"
[ "$n_failed" -eq 0 ]
