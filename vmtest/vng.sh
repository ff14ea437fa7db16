# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# vmtest --vng (sourced; POSIX sh): the same command and the same matrix,
# but each guest is started by virtme-ng's vng, which boots the kernel with
# the host's root filesystem shared read-only over 9p (virtiofsd needs a
# newer glibc than Debian 12's, so vng falls back to 9p).  Hence:
#
#   - the kernel must have 9p and virtio: Debian's generic flavour (a
#     plain alias like 6.12 becomes 6.12-generic; cloud kernels have no
#     9p); vng runs depmod on the unpacked tree so the guest can modprobe;
#   - the harness runs from the host's $OUTPUT, the command from a script in
#     the work directory, results go to a directory shared read-write
#     (--rwdir) instead of the serial port;
#   - vng's bash init finds no /dev/virtio-ports without udev on the host,
#     so the command's output comes on the console (vng -v), which is
#     kept as console.log like vm_boot's.
#
# vng_boot writes the same DIR/records as vm_collect does (INIT, STATUS,
# END), so vm_classify judges both alike.

VT_VNG=${VMTEST_VNG:-vng}

vng_check() {
	command -v "$VT_VNG" >/dev/null 2>&1 ||
		vt_die "--vng needs virtme-ng's vng; on Debian 12: sh vmtest/vng-install.sh (or make check-vng)"
}

# The alias vng can boot: the generic flavour unless one is named.
vng_alias() {	# SPEC
	case "$1" in
	*/* | *-generic | *-cloud) echo "$1" ;;
	[0-9]*.[0-9]*) [ -e "$1" ] && echo "$1" || echo "$1-generic" ;;
	*) echo "$1" ;;
	esac
}

vng_boot() {	# DIR ACCEL IMAGE LIMIT TIMEOUT
	d=$1
	res=$d/results
	rm -rf "$res"
	mkdir -p "$res"
	: >"$d/records"
	tmo=$5
	{
		echo '#!/bin/sh'
		echo "# vmtest --vng: the command, run by vng's init in the guest."
		printf 'export PATH=%s:%s:$PATH\n' "$(vt_quote "$OUTPUT")" \
			"$(vt_quote "$VT_SRCDIR/vmtest")"
		printf 'export VMTEST_RESULTS=%s VMTEST_LABEL=%s BPFCHECK_KMSG=1\n' \
			"$(vt_quote "$res")" "$(vt_quote "$K_LABEL")"
		printf 'export VT_CMD=%s\n' "$(vt_quote "$VT_CMD")"
		echo 'echo "@@VMTEST INIT $(cut -d" " -f1 /proc/uptime)"'
		printf 'cd %s || exit 1\n' "$(vt_quote "$res")"
		echo '('
		printf '\ttimeout -k 5 %s sh -c "exec $VT_CMD" </dev/null 2>&1\n' "$tmo"
		echo '	echo $? >"$VMTEST_RESULTS/.rc"'
		echo ') | tee "$VMTEST_RESULTS/output.log"'
		echo 'dmesg >"$VMTEST_RESULTS/dmesg.log" 2>&1'
		echo 'dmesg -r >"$VMTEST_RESULTS/dmesg.raw" 2>&1'
	} >"$d/vng-run.sh"
	rm -f "$d/qemu.pid"
	t0=$(vt_now)
	if [ "$2" = kvm ]; then
		set -- "$3" "$4"
	else
		set -- "$3" "$4" --disable-kvm "--qemu-opts=-accel tcg,thread=$VT_TCG_THREAD"
	fi
	img=$1 lim=$2
	shift 2
	timeout --foreground -k 5 "$lim" "$VT_VNG" -v "$@" -r "$img" \
		--cpus "$VT_SMP" --memory "${VT_MEM}M" --rwdir="$res" \
		--exec "sh $d/vng-run.sh" </dev/null >"$d/console.log" 2>&1 &
	echo $! >"$d/timeout.pid"
	{ wait $!; echo $? >"$d/qemu.rc"; } 2>/dev/null
	vt_elapsed "$t0" >"$d/seconds"
	rm -f "$d/timeout.pid"
	: >"$d/qemu.out"
	# The records vm_collect would have written.
	grep -m 1 '^@@VMTEST INIT' "$d/console.log" | cut -c10- >>"$d/records"
	if [ -f "$res/.rc" ]; then
		rc=$(cat "$res/.rc")
		to=0
		{ [ "$rc" = 124 ] || [ "$rc" = 137 ]; } && to=1
		echo "STATUS rc=$rc timeout=$to" >>"$d/records"
		echo END >>"$d/records"
		rm -f "$res/.rc"
	fi
}
