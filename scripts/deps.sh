#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages bpfcheck needs, only those that are missing.
# Usage: scripts/deps.sh [GROUP...]   (default: every group)
#
# Groups: base (build and test), bench (gnuplot for the bench sweep's plot),
# vm (vmtest), ci (the kselftest and workflow checks of "make check"),
# lint (make lint); go (Debian's Go, for the check of vmtest/runner.sh
# as "go test -exec", installed by that check only: not in the default groups),
# reference (the kernel's test_progs, kernel-tests/reference.sh; likewise).
#
# Fast path: a single dpkg-query call; apt-get runs only when something is
# missing, so repeated runs cost well under a second.
set -eu

# base: clang (Debian's default) and the distribution's libbpf and bpftool
# serve LIBBPF=system; the default build adds the newest clang (below),
# and builds libbpf and bpftool from Debian's linux-source, fetched
# through vmtest's private apt state: xz-utils and the archive keyring
# for that, python3 for bpf_doc.py, libssl-dev for bpftool's signing,
# help2man for the man pages (make man), libsqlite3-dev for bench history.
# libc6-dev-i386: gnu/stubs-32.h, which the kernel's BPF programs reach
# through <string.h> and friends (clang -target bpf is not x86-64);
# iputils-ping and ethtool: the kernel's network tests send traffic with
# ping and set device offloads with ethtool.  llvm-dev: LLVM's C API
# (llvm-c/Disassembler.h and libLLVM.so) for RUN_TESTS()'s __jited().
pkgs_base="make gcc libc6-dev clang llvm llvm-dev libbpf-dev libelf-dev zlib1g-dev \
bpftool pkg-config iproute2 jq libxml2-utils python3 libssl-dev xz-utils help2man \
debian-archive-keyring libc6-dev-i386 iputils-ping ethtool libsqlite3-dev"
# The newest clang of these that apt offers (clang-22 is in
# bookworm-security, clang-19 in bookworm): the Makefile's default CLANG.
clang_choices="clang-22 clang-19"
pkgs_bench="gnuplot-nox"
# The guest's userland beyond busybox (vmtest/userland.conf says which
# program of each the tests run): copied from the host into the initramfs.
pkgs_guest="dash iproute2 iputils-ping ethtool binutils iptables nftables \
netcat-openbsd procps util-linux libgcc-s1"
# vmtest: QEMU, the guest's busybox, initramfs tools, module decompression
# (.ko.xz, .ko.zst), objcopy for module dependencies, apt downloads;
# pahole (dwarves) and lz4 for the BTF of the test modules built for the
# guests' kernels (scripts/kernel-btf.sh, scripts/testmod-build.sh).
pkgs_vm="qemu-system-x86 busybox-static cpio xz-utils zstd lz4 binutils file \
dwarves debian-archive-keyring $pkgs_guest"

# ci: rsync for the kernel's lib.mk install rule; yq (YAML to JSON, for jq)
# and python3-jsonschema to check .github/workflows against its schema;
# python3-junitparser reads the JUnit XML as consumers do.
pkgs_ci="rsync yq python3-jsonschema python3-junitparser"
pkgs_go="golang-go"
# reference: what the kernel's own selftests/bpf Makefile builds its
# test_progs with (kernel-tests/reference.sh: LLVM=-22, its linker and
# disassembler library, bpftool's zstd), installed by that script only.
pkgs_reference="llvm-22 llvm-22-dev lld-22 libzstd-dev"

# lint: perl (with its standard modules) runs the kernel's checkpatch.pl.
pkgs_lint="perl shellcheck"

all_groups="base bench vm ci lint"

group_pkgs() {
	case "$1" in
	base) echo "$pkgs_base" ;;
	bench) echo "$pkgs_bench" ;;
	vm) echo "$pkgs_vm" ;;
	ci) echo "$pkgs_ci" ;;
	go) echo "$pkgs_go" ;;
	reference) echo "$pkgs_reference" ;;
	lint) echo "$pkgs_lint" ;;
	*) echo "deps: unknown group '$1' (known: $all_groups go reference)" >&2; exit 2 ;;
	esac
}

installed() {	# PACKAGE
	# dpkg-query prints "install ok installed" for a fully installed package.
	case "$(dpkg-query -W -f='${Status}' "$1" 2>/dev/null || true)" in
	*"ok installed") return 0 ;;
	esac
	return 1
}

# One of clang_choices: nothing when one is installed, else the first apt
# has a candidate for (apt-cache runs only then).
newest_clang() {
	for c in $clang_choices; do
		installed "$c" && return 0
	done
	for c in $clang_choices; do
		case "$(apt-cache policy "$c" 2>/dev/null)" in
		*"Candidate: (none)"* | "") ;;
		*) echo "$c"; return 0 ;;
		esac
	done
	echo "deps: none of $clang_choices is in the apt sources; the build uses clang" >&2
}

groups=${*:-$all_groups}
want=""
for g in $groups; do
	want="$want $(group_pkgs "$g")"
	[ "$g" != base ] || want="$want $(newest_clang)"
done

# One dpkg-query for all; arch-qualified names ("libelf-dev:amd64") count.
# shellcheck disable=SC2086 # the package names are words
missing=$(dpkg-query -W -f='${binary:Package} ${Status}\n' $want 2>/dev/null |
	awk -v want="$want" '
	/ ok installed$/ { sub(/:.*/, "", $1); ok[$1] = 1 }
	END {
		n = split(want, w, " ")
		for (i = 1; i <= n; i++)
			if (!(w[i] in ok) && !(w[i] in seen)) {
				seen[w[i]] = 1
				printf " %s", w[i]
			}
	}')

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
