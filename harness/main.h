/* SPDX-License-Identifier: GPL-2.0 */
/* The runner's entry point, shared by test_progs and the fixture runner. */
#ifndef BPFCHECK_MAIN_H
#define BPFCHECK_MAIN_H

#include "env_info.h"
#include "leak_check.h"
#include "runner.h"

struct suite {
	const struct test_def *tests;
	int n_tests;
	/*
	 * Prepare the machine (mounts, feature probes) and describe it in
	 * env.  Optional; a negative return is a harness error (exit 3).
	 */
	int (*prepare)(struct env_info *env, int verbosity);
	/* What --leak-check tracks; NULL if the suite has no checker. */
	const struct leak_checker *leaks;
};

int test_progs_main(int argc, char **argv, const struct suite *suite);

#endif
