/* SPDX-License-Identifier: GPL-2.0 */
/* Result outcomes and the records the runner keeps for each test. */
#ifndef BPFCHECK_OUTCOME_H
#define BPFCHECK_OUTCOME_H

#include <stdbool.h>
#include <stddef.h>

enum outcome {
	OUTCOME_PASS,
	OUTCOME_FAIL,
	OUTCOME_SKIP,
	OUTCOME_TIMEOUT,	/* killed by the watchdog; counts as a failure */
};

const char *outcome_name(enum outcome o);

static inline bool outcome_failed(enum outcome o)
{
	return o == OUTCOME_FAIL || o == OUTCOME_TIMEOUT;
}

#define TEST_NAME_MAX	128
#define REASON_MAX	256

struct subtest_result {
	char name[TEST_NAME_MAX];
	int number;			/* 1-based, in order of start */
	enum outcome outcome;
	char skip_reason[REASON_MAX];
	long long duration_ns;
	bool cut_short;			/* still running when the test died */
	char *log;			/* captured output, NUL-terminated */
};

struct test_result {
	const char *name;
	int number;			/* position in the registry, 1-based */
	enum outcome outcome;
	char skip_reason[REASON_MAX];
	long long duration_ns;
	int n_subtests;
	int subtests_passed;
	int subtests_skipped;
	int subtests_failed;
	bool skipped_itself;		/* test__skip() outside a subtest */
	struct subtest_result *subtests;
	char *log;			/* output outside any subtest */
	char *crash;			/* how the test process died, or NULL */
	char *leaks;			/* what it left behind, or NULL */
};

void test_result_free(struct test_result *r);

#endif
