/* SPDX-License-Identifier: GPL-2.0 */
/* Runs one test in a child process and collects its result. */
#ifndef BPFCHECK_RUNNER_H
#define BPFCHECK_RUNNER_H

#include <stdbool.h>
#include <sys/types.h>

#include "leak_check.h"
#include "outcome.h"
#include "select.h"

struct test_def {
	const char *name;
	void (*fn)(void);
	bool serial;
};

struct run_opts {
	const struct selection *sel;
	int verbosity;
	bool verifier_stats;	/* -s: tests may print verifier statistics */
	bool list_only;		/* record subtest names, run none */
	bool no_fork;		/* run in this process (for debuggers) */
	/* When set, a test that leaves objects behind fails. */
	const struct leak_checker *leaks;
};

/*
 * A slot runs one test at a time: its own shared state and log capture.
 * Several slots run tests in parallel (workers.c).
 */
struct runner_slot;

struct runner_slot *runner_slot_new(void);
void runner_slot_free(struct runner_slot *slot);

/*
 * Start test number num (1-based registry position) in a child process
 * (or, with opts->no_fork, run it to completion here).  0 or -errno.
 */
int runner_start(struct runner_slot *slot, const struct test_def *def,
		 int num, const struct run_opts *opts);
/* The running test's pid (0 when none) and a pidfd to poll for its end. */
pid_t runner_pid(const struct runner_slot *slot);
int runner_pidfd(const struct runner_slot *slot);
long long runner_started_ns(const struct runner_slot *slot);
/* Kill the running test and everything in its process group. */
void runner_kill(struct runner_slot *slot);
/*
 * Reap the test and fill *res.  timeout_s > 0 says the watchdog killed it
 * after that many seconds.  0, or -errno when the harness itself failed.
 */
int runner_finish(struct runner_slot *slot, int timeout_s,
		  struct test_result *res);
/* runner_start() then runner_finish(): one test, synchronously. */
int runner_run(struct runner_slot *slot, const struct test_def *def, int num,
	       const struct run_opts *opts, struct test_result *res);

#endif
