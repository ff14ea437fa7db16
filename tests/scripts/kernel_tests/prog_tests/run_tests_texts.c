// SPDX-License-Identifier: GPL-2.0
/*
 * RUN_TESTS() with __xlated, __jited, __stderr/__stdout, __linear_size
 * and __caps_unpriv expectations that hold on the development host.  Not
 * part of the suite (the texts are the host kernel's):
 * tests/scripts/kernel_tests_check.sh builds it into a scratch tree.
 */
#include "test_progs.h"
#include "test_run_tests_texts.skel.h"

void test_run_tests_texts(void)
{
	RUN_TESTS(test_run_tests_texts);
}
