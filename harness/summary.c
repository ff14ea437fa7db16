// SPDX-License-Identifier: GPL-2.0
/* The run's tally and its exit code. */
#include "summary.h"

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
