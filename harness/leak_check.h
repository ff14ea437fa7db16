/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The runner's hook for leak checks (--leak-check).  The core only knows
 * "take a snapshot" and "report what appeared since"; what is tracked
 * (BPF objects, pins, namespaces, interfaces) is the suite's business.
 */
#ifndef BPFCHECK_LEAK_CHECK_H
#define BPFCHECK_LEAK_CHECK_H

#include <stdio.h>

struct leak_checker {
	/* Record the current state; NULL on failure (errno set). */
	void *(*snapshot)(void);
	/*
	 * Print one line per object that appeared since snap and still
	 * exists to out.  Returns how many, or a negative errno.
	 */
	int (*report)(const void *snap, FILE *out);
	void (*release)(void *snap);
};

/* What appeared since snap and still exists, as text; NULL when nothing. */
char *leak_report(const struct leak_checker *lc, const void *snap);

#endif
