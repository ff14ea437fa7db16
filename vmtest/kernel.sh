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

VT_ARCH=$(dpkg --print-architecture 2>/dev/null || echo amd64)
KAPT=$VT_CACHE/apt
KAPT_UPDATED=0

# ---- the private apt state ---------------------------------------------

# "URI SUITE" for every deb source the host has, one-line and deb822.
kernel_host_sources() {
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -r "$f" ] || continue
		awk '$1 == "deb" {
			i = 2
			if ($i ~ /^\[/) { while ($i !~ /\]$/) i++; i++ }
			print $i, $(i + 1)
		}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -r "$f" ] || continue
		awk '
		function flush() {
			if (types ~ /(^| )deb( |$)/ && enabled !~ /^no$/)
				for (u = 1; u <= nu; u++)
					for (s = 1; s <= ns; s++)
						print uris[u], suites[s]
			types = ""; enabled = ""; nu = 0; ns = 0
		}
		/^#/ { next }
		/^[ \t]*$/ { flush(); next }
		{
			key = tolower($1); sub(/:$/, "", key)
			if (key == "types:" || key == "types") {
				types = $0; sub(/^[^:]*:[ \t]*/, "", types)
			} else if (key == "enabled") {
				enabled = tolower($2)
			} else if (key == "uris") {
				for (i = 2; i <= NF; i++) uris[++nu] = $i
			} else if (key == "suites") {
				for (i = 2; i <= NF; i++) suites[++ns] = $i
			}
		}
		END { flush() }' "$f"
	done
}

# Write the private sources.list: the host's Debian suite, its -security
# suite and sid, from the same URIs the host already uses.
kernel_apt_sources() {
	codename=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	codename=${codename:-bookworm}
	srcs=$(kernel_host_sources)
	main_uri=$(printf '%s\n' "$srcs" | awk -v s="$codename" '$2 == s { print $1; exit }')
	sec_uri=$(printf '%s\n' "$srcs" | awk -v s="$codename-security" '$2 == s { print $1; exit }')
	if [ -z "$main_uri" ]; then
		vt_die "no apt source for Debian '$codename' in /etc/apt/sources.list{,.d}: vmtest downloads kernels from the host's Debian mirror"
	fi
	key=/usr/share/keyrings/debian-archive-keyring.gpg
	[ -r "$key" ] || vt_die "$key is missing (install debian-archive-keyring: make deps)"
	mkdir -p "$KAPT/lists/partial" "$KAPT/cache" "$KAPT/parts" \
		"$VT_CACHE/debs/partial" || exit 1
	: >"$KAPT/status.tmp" && mv "$KAPT/status.tmp" "$KAPT/status"
	{
		echo "# Written by vmtest/kernel.sh from the host's apt sources."
		echo "deb [signed-by=$key] $main_uri $codename main"
		[ -z "$sec_uri" ] ||
			echo "deb [signed-by=$key] $sec_uri $codename-security main"
		echo "deb [signed-by=$key] $main_uri sid main"
	} >"$KAPT/sources.list.new"
	if cmp -s "$KAPT/sources.list.new" "$KAPT/sources.list"; then
		rm -f "$KAPT/sources.list.new"
	else
		mv "$KAPT/sources.list.new" "$KAPT/sources.list"
		rm -f "$KAPT/lists/.updated"
	fi
	KAPT_SUITES="$codename${sec_uri:+, $codename-security}, sid"
}

kernel_apt_opts() {
	set -- -o "Dir::Etc::SourceList=$KAPT/sources.list" \
		-o "Dir::Etc::SourceParts=$KAPT/parts" \
		-o "Dir::Etc::Preferences=$KAPT/preferences" \
		-o "Dir::Etc::PreferencesParts=$KAPT/parts" \
		-o "Dir::State::Lists=$KAPT/lists" \
		-o "Dir::State::status=$KAPT/status" \
		-o "Dir::Cache=$KAPT/cache" \
		-o "Dir::Cache::pkgcache=pkgcache.bin" \
		-o "Dir::Cache::srcpkgcache=srcpkgcache.bin" \
		-o "Dir::Cache::archives=$VT_CACHE/debs" \
		-o "APT::Architectures=$VT_ARCH" \
		-o "Acquire::Languages=none" \
		-o "Acquire::PDiffs=false" \
		-o "APT::Sandbox::User=$(id -un)"
	vt_quote "$@"
}

kernel_apt_get() {
	eval "set -- $(kernel_apt_opts) \"\$@\""
	apt-get -q "$@"
}

kernel_apt_cache() {
	eval "set -- $(kernel_apt_opts) \"\$@\""
	apt-cache "$@"
}

# Refresh the package lists when they are older than VMTEST_APT_MAX_AGE
# minutes (default 360), or always with "force".  Offline with old lists:
# a warning, the old lists are used.
kernel_apt_update() {	# [force]
	if [ "${1:-}" != force ] && kernel_apt_fresh; then
		return 0
	fi
	[ "$KAPT_UPDATED" = 1 ] && return 0
	t0=$(vt_now)
	vt_log "updating package lists ($KAPT_SUITES)"
	if kernel_apt_get update >"$KAPT/update.log" 2>&1 &&
		! grep -q '^\(W\|E\): \(Failed\|Some index\)' "$KAPT/update.log"; then
		touch "$KAPT/lists/.updated"
		vt_log "package lists updated in $(vt_elapsed "$t0") s"
	elif ls "$KAPT/lists/"*Packages* >/dev/null 2>&1; then
		vt_warn "apt-get update failed (see $KAPT/update.log); using the package lists from $(date -r "$KAPT/lists" '+%F %R')"
	else
		sed -n '/^\(W\|E\):/p' "$KAPT/update.log" | head -n 3 >&2
		vt_die "cannot download the package lists ($KAPT_SUITES) from the host's Debian mirror"
	fi
	KAPT_UPDATED=1
	KAPT_NAMES=
}

# ---- Debian aliases ----------------------------------------------------

# Names of the kernel image packages in the lists (one apt-cache call per
# run: the names do not change within a run).
kernel_deb_names() {
	if [ -z "${KAPT_NAMES:-}" ]; then
		KAPT_NAMES=$(kernel_apt_cache pkgnames linux- 2>/dev/null |
			grep -E '^linux-(image|binary-unsigned|modules|base)-[0-9]' | sort)
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

# "PACKAGE VERSION SHA256 ARCH" of the candidate of each PACKAGE, from the
# URIs apt would download (fast: no full parse of the package records).
kernel_deb_candidates() {	# PACKAGE...
	kernel_apt_get download --print-uris "$@" 2>/dev/null | awk '
	{
		f = $2; sha = $4; sub(/^SHA256:/, "", sha)
		n = split(f, parts, "_")
		if (n != 3 || sha == $4) next
		arch = parts[3]; sub(/\.deb$/, "", arch)
		print parts[1], parts[2], sha, arch
	}'
}

# MiB with one decimal.
kernel_mib() {	# BYTES
	awk -v b="$1" 'BEGIN { printf "%.1f", b / 1048576 }'
}

# apt-get download PACKAGE=VERSION... into $VT_CACHE/debs, its output in
# LOG.  Says what and how much before it starts, then every
# VMTEST_PROGRESS_SEC seconds (5) how far it got.  apt-get runs in the
# background, so that a signal to vmtest is handled at once.
kernel_apt_download() {	# LOG PACKAGE=VERSION...
	_log=$1
	shift
	_uris=$(kernel_apt_get download --print-uris "$@" 2>/dev/null)
	_total=$(printf '%s\n' "$_uris" | awk '{ s += $3 } END { print s + 0 }')
	_from=$(printf '%s\n' "$_uris" | sed -n "1s|^'[a-z]*://\([^/']*\).*|\1|p")
	vt_log "downloading $(printf '%s ' "$@" | sed 's/=[^ ]*//g; s/ $//')" \
		"($(kernel_mib "$_total") MiB) from ${_from:-the Debian mirror}"
	_base=$(du -sb "$VT_CACHE/debs" | cut -f1)
	_t0=$(vt_now)
	(cd "$VT_CACHE/debs" && kernel_apt_get download "$@") >"$_log" 2>&1 &
	_pid=$!
	_n=0
	while kill -0 "$_pid" 2>/dev/null; do
		sleep 1
		_n=$((_n + 1))
		[ $((_n % ${VMTEST_PROGRESS_SEC:-5})) = 0 ] || continue
		_got=$(($(du -sb "$VT_CACHE/debs" | cut -f1) - _base))
		[ "$_got" -ge 0 ] || _got=0
		vt_log "downloading: $(kernel_mib "$_got") of $(kernel_mib "$_total") MiB" \
			"($(awk -v g="$_got" -v t="$_total" 'BEGIN {
				printf "%d", t ? g * 100 / t : 0 }')%) after $_n s"
	done
	wait "$_pid" || return 1
	vt_log "downloaded $(kernel_mib "$_total") MiB in $(vt_elapsed "$_t0") s"
}

# Where apt-get download puts PACKAGE VERSION ARCH (an epoch's ':' is %3a).
kernel_deb_file() {	# PACKAGE VERSION ARCH
	printf '%s/debs/%s_%s_%s.deb\n' "$VT_CACHE" "$1" \
		"$(printf '%s' "$2" | sed 's/:/%3a/g')" "$3"
}

# Download the candidate of PACKAGE into $VT_CACHE/debs, check it against
# the SHA256 of the signed index and print its path.  For packages other
# than kernels (virtme-ng, linux-source); the lists must be there
# (kernel_apt_sources, kernel_apt_update).
kernel_deb_download() {	# PACKAGE
	# shellcheck disable=SC2046 # "PACKAGE VERSION SHA256 ARCH" as words
	set -- "$1" $(kernel_deb_candidates "$1")
	[ $# -ge 5 ] || vt_die "no package $1 in $KAPT_SUITES"
	deb=$(kernel_deb_file "$2" "$3" "$5")
	if ! kernel_apt_download "$KAPT/download.log" "$2=$3"; then
		grep '^\(E\|W\):' "$KAPT/download.log" | head -n 3 >&2
		vt_die "apt-get download $2=$3 failed (see $KAPT/download.log)"
	fi
	got=$(vt_sha256 "$deb")
	if [ "$got" != "$4" ]; then
		rm -f "$deb"
		vt_die "checksum mismatch for $deb: SHA256 $got, the package index says $4"
	fi
	printf '%s\n' "$deb"
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

# The package lists are younger than VMTEST_APT_MAX_AGE minutes.
kernel_apt_fresh() {
	[ -n "$(find "$KAPT/lists/.updated" -mmin "-${VMTEST_APT_MAX_AGE:-360}" \
		2>/dev/null)" ]
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
	fi
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
			dpkg-deb -x "$deb" "$kdir.tmp/root" ||
				vt_die "cannot unpack $deb"
			echo "$p $ver $sha" >>"$kdir.tmp/packages"
			rm -f "$deb"
		done <"$kdir.tmp/packages.want"
		rm -f "$kdir.tmp/packages.want"
		kernel_index_tree "$kdir.tmp" "$release" ||
			vt_die "the packages of $key hold no kernel image"
		rm -rf "$kdir"
		mv "$kdir.tmp" "$kdir" && touch "$kdir/.complete"
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
