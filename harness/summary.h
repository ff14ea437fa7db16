/* SPDX-License-Identifier: GPL-2.0 */
/* The run's tally and the exit code it maps to (DESIGN.md contract). */
#ifndef BPFCHECK_SUMMARY_H
#define BPFCHECK_SUMMARY_H

#include "outcome.h"

enum exit_code {
	EXIT_OK = 0,		/* all passed, or skipped with a pass */
	EXIT_FAILED = 1,	/* at least one failure */
	EXIT_NO_TESTS = 2,	/* nothing selected or run */
	EXIT_USAGE = 2,		/* a bad option or value */
	EXIT_INFRA = 3,		/* the harness itself failed */
	EXIT_ALL_SKIPPED = 4,	/* kselftest KSFT_SKIP */
};

struct summary {
	int tests;		/* tests that ran */
	int subtests;
	int passed;		/* tests */
	int subtests_passed;
	int skipped;		/* tests, plus subtests of non-skipped tests */
	int failed;		/* tests, timeouts included */
	int timeouts;		/* tests the watchdog killed */
	/*
	 * The kernel test_progs' counts (its "Summary:" line and -J): a test
	 * succeeds when nothing in it failed, skipped or not; skips are the
	 * skipped subtests plus the tests that called test__skip() outside
	 * any subtest.
	 */
	int kernel_success;
	int kernel_skipped;
};

void summary_add(struct summary *s, const struct test_result *r);
int summary_exit_code(const struct summary *s);

#endif
