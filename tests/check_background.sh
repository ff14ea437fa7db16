#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make check's background lane (tests/check.sh): each kernel's bpf_testmod
# built into the cache first, then the stages of LIST ("TITLE<TAB>NAME<TAB>
# SCRIPT<TAB>LABEL" lines), each one's output in $OUTPUT/check-NAME.log
# and its seconds in $OUTPUT/check-NAME.took, for tests/check.sh to show
# and count.  Usage: OUTPUT=DIR sh tests/check_background.sh LIST
set -u

srcdir=$(cd "$(dirname "$0")/.." && pwd)
: "${OUTPUT:?}"

for k in 6.12 6.1 7.2; do
	sh "$srcdir/scripts/testmod-build.sh" "$k" >/dev/null 2>&1 || true
done
while IFS='	' read -r _ name script _; do
	t0=$(date +%s)
	sh "$script" >"$OUTPUT/check-$name.log" 2>&1
	echo "$(($(date +%s) - t0))" >"$OUTPUT/check-$name.took"
done <"$1"
