# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh
#
# vmtest's private apt state (sourced by kernel.sh; POSIX sh): the host's
# Debian mirror with its suite, its -security suite and sid, package lists
# and downloads under $VT_CACHE/apt and $VT_CACHE/debs, never the host's
# own apt state.  Downloads are checked against the SHA256 of the signed
# index.  Faults (a full disk, a mirror that cannot be reached, lists no
# complete update left) stop the run with their cause and path, exit 1.

: "${VT_CACHE:?apt.sh needs VT_CACHE}"

VT_ARCH=$(dpkg --print-architecture 2>/dev/null || echo amd64)
KAPT=$VT_CACHE/apt
KAPT_UPDATED=0

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
		"$VT_CACHE/debs/partial" || vt_write_die "$KAPT"
	{ : >"$KAPT/status.tmp" && mv "$KAPT/status.tmp" "$KAPT/status"; } ||
		vt_write_die "$KAPT/status"
	{
		echo "# Written by vmtest/kernel.sh from the host's apt sources."
		echo "deb [signed-by=$key] $main_uri $codename main"
		[ -z "$sec_uri" ] ||
			echo "deb [signed-by=$key] $sec_uri $codename-security main"
		echo "deb [signed-by=$key] $main_uri sid main"
	} >"$KAPT/sources.list.new" 2>/dev/null || {
		rm -f "$KAPT/sources.list.new"
		vt_write_die "$KAPT/sources.list.new" "the private apt sources"
	}
	if cmp -s "$KAPT/sources.list.new" "$KAPT/sources.list"; then
		rm -f "$KAPT/sources.list.new"
	else
		mv "$KAPT/sources.list.new" "$KAPT/sources.list"
		rm -f "$KAPT/lists/.updated"
	fi
	KAPT_SUITES="$codename${sec_uri:+, $codename-security}, sid"
}

# PROGRAM (apt-get, apt-cache) on the private state only: its sources,
# lists, status and caches, never the host's.
kernel_apt() {	# PROGRAM ARG...
	prog=$1
	shift
	"$prog" -o "Dir::Etc::SourceList=$KAPT/sources.list" \
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
		-o "APT::Sandbox::User=$(id -un)" \
		"$@"
}

kernel_apt_get() {
	kernel_apt apt-get -q "$@"
}

kernel_apt_cache() {
	kernel_apt apt-cache "$@"
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
	# The lists (some 45 MiB) and apt's two caches of them (some 140 MiB).
	vt_need_space "$KAPT" 204800 "updating the package lists"
	vt_log "updating package lists ($KAPT_SUITES)"
	if kernel_apt_get update >"$KAPT/update.log" 2>&1 &&
		! grep -q '^\(W\|E\): \(Failed\|Some index\)' "$KAPT/update.log"; then
		touch "$KAPT/lists/.updated" || vt_write_die "$KAPT/lists/.updated"
		vt_log "package lists updated in $(vt_elapsed "$t0") s"
	elif grep -q 'No space left on device' "$KAPT/update.log" 2>/dev/null ||
		[ "$(vt_free_kib "$KAPT")" -lt 1024 ]; then
		vt_die "no space left on device: apt-get update could not write $KAPT/lists (see $KAPT/update.log)"
	elif [ -f "$KAPT/lists/.updated" ] && ls "$KAPT/lists/"*Packages* >/dev/null 2>&1; then
		# Only lists a complete update left (.updated) are trusted.
		vt_warn "apt-get update failed (see $KAPT/update.log); using the package lists of $(date -r "$KAPT/lists/.updated" '+%F %R')"
	else
		sed -n '/^\(W\|E\):/p' "$KAPT/update.log" | head -n 3 >&2
		vt_die "cannot download the package lists ($KAPT_SUITES) from the host's Debian mirror"
	fi
	KAPT_UPDATED=1
	# shellcheck disable=SC2034 # kernel.sh's kernel_deb_names reads them anew
	KAPT_NAMES=
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
	# The .deb files, then what they unpack to (about as much again).
	vt_need_space "$VT_CACHE/debs" $((_total / 512 + 1024)) \
		"downloading and unpacking $(kernel_mib "$_total") MiB of packages"
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
	if ! wait "$_pid"; then
		grep -q 'No space left' "$_log" 2>/dev/null &&
			vt_die "no space left on device: apt-get download could not write $VT_CACHE/debs (see $_log)"
		return 1
	fi
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

# The package lists are younger than VMTEST_APT_MAX_AGE minutes.
kernel_apt_fresh() {
	[ -n "$(find "$KAPT/lists/.updated" -mmin "-${VMTEST_APT_MAX_AGE:-360}" \
		2>/dev/null)" ]
}
