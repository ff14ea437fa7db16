#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages bpfcheck needs, only those that are missing.
# Usage: scripts/deps.sh [GROUP...]   (default: every group)
#
# Groups: base (build and test), bench (gnuplot for the bench sweep's plot),
# vm (vmtest), ci (the kselftest and workflow checks of "make check").
#
# Fast path: a single dpkg-query call; apt-get runs only when something is
# missing, so repeated runs cost well under a second.
set -eu

pkgs_base="make gcc libc6-dev clang llvm libbpf-dev libelf-dev zlib1g-dev \
bpftool pkg-config iproute2 jq libxml2-utils"
pkgs_bench="gnuplot-nox"
# vmtest: QEMU, the guest's busybox, initramfs tools, module decompression
# (.ko.xz, .ko.zst), objcopy for module dependencies, apt downloads.
pkgs_vm="qemu-system-x86 busybox-static cpio xz-utils zstd binutils file \
debian-archive-keyring"

# ci: rsync for the kernel's lib.mk install rule; yq (YAML to JSON, for jq)
# and python3-jsonschema to check .github/workflows against its schema.
pkgs_ci="rsync yq python3-jsonschema"

all_groups="base bench vm ci"

group_pkgs() {
	case "$1" in
	base) echo "$pkgs_base" ;;
	bench) echo "$pkgs_bench" ;;
	vm) echo "$pkgs_vm" ;;
	ci) echo "$pkgs_ci" ;;
	*) echo "deps: unknown group '$1' (known: $all_groups)" >&2; exit 2 ;;
	esac
}

groups=${*:-$all_groups}
want=""
for g in $groups; do
	want="$want $(group_pkgs "$g")"
done

# dpkg-query prints "install ok installed" for every fully installed package.
missing=""
for p in $want; do
	st=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	case "$st" in
	*"ok installed") ;;
	*) missing="$missing $p" ;;
	esac
done

if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi

echo "deps: installing:$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: need root to run: apt-get install$missing" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing
