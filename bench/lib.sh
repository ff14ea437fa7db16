# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2154
# (guard and max_wait are set by the script that sources this.)
#
# The quiet guard of the bench scripts (sourced; POSIX sh): other busy
# processes share the CPUs with what is measured, so before a run wait
# until they leave the machine alone.  Set guard (CPUs, 0: off) and
# max_wait (seconds) before calling wait_quiet.

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
			echo "    machine still busy ($busy CPUs) after $waited s: running anyway" >&2
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
