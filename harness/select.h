/* SPDX-License-Identifier: GPL-2.0 */
/* Which tests and subtests a run selects (-t -b -a -d -n, @file lists). */
#ifndef BPFCHECK_SELECT_H
#define BPFCHECK_SELECT_H

#include <stdbool.h>
#include <stddef.h>

enum sel_kind {
	SEL_ALLOW_SUBSTR,	/* -t */
	SEL_DENY_SUBSTR,	/* -b */
	SEL_ALLOW_GLOB,		/* -a */
	SEL_DENY_GLOB,		/* -d */
};

struct selection;

struct selection *selection_new(void);
void selection_free(struct selection *sel);
/*
 * Add a comma-separated list of "test" or "test/subtest" patterns, or
 * "@FILE" naming a file with one list per line ('#' starts a comment).
 * On error returns -1 and writes a one-line message into err.
 */
int selection_add(struct selection *sel, enum sel_kind kind,
		  const char *spec, char *err, size_t errlen);
/* Add -n numbers: "1,3-5" selects tests, "2/1-3" subtests of test 2. */
int selection_add_numbers(struct selection *sel, const char *spec,
			  char *err, size_t errlen);

/* Whether an entry names subtests (NAME/SUBTEST or -n N/M). */
bool selection_names_subtests(const struct selection *sel);

bool selection_test(const struct selection *sel, const char *name, int num);
bool selection_subtest(const struct selection *sel, const char *test,
		       int test_num, const char *subtest, int subtest_num);

#endif
