#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The JSON schema of GitHub workflow files (SchemaStore's
# github-workflow.json), for checking .github/workflows without network
# access to GitHub.  Debian has no workflow linter in bookworm (no
# actionlint; check-jsonschema only in sid), but sid's
# python3-check-jsonschema carries the schema: the package is fetched
# through vmtest's private apt state (vmtest/kernel.sh), checked against
# the SHA256 of the signed index, and only the schema is taken from it,
# checked against the SHA256 the package records for it.  Nothing is
# installed.  Prints the schema's path, cached in
# $VMTEST_CACHE/schemas (default vmtest/cache).  Exit: 0, or 1.
set -eu

srcdir=$(cd "$(dirname "$0")/.." && pwd)
VT_SRCDIR=$srcdir
VT_CACHE=${VMTEST_CACHE:-$srcdir/vmtest/cache}
# shellcheck source=../vmtest/lib.sh
. "$srcdir/vmtest/lib.sh"
# shellcheck source=../vmtest/kernel.sh
. "$srcdir/vmtest/kernel.sh"

PKG=python3-check-jsonschema
VENDOR=./usr/lib/python3/dist-packages/check_jsonschema/builtin_schemas/vendor
schema=$VT_CACHE/schemas/github-workflows.json

if [ -f "$schema" ]; then
	echo "$schema"
	exit 0
fi
mkdir -p "$VT_CACHE/schemas"
kernel_apt_sources
kernel_apt_update
deb=$(kernel_deb_download "$PKG") || exit 1
dpkg-deb --fsys-tarfile "$deb" | tar -xOf - "$VENDOR/github-workflows.json" \
	>"$schema.tmp" || vt_die "no $VENDOR/github-workflows.json in $deb"
want=$(dpkg-deb --fsys-tarfile "$deb" |
	tar -xOf - "$VENDOR/github-workflows.sha256" | cut -c1-64) ||
	vt_die "no $VENDOR/github-workflows.sha256 in $deb"
rm -f "$deb"
got=$(vt_sha256 "$schema.tmp")
if [ "$got" != "$want" ]; then
	rm -f "$schema.tmp"
	vt_die "github-workflows.json: SHA256 $got, $PKG says $want"
fi
mv "$schema.tmp" "$schema"
echo "$schema"
