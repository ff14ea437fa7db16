// SPDX-License-Identifier: GPL-2.0
/*
 * RUN_TESTS() with expectations that do not hold: each subtest fails and
 * says what it expected.  Not part of the suite: tests/scripts/kernel_tests_check.sh
 * builds it into a scratch copy of the tree, as the negative control of
 * prog_tests/run_tests_api.c.
 */
#include "test_progs.h"
#include "test_run_tests_wrong.skel.h"

void test_run_tests_wrong(void)
{
	RUN_TESTS(test_run_tests_wrong);
}
