#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build libbpf (static) and bpftool from a kernel tree's tools/, the way
# the kernel's BPF selftests do, for the default build (LIBBPF=source).
#
# Usage: scripts/libbpf-build.sh [-s SERIES | -t TREE] OUTDIR
#   -s SERIES  Debian's linux-source-SERIES (scripts/linux-source.sh:
#              fetched once, cached in vmtest/cache); default "newest"
#   -t TREE    a kernel source tree (tools/lib/bpf, tools/bpf/bpftool),
#              e.g. the one bpfcheck sits in as a kselftest collection
#
# OUTDIR receives:
#   obj/libbpf.a              libbpf, static, built with -g -O2
#   include/bpf/*.h           its public headers (bpf_helper_defs.h too)
#   include/linux/*.h         the tree's UAPI BPF headers libbpf matches
#   bpftool/bootstrap/bpftool bpftool's bootstrap build (btf dump, gen),
#                             linked against obj/libbpf.a
#   origin                    one line: where the sources came from
# The sub-makes are incremental; their output goes to OUTDIR/build.log
# and is shown only when a step fails (V=1: shown as it runs instead).
# Exit: 0, 1 when the sources cannot be had or a build fails, 2 bad usage.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
MAKE=${MAKE:-make}
CC=${CC:-gcc}

usage_die() {
	echo "libbpf-build: $*" >&2
	echo "usage: libbpf-build.sh [-s SERIES | -t TREE] OUTDIR" >&2
	exit 2
}

series=newest
tree=
while getopts s:t: opt; do
	case $opt in
	s) series=$OPTARG ;;
	t) tree=$OPTARG ;;
	*) usage_die "bad option" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 1 ] || usage_die "expected one OUTDIR, got $# arguments"
out=$1

if [ -n "$tree" ]; then
	[ -f "$tree/tools/lib/bpf/libbpf.c" ] ||
		usage_die "-t '$tree': no tools/lib/bpf/libbpf.c there (expected a kernel tree)"
	tree=$(cd "$tree" && pwd -P)
	origin="kernel tree $tree"
else
	tree=$(sh "$srcdir/scripts/linux-source.sh" "$series") || exit 1
	# .../linux-source-7.2_7.2.13-1 -> "linux-source-7.2 7.2.13-1"
	origin=$(basename "$tree" | sed 's/_/ /')
fi

mkdir -p "$out/obj" "$out/bpftool"
out=$(cd "$out" && pwd -P)
log=$out/build.log
: >"$log"

# Without a jobserver from a parent make, use every CPU.
case " ${MAKEFLAGS:-} " in
*jobserver*|*" -j"*) jobs= ;;
*) jobs=-j$(nproc 2>/dev/null || echo 1) ;;
esac

# Run a sub-make quietly; on failure show the end of its output.
submake() {	# LABEL ARGS...
	label=$1
	shift
	printf '  %-9s %s\n' "$label" "$origin"
	if [ "${V:-}" = 1 ]; then
		# shellcheck disable=SC2086 # $jobs is one option or nothing
		$MAKE $jobs "$@" && return
	else
		# shellcheck disable=SC2086
		$MAKE $jobs "$@" >>"$log" 2>&1 && return
		tail -n 30 "$log" >&2
	fi
	echo "libbpf-build: $label from $origin failed (whole log: $log)" >&2
	exit 1
}

# libbpf: the static library and the headers a program and a BPF object
# include, as the selftests install them (DESTDIR, empty prefix).
submake LIBBPF -C "$tree/tools/lib/bpf" CC="$CC" OUTPUT="$out/obj/" \
	DESTDIR="$out" prefix= EXTRA_CFLAGS="-g -O2" "$out/obj/libbpf.a" install_headers
mkdir -p "$out/include/linux"
for h in bpf.h bpf_common.h btf.h; do
	install -m 644 "$tree/tools/include/uapi/linux/$h" "$out/include/linux/$h"
done

# bpftool's bootstrap (btf dump, gen skeleton/subskeleton/object) against
# that libbpf: LIBBPF_BOOTSTRAP_OUTPUT names the library just built, so
# bpftool does not compile libbpf a second time; it adds libbpf's private
# headers to its copy of the public ones, not to include/.
boot=$out/bpftool/bootstrap-libbpf
mkdir -p "$boot/include"
cp -pR "$out/include/bpf" "$boot/include/"
submake BPFTOOL -C "$tree/tools/bpf/bpftool" CC="$CC" HOSTCC="$CC" \
	OUTPUT="$out/bpftool/" LIBBPF_BOOTSTRAP_OUTPUT="$out/obj/" \
	LIBBPF_BOOTSTRAP_DESTDIR="$boot/" bootstrap
"$out/bpftool/bootstrap/bpftool" version >/dev/null ||
	{ echo "libbpf-build: the bpftool built from $origin does not run" >&2; exit 1; }

echo "$origin" >"$out/origin.tmp"
mv "$out/origin.tmp" "$out/origin"
