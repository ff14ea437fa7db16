/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The test API the runner implements: subtests, outcomes, checks.  Tests
 * include test_progs.h, which adds the kernel's helper libraries; the
 * runner and the helpers include this.  Names follow the kernel's
 * test_progs.
 */
#ifndef BPFCHECK_TEST_API_H
#define BPFCHECK_TEST_API_H

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/types.h>
#include <bpf/bpf.h>
#include <bpf/libbpf.h>

#include "asserts.h"
#include "util.h"
#include "kernel_checks.h"

/*
 * Start a subtest.  Returns false when the subtest is not selected (the
 * caller skips its body).  The previous subtest, if any, ends here.
 */
bool test__start_subtest(const char *name);
/* End the current subtest explicitly (optional). */
void test__end_subtest(void);
/* Mark the current subtest (or the test) as skipped, without a reason. */
void test__skip(void);
/* Skip with a reason naming what is missing, printf-style. */
void test__skip_reason(const char *fmt, ...)
	__attribute__((format(printf, 1, 2)));
/* Mark the current subtest (or the test) as failed. */
void test__fail(void);
/*
 * Fail the current subtest (or the test) and record where and why: the
 * first such record of each is what the reporters show and what tells a
 * kernel gap (err: the errno the check saw, 0 if none).
 */
void test__record_failure(const char *file, int line, const char *check,
			  const char *name, int err, const char *message);
/* Verbosity level from -v flags: 0, 1 (-v), 2 (-vv), 3 (-vvv). */
int test__verbosity(void);
/* -s/--verifier-stats: the test should print its programs' verifier stats. */
bool test__verifier_stats(void);

/*
 * Start a subtest, with a description printed in its log.  Returns false
 * when it is not selected.  desc may be NULL.
 */
bool test__start_subtest_with_desc(const char *name, const char *desc);
/*
 * Show this test's output even when it passes (the kernel's "force the
 * log"): the output is copied to the real stderr as the test ends.
 */
void test__force_log(void);
/*
 * Call fn (once) when the running test ends, in its process: for helpers
 * that must undo what a test set up (cgroups it joined).  0 or -ENOSPC.
 */
int test__on_end(void (*fn)(void));

/*
 * What the kernel's tests read about the run and the machine (its
 * test_progs "env").  Valid while a test runs.
 */
enum test_verbosity {
	VERBOSE_NONE,
	VERBOSE_NORMAL,
	VERBOSE_VERY,
	VERBOSE_SUPER,
};

struct test_env {
	enum test_verbosity verbosity;
	int nr_cpus;		/* possible CPUs (per-CPU map value count) */
	bool jit_enabled;	/* net.core.bpf_jit_enable */
	bool has_testmod;	/* bpf_testmod.ko is loaded (vmtest --kmod) */
	bool debug;
	int workers;
	int worker_id;
	FILE *stdout_saved;	/* the run's stdout and stderr, not the */
	FILE *stderr_saved;	/* test's captured ones */
};

extern struct test_env env;
/* The kernel's 7.x name of env.verbosity. */
#define env_verbosity (env.verbosity)

/* The runner, around each test: fill env and enter the objects' directory. */
void test_env_enter(void);
/* After the test: run the test__on_end() calls, go back to where it was. */
void test_env_leave(void);

/*
 * libbpf's messages from now on are also kept; stop returns them (the
 * caller frees) and stops keeping.  The kernel's names.
 */
int start_libbpf_log_capture(void);
char *stop_libbpf_log_capture(void);


#endif
