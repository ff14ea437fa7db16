/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The page a test's process shares with the runner: subtest boundaries,
 * outcomes, skip reasons and first failures, written through the
 * test__*() API (test_state.c) as the test runs, read by the runner once
 * it has ended (collect.c).
 */
#ifndef BPFCHECK_TEST_STATE_H
#define BPFCHECK_TEST_STATE_H

#include <stdbool.h>
#include <sys/types.h>

#include "outcome.h"
#include "select.h"

#define MAX_SUBTESTS 1024

struct shared_subtest {
	char name[TEST_NAME_MAX];
	int number;
	bool failed;
	bool skipped;
	char skip_reason[REASON_MAX];
	struct failure failure;
	int libbpf_err;
	long long start_ns, end_ns;
	off_t log_start, log_end;
};

struct shared_state {
	bool failed;
	bool skipped;
	char skip_reason[REASON_MAX];
	struct failure failure;	/* outside subtests */
	int libbpf_err;
	int started;		/* subtests started, selected or not */
	int recorded;		/* entries used in sub[] */
	int current;		/* index in sub[] of the running one, or -1 */
	struct shared_subtest sub[MAX_SUBTESTS];
};

/* What the test__*() API needs to know about the test this process runs. */
struct test_state_binding {
	struct shared_state *st;
	int log_fd;			/* its capture: subtests' log offsets */
	const char *name;		/* the test's name and number, */
	int num;			/* for the subtest selection */
	const struct selection *sel;
	int verbosity;
	bool verifier_stats;
	bool list_only;			/* record subtest names, run none */
};

/* From now on the test__*() API of this process writes to b->st. */
void test_state_bind(const struct test_state_binding *b);
/* test__start_subtest(), shown as SHOWN when not NULL (a description). */
bool test__start_subtest_shown(const char *name, const char *shown);
/*
 * libbpf reported err (EPERM, ...) while the current subtest (or the
 * test) ran.  The first one is kept; outside a test, a no-op.
 */
void test_state_note_libbpf_error(int err);

#endif
