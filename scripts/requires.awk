# SPDX-License-Identifier: GPL-2.0
#
# Which tests the build leaves out because they need a newer libbpf.
# A test file declares what it needs on a line of its own:
#
#   /* bpfcheck: requires libbpf 1.3 (ring_buffer__ring, ring__consume) */
#
# (the version as MAJOR.MINOR, the API it needs in parentheses; more such
# lines: the highest version counts).  Read by gen-tests.sh, which lists
# a left-out test with its reason, and by the Makefile, which does not
# compile it.
#
# Usage: awk -f requires.awk BUILD_INFO.h FILE...
# Prints "FILE<TAB>REASON" for each FILE whose libbpf is newer than the
# BUILD_LIBBPF_VERSION of BUILD_INFO.h (scripts/build-info.sh).  Exit 2
# with "FILE:LINE: ..." for a marker that does not have that form.

function version_newer(a, b,	x, y) {
	split(a, x, ".")
	split(b, y, ".")
	return x[1] + 0 > y[1] + 0 || (x[1] + 0 == y[1] + 0 && x[2] + 0 > y[2] + 0)
}

function define_value(line) {
	sub(/^#define [A-Z_]+ "/, "", line)
	sub(/"$/, "", line)
	return line
}

FNR == 1 {
	nfile++
	if (nfile > 1)
		order[nfile] = FILENAME
}

nfile == 1 {
	if ($1 == "#define" && $2 == "BUILD_LIBBPF_VERSION")
		have = define_value($0)
	else if ($1 == "#define" && $2 == "BUILD_LIBBPF_ORIGIN")
		origin = define_value($0)
	next
}

/bpfcheck:[ \t]*requires/ {
	line = $0
	if (line !~ /^\/\* bpfcheck: requires libbpf [0-9]+\.[0-9]+ \([^()]+\) \*\/$/) {
		printf "%s:%d: bad marker '%s' (expected: /* bpfcheck: requires libbpf X.Y (API, ...) */)\n",
			FILENAME, FNR, line > "/dev/stderr"
		bad = 1
		next
	}
	sub(/^\/\* bpfcheck: requires libbpf /, "", line)
	sub(/\) \*\/$/, "", line)
	version = line
	sub(/ .*/, "", version)
	api = line
	sub(/^[^(]*\(/, "", api)
	if (!(FILENAME in need) || version_newer(version, need[FILENAME])) {
		need[FILENAME] = version
		what[FILENAME] = api
	}
}

END {
	if (bad)
		exit 2
	if (have !~ /^[0-9]+\.[0-9]+$/) {
		printf "requires.awk: no BUILD_LIBBPF_VERSION in %s\n", ARGV[1] > "/dev/stderr"
		exit 1
	}
	for (i = 2; i <= nfile; i++) {
		f = order[i]
		if ((f in need) && version_newer(need[f], have))
			printf "%s\tnot built: needs libbpf %s (%s); this build has libbpf %s (%s)\n",
				f, need[f], what[f], have, origin
	}
}
