/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ktap_check's checker (ktap_checker.c): KTAP version 1 read line by line,
 * the nesting, plans, numbering and results checked as it goes.  The
 * command line around it is ktap_check.c's.
 */
#ifndef BPFCHECK_KTAP_CHECKER_H
#define BPFCHECK_KTAP_CHECKER_H

#include <stdbool.h>
#include <stdio.h>

#define MAX_DEPTH	32

struct level {
	long plan;		/* -1 until the plan line is seen */
	long results;		/* result lines seen at this level */
	bool failed;		/* one of them was "not ok" */
};

struct checker {
	struct level lv[MAX_DEPTH];
	int depth;		/* innermost open block, -1 before line 1 */
	long lineno;
	bool lax;
	bool kselftest;		/* the kselftest runner's wrapping is allowed */
	long ignored;		/* unknown lines skipped in lax mode */
	long tests, passed, failed, skipped, subtests;
	char err[512];
};

/*
 * Check the stream f with c, set up as { .depth = -1 } and its modes.
 * 0 valid, -1 invalid (the line is c->lineno, the reason c->err), -2 a
 * read error.
 */
int check_stream(struct checker *c, FILE *f);

#endif
