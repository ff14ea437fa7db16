# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# The guest's userland beyond busybox (sourced by initramfs.sh; POSIX sh):
# the programs, plugin directories and dlopen'ed libraries of
# vmtest/userland.conf, copied from the host with the shared libraries they
# need.  VMTEST_USERLAND names another list (the contract check uses one
# with entries left out, which must then fail).

# shellcheck disable=SC2034 # read by initramfs.sh, which sources this
VT_USERLAND=${VMTEST_USERLAND:-$VT_SRCDIR/vmtest/userland.conf}

# The list's entries, "KIND NAME PACKAGE" a line.
userland_entries() (	# CONF
	sed -e 's/#.*//' "$1" | awk 'NF >= 3 { print $1, $2, $3 }'
)

# The host file an entry stands for, or nothing when the host lacks it.
userland_host_path() (	# KIND NAME
	case "$1" in
	bin) PATH=/usr/sbin:/usr/bin:/sbin:/bin command -v "$2" 2>/dev/null ;;
	lib) /sbin/ldconfig -p 2>/dev/null |
		awk -v n="$2" '$1 == n && /x86-64/ { print $NF; exit }' ;;
	dir) [ -d "$2" ] && echo "$2" ;;
	esac
)

# Every host file the staged userland is made of: the base archive's cache
# key (initramfs_base_key) stats them, so an upgraded package rebuilds it.
userland_files() (	# CONF
	userland_entries "$1" | while read -r kind name _; do
		p=$(userland_host_path "$kind" "$name")
		[ -n "$p" ] || continue
		echo "$p"
		[ "$kind" = dir ] && find "$p" -type f
		[ "$kind" = dir ] || readlink -f "$p"
	done
	echo "$1"
)

# The bin names of the list: busybox does not link its applet for these.
userland_bin_names() (	# CONF
	userland_entries "$1" | awk '$1 == "bin" { print $2 }'
)

# Copy host file PATH and, if it is a symlink, what it resolves to, into
# ROOT at the same paths (a link stays a link: multi-call binaries such as
# xtables-nft-multi are stored once).
userland_copy() (	# ROOT PATH
	real=$(readlink -f "$2") || return 1
	[ -e "$1$real" ] || initramfs_copy_abs "$1" "$real" || return 1
	[ "$real" = "$2" ] && return 0
	mkdir -p "$1$(dirname "$2")" && ln -sf "$real" "$1$2"
)

userland_version() (	# PACKAGE
	dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo unknown
)

# Stage the list CONF into ROOT, with ROOT/bpfcheck/userland.txt naming each
# entry, its path in the guest, its package and version.  A program or
# library the host lacks stops the build and names the package to install.
userland_stage() (	# ROOT CONF
	manifest=$1/bpfcheck/userland.txt
	: >"$manifest" || return 1
	userland_entries "$2" | while read -r kind name pkg; do
		p=$(userland_host_path "$kind" "$name")
		if [ -z "$p" ]; then
			echo "vmtest: the guest userland needs $kind $name from Debian's $pkg," \
				"which this host lacks: run 'make deps'" >&2
			return 1
		fi
		case "$kind" in
		dir)
			mkdir -p "$1$p" && cp -a "$p/." "$1$p/" || return 1
			# shellcheck disable=SC2046 # one ldd over the plugins
			initramfs_libs "$1" $(find "$p" -name '*.so' -type f) || return 1
			;;
		bin)
			userland_copy "$1" "$p" && initramfs_libs "$1" "$p" &&
				ln -sf "$(readlink -f "$p")" "$1/bin/$name" || return 1
			;;
		lib)
			userland_copy "$1" "$p" || return 1
			;;
		esac
		echo "$kind $name $p $pkg $(userland_version "$pkg")" >>"$manifest"
	done
)
