// SPDX-License-Identifier: GPL-2.0
/*
 * A test that crashes the kernel it runs on (tests/vmtest/
 * kernel_tests_run_check.sh): kernel-tests must name it from the panic's
 * splat and run the rest of that kernel's column again without it.  It
 * crashes nothing but a vmtest guest: anywhere else it skips.
 */
#include <fcntl.h>
#include <unistd.h>
#include <test_progs.h>

void test_kt_crash(void)
{
	int fd;

	if (access("/bpfcheck/run.conf", F_OK)) {
		test__skip();
		return;
	}
	fd = open("/proc/sysrq-trigger", O_WRONLY);
	if (!ASSERT_OK_FD(fd, "open /proc/sysrq-trigger"))
		return;
	/* sysrq "c": a panic, from this test's process. */
	ASSERT_EQ(write(fd, "c", 1), 1, "write c");
	close(fd);
	ASSERT_FAIL("the kernel survived sysrq c");
}
