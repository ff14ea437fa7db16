# SPDX-License-Identifier: GPL-2.0
#
# The verdicts a test_progs run printed, the kernel's runner's or
# bpfcheck's (the same result lines): "NAME<TAB>OK|SKIP|FAIL" for each test
# and each subtest (NAME test/subtest), from "#N NAME:VERDICT" and
# "#N/M NAME:VERDICT" lines ("OK (SKIP: 2/5)" is OK).  The first verdict of
# a name counts: the kernel's runner repeats failed tests after "All error
# logs:".  Usage: awk -f verdicts.awk LOG
/^All error logs:$/ { exit }
/^#[0-9]+(\/[0-9]+)? +/ {
	line = $0
	sub(/^#[0-9]+(\/[0-9]+)? +/, "", line)
	sub(/ \(SKIP: [0-9]+\/[0-9]+\)$/, "", line)
	if (!match(line, /:(OK|SKIP|FAIL)$/))
		next
	name = substr(line, 1, RSTART - 1)
	verdict = substr(line, RSTART + 1)
	if (!(name in seen)) {
		seen[name] = 1
		printf "%s\t%s\n", name, verdict
	}
}
