# SPDX-License-Identifier: GPL-2.0
#
# The cause of each first compiler error of not-built.tsv
# ("TEST<TAB>ERROR"), one per line, in a form that groups alike errors:
# "missing header NAME", "undeclared identifier NAME", "implicit
# declaration of NAME", "unknown type NAME", "no member NAME in TYPE",
# "undefined reference to NAME", ... or the message with its place cut.
#
# Usage: awk -F '\t' -f causes.awk not-built.tsv | sort | uniq -c | sort -rn

# The first 'quoted' word of the message (LC_ALL=C: gcc quotes so too,
# the linker `so').
function quoted(s) {
	if (match(s, /[`'][^']*'/))
		return substr(s, RSTART + 1, RLENGTH - 2)
	return ""
}

{
	m = $2
	# Cut "file:line:col: error: " (or the linker's "file: ").
	sub(/^.*(fatal )?error: /, "", m)
	if (m ~ /file not found|No such file or directory/) {
		h = quoted(m)
		if (h == "") {
			h = m
			sub(/: No such file.*/, "", h)
		}
		print "missing header " h
	} else if (m ~ /undeclared identifier|undeclared/) {
		print "undeclared identifier " quoted(m)
	} else if (m ~ /implicit declaration of function/) {
		print "implicit declaration of " quoted(m)
	} else if (m ~ /unknown type name/) {
		print "unknown type " quoted(m)
	} else if (m ~ /has no member named|no member named/) {
		print "no member " quoted(m)
	} else if (m ~ /undefined reference to/) {
		print "undefined reference to " quoted(m)
	} else if (m ~ /incomplete type|incomplete definition/) {
		print "incomplete type " quoted(m)
	} else if (m ~ /conflicting types|redefinition|multiple definition/) {
		print "conflicting definition of " quoted(m)
	} else {
		gsub(/'[^']*'/, "'...'", m)
		print substr(m, 1, 70)
	}
}
