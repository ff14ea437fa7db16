# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
# shellcheck disable=SC2034 # vt_args sets the caller's variables
#
# vmtest's command line (sourced by vmtest.sh; POSIX sh).  vt_args reads
# the options, as getopts would, into these variables of the caller:
#   kernels  the kernels asked for, "SPEC<tab>MODULES_DIR" a line; nk, how many
#   jobs tmo format json keep vng bench bmf cost csv   the options' values
#   VMTEST_ACCEL VMTEST_ICOUNT                       --accel, --icount
# and hands --add/--test-progs to payload.sh and --cost's objects to
# cost.sh.  VT_ARGS_LEFT is the number of words left: the COMMAND.
# Bad usage: one line, exit 2.

bad_usage() {
	vt_usage_die "$* (see vmtest.sh --help)"
}

posint() {	# VALUE OPTION
	case "$1" in
	"" | *[!0-9]* | 0*) bad_usage "$2 needs a positive integer, not '$1'" ;;
	esac
}

# The kernels asked for, "SPEC<tab>MODULES_DIR" a line, in order; the last
# -k waits in k_spec/k_mods for a --modules that applies to it.
kernels=
k_spec=
k_mods=
kernel_arg_done() {
	[ -n "$k_spec" ] || return 0
	kernels="$kernels$k_spec	$k_mods
"
	k_spec='' k_mods=''
}
no_tab_nl() {	# OPTION VALUE
	case "$2" in
	*"	"* | *"
"*) bad_usage "$1 '$2': a tab or a newline is not allowed in it" ;;
	esac
}

nk=0
jobs=
tmo=
format=text
json=
keep=0
vng=0
bench=
bmf=
cost=
csv=

vt_args() {	# ARG...
	while [ $# -gt 0 ]; do
		case "$1" in
		-k | --kernel)
			[ $# -ge 2 ] || bad_usage "$1 needs a KERNEL"
			no_tab_nl "$1" "$2"
			kernel_arg_done
			nk=$((nk + 1))
			k_spec=$2
			shift 2
			;;
		--modules)
			[ $# -ge 2 ] || bad_usage "--modules needs a DIR"
			[ "$nk" -gt 0 ] || bad_usage "--modules DIR goes after the -k it applies to"
			no_tab_nl "$1" "$2"
			k_mods=$2
			shift 2
			;;
		-j | --jobs)
			[ $# -ge 2 ] || bad_usage "$1 needs a number"
			posint "$2" "$1"
			jobs=$2
			shift 2
			;;
		-j[0-9]*)
			jobs=${1#-j}
			posint "$jobs" -j
			shift
			;;
		--timeout)
			[ $# -ge 2 ] || bad_usage "--timeout needs seconds"
			posint "$2" --timeout
			tmo=$2
			shift 2
			;;
		--markdown) format=markdown; shift ;;
		--json)
			[ $# -ge 2 ] || bad_usage "--json needs a FILE"
			json=$2
			[ -d "$(dirname "$json")" ] ||
				bad_usage "--json '$json': directory $(dirname "$json") does not exist"
			shift 2
			;;
		--keep) keep=1; shift ;;
		--accel)
			[ $# -ge 2 ] || bad_usage "--accel needs kvm or tcg"
			case "$2" in kvm | tcg) VMTEST_ACCEL=$2 ;;
			*) bad_usage "--accel is kvm or tcg, not '$2'" ;; esac
			shift 2
			;;
		--vng) vng=1; shift ;;
		--add)
			[ $# -ge 2 ] || bad_usage "--add needs HOST_PATH[:GUEST_PATH]"
			payload_add "$2"
			shift 2
			;;
		--kmod)
			[ $# -ge 2 ] || bad_usage "--kmod needs a FILE.ko"
			payload_kmod "$2"
			shift 2
			;;
		--test-progs)
			[ $# -ge 2 ] || bad_usage "--test-progs needs a PATH"
			payload_test_progs "$2"
			shift 2
			;;
		--icount) VMTEST_ICOUNT=1; shift ;;
		--bench)
			bench=default
			case "${2:-}" in
			"" | -*) shift ;;
			*) bench=$2; shift 2 ;;
			esac
			;;
		--cost)
			if [ -z "$cost" ]; then
				# shellcheck source=cost.sh
				. "$VT_SRCDIR/vmtest/cost.sh"
				cost=1
			fi
			shift
			while [ $# -gt 0 ] && [ "${1#-}" = "$1" ]; do
				cost_obj "$1"
				shift
			done
			;;
		--csv)
			[ $# -ge 2 ] || bad_usage "--csv needs a FILE"
			csv=$2
			[ -d "$(dirname "$csv")" ] ||
				bad_usage "--csv '$csv': directory $(dirname "$csv") does not exist"
			shift 2
			;;
		--bmf)
			[ $# -ge 2 ] || bad_usage "--bmf needs a FILE"
			bmf=$2
			[ -d "$(dirname "$bmf")" ] ||
				bad_usage "--bmf '$bmf': directory $(dirname "$bmf") does not exist"
			shift 2
			;;
		-h | --help) usage; exit 0 ;;
		--version) vt_version; exit 0 ;;
		--) shift; break ;;
		*) bad_usage "unknown option '$1'" ;;
		esac
	done
	kernel_arg_done
	VT_ARGS_LEFT=$#
}
