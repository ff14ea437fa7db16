// SPDX-License-Identifier: GPL-2.0
/* Outcome names, failure records and result cleanup. */
#include <stdio.h>
#include <stdlib.h>

#include "outcome.h"

const char *outcome_name(enum outcome o)
{
	switch (o) {
	case OUTCOME_PASS:
		return "PASS";
	case OUTCOME_FAIL:
		return "FAIL";
	case OUTCOME_SKIP:
		return "SKIP";
	case OUTCOME_TIMEOUT:
		return "TIMEOUT";
	}
	return "UNKNOWN";
}

void failure_format(const struct failure *f, char *buf, size_t len)
{
	snprintf(buf, len, "%s:%d: %s(%s) failed: %s", f->file, f->line,
		 f->check, f->name, f->message);
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
