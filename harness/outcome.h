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
#define FAILURE_FILE_MAX	64
#define FAILURE_CHECK_MAX	32

/*
 * The first failed check of a test or subtest, recorded where it failed
 * (asserts.c), so that reporters never read it back from the log.
 */
struct failure {
	char file[FAILURE_FILE_MAX];	/* base name of the source file */
	int line;
	char check[FAILURE_CHECK_MAX];	/* "ASSERT_EQ", "CHECK", ...; "" if none */
	char name[TEST_NAME_MAX];	/* the check's own name (tag) */
	int err;			/* the errno the check saw, 0 if none */
	char message[REASON_MAX];	/* actual vs expected, or the check's text */
};

static inline bool failure_recorded(const struct failure *f)
{
	return f->check[0] != '\0';
}

/* "file:line: CHECK(name) failed: message", as the check printed it. */
void failure_format(const struct failure *f, char *buf, size_t len);

struct subtest_result {
	char name[TEST_NAME_MAX];
	int number;			/* 1-based, in order of start */
	enum outcome outcome;
	char skip_reason[REASON_MAX];
	long long duration_ns;
	bool cut_short;			/* still running when the test died */
	struct failure failure;		/* its first failed check */
	int libbpf_err;			/* errno libbpf reported, 0 if none */
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
	struct failure failure;		/* first failed check outside subtests */
	int libbpf_err;			/* errno libbpf reported outside them */
	struct subtest_result *subtests;
	char *log;			/* output outside any subtest */
	char *crash;			/* how the test process died, or NULL */
	char *leaks;			/* what it left behind, or NULL */
};

void test_result_free(struct test_result *r);

#endif
