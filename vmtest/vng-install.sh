#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install virtme-ng (vng) on Debian 12, for "vmtest.sh --vng".
#
# virtme-ng is not in bookworm.  sid's package (pure Python, arch all)
# installs on bookworm once its dependencies are there, all of which
# bookworm has.  So: the dependencies with apt-get from the host's own
# sources, then the one .deb fetched from sid through vmtest's private apt
# state (vmtest/cache/apt, as for kernels), checked against the SHA256 of
# the signed index, and installed with dpkg -i.  Nothing else comes from
# sid and nothing on the host is upgraded.  Does nothing if vng exists.
set -eu

VT_SRCDIR=$(cd "$(dirname "$0")/.." && pwd)
VT_CACHE=${VMTEST_CACHE:-$VT_SRCDIR/vmtest/cache}
# shellcheck source=lib.sh
. "$VT_SRCDIR/vmtest/lib.sh"
# shellcheck source=kernel.sh
. "$VT_SRCDIR/vmtest/kernel.sh"

if command -v vng >/dev/null 2>&1; then
	echo "vng-install: $(vng --version 2>/dev/null || echo vng) is installed"
	exit 0
fi
[ "$(id -u)" = 0 ] || vt_die "vng-install: run as root (it installs packages)"

deps="python3 python3-argcomplete python3-requests kbd kmod util-linux-extra \
file busybox-static iproute2 qemu-system-x86"
missing=
for p in $deps; do
	case "$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)" in
	*"ok installed") ;;
	*) missing="$missing $p" ;;
	esac
done
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	echo "vng-install: installing (bookworm):$missing"
	apt-get update -qq
	# shellcheck disable=SC2086
	apt-get install -y -qq --no-install-recommends $missing
fi

mkdir -p "$VT_CACHE"
kernel_apt_sources
kernel_apt_update
deb=$(kernel_deb_download virtme-ng)
echo "vng-install: installing $(basename "$deb") (sid) with dpkg -i"
dpkg -i "$deb"
rm -f "$deb"
vng --version
