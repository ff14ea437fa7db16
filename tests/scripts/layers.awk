# SPDX-License-Identifier: GPL-2.0
#
# The include and call graph of bpfcheck's C sources
# (tests/layers_check.sh).  Input: the list of source files ("F path"
# lines), the quote includes ("I path header" lines) and the calls ("C
# caller.c callee.c" lines: a non-static function defined in callee.c is
# used by caller.c, as nm sees the objects).  A header resolves as the compiler
# finds it: beside the includer first, then in the folders of the include
# path; headers found nowhere (generated, system) are not ours.
# A module is a header and the x.c that implements it (includes it): one
# node, so that x.c -> y.h and y.c -> x.h is a cycle.  A .c that includes
# no header of its name (a program's main, say) is a node of its own.
# A call is an arrow between modules as an include is.  Prints one line per
# cycle and per include or call against the folder arrows, then "files N,
# includes M, calls C, modules K"; exits 1 if it printed a cycle or an
# arrow.

function dir_of(p)	{ return sub(/\/[^\/]*$/, "", p) ? p : "." }
function stem_of(p)	{ sub(/\.[ch]$/, "", p); return p }
function module_of(p)	{ return p ~ /\.h$/ || (p, stem_of(p) ".h") in incl ? stem_of(p) : p }

# Where F's folder may include from, besides itself.
function allowed(from, to) {
	if (from == to)
		return 1
	if (from ~ /^tests(\/|$)/)
		return 1			# the checks may use anything
	if (from == "lib" || from == "progs")
		return 0
	if (to == "lib")
		return 1
	if (to == "progs")			# headers shared with BPF programs
		return from !~ /^harness$/
	if (from ~ /^bench\/[^\/]+$/)
		return to == "bench"
	if (from == "bench")
		return 0
	if (from == "prog_tests")
		return to == "helpers" || to == "harness"
	if (from == "helpers")
		return to == "harness"
	return 0
}

# The include path of the side from's folder builds on (the Makefile's),
# then every folder: an include the compiler would not find is still ours.
function resolve(from, h,	i, n, cand, dirs) {
	cand = dir_of(from) "/" h
	if (cand in is_file)
		return cand
	if (from ~ /^bench\//)
		n = split("bench lib progs " all_dirs, dirs, " ")
	else
		n = split("harness helpers lib progs " all_dirs, dirs, " ")
	for (i = 1; i <= n; i++) {
		cand = dirs[i] "/" h
		if (cand in is_file)
			return cand
	}
	return ""
}

# An include or a call: an arrow between the modules of its two files.
function add_edge(pair,	ab, a, b) {
	split(pair, ab, SUBSEP)
	a = module_of(ab[1])
	b = module_of(ab[2])
	if (a != b && !((a, b) in edge)) {
		edge[a, b] = 1
		succ[a] = succ[a] " " b
	}
}

# Depth-first search; state 1 on the stack, 2 done.
function visit(m,	k, n, i, j, cyc) {
	state[m] = 1
	stack[++depth] = m
	n = split(succ[m], next_m, " ")
	for (k = 1; k <= n; k++) {
		j = next_m[k]
		if (state[j] == 1) {
			cyc = j
			for (i = depth; i >= 1 && stack[i] != j; i--)
				;
			for (i++; i <= depth; i++)
				cyc = cyc " -> " stack[i]
			print "cycle: " cyc " -> " j
			bad = 1
		} else if (!state[j]) {
			visit(j)
			n = split(succ[m], next_m, " ")	# awk arrays are global
		}
	}
	depth--
	state[m] = 2
}

BEGIN {
	all_dirs = "lib progs harness helpers bench"
}

$1 == "F" {
	is_file[$2] = 1
	n_files++
	next
}

$1 == "I" {
	to = resolve($2, $3)
	if (to == "")
		next
	n_incl++
	if (!allowed(dir_of($2), dir_of(to))) {
		print "arrow: " $2 " includes " to " (" dir_of($2) " -> " dir_of(to) ")"
		bad = 1
	}
	incl[$2, to] = 1
}

$1 == "C" {
	if (!($2 in is_file) || !($3 in is_file))
		next
	n_calls++
	if (!allowed(dir_of($2), dir_of($3))) {
		print "arrow: " $2 " calls " $3 " (" dir_of($2) " -> " dir_of($3) ")"
		bad = 1
	}
	calls[$2, $3] = 1
}

END {
	for (f in is_file)
		mod[module_of(f)] = 1
	for (pair in incl)
		add_edge(pair)
	for (pair in calls)
		add_edge(pair)
	for (m in mod)
		if (!state[m])
			visit(m)
	n_mod = 0
	for (m in mod)
		n_mod++
	printf "files %d, includes %d, calls %d, modules %d\n", n_files, n_incl,
	       n_calls, n_mod
	exit bad
}
