/* SPDX-License-Identifier: GPL-2.0 */
/* Runs one test in a child process and collects its result. */
#ifndef BPFCHECK_RUNNER_H
#define BPFCHECK_RUNNER_H

#include <stdbool.h>

#include "leak.h"
#include "outcome.h"
#include "select.h"

struct test_def {
	const char *name;
	void (*fn)(void);
	bool serial;
};

struct run_opts {
	const struct selection *sel;
	int verbosity;
	bool list_only;		/* record subtest names, run none */
	bool no_fork;		/* run in this process (for debuggers) */
	/* When set, a test that leaves objects behind fails. */
	const struct leak_checker *leaks;
};

int runner_init(void);
void runner_exit(void);
/*
 * Run test number num (1-based registry position).  Fills *res; returns 0,
 * or a negative errno when the harness itself failed (not the test).
 */
int runner_run(const struct test_def *def, int num,
	       const struct run_opts *opts, struct test_result *res);

/* Ask lc what appeared since snap: text to show, or NULL when nothing. */
char *leak_report(const struct leak_checker *lc, const void *snap);

#endif
