# SPDX-License-Identifier: GPL-2.0
#
# The first error of each target in the log of a "make -k -Otarget" of
# bpfcheck's Makefile: with -Otarget each recipe's output is one block
# that starts with its quiet build line ("  CLNG-BPF  bpf/X.bpf.o"), so an
# error belongs to the last target named before it.  Prints
# "TARGET<TAB>LINE" once per target that printed an error (targets are
# relative to the build directory, as the build lines name them).
#
# Usage: awk -f first-errors.awk MAKE_LOG

/^  [A-Z][A-Z-]* +[^ ]+$/ {
	cur = $2
	next
}

/^make(\[[0-9]+\])?: /	{ next }

cur != "" && !(cur in seen) && \
	(/(^|[ :])(fatal )?error:/ || /^Error:/ || /^libbpf: .*(failed|error)/) {
	seen[cur] = 1
	print cur "\t" $0
}
