# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2154,SC2034
# (SCRIPT, guard and max_wait are set by the script that sources this,
# which also reads warmup and out.)
#
# What the bench scripts share (sourced; POSIX sh): one-line errors, the
# checks of their options, their usage text, and the quiet guard: other
# busy processes share the CPUs with what is measured, so before a run
# wait until they leave the machine alone.  Set SCRIPT (the name errors
# start with), guard (CPUs, 0: off) and max_wait (seconds).

# One line on stderr and exit 2 (bad usage, or a run that failed).
die() {
	echo "$SCRIPT: $*" >&2
	exit 2
}

is_uint() {
	case $1 in
	'' | *[!0-9]*) return 1 ;;
	esac
}

# A whole number of at least MIN, printed; else die naming the option.
# Use as: x=$(opt_uint -d "$OPTARG" 1 "whole seconds") || exit
opt_uint() {	# OPTION VALUE MIN WHAT
	if ! is_uint "$2" || [ "$2" -lt "$3" ]; then
		die "$1 '$2': expected $4, at least $3"
	fi
	echo "$2"
}

# Words of LIST each one of the ACCEPTED words, printed; else die.
opt_words() {	# OPTION LIST ACCEPTED
	for _w in $2; do
		case " $3 " in
		*" $_w "*) ;;
		*) die "$1 '$_w': expected one of: $3" ;;
		esac
	done
	[ -n "$2" ] || die "$1 '': expected one or more of: $3"
	echo "$2"
}

# A number of CPUs such as 0.15, printed; else die naming the option.
opt_cpus() {	# OPTION VALUE
	echo "$2" | grep -Eq '^[0-9]+(\.[0-9]+)?$' ||
		die "$1 '$2': expected a number of CPUs, e.g. 0.15"
	echo "$2"
}

# The "# Usage" block of the script's header comment, as help.
usage() {
	sed -n '/^# Usage/,/^set -eu/p' "$0" | sed '$d; s/^# \{0,1\}//'
	exit 0
}

# The options every bench script takes, into warmup, out, guard, max_wait.
common_opt() {	# OPT VALUE
	case $1 in
	w) warmup=$(opt_uint -w "$2" 0 "whole seconds") || exit ;;
	o) out=$2 ;;
	g) guard=$(opt_cpus -g "$2") || exit ;;
	W) max_wait=$(opt_uint -W "$2" 0 "whole seconds") || exit ;;
	h) usage ;;
	# getopts is silent (a leading ':'): OPTARG is the option letter.
	:) die "option -$2 needs a value (see -h)" ;;
	*) die "unknown option '-$2' (see -h)" ;;
	esac
}

# CPUs' worth of time busy over one second, from /proc/stat.
busy_cpus() {
	a=$(head -n 1 /proc/stat)
	sleep 1
	b=$(head -n 1 /proc/stat)
	echo "$a $b $(getconf CLK_TCK)" | awk '{
		# user nice system idle iowait irq softirq steal, then again
		busy = 0
		for (i = 2; i <= 9; i++)
			if (i != 5 && i != 6)
				busy += $(i + 11) - $i
		printf "%.2f", busy / $NF }'
}

# Before a run: wait until other processes use less than $guard CPUs.
wait_quiet() {
	[ "$guard" != 0 ] || return 0
	waited=0
	while :; do
		busy=$(busy_cpus)
		awk -v b="$busy" -v g="$guard" 'BEGIN { exit !(b < g) }' && return 0
		if [ "$waited" -ge "$max_wait" ]; then
			echo "    machine still busy ($busy CPUs) after $waited s:" \
				"running anyway" >&2
			return 0
		fi
		[ "$waited" -gt 0 ] ||
			echo "    machine busy ($busy CPUs used by others): waiting" >&2
		sleep 4
		waited=$((waited + 5))
	done
}

# Whether a number of CPUs is below the guard (always, with the guard off).
quiet_enough() {	# CPUS
	[ "$guard" = 0 ] || awk -v o="$1" -v g="$guard" 'BEGIN { exit !(o < g) }'
}
