// SPDX-License-Identifier: GPL-2.0
/*
 * kernel-tests' guests keep going after an Oops (tests/vmtest/
 * kernel_tests_run_check.sh): the kernel must not panic on one, so that
 * one test's crash costs that test only; a soft lockup must still panic,
 * or a hung program holds its CPU until the guest's timeout.  Outside a
 * vmtest guest it skips.
 */
#include <unistd.h>
#include <test_progs.h>
#include "int_file.h"

void test_kt_keep_going(void)
{
	if (access("/bpfcheck/run.conf", F_OK)) {
		test__skip();
		return;
	}
	ASSERT_EQ(read_int_file("/proc/sys/kernel/panic_on_oops"), 0, "panic_on_oops");
	ASSERT_EQ(read_int_file("/proc/sys/kernel/softlockup_panic"), 1, "softlockup_panic");
}
