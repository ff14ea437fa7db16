// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's check macros when their checks do not hold: each subtest
 * fails and says where and why.  Not part of the suite:
 * tests/scripts/kernel_tests_check.sh builds it into a scratch copy of the tree.
 * The last subtest's checks all hold: it must pass.
 */
#include "test_progs.h"

static __u32 duration = 7;

void test_kernel_checks_wrong(void)
{
	if (test__start_subtest("check"))
		CHECK(1 + 1 == 2, "arith", "one and one make %d\n", 2);
	if (test__start_subtest("check_fail"))
		CHECK_FAIL(duration == 7);
	if (test__start_subtest("has_substr"))
		ASSERT_HAS_SUBSTR("haystack", "needle", "search");
	if (test__start_subtest("strneq"))
		ASSERT_STRNEQ("abcdef", "abcxef", 4, "prefix");
	if (test__start_subtest("assert_fail"))
		ASSERT_FAIL("gave up after %d tries", 3);
	if (test__start_subtest("print_fail"))
		PRINT_FAIL("printed %s\n", "failure");
	if (test__start_subtest("sys")) {
		SYS(out, "exit 3");
		printf("not reached\n");
	}
out:
	if (test__start_subtest("all_hold")) {
		CHECK(false, "fine", "never\n");
		CHECK_FAIL(0);
		ASSERT_HAS_SUBSTR("haystack", "hay", "search");
		ASSERT_STRNEQ("abcdef", "abcxef", 3, "prefix");
	}
}
