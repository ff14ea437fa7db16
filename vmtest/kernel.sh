# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# Kernels for vmtest (sourced; POSIX sh): turn a KERNEL argument into a
# bootable image, its .config and its modules.
#
#   6.1, 6.12, 7.2, 6.12.117, 6.1.0-56, 6.12-generic, 7.2-cloud
#       a Debian kernel alias: the newest linux-image-*-cloud-amd64-unsigned
#       (or, in the newer split layout, linux-binary-unsigned-* with
#       linux-modules-* and linux-base-*) whose version starts with the
#       alias, from the host's Debian suite, its -security suite or sid;
#       "-generic" picks the generic (-amd64) flavour, which has 9p.
#       Downloaded with apt-get into a private apt state (the host's apt
#       sources and packages are never touched), checked against the
#       SHA256 of the package index, unpacked, and cached by release and
#       package version.
#   PATH/bzImage, /boot/vmlinuz-X   a kernel image (modules: --modules DIR,
#       else /lib/modules/RELEASE when it exists; config: config-X or
#       .config next to it)
#   PATH/                           a kernel build tree (arch/x86/boot/bzImage,
#       .config, modules found in the tree)
#
# kernel_resolve SPEC MODULES_DIR sets K_KIND (deb|image|tree), K_RELEASE,
# K_IMAGE, K_CONFIG, K_MODDIR and, for deb, K_PKGS ("name=version ..."),
# K_KEY (cache key) and K_KDIR (cache directory).  Bad input exits 2 with
# one line saying what was wrong; nothing is downloaded for it.

: "${VT_CACHE:?kernel.sh needs VT_CACHE}"

# shellcheck source=apt.sh
. "${VT_SRCDIR:?kernel.sh needs VT_SRCDIR}/vmtest/apt.sh"

# ---- Debian aliases ----------------------------------------------------

# Names of the kernel image packages in the lists (one apt-cache call per
# run: the names do not change within a run).
kernel_deb_names() {
	if [ -z "${KAPT_NAMES:-}" ]; then
		# apt-cache rebuilds its caches of the lists first: a failure
		# (a full disk) must not read as "no such kernel".
		kernel_apt_cache pkgnames linux- >"$KAPT/names.tmp" 2>"$KAPT/names.err" || {
			grep -q 'No space left' "$KAPT/names.err" 2>/dev/null &&
				vt_die "no space left on device: apt-cache cannot write its caches in $KAPT/cache"
			vt_die "apt-cache cannot read the package lists in $KAPT/lists: $(grep '^E:' "$KAPT/names.err" | head -n 1)"
		}
		KAPT_NAMES=$(grep -E '^linux-(image|binary-unsigned|modules|base)-[0-9]' \
			"$KAPT/names.tmp" | sort)
		rm -f "$KAPT/names.tmp" "$KAPT/names.err"
	fi
	printf '%s\n' "$KAPT_NAMES"
}

# Releases ("6.12.117+deb12-cloud-amd64") of FLAVOUR (cloud|generic) whose
# version starts with ALIAS (all of them for ""), oldest first.
kernel_deb_releases() {	# ALIAS FLAVOUR
	kernel_deb_names | sed -n -e 's/^linux-image-\(.*\)-unsigned$/\1/p' \
		-e 's/^linux-binary-unsigned-\(.*\)$/\1/p' |
	awk -v a="$1" -v fl="$2" -v arch="$VT_ARCH" '
	{
		r = $0
		if (fl == "cloud") {
			if (r !~ ("-cloud-" arch "$")) next
			v = substr(r, 1, length(r) - length("-cloud-" arch))
		} else {
			if (r !~ ("^[0-9][^-]*(-[0-9]+)?-" arch "$")) next
			v = substr(r, 1, length(r) - length("-" arch))
		}
		if (a == "" || v == a || index(v, a) == 1 &&
		    substr(v, length(a) + 1, 1) ~ /[-.+~]/)
			print v "\t" r
	}' | sort -u | sort -V -k1,1 | cut -f2
}

# Find the newest release matching alias SPEC and its packages: sets
# release, K_PKGS and K_PKGINFO.
kernel_alias_lookup() {	# SPEC
	alias=$1
	flavour=auto
	case "$alias" in
	*-cloud) flavour=cloud; alias=${alias%-cloud} ;;
	*-generic) flavour=generic; alias=${alias%-generic} ;;
	esac
	release=
	for _ in 1 2; do
		# Read the names here, not in a pipeline's subshell, so that a
		# failure to read them stops the run with its cause.
		kernel_deb_names >/dev/null
		for fl in cloud generic; do
			[ "$flavour" = auto ] || [ "$flavour" = "$fl" ] || continue
			release=$(kernel_deb_releases "$alias" "$fl" | tail -n 1)
			[ -n "$release" ] && break 2
		done
		# Not found in lists that were not refreshed by this run: refresh.
		[ "$KAPT_UPDATED" = 1 ] && break
		kernel_apt_update force
	done
	if [ -z "$release" ]; then
		have=$(kernel_deb_releases "" cloud | sed 's/-cloud-.*//' |
			awk -F'[.-]' '{ print $1 "." $2 }' | sort -uV | tr '\n' ' ')
		what="Debian kernel package"
		[ "$flavour" = auto ] || what="$flavour $what"
		vt_usage_die "unknown kernel alias '$1': no $what matches it in $KAPT_SUITES (available: ${have% }; or give a bzImage path or a build tree)"
	fi
	# Old layout: one linux-image-*-unsigned package; new: binary+modules+base.
	if kernel_deb_names | grep -qxF "linux-image-$release-unsigned"; then
		pkgs="linux-image-$release-unsigned"
	else
		pkgs=$(kernel_deb_names | grep -xF -e "linux-binary-unsigned-$release" \
			-e "linux-modules-$release" -e "linux-base-$release")
	fi
	# shellcheck disable=SC2086
	cands=$(kernel_deb_candidates $pkgs)
	[ -n "$cands" ] || vt_die "apt knows no candidate for the packages of $release"
	K_PKGS=$(printf '%s\n' "$cands" | awk '{ printf "%s%s=%s", (NR > 1 ? " " : ""), $1, $2 }')
	K_PKGINFO=$cands
}

# What a lookup depends on: the host's apt sources (the private sources
# are written from them) and the package lists, as they are.
kernel_alias_key() {
	stat -c '%n %Y %s' /etc/apt/sources.list /etc/apt/sources.list.d/* \
		"$KAPT/sources.list" "$KAPT"/lists/*_Packages* 2>/dev/null | cksum
}

# A lookup of SPEC with the same sources and lists as now: use it, and
# spare the seconds of apt-cache and apt-get --print-uris on every run.
kernel_alias_cache_load() {	# SPEC KEY
	f=$VT_CACHE/resolved/$(vt_slug "$1")
	[ -f "$f" ] || return 1
	key=
	# shellcheck disable=SC1090
	. "$f"
	[ "$key" = "$2" ] && [ -n "$release" ] && [ -n "$K_PKGINFO" ]
}

kernel_alias_cache_save() {	# SPEC KEY
	f=$VT_CACHE/resolved/$(vt_slug "$1")
	mkdir -p "$VT_CACHE/resolved" || return 0
	{
		printf 'key=%s\n' "$(vt_quote "$2")"
		printf 'release=%s\n' "$(vt_quote "$release")"
		printf 'K_PKGS=%s\n' "$(vt_quote "$K_PKGS")"
		printf 'K_PKGINFO=%s\n' "$(vt_quote "$K_PKGINFO")"
	} >"$f.tmp.$$" && mv "$f.tmp.$$" "$f"
}

kernel_resolve_alias() {	# SPEC
	if ! kernel_apt_fresh || ! kernel_alias_cache_load "$1" "$(kernel_alias_key)"; then
		kernel_apt_sources
		kernel_apt_update
		kernel_alias_lookup "$1"
		# After a refresh of the lists: the key with them.
		kernel_alias_cache_save "$1" "$(kernel_alias_key)"
	fi
	imgver=${K_PKGS%% *}
	imgver=${imgver#*=}
	K_KIND=deb
	K_RELEASE=$release
	K_KEY=$(vt_slug "${release}_$imgver")
	K_KDIR=$VT_CACHE/kernels/$K_KEY
	K_IMAGE='' K_CONFIG='' K_MODDIR=''
	if [ -f "$K_KDIR/.complete" ]; then
		kernel_load_cached
		kernel_cached_intact || {
			vt_warn "the cached kernel $K_KDIR is damaged ($K_DAMAGE): fetching it again"
			rm -rf "$K_KDIR"
			K_IMAGE='' K_CONFIG='' K_MODDIR=''
		}
	fi
}

# The cached image is the one unpacked: .complete holds its SHA256.  Caches
# from before that was recorded have an empty .complete: their image is
# taken as it is and its SHA256 recorded from then on.
kernel_cached_intact() {
	want=$(cat "$K_KDIR/.complete" 2>/dev/null)
	K_DAMAGE="no kernel image $K_IMAGE"
	[ -f "$K_IMAGE" ] || return 1
	if [ -z "$want" ]; then
		vt_sha256 "$K_IMAGE" >"$K_KDIR/.complete.new" 2>/dev/null &&
			mv "$K_KDIR/.complete.new" "$K_KDIR/.complete" ||
			rm -f "$K_KDIR/.complete.new"
		return 0
	fi
	K_DAMAGE="the image's SHA256 is not the one unpacked"
	[ "$(vt_sha256 "$K_IMAGE")" = "$want" ]
}

# What vmtest keeps of a resolved kernel (work/kN/kernel.env, sourced by
# the later phases): the user's SPEC and MODULES_DIR, its LABEL in the
# matrix, the -k arguments that reproduce it, and kernel_resolve's K_*.
kernel_env() {	# SPEC MODULES_DIR LABEL KARGS
	printf 'K_SPEC=%s\nK_MODS=%s\nK_LABEL=%s\nK_KARGS=%s\n' "$(vt_quote "$1")" \
		"$(vt_quote "$2")" "$(vt_quote "$3")" "$(vt_quote "$4")"
	printf 'K_KIND=%s\nK_RELEASE=%s\nK_IMAGE=%s\nK_CONFIG=%s\n' \
		"$(vt_quote "${K_KIND:-}")" "$(vt_quote "${K_RELEASE:-}")" \
		"$(vt_quote "${K_IMAGE:-}")" "$(vt_quote "${K_CONFIG:-}")"
	printf 'K_MODDIR=%s\nK_KEY=%s\nK_KDIR=%s\nK_PKGS=%s\n' \
		"$(vt_quote "${K_MODDIR:-}")" "$(vt_quote "${K_KEY:-}")" \
		"$(vt_quote "${K_KDIR:-}")" "$(vt_quote "${K_PKGS:-}")"
}

# Image, config and modules of an unpacked package set, from kernel.env.
kernel_load_cached() {
	K_IMAGE='' K_CONFIG='' K_MODDIR=''
	# shellcheck disable=SC1091
	. "$K_KDIR/kernel.env"
	K_IMAGE=$K_KDIR/$image
	K_CONFIG=${config:+$K_KDIR/$config}
	K_MODDIR=${moddir:+$K_KDIR/$moddir}
}

# Download, verify and unpack the packages of the kernels listed in
# LIST_FILE (lines "KEY RELEASE PACKAGE VERSION SHA256 ARCH", as
# kernel_fetch_list prints them): one apt-get call for
# every package that is not cached yet.
kernel_fetch() {	# LIST_FILE
	want=$(while read -r key _ p v _; do
		[ -f "$VT_CACHE/kernels/$key/.complete" ] || printf ' %s=%s' "$p" "$v"
	done <"$1")
	[ -n "$want" ] || return 0
	t0=$(vt_now)
	# shellcheck disable=SC2086
	if ! kernel_apt_download "$KAPT/download.log" $want; then
		grep '^\(E\|W\):' "$KAPT/download.log" | head -n 3 >&2
		vt_die "apt-get download failed (see $KAPT/download.log)"
	fi
	bytes=0
	for key in $(cut -d' ' -f1 "$1" | uniq); do
		kdir=$VT_CACHE/kernels/$key
		[ -f "$kdir/.complete" ] && continue
		rm -rf "$kdir.tmp"
		mkdir -p "$kdir.tmp/root" || exit 1
		awk -v k="$key" '$1 == k' "$1" >"$kdir.tmp/packages.want"
		release=$(awk 'NR == 1 { print $2 }' "$kdir.tmp/packages.want")
		while read -r _ _ p ver sha arch; do
			deb=$(kernel_deb_file "$p" "$ver" "$arch")
			[ -f "$deb" ] || vt_die "apt-get download left no $deb"
			got=$(vt_sha256 "$deb")
			if [ "$got" != "$sha" ]; then
				rm -f "$deb"
				vt_die "checksum mismatch for $deb: SHA256 $got, the package index says $sha"
			fi
			bytes=$((bytes + $(wc -c <"$deb")))
			dpkg-deb -x "$deb" "$kdir.tmp/root" || {
				rm -rf "$kdir.tmp"
				vt_write_die "$kdir.tmp" "unpacking $deb"
			}
			echo "$p $ver $sha" >>"$kdir.tmp/packages"
			rm -f "$deb"
		done <"$kdir.tmp/packages.want"
		rm -f "$kdir.tmp/packages.want"
		kernel_index_tree "$kdir.tmp" "$release" ||
			vt_die "the packages of $key hold no kernel image"
		# shellcheck disable=SC1090,SC1091
		image=$(. "$kdir.tmp/kernel.env" && echo "$image")
		vt_sha256 "$kdir.tmp/$image" >"$kdir.tmp/.complete.new" &&
			mv "$kdir.tmp/.complete.new" "$kdir.tmp/.complete.sha" ||
			vt_write_die "$kdir.tmp/.complete.new"
		rm -rf "$kdir"
		mv "$kdir.tmp" "$kdir" && mv "$kdir/.complete.sha" "$kdir/.complete" ||
			vt_write_die "$kdir"
	done
	vt_log "downloaded, checked and unpacked $((bytes / 1048576)) MiB in $(vt_elapsed "$t0") s"
}

# The lines kernel_fetch wants for the kernel kernel_resolve found.
kernel_fetch_list() {
	[ "$K_KIND" = deb ] || return 0
	printf '%s\n' "$K_PKGINFO" | sed "s|^|$K_KEY $K_RELEASE |"
}

# Find image, config and modules in an unpacked tree; write kernel.env.
kernel_index_tree() {	# KDIR RELEASE
	image='' config='' moddir=''
	for f in "root/boot/vmlinuz-$2" "root/usr/lib/modules/$2/vmlinuz" \
		"root/usr/lib/modules/$2/vmlinuz.unsigned" \
		"root/lib/modules/$2/vmlinuz"; do
		[ -f "$1/$f" ] && { image=$f; break; }
	done
	for f in "root/boot/config-$2" "root/usr/lib/modules/$2/config" \
		"root/lib/modules/$2/config"; do
		[ -f "$1/$f" ] && { config=$f; break; }
	done
	for f in "root/lib/modules/$2" "root/usr/lib/modules/$2"; do
		[ -d "$1/$f/kernel" ] && { moddir=$f; break; }
	done
	[ -n "$image" ] || return 1
	printf 'image=%s\nconfig=%s\nmoddir=%s\n' "$image" "$config" \
		"$moddir" >"$1/kernel.env"
}

# scripts/config-check.sh FRAGMENT against K_CONFIG; for a Debian kernel
# (whose config in the cache never changes) its answer is kept there.
kernel_config_check() {	# FRAGMENT
	if [ -z "$K_KDIR" ]; then
		sh "$VT_SRCDIR/scripts/config-check.sh" "$1" "$K_CONFIG" 2>&1
		return
	fi
	f=$K_KDIR/config-check.$(cksum <"$1" | tr ' ' _)
	if [ ! -f "$f" ]; then
		sh "$VT_SRCDIR/scripts/config-check.sh" "$1" "$K_CONFIG" >"$f.$$" 2>&1
		mv "$f.$$" "$f"
	fi
	cat "$f"
}

# ---- local images and build trees --------------------------------------

# The release string a bzImage carries in its setup header, or nothing.
kernel_image_release() {	# IMAGE
	magic=$(dd if="$1" bs=1 skip=514 count=4 2>/dev/null)
	[ "$magic" = HdrS ] || return 1
	off=$(od -An -tu2 -j 526 -N 2 "$1" | tr -d ' ')
	dd if="$1" bs=1 skip=$((off + 512)) count=256 2>/dev/null |
		tr '\0' '\n' | head -n 1 | cut -d' ' -f1
}

kernel_resolve_path() {	# SPEC MODULES_DIR
	spec=$1
	K_CONFIG='' K_MODDIR='' K_PKGS='' K_KEY='' K_KDIR=''
	if [ -d "$spec" ]; then
		K_KIND=tree
		K_IMAGE=
		for f in arch/x86/boot/bzImage arch/x86_64/boot/bzImage; do
			[ -f "$spec/$f" ] && { K_IMAGE=$spec/$f; break; }
		done
		[ -n "$K_IMAGE" ] ||
			vt_usage_die "kernel build tree '$spec' has no arch/x86/boot/bzImage (build it first, or give the image's path)"
		[ -f "$spec/.config" ] && K_CONFIG=$spec/.config
		K_MODDIR=$spec
	elif [ -e "$spec" ]; then
		K_KIND=image
		K_IMAGE=$spec
		[ -r "$spec" ] || vt_usage_die "kernel image '$spec' is not readable"
		d=$(dirname "$spec")
		b=$(basename "$spec")
		for f in "$d/config-${b#vmlinuz-}" "$d/.config" "$d/config"; do
			case "$b" in vmlinuz-*) ;; *) [ "$f" = "$d/config-$b" ] && continue ;; esac
			[ -f "$f" ] && { K_CONFIG=$f; break; }
		done
	else
		vt_usage_die "kernel image '$spec' does not exist (KERNEL is a Debian alias like 6.1, 6.12, 7.2, a bzImage/vmlinuz path, or a kernel build tree)"
	fi
	K_RELEASE=$(kernel_image_release "$K_IMAGE") ||
		vt_usage_die "'$K_IMAGE' is not an x86 bzImage (no HdrS setup header); give a bzImage/vmlinuz, not a vmlinux ELF"
	[ -n "$K_RELEASE" ] || K_RELEASE=unknown
	mods=$2
	if [ -n "$mods" ]; then
		[ -d "$mods" ] || vt_usage_die "--modules '$mods' is not a directory"
		if [ -d "$mods/lib/modules/$K_RELEASE" ]; then
			K_MODDIR=$mods/lib/modules/$K_RELEASE
		elif [ -d "$mods/$K_RELEASE" ]; then
			K_MODDIR=$mods/$K_RELEASE
		else
			K_MODDIR=$mods
		fi
	elif [ "$K_KIND" = image ] && [ -d "/lib/modules/$K_RELEASE/kernel" ]; then
		K_MODDIR=/lib/modules/$K_RELEASE
	fi
	if [ -z "$K_CONFIG" ] && [ -n "$K_MODDIR" ] && [ -f "$K_MODDIR/config" ]; then
		K_CONFIG=$K_MODDIR/config
	fi
}

# ---- entry point -------------------------------------------------------

kernel_resolve() {	# SPEC MODULES_DIR
	case "$1" in
	*/* | .*) kernel_resolve_path "$1" "$2" ;;
	[0-9]*.[0-9]*)
		if [ -e "$1" ]; then
			kernel_resolve_path "$1" "$2"
		else
			case "$1" in
			*[!A-Za-z0-9.+~-]*)
				vt_usage_die "bad kernel alias '$1' (expected e.g. 6.1, 6.12, 7.2, 6.12-generic)" ;;
			esac
			[ -z "$2" ] ||
				vt_usage_die "--modules applies to a kernel image or build tree, not to the Debian alias '$1'"
			kernel_resolve_alias "$1"
		fi
		;;
	*)
		if [ -e "$1" ]; then
			kernel_resolve_path "$1" "$2"
		else
			vt_usage_die "unknown KERNEL '$1' (expected a Debian alias like 6.1, 6.12, 7.2, a bzImage/vmlinuz path, or a kernel build tree)"
		fi
		;;
	esac
}
