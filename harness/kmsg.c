// SPDX-License-Identifier: GPL-2.0
/*
 * A test's start as a line of the kernel log, so that vmtest's splat scan
 * (vmtest/splat.sh) names the test that was running when the kernel
 * warned.  /dev/kmsg takes one record per write(); it is opened for each
 * line because the kernel rate-limits writers per open file (10 lines in
 * 5 s), and a suite starts more tests than that.  Lines written there by
 * a process carry the user facility, which tells them from the kernel's.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kmsg.h"

/*
 * BPFCHECK_KMSG=1: <5>, KERN_NOTICE, below the console's loglevel in
 * vmtest's guests, read back with dmesg after the run.  =console: <3>, so
 * that the markers reach the serial console too, which is all there is of
 * a guest that panicked (kernel-tests asks for it).
 */
#define KMSG_MARKER "bpfcheck: test "

static int kmsg_wanted(void)
{
	static int wanted = -1;
	const char *env;

	if (wanted < 0) {
		env = getenv("BPFCHECK_KMSG");
		if (env && !strcmp(env, "console"))
			wanted = 3;
		else
			wanted = env && !strcmp(env, "1") ? 5 : 0;
	}
	return wanted;
}

int kmsg_test_start(const char *test, const char *subtest)
{
	int level = kmsg_wanted();
	char line[512];
	int fd, len, err;

	if (!level)
		return 0;
	/* The pid ties a splat's "PID: N" to this test when tests run in parallel. */
	len = snprintf(line, sizeof(line), "<%d>" KMSG_MARKER "%s%s%s (pid %d)\n", level, test,
		       subtest ? "/" : "", subtest ? subtest : "", (int)getpid());
	if (len < 0)
		return -EINVAL;
	if ((size_t)len >= sizeof(line))
		len = sizeof(line) - 1;
	fd = open("/dev/kmsg", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	err = write(fd, line, len) < 0 ? -errno : 0;
	close(fd);
	return err;
}
