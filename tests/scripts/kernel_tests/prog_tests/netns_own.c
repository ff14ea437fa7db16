// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel runner's "ns_" convention: a test whose name starts with ns_
 * runs in a network namespace of its own, with lo up, and may change it
 * as it likes (the kernel's ns_check_mtu sets lo's MTU to 10, which takes
 * 127.0.0.1 off lo).  Other tests share the runner's namespace.  Not part
 * of the suite: tests/scripts/kernel_tests_check.sh builds it into a
 * scratch copy of the tree and checks that the host's lo is untouched.
 */
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "test_progs.h"

/* The inode of a process's network namespace, or 0. */
static ino_t netns_of(const char *pid)
{
	char path[64];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%s/ns/net", pid);
	return stat(path, &st) ? 0 : st.st_ino;
}

static ino_t parent_netns(void)
{
	char pid[16];

	snprintf(pid, sizeof(pid), "%d", getppid());
	return netns_of(pid);
}

void test_ns_netns_own(void)
{
	struct ifreq ifr = { .ifr_name = "lo" };
	int fd;

	if (!ASSERT_NEQ(netns_of("self"), parent_netns(), "a namespace of its own"))
		return;
	fd = socket(AF_INET, SOCK_DGRAM, 0);
	if (!ASSERT_GE(fd, 0, "socket"))
		return;
	if (ASSERT_OK(ioctl(fd, SIOCGIFFLAGS, &ifr), "SIOCGIFFLAGS"))
		ASSERT_TRUE(ifr.ifr_flags & IFF_UP, "lo is up");
	/* What ns_check_mtu does: harmless here, and only here. */
	ifr.ifr_mtu = 10;
	ASSERT_OK(ioctl(fd, SIOCSIFMTU, &ifr), "lo's MTU set to 10");
	close(fd);
}

void test_netns_shared(void)
{
	ASSERT_EQ(netns_of("self"), parent_netns(), "the runner's namespace");
}
