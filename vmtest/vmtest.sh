#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vmtest: boot each kernel in QEMU, run the suite (or COMMAND) inside, and
# print one kernel x test matrix.  See "vmtest.sh --help" and
# Documentation/vmtest.md.
#
# Phases, in order; nothing boots before every KERNEL is known good:
#   1. resolve every KERNEL (vmtest/kernel.sh)      bad input: exit 2
#   2. download and unpack the Debian kernels that are not cached
#   3. check each kernel's config against ./config and ./config.vm
#   4. build the initramfs (vmtest/initramfs.sh, vmtest/payload.sh)
#   5. choose the accelerator: KVM if a test guest boots, else TCG
#   6. boot the guests, at most -j at a time (vmtest/qemu.sh)
#   7. the matrix (vmtest/matrix.sh)
set -u

VT_SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
OUTPUT=${OUTPUT:-$VT_SRCDIR/build}
case "$OUTPUT" in /*) ;; *) OUTPUT=$PWD/$OUTPUT ;; esac
VT_CACHE=${VMTEST_CACHE:-$VT_SRCDIR/vmtest/cache}
VT_OUT=${VMTEST_OUT:-$OUTPUT/vmtest}

# shellcheck source=lib.sh
. "$VT_SRCDIR/vmtest/lib.sh"
# shellcheck source=kernel.sh
. "$VT_SRCDIR/vmtest/kernel.sh"
# shellcheck source=initramfs.sh
. "$VT_SRCDIR/vmtest/initramfs.sh"
# shellcheck source=qemu.sh
. "$VT_SRCDIR/vmtest/qemu.sh"
# shellcheck source=args.sh
. "$VT_SRCDIR/vmtest/args.sh"
# shellcheck source=options.sh
. "$VT_SRCDIR/vmtest/options.sh"
# shellcheck source=guests.sh
. "$VT_SRCDIR/vmtest/guests.sh"
# shellcheck source=payload.sh
. "$VT_SRCDIR/vmtest/payload.sh"
# shellcheck source=usage.sh
. "$VT_SRCDIR/vmtest/usage.sh"

# ---- arguments -----------------------------------------------------------

vt_args "$@"
shift $(($# - VT_ARGS_LEFT))

vt_validate "$jobs" "$tmo" "$json"

# The user's test_progs replaces the harness's own in /bpfcheck, and the
# BPF objects beside it (its build's bpf/) replace the harness's.
if [ -n "$PAYLOAD_TEST_PROGS" ]; then
	VT_GUEST_BINS=bench
	VT_BPF_OBJS=$(dirname "$PAYLOAD_TEST_PROGS")/bpf
fi
VT_CWD=/tmp
if [ $# -gt 0 ]; then
	payload_command "$1"
	shift
	VT_CMD=$(vt_quote "$PAYLOAD_WORD" "$@")
	default_cmd=0
	VT_CWD=$PWD
else
	VT_CMD=suite
	default_cmd=1
fi

case "${VMTEST_ICOUNT:-0}" in
0) ;;
1)
	[ "${VMTEST_ACCEL:-tcg}" = tcg ] || bad_usage "--icount needs TCG, not --accel $VMTEST_ACCEL"
	[ "$vng" = 0 ] || bad_usage "--icount and --vng do not go together"
	VMTEST_ACCEL=tcg
	vm_icount
	;;
*) bad_usage "VMTEST_ICOUNT is 0 or 1, not '$VMTEST_ICOUNT'" ;;
esac
[ -z "$bmf" ] || [ -n "$bench$cost" ] || bad_usage "--bmf goes with --bench or --cost"
[ -z "$csv" ] || [ -n "$cost" ] || bad_usage "--csv goes with --cost"
if [ -n "$cost" ]; then
	[ "$default_cmd" = 1 ] && [ -z "$bench" ] ||
		bad_usage "--cost runs its own command: no --bench, no '-- COMMAND'"
	[ -x "$OUTPUT/bench" ] || vt_die "$OUTPUT/bench is missing: build it first ('make bench-bin')"
	VT_CMD=$(cost_guest_cmd)
fi
[ "$PAYLOAD_NKMOD" = 0 ] || [ "$vng" = 0 ] ||
	bad_usage "--kmod needs vmtest's own guest init, not --vng"
if [ -n "$bench" ]; then
	[ "$default_cmd" = 1 ] || bad_usage "--bench runs its own command: no '-- COMMAND'"
	# shellcheck source=bench.sh
	. "$VT_SRCDIR/vmtest/bench.sh"
	plan=$(bench_plan "$bench") || exit
	[ -x "$OUTPUT/bench" ] || vt_die "$OUTPUT/bench is missing: build it first ('make bench-bin')"
	VT_CMD=$(printf '%s\n' "$plan" | bench_guest_cmd)
	[ -n "$tmo" ] || tmo=$(printf '%s\n' "$plan" | bench_timeout)
fi

if [ "$nk" = 0 ]; then
	kernels=$(sed -e 's/#.*//' "$VT_SRCDIR/vmtest/kernels.conf" | awk 'NF { print $1 "\t" }')
	nk=$(printf '%s' "$kernels" | grep -c .)
	[ "$nk" -gt 0 ] || bad_usage "no -k KERNEL and no kernels in vmtest/kernels.conf"
fi

if [ "$vng" = 1 ]; then
	# shellcheck source=vng.sh
	. "$VT_SRCDIR/vmtest/vng.sh"
	vng_check
	kernels=$(printf '%s' "$kernels" | while IFS='	' read -r s m; do
		a=$(vng_alias "$s") || exit
		printf '%s\t%s\n' "$a" "$m"
	done) || exit
fi

# ---- the host's tools ----------------------------------------------------

missing=
for t in "$VT_QEMU" cpio objcopy xz jq apt-get dpkg-deb timeout flock ps \
	file tsort base64 ldd; do
	command -v "$t" >/dev/null 2>&1 || missing="$missing $t"
done
[ -z "$missing" ] || vt_die "missing host tools:$missing (run 'make deps')"
[ "$default_cmd" = 0 ] || [ -n "$PAYLOAD_TEST_PROGS" ] || [ -x "$OUTPUT/test_progs" ] ||
	vt_die "$OUTPUT/test_progs is missing: build it first ('make')"

mkdir -p "$VT_OUT" "$VT_CACHE" || exit 1
work=$(mktemp -d "$VT_OUT/run.XXXXXX") || exit 1
case "$work" in
*,*) vt_die "the work directory '$work' contains a comma, which QEMU's -serial cannot take; set VMTEST_OUT" ;;
esac

# ---- cleanup: no QEMU outlives this script -------------------------------

cleanup() {
	# All at once, before one dies and its children are reparented: a
	# guest job's QEMU may not have written its pid file yet.
	pids=$(vt_descendants $$ | tr '\n' ' ')
	job_pids=
	[ ! -f "$work/jobs" ] || job_pids=$(tr '\n' ' ' <"$work/jobs")
	for d in "$work"/k* "$work/probe"; do
		for f in "$d/qemu.pid" "$d/timeout.pid"; do
			[ -s "$f" ] && pids="$pids $(cat "$f" 2>/dev/null)"
		done
	done
	# shellcheck disable=SC2086
	[ -z "$pids$job_pids" ] || kill -TERM $pids $job_pids 2>/dev/null
	n=0
	for p in $pids; do
		while kill -0 "$p" 2>/dev/null && [ "$n" -lt 30 ]; do
			sleep 0.1
			n=$((n + 1))
		done
		kill -KILL "$p" 2>/dev/null
	done
	if [ "$keep" = 1 ]; then
		vt_log "kept $work"
	else
		rm -rf "$work"
	fi
}
interrupted() {
	# Our stderr may be a pipe whose reader died with us: no SIGPIPE
	# before the guests are stopped.
	trap '' PIPE
	trap - EXIT INT TERM HUP
	cleanup
	vt_log "interrupted: guests stopped"
	exit 130
}
trap cleanup EXIT
trap interrupted INT TERM HUP

# ---- 1, 2: the kernels ---------------------------------------------------

vt_cache_lock 900

: >"$work/fetch.list"
labels=" "
i=0
# Read on fd 8: what runs in the loop (apt) must not eat the list.
while IFS='	' read -r spec mods <&8; do
	[ -n "$spec" ] || continue
	i=$((i + 1))
	kernel_resolve "$spec" "$mods"
	case "$K_KIND" in
	deb) label=$spec ;;
	*) label=$K_RELEASE ;;
	esac
	base=$label n=1
	while case "$labels" in *" $label "*) true ;; *) false ;; esac; do
		n=$((n + 1))
		label="$base#$n"
	done
	labels="$labels$label "
	kargs="-k $(vt_quote "$spec")${mods:+ --modules $(vt_quote "$mods")}"
	d=$work/k$i
	mkdir -p "$d"
	kernel_env "$spec" "$mods" "$label" "$kargs" >"$d/kernel.env"
	kernel_fetch_list >>"$work/fetch.list"
done 8<<EOF_KERNELS
$kernels
EOF_KERNELS

kernel_fetch "$work/fetch.list"
flock -u 7
exec 7>&-

i=0
while [ "$i" -lt "$nk" ]; do
	i=$((i + 1))
	d=$work/k$i
	# shellcheck disable=SC1091
	. "$d/kernel.env"
	if [ "$K_KIND" = deb ]; then
		kernel_load_cached
		from=$K_PKGS
		printf 'K_IMAGE=%s\nK_CONFIG=%s\nK_MODDIR=%s\n' "$(vt_quote "$K_IMAGE")" \
			"$(vt_quote "$K_CONFIG")" "$(vt_quote "$K_MODDIR")" >>"$d/kernel.env"
	else
		from=$K_IMAGE
	fi
	vt_log "$K_LABEL: $K_RELEASE ($from)"
done

# ---- 3: configuration ----------------------------------------------------

i=0
while [ "$i" -lt "$nk" ]; do
	i=$((i + 1))
	d=$work/k$i
	# shellcheck disable=SC1091
	. "$d/kernel.env"
	if [ -z "$K_CONFIG" ]; then
		vt_warn "$K_LABEL: no kernel .config found next to $K_IMAGE; options not checked"
		continue
	fi
	for frag in config config.vm; do
		out=$(kernel_config_check "$VT_SRCDIR/$frag")
		if printf '%s\n' "$out" | grep -q '^CONFIG_'; then
			if [ "$frag" = config ]; then
				vt_warn "$K_LABEL: the kernel lacks options the suite needs; these tests will SKIP:"
			else
				vt_warn "$K_LABEL: the kernel lacks options the VM needs; it may not boot or run init:"
			fi
			printf '%s\n' "$out" | grep '^CONFIG_' | sed 's/^/    /' >&2
		fi
	done
done

# ---- 4, 5: initramfs and accelerator -------------------------------------

bkey=$(initramfs_base_key)
if ! initramfs_cache_get "$bkey" "$work/base.cpio"; then
	initramfs_base "$work/stage-base" "$work/base.cpio" ||
		vt_die "cannot build the initramfs"
	rm -rf "$work/stage-base"
	initramfs_cache_put "$bkey" "$work/base.cpio"
fi
# Unpacked first in the guest: what the harness ships wins over it.
payload_build "$work/stage-payload" "$work/payload.cpio" ||
	vt_die "cannot build the payload archive"
rm -rf "$work/stage-payload"

# The probe guest: the first kernel, command "true".
# shellcheck disable=SC1091
. "$work/k1/kernel.env"
if ! vm_accel_cached "$VT_CACHE/accel"; then
	mkdir -p "$work/probe"
	initramfs_run "$work/stage-run" "$work/probe/run.cpio" probe 10 true &&
		cat "$work/base.cpio" "$work/probe/run.cpio" >"$work/probe/initrd" ||
		vt_die "cannot build the probe initramfs"
	vm_probe_accel "$work/probe" "$K_IMAGE" "$work/probe/initrd"
	vm_accel_save "$VT_CACHE/accel"
fi
vt_log "accelerator: $(echo "$VT_ACCEL" | tr a-z A-Z) ($VT_ACCEL_NOTE)"

if [ "$VT_ACCEL" = kvm ]; then
	scale=1
else
	scale=${VMTEST_TCG_SCALE:-4}
fi
[ -n "$tmo" ] || tmo=$((60 * scale))
# Boot allowance: vng's init does much more than ours (some 35 s, TCG).
boot=15
[ "$vng" = 1 ] && boot=45
limit=$((boot * scale + tmo + 10 * scale))

initramfs_run "$work/stage-run" "$work/run.cpio" vmtest "$tmo" "$VT_CMD" "$VT_CWD" ||
	vt_die "cannot build the initramfs"
i=0
while [ "$i" -lt "$nk" ]; do
	i=$((i + 1))
	d=$work/k$i
	# shellcheck disable=SC1091
	. "$d/kernel.env"
	[ "$vng" = 1 ] && continue
	# A Debian kernel's modules do not change in the cache.
	mkey="modules+config $K_KDIR $(cat "$VT_SRCDIR/vmtest/modules.conf")"
	if [ -z "$K_KDIR" ] || ! initramfs_cache_get "$mkey" "$d/modules.cpio" "$d/modules.log"; then
		initramfs_modules "$K_MODDIR" "$K_RELEASE" "$work/stage-mod" \
			"$d/modules.cpio" "$d/modules.log" "$K_CONFIG" ||
			vt_die "cannot stage the modules of $K_LABEL"
		[ -z "$K_KDIR" ] || initramfs_cache_put "$mkey" "$d/modules.cpio" "$d/modules.log"
	fi
	loaded=$(grep -v ': not a module' "$d/modules.log" | cut -d: -f1 | tr '\n' ' ')
	absent=$(sed -n 's/^\([^:]*\): not a module.*/\1/p' "$d/modules.log" | tr '\n' ' ')
	vt_log "$K_LABEL: modules: ${loaded:-none }${absent:+(built in or absent: ${absent% })}"
	cat "$work/payload.cpio" "$work/base.cpio" "$d/modules.cpio" "$work/run.cpio" \
		>"$d/initrd" ||
		vt_die "cannot write the initramfs of $K_LABEL"
	rm -f "$d/modules.cpio"
done
rm -rf "$work/stage-mod" "$work/stage-run"
vm_size_memory "$work"/k*/initrd

# ---- 6: the guests -------------------------------------------------------

if [ -z "$jobs" ]; then
	cores=$(vt_nproc)
	bymem=$(($(vt_mem_avail_mb) / (VT_MEM + 256)))
	jobs=$cores
	# A --bench guest runs for its benchmarks' seconds (or, under icount,
	# counts instructions) whatever the others do: start them all.
	[ -z "$bench$cost" ] || jobs=$nk
	[ "$bymem" -lt "$jobs" ] && jobs=$bymem
	[ "$jobs" -ge 1 ] || jobs=1
fi
[ "$jobs" -le "$nk" ] || jobs=$nk

guests_run "$work" "$nk" "$jobs" "$VT_ACCEL" "$tmo" "$limit" "$vng"

# ---- 7: the matrix -------------------------------------------------------

if [ "$PWD" = "$VT_SRCDIR" ]; then
	self=vmtest/vmtest.sh
else
	self=$VT_SRCDIR/vmtest/vmtest.sh
fi
guest_test_progs=/bpfcheck/test_progs
runner=qemu
[ -z "$PAYLOAD_TEST_PROGS" ] || self="$self --test-progs $(vt_quote "$PAYLOAD_TEST_PROGS")"
self=$self$PAYLOAD_KMODS
if [ "$vng" = 1 ]; then
	self="$self --vng"
	guest_test_progs=test_progs
	runner=vng
fi
if [ "$default_cmd" = 1 ]; then
	shown="suite (test_progs -J)"
else
	shown=$VT_CMD
fi
jq -n --arg accel "$VT_ACCEL" --arg note "$VT_ACCEL_NOTE" --arg cmd "$shown" \
	--arg self "$self" --arg tp "$guest_test_progs" --arg runner "$runner" \
	'{accelerator: $accel, accelerator_note: $note, command: $cmd,
	  runner: $runner, vmtest: $self, test_progs: $tp}' \
	>"$work/meta.json"
records=
i=0
while [ "$i" -lt "$nk" ]; do
	i=$((i + 1))
	if [ ! -s "$work/k$i/record.json" ]; then
		# shellcheck disable=SC1090,SC1091
		. "$work/k$i/kernel.env"
		vt_die "no record for $K_SPEC (the guest job failed)"
	fi
	records="$records $work/k$i/record.json"
done
# shellcheck disable=SC2086
sh "$VT_SRCDIR/vmtest/matrix.sh" build "$work/meta.json" $records \
	>"$work/matrix.json" || vt_die "cannot build the matrix"
if [ -n "$cost" ]; then
	cost_report "$work" "$nk" "$format" "$json" "$csv" "$bmf"
	exit
fi
if [ -n "$bench" ]; then
	bench_report "$work" "$nk" "$self" "$format" "$json" "$bmf" "$plan"
	exit
fi

# A custom command's output, and the console of guests that did not finish.
i=0
while [ "$i" -lt "$nk" ]; do
	i=$((i + 1))
	d=$work/k$i
	# shellcheck disable=SC1091
	. "$d/kernel.env"
	st=$(cat "$d/status")
	if [ "$default_cmd" = 0 ] && [ -f "$d/results/output.log" ]; then
		echo "---- [$K_LABEL] output of: $VT_CMD"
		tail -n 200 "$d/results/output.log"
	fi
	jq -r '.[] | "\(.file)\t\(.kind) during \(.during)"' "$d/splats.json" |
		while IFS='	' read -r f what; do
			echo "---- [$K_LABEL] kernel splat: $what ($f)"
			head -n 25 "$d/results/$f"
		done
	case "$st" in
	PANIC | BOOT_FAIL | NO_RESULT | TIMEOUT)
		echo "---- [$K_LABEL] $st: last console lines"
		tr -d '\r' <"$d/console.log" | grep -v '^$' | tail -n 15
		;;
	esac
done
[ "$default_cmd" = 1 ] && [ "$format" = text ] || echo

sh "$VT_SRCDIR/vmtest/matrix.sh" "$format" "$work/matrix.json"

if [ -n "$json" ]; then
	# Never replaces a device, FIFO or symlink at that path.
	sh "$VT_SRCDIR/scripts/publish.sh" "$work/matrix.json" "$json" ||
		vt_die "cannot write $json"
fi

bad=$(jq -r '[.kernels[] | select(.status != "PASS" and .status != "SKIP")] | length' \
	"$work/matrix.json")
# One kernel and the user's command: its exit code, when it has one.
if [ "$nk" = 1 ] && { [ "$default_cmd" = 0 ] || [ -n "$PAYLOAD_TEST_PROGS" ]; }; then
	# A FAIL the command did not see (a kernel splat) is still a failure.
	rc=$(jq -r '.kernels[0] | if .status == "TIMEOUT" then ""
		elif .status == "FAIL" and .exit_code == 0 then 1
		else .exit_code // "" end' \
		"$work/matrix.json")
	[ -n "$rc" ] && exit "$rc"
fi
[ "$bad" = 0 ]
