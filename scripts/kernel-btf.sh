#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The BTF of a Debian kernel's vmlinux (what the kernel shows as
# /sys/kernel/btf/vmlinux), as a raw BTF file, without booting it: the
# base of a module's split BTF (pahole --btf_base, resolve_btfids -b) and
# the source of a vmlinux.h (bpftool btf dump file FILE format c).
# Prints the path of the cached file, $VMTEST_CACHE/btf/KEY.btf (KEY: the
# kernel's release and package version, as in $VMTEST_CACHE/kernels).
#
# Usage: scripts/kernel-btf.sh KERNEL
#   KERNEL: a Debian kernel alias, as vmtest takes it (6.1, 6.12, 7.2, ...).
#
# The kernel comes through vmtest's cache (vmtest/kernel.sh: fetched and
# checked as vmtest does).  x86's bzImage carries vmlinux as an ELF file
# (stripped of symbols, not of .BTF) compressed with gzip, zstd, xz, lzma
# or lz4: the first stream that decompresses to an ELF file with a .BTF
# section gives it (the way the kernel's scripts/extract-vmlinux looks).
# Exit: 0, 1 when there is no BTF to take, 2 bad usage.
set -eu
srcdir=$(cd "$(dirname "$0")/.." && pwd)
VT_SRCDIR=$srcdir
VT_CACHE=${VMTEST_CACHE:-$srcdir/vmtest/cache}
# shellcheck source=../vmtest/lib.sh
. "$srcdir/vmtest/lib.sh"
# shellcheck source=../vmtest/kernel.sh
. "$srcdir/vmtest/kernel.sh"

[ $# = 1 ] || vt_usage_die "usage: kernel-btf.sh KERNEL (a Debian kernel alias, e.g. 6.12)"
kernel_resolve "$1" ""
[ "$K_KIND" = deb ] ||
	vt_usage_die "kernel-btf.sh: '$1' is not a Debian kernel alias (a build tree's vmlinux has its .BTF: objcopy --dump-section .BTF=FILE vmlinux)"
btf=$VT_CACHE/btf/$K_KEY.btf
if [ -s "$btf" ]; then
	echo "$btf"
	exit 0
fi
if [ -z "$K_IMAGE" ]; then
	# vmtest's lock: a guest may be fetching the same kernel.
	vt_cache_lock 1800
	kernel_fetch_list >"$KAPT/btf-fetch.list"
	kernel_fetch "$KAPT/btf-fetch.list"
	kernel_load_cached
fi

# Offsets of the compressed streams' magic numbers, and how to read each.
magics="gzip:1f8b08 zstd:28b52ffd xz:fd377a585a00 lzma:5d000000 lz4:02214c18"
t0=$(vt_now)
# Its own scratch: callers in parallel (make check's lanes) may read the same kernel.
tmp=$VT_CACHE/btf/$K_KEY.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp" || vt_write_die "$tmp"
for m in $magics; do
	tool=${m%%:*}
	pat=$(echo "${m#*:}" | sed 's/../\\x&/g')
	command -v "$tool" >/dev/null 2>&1 || continue
	for off in $(LC_ALL=C grep -obUaP "$pat" "$K_IMAGE" | cut -d: -f1 | head -n 4); do
		tail -c +$((off + 1)) "$K_IMAGE" | "$tool" -dc >"$tmp/vmlinux" 2>/dev/null || true
		[ "$(head -c 4 "$tmp/vmlinux" | od -An -tx1 | tr -d ' ')" = 7f454c46 ] || continue
		objcopy --dump-section .BTF="$tmp/btf" "$tmp/vmlinux" "$tmp/elf" 2>/dev/null ||
			continue
		found="$tool stream at byte $off"
		break 2
	done
done
if [ -z "${found:-}" ]; then
	rm -rf "$tmp"
	vt_die "$K_IMAGE: no compressed vmlinux with a .BTF section ($K_RELEASE built without CONFIG_DEBUG_INFO_BTF?)"
fi
mv "$tmp/btf" "$btf" || vt_write_die "$btf"
rm -rf "$tmp"
echo "kernel-btf: $K_RELEASE: $(($(wc -c <"$btf") / 1024)) KiB of BTF from the $found of $(basename "$K_IMAGE") in $(vt_elapsed "$t0") s" >&2
echo "$btf"
