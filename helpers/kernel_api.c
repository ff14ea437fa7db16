// SPDX-License-Identifier: GPL-2.0
/*
 * Functions of the kernel's test API that its newer series declare in
 * test_progs.h and network_helpers.h (kernel_api.h): object ids from
 * fds, writing to bpf_testmod's test file, a tun/tap device.  Weak:
 * a test that defines one itself wins.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <linux/if_tun.h>
#include <bpf/bpf.h>

#include "test_api.h"
#include "kernel_api.h"
#include "test_progs_helpers.h"

__attribute__((weak))
__u32 id_from_prog_fd(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!ASSERT_OK(bpf_prog_get_info_by_fd(fd, &info, &len), "id_from_prog_fd"))
		return 0;
	ASSERT_NEQ(info.id, 0, "prog_info.id");
	return info.id;
}

__attribute__((weak))
__u32 id_from_link_fd(int fd)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);

	if (!ASSERT_OK(bpf_link_get_info_by_fd(fd, &info, &len), "id_from_link_fd"))
		return 0;
	ASSERT_NEQ(info.id, 0, "link_info.id");
	return info.id;
}

/* A read or write of sz bytes on bpf_testmod's file triggers its hooks. */
static int testmod_file_io(bool write_io, int sz)
{
	int fd = open(BPF_TESTMOD_TEST_FILE, write_io ? O_WRONLY : O_RDONLY);
	int err = -errno;
	ssize_t n;

	if (!ASSERT_GE(fd, 0, "testmod_file_open"))
		return err;
	/* The module's hooks see the size; what comes back does not matter. */
	n = write_io ? write(fd, NULL, sz) : read(fd, NULL, sz);
	(void)n;
	close(fd);
	return 0;
}

__attribute__((weak))
int trigger_module_test_read(int read_sz)
{
	return testmod_file_io(false, read_sz);
}

__attribute__((weak))
int trigger_module_test_write(int write_sz)
{
	return testmod_file_io(true, write_sz);
}

__attribute__((weak))
int open_tuntap(const char *dev_name, bool need_mac)
{
	struct ifreq ifr = {};
	int fd = open("/dev/net/tun", O_RDWR);

	if (!ASSERT_GE(fd, 0, "open(/dev/net/tun)"))
		return -1;
	ifr.ifr_flags = IFF_NO_PI | (need_mac ? IFF_TAP : IFF_TUN);
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", dev_name);
	if (!ASSERT_OK(ioctl(fd, TUNSETIFF, &ifr), "ioctl(TUNSETIFF)") ||
	    !ASSERT_OK(fcntl(fd, F_SETFL, O_NONBLOCK), "fcntl(O_NONBLOCK)")) {
		close(fd);
		return -1;
	}
	return fd;
}
