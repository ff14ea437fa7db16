// SPDX-License-Identifier: GPL-2.0
/*
 * RUN_TESTS(): the kernel's way of testing the verifier.  Each program of
 * test_run_tests.bpf.c is a subtest checked against its __success,
 * __failure, __msg() and __retval() annotations; the negative control is
 * tests/scripts/kernel_tests/prog_tests/run_tests_wrong.c.
 */
#include "test_progs.h"
#include "test_run_tests.skel.h"

void test_run_tests_api(void)
{
	RUN_TESTS(test_run_tests);
}
