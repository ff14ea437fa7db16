#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Put a finished result file at a user's path without destroying what is
# there, as harness/atomic_file.c does for test_progs and the bench: a
# device, a FIFO, /dev/stdout or a /proc path is written through; a
# symlink is followed and its target replaced (the link stays); a regular
# file appears only when complete (a temporary file beside it, renamed).
# Usage: publish.sh SRC DEST    Exit: 0, 1 when DEST cannot be written.
set -u

if [ $# -ne 2 ]; then
	echo "publish: usage: publish.sh SRC DEST" >&2
	exit 2
fi
src=$1
dest=$2

errf=$(mktemp) || exit 1
tmp=
trap 'rm -f "$errf" ${tmp:+"$tmp"}' EXIT
trap 'exit 130' INT TERM

fail() {
	echo "publish: cannot write '$dest': $1" >&2
	exit 1
}

# cat SRC into what the redirection opens; a failure names its errno
# (e.g. "No space left on device").  Not in $(...): /dev/stdout is ours.
copy() {
	cat "$src" 2>"$errf" || fail "$(sed -n '1s/.*: //p' "$errf")"
}

# Our own descriptor: written through it, so that its offset moves (a
# file reopened by name would be written over from another offset).
fd=
case "$dest" in
/dev/stdout) fd=1 ;;
/dev/stderr) fd=2 ;;
/dev/fd/[0-9] | /proc/self/fd/[0-9]) fd=${dest##*/} ;;
esac
if [ -n "$fd" ]; then
	eval "copy >&$fd"
	exit 0
fi
case "$dest" in
/dev/* | /proc/*) pseudo=1 ;;
*) pseudo=0 ;;
esac
if [ -e "$dest" ] && { [ ! -f "$dest" ] || [ "$pseudo" = 1 ]; }; then
	copy >>"$dest"
	exit 0
fi
# readlink -f resolves every link, a dangling last one too.
target=$(readlink -f -- "$dest") ||
	fail "directory '$(dirname -- "$dest")' does not exist"
dir=$(dirname -- "$target")
tmp=$(mktemp "$target.XXXXXX" 2>"$errf") ||
	fail "cannot create a file in '$dir' ($(sed -n '1s/.*: //p' "$errf"))"
# mktemp made it 0600: a replaced file keeps its mode, a new one the umask's.
if [ -f "$target" ]; then
	chmod --reference="$target" -- "$tmp"
else
	chmod "$(printf '%o' $((0666 & ~0$(umask))))" -- "$tmp"
fi
copy >"$tmp"
sync -- "$tmp" 2>/dev/null || true
mv -f -- "$tmp" "$target" || fail "cannot rename into place"
tmp=
