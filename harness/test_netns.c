// SPDX-License-Identifier: GPL-2.0
/*
 * A network namespace for an "ns_" test (test_netns.h).  The kernel's
 * runner names it after the test (ip netns add); here it is anonymous, so
 * that a test that crashes leaves nothing behind.  As there, a namespace
 * that cannot be made is said in the test's log and the test runs anyway.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "test_netns.h"

static int saved_netns = -1;

static int set_lo_up(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), err = 0;

	if (fd < 0)
		return -errno;
	if (ioctl(fd, SIOCGIFFLAGS, &ifr) < 0) {
		err = -errno;
	} else {
		ifr.ifr_flags |= IFF_UP;
		if (ioctl(fd, SIOCSIFFLAGS, &ifr) < 0)
			err = -errno;
	}
	close(fd);
	return err;
}

void test_netns_enter(const char *name)
{
	int err;

	if (strncmp(name, "ns_", 3))
		return;
	saved_netns = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
	if (saved_netns < 0 || unshare(CLONE_NEWNET) < 0) {
		fprintf(stderr, "test_progs: %s: cannot make a network namespace: %s\n",
			name, strerror(errno));
		test_netns_leave();
		return;
	}
	err = set_lo_up();
	if (err)
		fprintf(stderr, "test_progs: %s: cannot bring lo up in its namespace: %s\n",
			name, strerror(-err));
}

void test_netns_leave(void)
{
	if (saved_netns < 0)
		return;
	if (setns(saved_netns, CLONE_NEWNET) < 0)
		perror("test_progs: cannot go back to the first network namespace");
	close(saved_netns);
	saved_netns = -1;
}
