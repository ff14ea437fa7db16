#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build a kernel series' BPF test modules (bpf_testmod.ko and, in 7.x,
# the rest of tools/testing/selftests/bpf/test_kmods) for a Debian kernel,
# with their BTF and resolved BTF ids, as the kernel's test_progs loads
# them; print the path of each .ko.
#
# Usage: scripts/testmod-build.sh KERNEL [SERIES]
#   KERNEL: a Debian kernel alias, as vmtest takes it (6.1, 6.12, 7.2, ...).
#   SERIES: the linux-source series whose modules to build (default: the
#   kernel's own, 6.1 for 6.1.0-57, 6.12 for 6.12.117, ...).
#
# The sources come from scripts/linux-source.sh -b SERIES, the headers
# from scripts/kmod-build.sh, the kernel's BTF (the base of the modules'
# split BTF) from scripts/kernel-btf.sh.  Kbuild writes a module's BTF
# only when its objtree has a vmlinux, and runs the objtree's objtool and
# resolve_btfids: the build uses a copy of the headers
# ($VMTEST_CACHE/testmod/KEY/headers) that has the kernel's BTF as
# vmlinux, and, where the kernel's linux-kbuild has none or they cannot
# run here (built for a newer C library), objtool and resolve_btfids built
# from the kernel's own series (linux-source.sh -t), cached in
# $VMTEST_CACHE/testmod/tools/TREE.  Where this host lacks the compiler
# the kernel was built with, gcc builds it, without the options only the
# newer compiler knows (their CONFIG_CC_HAS_* unset in the copy).
# The modules are cached in $VMTEST_CACHE/testmod/KEY/TREE (KEY: the
# kernel's release and package version, TREE: the series' package and
# version); a build that fails is cached as such, its cause printed once
# per run (remove the directory to try again).
# Exit: 0 built, 1 cannot be built (the cause on stderr, one line), 2 bad usage.
set -eu
srcdir=$(cd "$(dirname "$0")/.." && pwd)
VT_SRCDIR=$srcdir
VT_CACHE=${VMTEST_CACHE:-$srcdir/vmtest/cache}
export VMTEST_CACHE="$VT_CACHE"
# shellcheck source=../vmtest/lib.sh
. "$srcdir/vmtest/lib.sh"
# shellcheck source=../vmtest/kernel.sh
. "$srcdir/vmtest/kernel.sh"

log() {
	echo "testmod-build: $*" >&2
}

[ $# = 1 ] || [ $# = 2 ] ||
	vt_usage_die "usage: testmod-build.sh KERNEL [SERIES] (e.g. 6.12, or 6.12 7.2)"
case "${2:-6.1}" in
*[!0-9.]* | .* | *. | *..*) vt_usage_die "testmod-build: bad SERIES '$2' (expected e.g. 6.1, 6.12, 7.2)" ;;
esac
kernel_resolve "$1" ""
[ "$K_KIND" = deb ] ||
	vt_usage_die "testmod-build: '$1' is not a Debian kernel alias (e.g. 6.1, 6.12, 7.2)"
own=$(echo "$K_RELEASE" | sed -n 's/^\([0-9]*\.[0-9]*\).*/\1/p')
series=${2:-$own}
top=$VT_CACHE/testmod

# ---- the series' module sources ------------------------------------------

bpf=$(sh "$srcdir/scripts/linux-source.sh" -b "$series") || exit 1
tree=$(basename "$bpf")
src=$bpf/tools/testing/selftests/bpf/test_kmods
[ -d "$src" ] || src=$bpf/tools/testing/selftests/bpf/bpf_testmod
[ -f "$src/bpf_testmod.c" ] || vt_die "$tree has no test_kmods/ or bpf_testmod/ with bpf_testmod.c"
out=$top/$K_KEY/$tree

list_kos() {
	find "$out" -maxdepth 1 -name '*.ko' | sort
}

cached() {
	if [ -f "$out/.complete" ]; then
		list_kos
		exit 0
	fi
	[ ! -f "$out/.failed" ] || vt_die "$(cat "$out/.failed")"
}
cached
# One build per kernel at a time (they share the headers' copy); the
# one that waited may find the modules made.
mkdir -p "$top/$K_KEY" || vt_write_die "$top/$K_KEY"
exec 8>"$top/$K_KEY/.lock"
flock -w 900 8 || vt_die "$top/$K_KEY stays locked by another testmod-build"
cached

# ---- what the build runs ----------------------------------------------------

t0=$(vt_now)
hdr=$(sh "$srcdir/scripts/kmod-build.sh" --headers "$1") || exit 1
btf=$(sh "$srcdir/scripts/kernel-btf.sh" "$1") || exit 1

# A program of linux-kbuild runs here unless the loader says why not
# (Debian's objtool is a wrapper that runs objtool.real-$SRCARCH).
runs() {	# PROGRAM
	[ -x "$1" ] || return 1
	! SRCARCH=x86 "$1" --help 2>&1 | grep -q 'GLIBC_[0-9.]*. not found'
}

# modpost, from the series' scripts/mod, for x86-64: its ELF constants
# and the kernel's device table layout (devicetable-offsets.h, from the
# headers, the way Kbuild makes it).
build_modpost() {	# TREE DIR
	sm=$1/scripts/mod
	common=$(sed -n 's|^include \(.*\)/Makefile$|\1|p' "$hdr/Makefile")
	gcc -o "$2/mk_elfconfig" "$sm/mk_elfconfig.c" &&
		gcc -c -o "$2/empty.o" "$sm/empty.c" &&
		"$2/mk_elfconfig" <"$2/empty.o" >"$2/elfconfig.h" || return 1
	inc=
	for d in "$common/arch/x86/include" "$hdr/arch/x86/include/generated" \
		"$common/include" "$hdr/include" "$common/arch/x86/include/uapi" \
		"$hdr/arch/x86/include/generated/uapi" "$common/include/uapi" \
		"$hdr/include/generated/uapi"; do
		inc="$inc -I$d"
	done
	# shellcheck disable=SC2086 # inc: words
	gcc -S -nostdinc $inc -include "$common/include/linux/kconfig.h" -D__KERNEL__ \
		-O2 -o "$2/devicetable-offsets.s" "$sm/devicetable-offsets.c" || return 1
	{
		printf '#ifndef __DEVICETABLE_OFFSETS_H__\n#define __DEVICETABLE_OFFSETS_H__\n'
		sed -ne 's:^[[:space:]]*\.ascii[[:space:]]*"\(.*\)".*:\1:
			/^->/{s:->#\(.*\):/* \1 */:
			s:^->\([^ ]*\) [$#]*\([^ ]*\) \(.*\):#define \1 \2 /* \3 */:
			s:->::; p;}' "$2/devicetable-offsets.s"
		printf '#endif\n'
	} >"$2/devicetable-offsets.h"
	gcc -O2 -I"$2" -I"$1/scripts/include" -o "$2/modpost" "$sm/modpost.c" \
		"$sm/file2alias.c" "$sm/sumversion.c" "$sm/symsearch.c"
}

# TOOL (objtool or resolve_btfids) built from the kernel's own series.
host_tool() {	# TOOL
	tt=$(sh "$srcdir/scripts/linux-source.sh" -t "$own") || exit 1
	bin=$top/tools/$(basename "$tt")/$1
	if [ ! -x "$bin" ]; then
		# objtool's libsubcmd wants O=, which resolve_btfids' Makefile
		# of 6.1 does not take.
		case $1 in
		objtool) dir=tools/objtool var=O ;;
		*) dir=tools/bpf/resolve_btfids var=OUTPUT ;;
		esac
		b=$top/tools/$(basename "$tt")/$1.build
		rm -rf "$b"
		mkdir -p "$b" || vt_write_die "$b"
		if [ "$1" = modpost ]; then
			build_modpost "$tt" "$b" >"$b.log" 2>&1
		else
			make -C "$tt/$dir" "$var=$b/" -j "$(vt_nproc)" >"$b.log" 2>&1
		fi || {
			grep -E 'error|Error' "$b.log" | head -n 3 >&2
			vt_die "cannot build $1 from $(basename "$tt") (see $b.log)"
		}
		mv "$b/$1" "$bin" || vt_write_die "$bin"
		rm -rf "$b"
		log "$1 built from $(basename "$tt")"
	fi
	echo "$bin"
}

# ---- the headers' copy -----------------------------------------------------

# The kernel's compiler, else gcc: the options only the kernel's compiler
# knows, unset.
cctext=$(sed -n 's/^CONFIG_CC_VERSION_TEXT="\(.*\)"$/\1/p' "$hdr/.config")
cc=${KMOD_CC:-${cctext%% *}}
command -v "$cc" >/dev/null 2>&1 || cc=gcc
# Options of the kernel's .config that add a flag to every compile, and
# the flag: those set where $cc rejects the flag.
CC_FLAG_OPTS="CONFIG_CC_HAS_MIN_FUNCTION_ALIGNMENT:-fmin-function-alignment=16"
newer_cc_only() {	# AUTO_CONF
	for of in $CC_FLAG_OPTS; do
		grep -q "^${of%%:*}=y" "$1" || continue
		echo 'int f(void) { return 0; }' |
			"$cc" "${of#*:}" -x c -c -o /dev/null - 2>/dev/null || echo "${of%%:*}"
	done
}

copy=$top/$K_KEY/headers
make_copy() {
	rm -rf "$copy.tmp"
	mkdir -p "$copy.tmp" || vt_write_die "$copy.tmp"
	cp -a "$hdr/." "$copy.tmp/" || vt_write_die "$copy.tmp"
	# Links relative to the headers' place point there again.
	find "$copy.tmp" -type l | while read -r l; do
		case "$(readlink "$l")" in
		/*) ;;
		*) ln -sfn "$(readlink -f "$hdr/${l#"$copy.tmp/"}")" "$l" ;;
		esac
	done
	# 7.x's headers name their own directory as Kbuild's output.
	sed -i "s|^KBUILD_OUTPUT *= *$hdr\$|KBUILD_OUTPUT=$copy|" "$copy.tmp/Makefile"
	# tools/: a directory of its own, with programs that run here.
	tools=$(readlink -f "$hdr/tools")
	rm -rf "$copy.tmp/tools"
	mkdir -p "$copy.tmp/tools/bpf"
	# Debian's objtool runs objtool.real-ARCH from its own directory.
	for t in objtool bpf/resolve_btfids; do
		name=$(basename "$t")
		if runs "$tools/$t/$name"; then
			ln -s "$tools/$t" "$copy.tmp/tools/$t"
		else
			mkdir -p "$copy.tmp/tools/$t"
			p=$(host_tool "$name") || exit 1
			ln -s "$p" "$copy.tmp/tools/$t/$name"
		fi
	done
	# scripts/mod/modpost likewise (Debian's runs modpost.real-lsb-64).
	scripts=$(readlink -f "$hdr/scripts")
	mp=$scripts/mod/modpost
	[ ! -x "$mp.real-lsb-64" ] || mp=$mp.real-lsb-64
	if ! runs "$mp"; then
		rm -f "$copy.tmp/scripts"
		mkdir -p "$copy.tmp/scripts/mod"
		for e in "$scripts"/*; do
			[ "${e##*/}" = mod ] || ln -s "$e" "$copy.tmp/scripts/${e##*/}"
		done
		p=$(host_tool modpost) || exit 1
		ln -s "$p" "$copy.tmp/scripts/mod/modpost"
	fi
	[ -e "$copy.tmp/vmlinux" ] || ln -s "$btf" "$copy.tmp/vmlinux"
	# Kbuild picks pahole's options by the version the kernel was built
	# with: this host's pahole may know fewer.
	pv=$(pahole --version 2>/dev/null | tr -dc 0-9)
	kv=$(sed -n 's/^CONFIG_PAHOLE_VERSION=//p' "$copy.tmp/include/config/auto.conf")
	if [ -n "$pv" ] && [ -n "$kv" ] && [ "$pv" -lt "$kv" ]; then
		log "$K_RELEASE: built with pahole $kv, this host has $pv: its options"
		sed -i "s/^CONFIG_PAHOLE_VERSION=.*/CONFIG_PAHOLE_VERSION=$pv/" \
			"$copy.tmp/.config" "$copy.tmp/include/config/auto.conf"
	fi
	for opt in $(newer_cc_only "$hdr/include/config/auto.conf"); do
		log "$K_RELEASE: $cc lacks what $opt says: unset in the copy"
		sed -i "s/^$opt=.*/# $opt is not set/" "$copy.tmp/.config"
		sed -i "/^$opt=/d" "$copy.tmp/include/config/auto.conf"
		sed -i "/#define $opt /d" "$copy.tmp/include/generated/autoconf.h"
	done
	touch "$copy.tmp/.complete"
	rm -rf "$copy"
	mv "$copy.tmp" "$copy" || vt_write_die "$copy"
}
[ -f "$copy/.complete" ] || make_copy

# ---- the build ---------------------------------------------------------------

rm -rf "$out.tmp"
if ! KMOD_HEADERS=$copy KMOD_OUT=$out.tmp KMOD_CC=$cc \
	sh "$srcdir/scripts/kmod-build.sh" "$1" "$src" >/dev/null 2>"$out.err"; then
	why=$(grep '^vmtest: ' "$out.err" | tail -n 1 | sed 's/^vmtest: //')
	rm -f "$out.err"
	first=$(grep -m 1 -E 'error:|Failed|not found|undefined!' "$out.tmp/build.log" 2>/dev/null |
		sed "s|$out.tmp/||g; s|$copy/||g" | cut -c 1-200)
	rm -rf "$out"
	mv "$out.tmp" "$out"
	echo "bpf_testmod of $tree does not build for $K_RELEASE with $cc: ${first:-$why} (see $out/build.log)" >"$out/.failed"
	vt_die "$(cat "$out/.failed")"
fi
rm -f "$out.err"
# Every module carries its BTF: the tests find their kfuncs through it.
for ko in "$out.tmp"/*.ko; do
	objcopy --dump-section .BTF=/dev/null "$ko" "$out.tmp/probe.o" 2>/dev/null ||
		vt_die "$ko has no .BTF section (see $out.tmp/build.log)"
done
rm -f "$out.tmp/probe.o"
# Only what a guest loads, and the log.
find "$out.tmp" -maxdepth 1 -type f ! -name '*.ko' ! -name build.log -delete
find "$out.tmp" -mindepth 1 -maxdepth 1 -type d -exec rm -rf {} +
touch "$out.tmp/.complete"
rm -rf "$out"
mv "$out.tmp" "$out" || vt_write_die "$out"
log "$K_RELEASE: $(list_kos | wc -l) modules of $tree with $cc in $(vt_elapsed "$t0") s"
list_kos
