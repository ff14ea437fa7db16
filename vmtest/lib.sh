# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Helpers shared by the vmtest scripts (sourced; POSIX sh): messages,
# clocks, quoting, checksums.  Every message starts with "vmtest: ".

vt_log() {
	printf 'vmtest: %s\n' "$*" >&2
}

vt_warn() {
	printf 'vmtest: warning: %s\n' "$*" >&2
}

# A fatal error at run time (exit 1) or in the user's input (exit 2).
vt_die() {
	printf 'vmtest: %s\n' "$*" >&2
	exit 1
}

vt_usage_die() {
	printf 'vmtest: %s\n' "$*" >&2
	exit 2
}

# Free KiB on the file system that holds PATH (its nearest existing parent).
vt_free_kib() {	# PATH
	d=$1
	while [ ! -e "$d" ] && [ "$d" != / ]; do
		d=$(dirname "$d")
	done
	df -Pk "$d" 2>/dev/null | awk 'NR == 2 { print $4 }'
}

# A write to PATH failed: "no space left on device" when its file system is
# full (under 1 MiB free), else that it cannot be written.  Exit 1.
# The cache's lock (fd 7), held by whoever downloads into the cache or
# runs apt on its private state: vmtest's kernels, linux-source.sh,
# kmod-build.sh's headers, kernel-btf.sh's kernel.  Held until exit (or
# "flock -u 7").
vt_cache_lock() {	# SECONDS
	{ mkdir -p "$VT_CACHE" && exec 7>"$VT_CACHE/.lock"; } || vt_write_die "$VT_CACHE/.lock"
	flock -w "$1" 7 || vt_die "the cache $VT_CACHE stays locked by another vmtest or fetch"
}

vt_write_die() {	# PATH [WHAT]
	free=$(vt_free_kib "$1")
	if [ -n "$free" ] && [ "$free" -lt 1024 ]; then
		vt_die "no space left on device: cannot write $1 (${free} KiB free)"
	fi
	vt_die "cannot write $1${2:+ ($2)}"
}

# Stop before a step that writes about KIB KiB under DIR when its file
# system has less: the step would fail half-way and leave a partial file.
vt_need_space() {	# DIR KIB WHAT
	free=$(vt_free_kib "$1")
	[ -z "$free" ] || [ "$free" -ge "$2" ] ||
		vt_die "no space left on device: $1 has ${free} KiB free; $3 needs about $(($2 / 1024)) MiB"
}

# Wall clock in seconds with nanoseconds (GNU date).
vt_now() {
	date +%s.%N
}

# Seconds between two vt_now stamps, one decimal.
vt_elapsed() {	# START [END]
	awk -v a="$1" -v b="${2:-$(vt_now)}" 'BEGIN { printf "%.1f", b - a }'
}

# Each argument single-quoted for sh (only where it needs quoting), joined
# by spaces: a shell that reads the line (sh -c, a sourced file) gets the
# arguments back.
vt_quote() {
	sep=
	for a in "$@"; do
		case "$a" in
		"" | *[!A-Za-z0-9_./:=@%+,-]*)
			a="'$(printf '%s' "$a" | sed "s/'/'\\\\''/g")'" ;;
		esac
		printf '%s%s' "$sep" "$a"
		sep=' '
	done
}

vt_sha256() {	# FILE
	sha256sum "$1" | cut -d' ' -f1
}

# A name usable as a file name: KERNEL specs can be paths.
vt_slug() {	# TEXT
	printf '%s' "$1" | tr -c 'A-Za-z0-9._+-' '_' | cut -c1-60
}

vt_nproc() {
	nproc 2>/dev/null || getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1
}

# Available memory in MiB.
vt_mem_avail_mb() {
	awk '/^MemAvailable:/ { printf "%d", $2 / 1024; exit }' /proc/meminfo
}

# Every process below PID (children, then theirs): what a signal to
# vmtest alone must also stop, including a guest job's QEMU whose pid
# file is not written yet.
vt_descendants() {	# PID
	for _c in $(ps -o pid= --ppid "$1" 2>/dev/null); do
		echo "$_c"
		vt_descendants "$_c"
	done
}
