# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# QEMU for vmtest (sourced; POSIX sh): pick the accelerator, boot one
# guest, bring its results back and say how it went.
#
# A guest directory DIR holds, after vm_boot and vm_collect:
#   console.log   ttyS0: kernel messages and the command's output
#   results.ser   ttyS1: the init's records (see vmtest/init)
#   qemu.out      QEMU's own messages
#   results/      the files the guest sent (output.log, dmesg.log,
#                 test_progs.json, ...), checksums verified
#   status        PASS FAIL SKIP TIMEOUT PANIC BOOT_FAIL NO_RESULT
#   detail        one line saying why
#   seconds       QEMU start to QEMU exit (boot-to-result), wall clock
#   splats.tsv    the kernel's splats (vmtest/splat.sh), their texts in
#                 results/splat-N.txt

# shellcheck source=splat.sh
. "${VT_SRCDIR:?qemu.sh needs VT_SRCDIR}/vmtest/splat.sh"

VT_QEMU=${VMTEST_QEMU:-qemu-system-x86_64}
VT_MEM=${VMTEST_MEM:-1024}
VT_SMP=${VMTEST_SMP:-2}
# --icount (vm_icount): QEMU's instruction counter drives the guest's clock.
VT_ICOUNT=

VT_CPU=${VMTEST_CPU:-max}
# TCG runs the guest's vCPUs round-robin on one host thread by default.
# Multi-threaded TCG (thread=multi) with 2 vCPUs crashes the guest when BPF
# tracing patches kernel text while the other vCPU runs it (measured with
# QEMU 7.2: 6.12 "Oops: int3" in 4 of 4 syscall_count runs, 6.1 a soft
# lockup; thread=single: 0 of 8).  One host thread per guest also suits
# -j: N guests use N cores.  VMTEST_TCG_THREAD=multi brings MTTCG back.
VT_TCG_THREAD=${VMTEST_TCG_THREAD:-single}

# What on the console means the kernel crashed.
VT_PANIC_RE='Kernel panic - not syncing|Oops: |BUG: |general protection fault|kernel BUG at|Unable to handle kernel|sysrq: Trigger a crash'

# panic=-1 reboots at once on a panic, and -no-reboot turns the reboot
# into a QEMU exit: a crash is seen within a second.  oops=panic makes
# every oops a panic, softlockup_panic=1 every soft lockup (else a locked
# up guest is only seen at the time limit).  loglevel=4 keeps the console
# (slow under TCG) quiet but for errors, which still shows panics and
# oopses.
VT_APPEND="console=ttyS0 panic=-1 oops=panic softlockup_panic=1 loglevel=4"
# no_timer_check: under TCG on a loaded host, 6.1's boot-time check of the
# IO-APIC timer ran out of time and panicked ("IO-APIC + timer doesn't
# work!", BOOT_FAIL, 2026-11-27 at a load of 11 on 2 cores).
VT_APPEND="$VT_APPEND rdinit=/init no_timer_check"
VT_APPEND="$VT_APPEND mitigations=off 8250.nr_uarts=2 ${VMTEST_APPEND:-}"

# A guest holds its initramfs twice while it boots (the archive and the
# files unpacked from it): a big payload, such as the kernel's test_progs
# (223 MB with its debug info), did not boot in 1 GiB ("VFS: Unable to
# mount root fs").  Unless VMTEST_MEM is set, the memory grows with the
# largest initramfs: three times its size and 768 MiB for the kernel and the run.
vm_size_memory() {	# INITRD...
	[ -z "${VMTEST_MEM:-}" ] || return 0
	mb=$(du -m "$@" 2>/dev/null | sort -n | tail -n 1 | cut -f 1)
	need=$((3 * ${mb:-0} + 768))
	[ "$need" -gt "$VT_MEM" ] || return 0
	vt_log "a ${mb} MiB initramfs: $need MiB of memory per guest (VMTEST_MEM sets it)"
	VT_MEM=$need
}

# Boot IMAGE with INITRD under ACCEL (kvm|tcg); QEMU is killed after
# LIMIT seconds.  QEMU's pid goes to DIR/qemu.pid for whoever must stop it.
vm_boot() {	# DIR ACCEL IMAGE INITRD LIMIT
	case "$2" in
	kvm) accel="-accel kvm -cpu host" ;;
	*) accel="-accel tcg,thread=$VT_TCG_THREAD -cpu $VT_CPU $VT_ICOUNT" ;;
	esac
	: >"$1/console.log"
	: >"$1/results.ser"
	rm -f "$1/qemu.pid"
	t0=$(vt_now)
	# --foreground: QEMU stays in our process group, so a Ctrl-C on the
	# terminal reaches it directly.
	# shellcheck disable=SC2086
	timeout --foreground -k 5 "$5" "$VT_QEMU" -nodefaults -no-user-config \
		-display none -no-reboot $accel -m "$VT_MEM" -smp "$VT_SMP" \
		-kernel "$3" -initrd "$4" -append "$VT_APPEND" \
		-serial "file:$1/console.log" -serial "file:$1/results.ser" \
		-pidfile "$1/qemu.pid" </dev/null >"$1/qemu.out" 2>&1 &
	echo $! >"$1/timeout.pid"
	# (QEMU may die of a signal: no "Aborted" from the shell.)
	{ wait $!; echo $? >"$1/qemu.rc"; } 2>/dev/null
	vt_elapsed "$t0" >"$1/seconds"
	rm -f "$1/timeout.pid" "$1/qemu.pid"
}

# Guests count instructions: with "-icount shift=0" one guest instruction
# is one nanosecond of the guest's clock, so whatever the guest times is an
# instruction count, whatever the host does meanwhile.  sleep=off: an idle
# guest's clock jumps to its next timer instead of following the host's.
# One vCPU (unless VMTEST_SMP says otherwise): 6.1 never finishes bringing
# up a second vCPU under icount (it stops after "x86: Booting SMP
# configuration", with and without sleep=off, tsc=reliable,
# cpu_init_udelay=0, nox2apic), and with one vCPU every figure counts one
# stream of instructions, the same way on every kernel.
vm_icount() {
	VT_ICOUNT="-icount shift=0,sleep=off,align=off"
	VT_SMP=${VMTEST_SMP:-1}
}

# Stop the QEMU of guest DIR, if it runs.
vm_kill() {	# DIR
	for f in "$1/qemu.pid" "$1/timeout.pid"; do
		[ -s "$f" ] && kill -TERM "$(cat "$f")" 2>/dev/null
	done
}

# Split results.ser into the records (DIR/records) and the files
# (DIR/results/NAME), checking each file's SHA256.
vm_collect() {	# DIR
	d=$1
	rm -rf "$d/results"
	mkdir -p "$d/results"
	tr -d '\r' <"$d/results.ser" | awk -v dir="$d" '
	/^@@VMTEST FILE / {
		name = $3
		if (name ~ /^[A-Za-z0-9_][A-Za-z0-9_.+-]*$/) {
			out = dir "/results/" name ".b64"
			printf "" >out
			print name, $4 >(dir "/files")
		} else
			out = ""
		next
	}
	/^@@VMTEST ENDFILE / { if (out != "") close(out); out = ""; next }
	/^@@VMTEST / { print substr($0, 10) >(dir "/records"); next }
	out != "" { print >out }'
	[ -f "$d/records" ] || : >"$d/records"
	[ -f "$d/files" ] || return 0
	while read -r name sha; do
		if base64 -d <"$d/results/$name.b64" 2>/dev/null |
			gzip -dc >"$d/results/$name" 2>/dev/null &&
			[ "$(vt_sha256 "$d/results/$name")" = "$sha" ]; then
			:
		else
			echo "$name" >>"$d/corrupt"
			rm -f "$d/results/$name"
		fi
		rm -f "$d/results/$name.b64"
	done <"$d/files"
	# The init sends "dmesg -r"; dmesg.log is the log as dmesg shows it.
	[ ! -f "$d/results/dmesg.raw" ] ||
		splat_plain "$d/results/dmesg.raw" >"$d/results/dmesg.log"
}

# The kernel's splats: in the guest's kernel log, or, when none came back
# (a guest that panicked), on its console.  DIR/splats.tsv.
vm_splats() {	# DIR
	log=$1/results/dmesg.raw
	[ -f "$log" ] || log=$1/results/dmesg.log
	[ -f "$log" ] || log=$1/console.log
	mkdir -p "$1/results"
	splat_scan "$log" "$1/results" >"$1/splats.tsv"
}

# The value of KEY=VALUE in the STATUS record.
vm_status_field() {	# DIR KEY
	sed -n 's/^STATUS //p' "$1/records" | tr ' ' '\n' |
		sed -n "s/^$2=//p" | head -n 1
}

# Decide the guest's outcome: DIR/status and DIR/detail.
vm_classify() {	# DIR LIMIT TIMEOUT
	d=$1 limit=$2 tmo=$3
	qrc=$(cat "$d/qemu.rc" 2>/dev/null || echo 0)
	vm_splats "$d"
	panic=$(tr -d '\r' <"$d/console.log" | grep -E -m 1 "$VT_PANIC_RE" |
		sed 's/^\[ *[0-9.]*\] //')
	if grep -q '^END' "$d/records"; then
		rc=$(vm_status_field "$d" rc)
		json=$d/results/test_progs.json
		if [ "$(vm_status_field "$d" timeout)" = 1 ]; then
			st=TIMEOUT detail="the command ran longer than $tmo s (--timeout)"
		elif [ -s "$json" ] && jq -e .results "$json" >/dev/null 2>&1; then
			# shellcheck disable=SC2046 # three counts, as three words
			set -- $(jq -r '[.results[] | .outcome] |
				"\(map(select(. == "PASS")) | length)
				 \(map(select(. == "FAIL")) | length)
				 \(map(select(. == "SKIP")) | length)"' "$json")
			detail="$1 passed, $2 failed, $3 skipped (test_progs exit $rc)"
			if [ "$2" -gt 0 ] || { [ "$rc" != 0 ] && [ "$rc" != 4 ]; }; then
				st=FAIL
			elif [ "$1" = 0 ] && [ "$3" -gt 0 ]; then
				st=SKIP
			else
				st=PASS
			fi
		elif [ "$rc" = 0 ]; then
			st=PASS detail="exit 0"
		else
			st=FAIL detail="exit $rc"
		fi
		if [ -s "$d/corrupt" ]; then
			st=FAIL detail="$detail; corrupt transfer of: $(tr '\n' ' ' <"$d/corrupt")"
		fi
		if [ -s "$d/results/kmod-errors.log" ]; then
			st=FAIL detail="--kmod did not load: $(head -n 1 "$d/results/kmod-errors.log"); $detail"
		fi
		# A splat fails the run whatever the command said: the kernel
		# misbehaved under it (BPF CI does the same).
		if [ -s "$d/splats.tsv" ]; then
			st=FAIL detail="kernel splat: $(splat_summary "$d/splats.tsv"); $detail"
		fi
		[ -z "$panic" ] || detail="$detail; console: $panic"
	elif [ -n "$panic" ] && ! grep -q '^INIT' "$d/records"; then
		st=BOOT_FAIL detail="the kernel crashed before init: $panic"
	elif [ -n "$panic" ]; then
		st=PANIC detail=$panic
	elif [ "$qrc" = 124 ] || [ "$qrc" = 137 ]; then
		if grep -q '^INIT' "$d/records"; then
			st=TIMEOUT detail="no result within $limit s (the guest hung)"
		else
			st=BOOT_FAIL detail="the guest did not reach init within $limit s"
		fi
	elif ! grep -q '^INIT' "$d/records"; then
		why=$(grep -v '^$' "$d/qemu.out" | tail -n 1)
		[ -n "$why" ] || why=$(tr -d '\r' <"$d/console.log" | grep -v '^$' |
			tail -n 1 | sed 's/^\[ *[0-9.]*\] //')
		st=BOOT_FAIL detail="QEMU exit $qrc before init: ${why:-no output}"
	else
		st=NO_RESULT detail="the guest stopped after init started, without sending results (QEMU exit $qrc)"
	fi
	echo "$st" >"$d/status"
	printf '%s\n' "$detail" >"$d/detail"
}

# What decides whether KVM works: this boot of the host, /dev/kvm, QEMU.
vm_accel_key() {
	{
		cat /proc/sys/kernel/random/boot_id
		stat -L -c '%n %i %Y' /dev/kvm "$(command -v "$VT_QEMU")"
	} 2>/dev/null | cksum
}

# The probe's verdict of an earlier run, with the same key, from FILE:
# sets VT_ACCEL and VT_ACCEL_NOTE.  Not when VMTEST_ACCEL chooses.
vm_accel_cached() {	# FILE
	[ -z "${VMTEST_ACCEL:-}" ] && [ -e /dev/kvm ] && [ -f "$1" ] || return 1
	{ read -r key; read -r VT_ACCEL; read -r VT_ACCEL_NOTE; } <"$1" || return 1
	[ "$key" = "$(vm_accel_key)" ] || return 1
	case "$VT_ACCEL" in kvm | tcg) ;; *) return 1 ;; esac
	VT_ACCEL_NOTE="$VT_ACCEL_NOTE; probed earlier at this boot"
}

# Keep a probe's verdict (KVM tried) for the next runs.
vm_accel_save() {	# FILE
	[ -z "${VMTEST_ACCEL:-}" ] && [ -e /dev/kvm ] || return 0
	printf '%s\n%s\n%s\n' "$(vm_accel_key)" "$VT_ACCEL" "$VT_ACCEL_NOTE" \
		>"$1.$$" && mv "$1.$$" "$1"
}

# KVM only if it really runs a guest: boot IMAGE with the probe INITRD
# (its command is "true") under KVM, with a short limit.  Sets VT_ACCEL
# (kvm|tcg) and VT_ACCEL_NOTE.
# shellcheck disable=SC2034 # both are read by vmtest.sh, which sources this
vm_probe_accel() {	# DIR IMAGE INITRD
	case "${VMTEST_ACCEL:-}" in
	kvm | tcg)
		VT_ACCEL=$VMTEST_ACCEL
		VT_ACCEL_NOTE="chosen with --accel/VMTEST_ACCEL"
		[ -z "$VT_ICOUNT" ] || VT_ACCEL_NOTE="--icount runs TCG"
		return
		;;
	esac
	VT_ACCEL=tcg
	if [ ! -e /dev/kvm ]; then
		VT_ACCEL_NOTE="no /dev/kvm"
		return
	elif [ ! -r /dev/kvm ] || [ ! -w /dev/kvm ]; then
		VT_ACCEL_NOTE="/dev/kvm is not usable by $(id -un)"
		return
	fi
	mkdir -p "$1"
	limit=${VMTEST_KVM_PROBE_TIMEOUT:-10}
	vm_boot "$1" kvm "$2" "$3" "$limit"
	vm_collect "$1"
	if grep -q '^END' "$1/records"; then
		VT_ACCEL=kvm
		VT_ACCEL_NOTE="a test guest booted in $(cat "$1/seconds") s"
		return
	fi
	why=$(grep -v -e '^$' -e 'warning:' "$1/qemu.out" | head -n 1)
	[ -n "$why" ] || why="a test guest did not boot within $limit s"
	VT_ACCEL_NOTE="KVM unusable: $why"
}
