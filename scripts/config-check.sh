#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Compare the suite's config fragment with a kernel configuration and say
# which options are missing and which tests will therefore SKIP.
# Usage: config-check.sh [--strict] FRAGMENT [KERNEL_CONFIG]
# KERNEL_CONFIG defaults to /proc/config.gz, then /boot/config-$(uname -r).
# Exit: 0 (or 1 with --strict when something is missing), 2 on bad input.
set -eu

strict=0
if [ "${1:-}" = --strict ]; then
	strict=1
	shift
fi
fragment=${1:-}
kconfig=${2:-}

if [ -z "$fragment" ] || [ ! -r "$fragment" ]; then
	echo "config-check: cannot read fragment '${fragment}'" \
		"(usage: config-check.sh [--strict] FRAGMENT [KERNEL_CONFIG])" >&2
	exit 2
fi

read_kconfig() {
	if [ -n "$kconfig" ]; then
		case "$kconfig" in
		*.gz) zcat "$kconfig" ;;
		*) cat "$kconfig" ;;
		esac
	elif [ -r /proc/config.gz ]; then
		zcat /proc/config.gz
	elif [ -r "/boot/config-$(uname -r)" ]; then
		cat "/boot/config-$(uname -r)"
	else
		return 1
	fi
}

tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if ! read_kconfig >"$tmp" 2>/dev/null || [ ! -s "$tmp" ]; then
	echo "config-check: no kernel config found (tried" \
		"${kconfig:-/proc/config.gz and /boot/config-$(uname -r)})" >&2
	exit 2
fi

missing=0
checked=0
tests="all"
while IFS= read -r line; do
	case "$line" in
	"# tests:"*)
		tests=${line#"# tests:"}
		tests=${tests# }
		;;
	CONFIG_*=*)
		opt=${line%%=*}
		want=${line#*=}
		checked=$((checked + 1))
		have=$(grep -E "^$opt=" "$tmp" | tail -n1 | cut -d= -f2-)
		# A module is as good as built-in: tests load modules.
		if [ "$have" = "$want" ] || { [ "$want" = y ] && [ "$have" = m ]; }; then
			:
		else
			missing=$((missing + 1))
			printf '%-45s want %s, kernel has %s -> SKIP: %s\n' \
				"$opt" "$want" "${have:-not set}" "$tests"
		fi
		;;
	esac
done <"$fragment"

echo "config-check: $checked options checked, $missing missing"
if [ "$missing" -gt 0 ] && [ "$strict" = 1 ]; then
	exit 1
fi
exit 0
