/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Runs the selected tests: up to `jobs` at once, serial_test_* ones alone
 * after the others, each under an optional watchdog.
 */
#ifndef BPFCHECK_WORKERS_H
#define BPFCHECK_WORKERS_H

#include "outcome.h"
#include "runner.h"

struct workers_cfg {
	int jobs;		/* test processes at once, >= 1 */
	int timeout_s;		/* watchdog per test; 0: none */
	bool debug;		/* say on stderr when tests start and end */
	const struct run_opts *ro;
	/* Called as each test finishes, in the order they finish. */
	void (*done)(void *ctx, const struct test_result *res);
	void *ctx;
};

/*
 * Run tests[idx[i]] for i < n into results[i] (registry order).
 * 0, or -errno when the harness itself failed.
 */
int workers_run(const struct test_def *tests, const int *idx, int n,
		struct test_result *results, const struct workers_cfg *cfg);

/* From a signal handler: kill every running test's process group. */
void workers_kill_all(void);

#endif
