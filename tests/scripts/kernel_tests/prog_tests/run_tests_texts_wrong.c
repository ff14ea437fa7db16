// SPDX-License-Identifier: GPL-2.0
/*
 * RUN_TESTS() with __xlated, __jited, __stderr, __stdout, __linear_size,
 * __caps_unpriv, __btf_func_path, __btf_path, __load_if_JITed, __log_level
 * and __flag expectations that do not hold: each subtest fails and shows
 * why.  Built by tests/scripts/kernel_tests_check.sh only.
 */
#include "test_progs.h"
#include "test_run_tests_texts_wrong.skel.h"

void test_run_tests_texts_wrong(void)
{
	RUN_TESTS(test_run_tests_texts_wrong);
}
