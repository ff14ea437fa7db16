/* SPDX-License-Identifier: GPL-2.0 */
/* A test's result from its shared page and its captured log. */
#ifndef BPFCHECK_COLLECT_H
#define BPFCHECK_COLLECT_H

#include <stdbool.h>

#include "outcome.h"
#include "test_state.h"

/*
 * The subtests' results and every part's log from all, the whole log.
 * A subtest still running when the test died is cut short: it failed,
 * unless the run only listed names.  0 or -ENOMEM.
 */
int collect_parts(struct shared_state *st, bool list_only, const char *all,
		  struct test_result *res);
/* The test's outcome and skip reason, from its own marks and its parts. */
void collect_outcome(const struct shared_state *st, struct test_result *res);
/* A watchdog kill: the running subtest, if any, is what timed out. */
void collect_timeout(struct test_result *res, int timeout_s);

#endif
