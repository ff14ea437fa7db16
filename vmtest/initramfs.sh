# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The guest's initramfs (sourced; POSIX sh).  It is the concatenation of
# newc cpio archives, which the kernel unpacks one after the other:
#
#   payload  the user's command, --add files, their libraries
#                                     (vmtest/payload.sh; one per run)
#   base     busybox (static) and its applets, /init, the harness binaries
#            from $OUTPUT with the dynamic loader and the shared libraries
#            they need, the BPF objects, the guest-side suite script
#                                                      (one per run)
#   modules  /lib/modules/RELEASE: the modules of vmtest/modules.conf and
#            what they depend on, decompressed, plus the load order
#                                                      (one per kernel)
#   run      /bpfcheck/run.conf: the command, its timeout  (one per run)
#
# Uncompressed: under TCG the kernel unpacks plain cpio faster than it
# decompresses, and the images are small (a few MiB).

: "${VT_SRCDIR:?initramfs.sh needs VT_SRCDIR}"
: "${VT_CACHE:?initramfs.sh needs VT_CACHE}"

VT_BUSYBOX=${VMTEST_BUSYBOX:-/bin/busybox}

# shellcheck source=userland.sh
. "$VT_SRCDIR/vmtest/userland.sh"

# Harness binaries shipped to /bpfcheck when they are built.
VT_GUEST_BINS="test_progs bench"
# The BPF objects shipped to /bpfcheck/bpf, where test_progs runs its tests:
# the build's, or those beside the test_progs of --test-progs (vmtest.sh).
VT_BPF_OBJS=${VT_BPF_OBJS:-$OUTPUT/bpf}

# Archives already built from the same inputs (a KEY text naming them):
# building them again is a good part of a run's time besides the boot.
VT_ICACHE=$VT_CACHE/initramfs

initramfs_cache_file() (	# KEY
	printf '%s/%s' "$VT_ICACHE" "$(printf '%s' "$1" | cksum | tr ' ' _)"
)

# The archive (and its LOG) for KEY into OUT, if it is cached.
initramfs_cache_get() (	# KEY OUT [LOG]
	f=$(initramfs_cache_file "$1")
	[ -f "$f.cpio" ] || return 1
	if [ -n "${3:-}" ]; then
		cp "$f.log" "$3" 2>/dev/null || return 1
	fi
	ln -f "$f.cpio" "$2" 2>/dev/null || cp "$f.cpio" "$2"
)

# Keep OUT (and LOG) as the archive of KEY; entries a day old go.
initramfs_cache_put() (	# KEY OUT [LOG]
	f=$(initramfs_cache_file "$1")
	mkdir -p "$VT_ICACHE" || return 0
	find "$VT_ICACHE" -type f -mmin +1440 -delete 2>/dev/null
	if [ -n "${3:-}" ]; then
		cp "$3" "$f.log.$$" && mv "$f.log.$$" "$f.log" || { rm -f "$f.log.$$"; return 0; }
	fi
	cp "$2" "$f.cpio.$$" && mv "$f.cpio.$$" "$f.cpio" || rm -f "$f.cpio.$$"
)

# What the base archive is made of: names, sizes and times of its files,
# and the dynamic linker's cache (a library upgrade changes it).
initramfs_base_key() (
	set -- "$VT_BUSYBOX" "$VT_SRCDIR/vmtest/init" "$VT_SRCDIR/vmtest/suite" \
		"$VT_SRCDIR/vmtest/initramfs.sh" "$VT_SRCDIR/vmtest/userland.sh" \
		/etc/ld.so.cache
	for b in $VT_GUEST_BINS; do
		[ -x "$OUTPUT/$b" ] && set -- "$@" "$OUTPUT/$b"
	done
	for o in "$VT_BPF_OBJS"/*.o "$VT_BPF_OBJS/bpftool"; do
		[ -e "$o" ] && set -- "$@" "$o"
	done
	echo "base $VT_GUEST_BINS"
	stat -L -c '%n %s %Y' "$@" 2>/dev/null
	userland_files "$VT_USERLAND" | xargs -r stat -L -c '%n %s %Y' 2>/dev/null
)

# Write a newc archive of directory DIR to OUT (owner root, sorted).
initramfs_pack() (	# DIR OUT
	(cd "$1" && find . -mindepth 1 | LC_ALL=C sort |
		cpio -o -H newc -R 0:0 --quiet) >"$2.tmp" && mv "$2.tmp" "$2"
)

# Copy FILE to the same path under ROOT (symlinks resolved).
initramfs_copy_abs() (	# ROOT FILE
	mkdir -p "$1$(dirname "$2")" && cp -L "$2" "$1$2"
)

# The dynamic loader and the shared libraries of ELF files BIN..., into ROOT.
initramfs_libs() (	# ROOT BIN...
	root=$1
	shift
	# "not a dynamic executable" for static binaries: nothing to copy;
	# with several files ldd heads each one's list with "FILE:".
	ldd "$@" 2>/dev/null | awk '
		$2 == "=>" && $3 ~ /^\// { print $3 }
		NF > 1 && $1 ~ /^\// { print $1 }' | LC_ALL=C sort -u |
		while read -r lib; do
			[ -e "$root$lib" ] || initramfs_copy_abs "$root" "$lib" || return 1
		done
)

initramfs_base() (	# STAGE OUT
	st=$1
	rm -rf "$st"
	mkdir -p "$st/bin" "$st/sbin" "$st/dev" "$st/proc" "$st/sys" \
		"$st/tmp" "$st/run" "$st/root" "$st/results" "$st/bpfcheck" \
		"$st/etc" "$st/lib/modules" "$st/var" || return 1
	# iproute2 keeps named network namespaces in /var/run/netns.
	ln -s ../run "$st/var/run" || return 1
	if ! file -L "$VT_BUSYBOX" 2>/dev/null | grep -q 'statically linked'; then
		vt_die "$VT_BUSYBOX is not a static busybox (install busybox-static: make deps)"
	fi
	cp "$VT_BUSYBOX" "$st/bin/busybox" || return 1
	# One process for the ~400 applet links (an ln each took a second);
	# none for the programs the userland brings (vmtest/userland.conf).
	userland_bin_names "$VT_USERLAND" >"$st/userland.names" || return 1
	"$VT_BUSYBOX" --list | grep -vx busybox | grep -vxF -f "$st/userland.names" |
		(cd "$st/bin" &&
		perl -ne 'chomp; symlink("busybox", $_) or die "$_: $!\n"') || return 1
	rm -f "$st/userland.names"
	echo 'root:x:0:0:root:/root:/bin/sh' >"$st/etc/passwd"
	echo 'root:x:0:' >"$st/etc/group"
	cp "$VT_SRCDIR/vmtest/init" "$st/init" &&
		cp "$VT_SRCDIR/vmtest/suite" "$VT_SRCDIR/vmtest/bench-guest" "$st/bpfcheck/" &&
		chmod 755 "$st/init" "$st/bpfcheck/suite" "$st/bpfcheck/bench-guest" || return 1
	# The BPF objects too (the skeletons embed them; this is for tools
	# such as bpftool, or tests that open them by path: X.bpf.o, or X.o
	# as the kernel's older tests name them).
	if ls "$VT_BPF_OBJS"/*.o >/dev/null 2>&1; then
		mkdir -p "$st/bpfcheck/bpf" && cp "$VT_BPF_OBJS"/*.o "$st/bpfcheck/bpf/"
	fi
	# A kernel series' build has the bpftool its tests run as ./bpftool.
	if [ -x "$VT_BPF_OBJS/bpftool" ]; then
		cp "$VT_BPF_OBJS/bpftool" "$st/bpfcheck/bpf/" &&
			initramfs_libs "$st" "$VT_BPF_OBJS/bpftool" ||
			vt_die "cannot copy $VT_BPF_OBJS/bpftool"
	fi
	userland_stage "$st" "$VT_USERLAND" ||
		vt_die "cannot stage the guest userland of $VT_USERLAND"
	for b in $VT_GUEST_BINS; do
		[ -x "$OUTPUT/$b" ] || continue
		cp "$OUTPUT/$b" "$st/bpfcheck/$b" &&
			initramfs_libs "$st" "$OUTPUT/$b" ||
			vt_die "cannot copy $OUTPUT/$b and its libraries into the initramfs"
	done
	initramfs_pack "$st" "$2"
)

# Module names of vmtest/modules.conf (comments and blanks dropped).
initramfs_module_names() (
	sed -e 's/#.*//' "$VT_SRCDIR/vmtest/modules.conf" | tr -s ' \t' '\n\n' |
		sed '/^$/d'
)

# The file of module NAME under MODDIR ("-" and "_" are the same), or "".
initramfs_find_module() (	# MODDIR NAME
	n1=$(printf '%s' "$2" | tr - _)
	n2=$(printf '%s' "$2" | tr _ -)
	find "$1" \( -name "$n1.ko" -o -name "$n1.ko.*" -o -name "$n2.ko" \
		-o -name "$n2.ko.*" \) -type f 2>/dev/null | LC_ALL=C sort | head -n 1
)

initramfs_decompress() (	# FILE OUT
	case "$1" in
	*.ko) cp "$1" "$2" ;;
	*.ko.xz) xz -dc "$1" >"$2" ;;
	*.ko.zst) zstd -qdc "$1" >"$2" ;;
	*.ko.gz) gzip -dc "$1" >"$2" ;;
	*) return 1 ;;
	esac
)

# The modules (comma list) a .ko depends on, from its .modinfo section.
initramfs_module_depends() (	# KO
	objcopy -O binary --only-section=.modinfo "$1" /dev/stdout 2>/dev/null |
		tr '\0' '\n' | sed -n 's/^depends=//p' | tr ',' ' '
)

# Stage the modules vmtest needs for the kernel RELEASE with modules in
# MODDIR, with their dependencies, decompressed, and the file
# /lib/modules/RELEASE/vmtest.load listing them in load order.  Modules the
# kernel has built in, or lacks, are skipped (the config check reports
# options that are missing).
initramfs_modules() (	# MODDIR RELEASE STAGE OUT LOG [CONFIG]
	moddir=$1 st=$3 out=$4 log=$5
	dst=$st/lib/modules/$2
	rm -rf "$st"
	mkdir -p "$dst/kernel" || return 1
	# The kernel's config where a distribution keeps it: libbpf reads it
	# for a program's Kconfig externs (CONFIG_*), bpftool feature too.
	if [ -n "${6:-}" ] && [ -f "$6" ]; then
		mkdir -p "$st/boot" && cp "$6" "$st/boot/config-$2" || return 1
	fi
	: >"$st/edges"
	: >"$log"
	queue=$(initramfs_module_names | tr '\n' ' ')
	seen=" "
	while [ -n "${queue# }" ]; do
		queue=${queue# }
		m=${queue%% *}
		queue=${queue#"$m"}
		case "$seen" in *" $m "*) continue ;; esac
		seen="$seen$m "
		f=
		[ -z "$moddir" ] || f=$(initramfs_find_module "$moddir" "$m")
		if [ -z "$f" ]; then
			echo "$m: not a module of this kernel (built in or absent)" >>"$log"
			continue
		fi
		n=$(printf '%s' "$m" | tr - _)
		initramfs_decompress "$f" "$dst/kernel/$n.ko" ||
			vt_die "cannot decompress $f"
		deps=$(initramfs_module_depends "$dst/kernel/$n.ko")
		echo "$m: ${f#"$moddir"/}${deps:+ (needs $deps)}" >>"$log"
		echo "$n $n" >>"$st/edges"
		for d in $deps; do
			echo "$(printf '%s' "$d" | tr - _) $n" >>"$st/edges"
			queue="$queue $d"
		done
	done
	# Dependencies first; only modules that were found.
	tsort "$st/edges" | while read -r n; do
		[ -f "$dst/kernel/$n.ko" ] && echo "kernel/$n.ko"
	done >"$dst/vmtest.load"
	rm -f "$st/edges"
	initramfs_pack "$st" "$out"
)

# The per-run archive: /bpfcheck/run.conf for the guest init.
initramfs_run() (	# STAGE OUT LABEL TIMEOUT COMMAND-QUOTED [CWD]
	rm -rf "$1"
	mkdir -p "$1/bpfcheck" || return 1
	{
		printf 'VT_LABEL=%s\n' "$(vt_quote "$3")"
		printf 'VT_TIMEOUT=%s\n' "$4"
		printf 'VT_CMD=%s\n' "$(vt_quote "$5")"
		printf 'VT_CWD=%s\n' "$(vt_quote "${6:-/tmp}")"
	} >"$1/bpfcheck/run.conf"
	initramfs_pack "$1" "$2"
)
