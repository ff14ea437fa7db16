/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The API a test file uses: include this and the skeletons it needs, define
 * "void test_<name>(void)" (or "void serial_test_<name>(void)"), and the
 * build discovers it.  Names follow the kernel's test_progs.
 */
#ifndef BPFCHECK_TEST_PROGS_H
#define BPFCHECK_TEST_PROGS_H

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
/* Verbosity level from -v flags: 0, 1 (-v), 2 (-vv), 3 (-vvv). */
int test__verbosity(void);

#ifndef ARRAY_SIZE
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#endif

#endif
