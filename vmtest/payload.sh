# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The user's payload for vmtest (sourced; POSIX sh): the host command of
# "vmtest.sh -- CMD" and the files of "--add HOST_PATH[:GUEST_PATH]", with
# what they need to run, staged at their guest paths and packed into one
# more newc archive.  The guest unpacks it before the base archive, so the
# harness's busybox, /init and /bpfcheck always win over the payload.
#
#   payload_add SPEC         check and remember one --add (bad: exit 2)
#   payload_command WORD     where the guest finds the command: sets
#                            PAYLOAD_WORD (a host program is packed)
#   payload_test_progs PATH  --test-progs: PATH becomes /bpfcheck/test_progs
#   payload_kmod FILE        --kmod: a module the init loads before COMMAND
#   payload_build STAGE OUT  stage and pack everything remembered
#
# An ELF file brings its interpreter and the shared libraries ldd names on
# the host, at the same paths; a script brings its "#!" interpreter (and,
# for "#!/usr/bin/env NAME", NAME from the host's PATH).  Libraries loaded
# with dlopen() are not seen: bring them with --add.

: "${VT_SRCDIR:?payload.sh needs VT_SRCDIR}"

# "HOST<TAB>GUEST" lines, one per file or directory to bring.
PAYLOAD_LIST=
# The test_progs of --test-progs (absolute), or nothing.
PAYLOAD_TEST_PROGS=

payload_remember() {	# HOST GUEST
	PAYLOAD_LIST="$PAYLOAD_LIST$1	$2
"
}

# Guest paths the payload may not take: the guest's mounts and its init.
payload_guest_ok() {	# GUEST
	case "$1" in
	/ | /init | /proc | /proc/* | /sys | /sys/* | /dev | /dev/* | /bpfcheck | /bpfcheck/*)
		return 1 ;;
	/*) return 0 ;;
	esac
	return 1
}

payload_add() {	# SPEC
	host=$1 guest=
	if [ ! -e "$host" ]; then
		case "$1" in
		*:*) host=${1%:*} guest=${1##*:} ;;
		esac
	fi
	[ -e "${host:-/nonexistent/}" ] ||
		vt_usage_die "--add '$1': no such file or directory '$host' (--add HOST_PATH[:GUEST_PATH], see vmtest.sh --help)"
	[ -r "$host" ] || vt_usage_die "--add '$1': '$host' is not readable"
	habs=$(cd "$(dirname "$host")" && pwd)/$(basename "$host")
	[ -n "$guest" ] || guest=$habs
	payload_guest_ok "$guest" ||
		vt_usage_die "--add '$1': GUEST_PATH '$guest' must be an absolute path outside /proc, /sys, /dev, /init and /bpfcheck"
	payload_remember "$habs" "$guest"
}

# --test-progs PATH: the suite runs PATH as /bpfcheck/test_progs.
payload_test_progs() {	# PATH
	if [ ! -f "$1" ] || [ ! -x "$1" ]; then
		vt_usage_die "--test-progs '$1' is not an executable file (a test_progs built with 'make TESTS_DIR=DIR')"
	fi
	payload_is_elf "$1" || vt_usage_die "--test-progs '$1' is not an ELF program"
	PAYLOAD_TEST_PROGS=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	payload_remember "$PAYLOAD_TEST_PROGS" /bpfcheck/test_progs
	# The library its __jited checks open (dlopen: ldd does not name it),
	# at the path it was built to open, where the build says which
	# (scripts/llvm-jit.mk) and the host has it.
	llvm=$(cat "$(dirname "$1")/llvm-lib" 2>/dev/null) || return 0
	[ -n "$llvm" ] && [ -f "$llvm" ] || return 0
	payload_remember "$(readlink -f "$llvm")" "$llvm"
}

# --kmod FILE: the guest's init loads it (insmod) before the command, in
# the order given: /kmods/NN-NAME.ko sorts that way.
PAYLOAD_NKMOD=0
# " --kmod 'FILE'..." (absolute): for the commands that reproduce a cell.
PAYLOAD_KMODS=
payload_kmod() {	# FILE
	case "$1" in
	*.ko) ;;
	*) vt_usage_die "--kmod '$1' is not a .ko file (an uncompressed kernel module)" ;;
	esac
	if [ ! -f "$1" ] || [ ! -r "$1" ]; then
		vt_usage_die "--kmod '$1': no such readable file"
	fi
	payload_is_elf "$1" || vt_usage_die "--kmod '$1' is not an ELF file"
	PAYLOAD_NKMOD=$((PAYLOAD_NKMOD + 1))
	ko=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
	PAYLOAD_KMODS="$PAYLOAD_KMODS --kmod $(vt_quote "$ko")"
	payload_remember "$ko" "/kmods/$(printf '%02d' "$PAYLOAD_NKMOD")-$(basename "$1")"
}

# Commands the guest has without a payload: its busybox applets and the
# harness's own (on the guest's PATH, /bpfcheck first).
payload_in_guest() {	# NAME
	case "$1" in
	suite | test_progs | bench) return 0 ;;
	esac
	"$VT_BUSYBOX" --list 2>/dev/null | grep -qxF "$1"
}

# Sets PAYLOAD_WORD to what the guest runs for WORD, the first word of
# COMMAND; a host program is remembered for the payload.
# shellcheck disable=SC2034 # PAYLOAD_WORD is read by vmtest.sh
payload_command() {	# WORD
	PAYLOAD_WORD=$1
	case "$1" in
	/bpfcheck/*) return 0 ;;
	*/*)
		[ -f "$1" ] || vt_usage_die "command '$1' does not exist on the host (COMMAND is a host path, a name on PATH, or a busybox applet)"
		[ -x "$1" ] || vt_usage_die "command '$1' is not executable"
		# A relative path stays as given: the guest's working
		# directory is the host's (see vmtest.sh --help).
		path=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
		;;
	*)
		payload_in_guest "$1" && return 0
		path=$(command -v "$1" 2>/dev/null)
		case "$path" in
		/*) ;;
		*) vt_usage_die "command '$1' is not on the host's PATH, nor a busybox applet or a harness command of the guest" ;;
		esac
		PAYLOAD_WORD=$path
		;;
	esac
	payload_remember "$path" "$path"
}

payload_is_elf() {	# FILE
	[ "$(head -c 4 "$1" 2>/dev/null | od -An -c | tr -d ' \n')" = '177ELF' ]
}

# Copy HOST to GUEST under ROOT (a symlink's target, not the link).
payload_copy() {	# ROOT HOST GUEST
	mkdir -p "$1$(dirname "$3")" || return 1
	if [ -d "$2" ]; then
		mkdir -p "$1$3" && cp -RL "$2/." "$1$3/"
	else
		cp -L "$2" "$1$3"
	fi
}

# Where the guest finds PROGRAM (a path): busybox's applet of that name
# stands in for it in the usual directories, else the host's copy comes.
payload_program() {	# ROOT PROGRAM
	name=$(basename "$2")
	case "$(dirname "$2")" in
	/bin | /sbin | /usr/bin | /usr/sbin)
		if payload_in_guest "$name"; then
			[ "$(dirname "$2")" = /bin ] && return 0
			mkdir -p "$1$(dirname "$2")" && ln -sf /bin/busybox "$1$2"
			return
		fi
		;;
	esac
	[ -e "$1$2" ] && return 0
	[ -e "$2" ] || return 0
	payload_copy "$1" "$2" "$2" && payload_needs "$1" "$2"
}

# The interpreter of a "#!" script into ROOT, and for "#!/usr/bin/env NAME"
# the program NAME (from the host's PATH unless busybox has it).
payload_script() {	# ROOT FILE
	# shellcheck disable=SC2046 # the "#!" line's words
	set -- "$1" $(head -n 1 "$2" | sed -n 's/^#![ \t]*//p')
	[ $# -ge 2 ] || return 0
	payload_program "$1" "$2" || return 1
	[ "$(basename "$2")" = env ] && [ $# -ge 3 ] || return 0
	payload_in_guest "$3" && return 0
	prog=$(command -v "$3" 2>/dev/null) || return 0
	case "$prog" in /*) payload_program "$1" "$prog" ;; esac
}

# What a regular FILE needs to run in the guest.
payload_needs() {	# ROOT FILE
	[ -f "$2" ] || return 0
	case "$2" in *.ko) return 0 ;; esac
	if payload_is_elf "$2"; then
		initramfs_libs "$1" "$2"
	elif [ "$(head -c 2 "$2")" = '#!' ]; then
		payload_script "$1" "$2"
	fi
}

payload_build() {	# STAGE OUT
	rm -rf "$1"
	mkdir -p "$1" || return 1
	printf '%s' "$PAYLOAD_LIST" | while IFS='	' read -r host guest; do
		[ -n "$host" ] || continue
		payload_copy "$1" "$host" "$guest" && payload_needs "$1" "$host" ||
			vt_die "cannot stage '$host' at '$guest' in the guest's payload"
	done || return 1
	initramfs_pack "$1" "$2"
}
