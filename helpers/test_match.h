/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Match a RUN_TESTS() program's expected lines (__msg, __xlated, __jited,
 * __stderr, __stdout) against the text the kernel gave: the verifier log,
 * the translated or JIT-compiled program, a BPF stream.
 */
#ifndef BPFCHECK_TEST_MATCH_H
#define BPFCHECK_TEST_MATCH_H

#include <stdbool.h>

/* An expected line: text that must appear (or, negative, must not). */
struct spec_msg {
	const char *text;	/* points into the BTF strings */
	bool negative;		/* __not_msg() */
	/*
	 * It must match on the line after the previous pattern's: __xlated()
	 * and friends, unless a "..." came between them.
	 */
	bool next_line;
};

/*
 * Every positive pattern in order, each after the previous; a negative
 * one must not appear between its positive neighbours' matches.  On a
 * mismatch prints "EXPECTED <what> NOT FOUND: '<pattern>'" (or
 * UNEXPECTED, or WRONG LINE) to stderr and returns false.  {{...}} in a
 * pattern is an extended regular expression, the rest literal text.
 */
bool match_msgs(const char *what, const struct spec_msg *msgs, int n,
		const char *text);

#endif
