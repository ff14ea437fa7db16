# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# vmtest's input checks (sourced; POSIX sh): every option value and
# environment variable is checked before anything is downloaded, built or
# booted, so that a bad value costs a second, not a guest run whose
# results are then lost.  A bad value is one line naming it and the
# accepted form, exit 2.

# vt_int_in NAME VALUE MIN MAX: VALUE is a whole decimal number in range.
# (The shell's own arithmetic would say "Illegal number" or wrap around.)
vt_int_in() {
	case "$2" in
	"" | *[!0-9]* | 0?*)
		vt_usage_die "$1 '$2': expected a whole number from $3 to $4" ;;
	esac
	# Longer than the maximum has digits: too big (no overflow in test).
	if [ "${#2}" -gt "${#4}" ] || [ "$2" -lt "$3" ] || [ "$2" -gt "$4" ]; then
		vt_usage_die "$1 '$2': expected a whole number from $3 to $4"
	fi
}

# vt_env_int VAR VALUE MIN MAX: the environment variable VAR's VALUE,
# unless empty (which the scripts read as "the default").
vt_env_int() {
	[ -n "$2" ] || return 0
	vt_int_in "$1" "$2" "$3" "$4"
}

# vt_env_word VAR VALUE WORD...: VALUE, unless empty, is one of the WORDs.
vt_env_word() {
	_var=$1 _v=$2
	shift 2
	[ -n "$_v" ] || return 0
	for _w in "$@"; do
		[ "$_v" = "$_w" ] && return 0
	done
	vt_usage_die "$_var '$_v': expected one of: $*"
}

# An output file: its directory exists and is writable, and it is not a
# directory itself.  Checked now so that the results are not lost at the
# end of a run.
vt_check_out_file() {	# OPTION FILE
	_dir=$(dirname "$2")
	if [ -z "$2" ]; then
		vt_usage_die "$1 '': expected a file name"
	elif [ -d "$2" ]; then
		vt_usage_die "$1 '$2': is a directory (expected a file name)"
	elif [ ! -d "$_dir" ]; then
		vt_usage_die "$1 '$2': directory $_dir does not exist"
	elif [ -e "$2" ] && [ ! -w "$2" ]; then
		vt_usage_die "$1 '$2': the file is not writable"
	fi
	# Root passes every access() test: create (and remove) a file there,
	# as the final write will.
	_probe=$(mktemp "$_dir/.vmtest-probe.XXXXXX" 2>/dev/null) ||
		vt_usage_die "$1 '$2': cannot create files in directory $_dir"
	rm -f "$_probe"
}

# Every input of vmtest.sh: options already parsed into JOBS TIMEOUT JSON
# (empty when not given), and the environment.
vt_validate() {	# JOBS TIMEOUT JSON
	[ -z "$1" ] || vt_int_in -j "$1" 1 64
	[ -z "$2" ] || vt_int_in --timeout "$2" 1 86400
	[ -z "$3" ] || vt_check_out_file --json "$3"
	# Below 256 MiB the kernel and the initramfs do not fit: the guest
	# would only fail to boot after the whole boot allowance.
	vt_env_int VMTEST_MEM "${VMTEST_MEM:-}" 256 1048576
	vt_env_int VMTEST_SMP "${VMTEST_SMP:-}" 1 64
	vt_env_int VMTEST_TCG_SCALE "${VMTEST_TCG_SCALE:-}" 1 100
	vt_env_int VMTEST_APT_MAX_AGE "${VMTEST_APT_MAX_AGE:-}" 0 525600
	vt_env_int VMTEST_KVM_PROBE_TIMEOUT "${VMTEST_KVM_PROBE_TIMEOUT:-}" 1 600
	vt_env_int VMTEST_PROGRESS_SEC "${VMTEST_PROGRESS_SEC:-}" 1 3600
	vt_env_word VMTEST_TCG_THREAD "${VMTEST_TCG_THREAD:-}" single multi
	vt_env_word VMTEST_ACCEL "${VMTEST_ACCEL:-}" kvm tcg
}

# --version: the project's, and what the guests would run: the
# test_progs of OUTPUT (its libbpf and clang) and the host's QEMU.
vt_version() {
	echo "vmtest.sh (bpfcheck) $(sh "$VT_SRCDIR/scripts/version.sh")"
	if [ -x "$OUTPUT/test_progs" ]; then
		echo "test_progs: $("$OUTPUT/test_progs" --version | sed -n 2p)"
	else
		echo "test_progs: not built ($OUTPUT/test_progs)"
	fi
	_q=$("$VT_QEMU" --version 2>/dev/null | head -n 1) || _q=
	echo "qemu: ${_q:-$VT_QEMU not found}"
}
