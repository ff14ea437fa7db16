#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build an out-of-tree kernel module (a directory with a Kbuild file, such
# as test_kmods/bpfcheck_splat) for a Debian kernel, and print the path of
# each .ko it makes.
#
# Usage: scripts/kmod-build.sh KERNEL MODULE_DIR
#        scripts/kmod-build.sh --headers KERNEL
#   KERNEL: a Debian kernel alias, as vmtest takes it (6.1, 6.12, 7.2, ...).
#   --headers: only fetch the headers, and print their directory.
#
# The kernel's linux-headers-RELEASE, its -common headers and the
# linux-kbuild package they depend on come through vmtest's private apt
# state (checked against the signed index, never installed), unpacked and
# cached in $VMTEST_CACHE/kbuild/RELEASE_VERSION.  The module is built
# outside its source directory, in $OUTPUT/kmods/RELEASE/NAME (OUTPUT:
# build/), with "make -C HEADERS M=DIR modules" and the compiler the
# kernel was built with (its CONFIG_CC_VERSION_TEXT), which must be on
# this host: KMOD_CC=gcc-12 tries another one anyway.  KMOD_HEADERS=DIR
# builds against DIR instead, a copy of the headers a caller completed
# (scripts/testmod-build.sh), and KMOD_OUT=DIR builds in DIR.
# Exit: 0 built, 1 cannot be built (the cause on stderr), 2 bad usage.
set -eu
srcdir=$(cd "$(dirname "$0")/.." && pwd)
VT_SRCDIR=$srcdir
VT_CACHE=${VMTEST_CACHE:-$srcdir/vmtest/cache}
OUTPUT=${OUTPUT:-$srcdir/build}
# shellcheck source=../vmtest/lib.sh
. "$srcdir/vmtest/lib.sh"
# shellcheck source=../vmtest/kernel.sh
. "$srcdir/vmtest/kernel.sh"

log() {
	echo "kmod-build: $*" >&2
}

usage="usage: kmod-build.sh KERNEL MODULE_DIR (e.g. 6.12 test_kmods/bpfcheck_splat) | --headers KERNEL"
[ $# = 2 ] || vt_usage_die "$usage"
if [ "$1" = --headers ]; then
	kmod_src=
	shift
	set -- "$1" ""
else
	kmod_src=$2
	[ -f "$kmod_src/Kbuild" ] || [ -f "$kmod_src/Makefile" ] ||
		vt_usage_die "kmod-build: '$kmod_src' has no Kbuild or Makefile (a module's source directory)"
	kmod_src=$(cd "$kmod_src" && pwd)
fi

kernel_resolve "$1" ""
[ "$K_KIND" = deb ] ||
	vt_usage_die "kmod-build: '$1' is not a Debian kernel alias (build a module for a kernel tree with make -C TREE M=DIR)"
imgver=${K_PKGS%% *}
imgver=${imgver#*=}
kb=$VT_CACHE/kbuild/$(vt_slug "${K_RELEASE}_$imgver")
hdr=$kb/root/usr/src/linux-headers-$K_RELEASE

# The headers package and what it needs to build a module: its -common
# headers and linux-kbuild (the versions apt picks for its Depends).
fetch_headers() {
	kernel_apt_sources
	kernel_apt_update
	pkg=linux-headers-$K_RELEASE
	deps=$(kernel_apt_cache show "$pkg=$imgver" 2>/dev/null |
		sed -n 's/^Depends: //p' | head -n 1 | tr ',' '\n' |
		sed 's/^ *//; s/ .*//' | grep -E '^linux-(headers|kbuild)-') ||
		vt_die "no $pkg=$imgver (or no linux-headers/linux-kbuild in its Depends) in $KAPT_SUITES"
	rm -rf "$kb.tmp"
	mkdir -p "$kb.tmp/root"
	for p in "$pkg=$imgver" $deps; do
		deb=$(kernel_deb_download "$p")
		dpkg-deb -x "$deb" "$kb.tmp/root" || vt_write_die "$kb.tmp" "unpacking $deb"
		echo "$(dpkg-deb -f "$deb" Package) $(dpkg-deb -f "$deb" Version)" >>"$kb.tmp/packages"
		rm -f "$deb"
	done
	# Debian's headers name the -common tree and linux-kbuild by their
	# absolute paths under /usr: point them into this copy.
	find "$kb.tmp/root" -type l | while read -r l; do
		t=$(readlink "$l")
		case "$t" in /usr/*) ln -sfn "$kb/root$t" "$l" ;; esac
	done
	grep -rlF /usr/src/ "$kb.tmp/root/usr/src" --include=Makefile |
		while read -r f; do
			sed -i "s|/usr/src/|$kb/root/usr/src/|g" "$f"
		done
	touch "$kb.tmp/.complete"
	rm -rf "$kb"
	mv "$kb.tmp" "$kb"
}

if [ ! -f "$kb/.complete" ]; then
	# One fetch at a time: parallel callers would share $kb.tmp.
	vt_cache_lock 1800
fi
# (Another caller may have fetched them while this one waited.)
if [ ! -f "$kb/.complete" ]; then
	t0=$(vt_now)
	fetch_headers
	log "$K_RELEASE: headers $(awk '{ print $1 }' "$kb/packages" | tr '\n' ' ')in $(vt_elapsed "$t0") s"
fi
[ -f "$hdr/.config" ] || vt_die "$hdr has no .config"
if [ -z "$kmod_src" ]; then
	echo "$hdr"
	exit 0
fi
hdr=${KMOD_HEADERS:-$hdr}

# The compiler the kernel was built with: the first word of its version text.
cctext=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$hdr/.config")
cc=${KMOD_CC:-${cctext%% *}}
why=
command -v "$cc" >/dev/null 2>&1 ||
	why="$K_RELEASE was built with $cctext; this host has no $cc ($(gcc --version | head -n 1))"
# linux-kbuild's programs are built for the kernel's suite: objtool, which
# runs on every object, may need a newer C library than this host's.
objtool=$hdr/tools/objtool/objtool
if [ -x "$objtool" ]; then
	lib=$(SRCARCH=x86 "$objtool" --help 2>&1 | grep -o "version .GLIBC_[0-9.]*. not found" | head -n 1)
	[ -z "$lib" ] || why="${why:+$why; }its objtool: $lib (this host: glibc $(ldd --version | sed -n '1s/.* //p'))"
fi
[ -z "$why" ] || [ -n "${KMOD_CC:-}" ] || vt_die "$why; KMOD_CC=gcc tries anyway"

name=$(basename "$kmod_src")
out=${KMOD_OUT:-$OUTPUT/kmods/$K_RELEASE/$name}
rm -rf "$out"
mkdir -p "$out"
# Only the sources: the build's objects stay out of the source tree.
(cd "$kmod_src" && find . -maxdepth 1 -type f \( -name '*.c' -o -name '*.h' \
	-o -name Kbuild -o -name Makefile \) -exec cp {} "$out/" \;)
# The module's BTF (based on the headers' vmlinux, which 6.12 and 7.2
# ship) needs pahole (Debian's dwarves): without it, a module without BTF
# rather than none at all.
nobtf=
command -v pahole >/dev/null 2>&1 || nobtf=CONFIG_DEBUG_INFO_BTF_MODULES=
# shellcheck disable=SC2086 # nobtf: no word or one
if ! make -C "$hdr" M="$out" CC="$cc" $nobtf modules >"$out/build.log" 2>&1; then
	grep -E 'error|Error|not found' "$out/build.log" | head -n 5 >&2
	vt_die "cannot build $name for $K_RELEASE with $cc (see $out/build.log)"
fi
grep -i 'warning:' "$out/build.log" | head -n 3 | sed 's/^/kmod-build: /' >&2
find "$out" -maxdepth 1 -name '*.ko' | sort
