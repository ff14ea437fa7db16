// SPDX-License-Identifier: GPL-2.0
/* Outcome names, result cleanup and the run's tally. */
#include <stdlib.h>

#include "outcome.h"
#include "summary.h"

const char *outcome_name(enum outcome o)
{
	switch (o) {
	case OUTCOME_PASS: return "PASS";
	case OUTCOME_FAIL: return "FAIL";
	case OUTCOME_SKIP: return "SKIP";
	case OUTCOME_TIMEOUT: return "TIMEOUT";
	}
	return "UNKNOWN";
}

void test_result_free(struct test_result *r)
{
	for (int i = 0; i < r->n_subtests; i++)
		free(r->subtests[i].log);
	free(r->subtests);
	free(r->log);
	free(r->crash);
	free(r->leaks);
	r->subtests = NULL;
	r->leaks = NULL;
	r->log = NULL;
	r->crash = NULL;
	r->n_subtests = 0;
}

void summary_add(struct summary *s, const struct test_result *r)
{
	s->tests++;
	s->subtests += r->n_subtests;
	s->subtests_passed += r->subtests_passed;
	s->kernel_success += !outcome_failed(r->outcome);
	s->kernel_skipped += r->subtests_skipped + r->skipped_itself;
	/* Skipped subtests of a skipped test count once, as the test. */
	switch (r->outcome) {
	case OUTCOME_PASS:
		s->passed++;
		s->skipped += r->subtests_skipped;
		break;
	case OUTCOME_SKIP:
		s->skipped++;
		break;
	case OUTCOME_TIMEOUT:
		s->timeouts++;
		/* a timeout is a failure */
		__attribute__((fallthrough));
	case OUTCOME_FAIL:
		s->failed++;
		s->skipped += r->subtests_skipped;
		break;
	}
}

int summary_exit_code(const struct summary *s)
{
	if (s->tests == 0)
		return EXIT_NO_TESTS;
	if (s->failed)
		return EXIT_FAILED;
	if (s->passed == 0)
		return EXIT_ALL_SKIPPED;
	return EXIT_OK;
}
