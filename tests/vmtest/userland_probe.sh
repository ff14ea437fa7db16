#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Run in a vmtest guest by tests/vmtest/userland_check.sh: tries each thing
# of the guest userland's contract (vmtest/userland.conf) the way tests use
# it and prints one line per item, "userland: ITEM ok" or
# "userland: ITEM MISSING: what went wrong".  PTHREAD_EXIT names a program
# that ends its main thread with pthread_exit() (glibc then dlopens
# libgcc_s, which no ldd lists, so the payload does not bring it).
#
# Usage: userland_probe.sh PTHREAD_EXIT

item() {	# NAME COMMAND...
	name=$1
	shift
	if out=$("$@" 2>&1); then
		echo "userland: $name ok"
	else
		echo "userland: $name MISSING: $(echo "$out" | tail -n 1)"
	fi
}

# The shell system() and popen() run is not busybox (whose ash runs its
# own applets, e.g. its ip without netns, before anything on PATH).
not_busybox_sh() {
	exe=$(readlink /bin/sh)
	case "$(readlink -f /bin/sh)" in
	*busybox*) echo "/bin/sh is busybox ($exe)"; return 1 ;;
	esac
}

ip_netns() {
	ip netns add bpfcheck_probe &&
		ip -n bpfcheck_probe link set lo up &&
		ip -n bpfcheck_probe -o link show lo | grep -q UP &&
		ip netns del bpfcheck_probe
}

tc_clsact() {
	tc qdisc add dev lo clsact &&
		tc qdisc show dev lo | grep -q clsact &&
		tc qdisc del dev lo clsact
}

readelf_build_id() {
	readelf -n /bpfcheck/test_progs | grep -q 'Build ID: [0-9a-f]'
}

libgcc_s() {
	out=$("$1" 2>&1)
	[ "$out" = "pthread_exit: thread ended" ] || { echo "$out"; return 1; }
}

nft_ruleset() {
	nft add table inet bpfcheck_probe && nft list tables | grep -q bpfcheck_probe &&
		nft delete table inet bpfcheck_probe
}

item sh-not-busybox not_busybox_sh
item ip-netns ip_netns
item tc-clsact tc_clsact
item readelf readelf_build_id
item libgcc_s libgcc_s "$1"
item ping ping -c 1 -W 5 127.0.0.1
item nft nft_ruleset
item iptables iptables -L INPUT -n
item iptables-legacy iptables-legacy -L INPUT -n
item ethtool ethtool --version
item nc sh -c 'nc -h 2>&1 | grep -qi usage'
item sysctl sysctl -n kernel.ostype
item taskset taskset -p $$
