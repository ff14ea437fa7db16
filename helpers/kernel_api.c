// SPDX-License-Identifier: GPL-2.0
/*
 * Functions of the kernel's test API that bpfcheck's own tests do not
 * use, declared where the kernel declares them (kernel_api.h,
 * testing_helpers.h, network_helpers.h): object ids from fds, bpf_testmod's
 * test file, a tun/tap device, kernel modules, perf's sample rate, a TCP
 * Fast Open client.  Weak: a test that defines one itself wins.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <linux/if_tun.h>
#include <bpf/bpf.h>

#include "test_api.h"
#include "kernel_api.h"
#include "network_helpers.h"
#include "test_progs_helpers.h"
#include "testing_helpers.h"

__attribute__((weak))
__u32 id_from_prog_fd(int fd)
{
	struct bpf_prog_info info = {};
	__u32 len = sizeof(info);

	if (!ASSERT_OK(bpf_obj_get_info_by_fd(fd, &info, &len), "id_from_prog_fd"))
		return 0;
	ASSERT_NEQ(info.id, 0, "prog_info.id");
	return info.id;
}

__attribute__((weak))
__u32 id_from_link_fd(int fd)
{
	struct bpf_link_info info = {};
	__u32 len = sizeof(info);

	if (!ASSERT_OK(bpf_obj_get_info_by_fd(fd, &info, &len), "id_from_link_fd"))
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

__attribute__((weak))
__u64 read_perf_max_sample_freq(void)
{
	unsigned long long freq = 5000;
	FILE *f = fopen("/proc/sys/kernel/perf_event_max_sample_rate", "r");

	if (!f || fscanf(f, "%llu", &freq) != 1)
		printf("cannot read perf_event_max_sample_rate: using %llu\n", freq);
	if (f)
		fclose(f);
	return freq;
}

__attribute__((weak))
int finit_module(int fd, const char *param_values, int flags)
{
	return syscall(__NR_finit_module, fd, param_values, flags);
}

__attribute__((weak))
int delete_module(const char *name, int flags)
{
	return syscall(__NR_delete_module, name, flags);
}

__attribute__((weak))
int load_module_params(const char *path, const char *param_values, bool verbose)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	int err;

	if (fd < 0) {
		fprintf(stdout, "can't open %s: %s\n", path, strerror(errno));
		return -1;
	}
	err = finit_module(fd, param_values ?: "", 0);
	if (err && errno != EEXIST)
		fprintf(stdout, "can't load %s: %s\n", path, strerror(errno));
	else if (verbose)
		fprintf(stdout, "loaded %s\n", path);
	close(fd);
	return err && errno != EEXIST ? -1 : 0;
}

__attribute__((weak))
int load_module(const char *path, bool verbose)
{
	return load_module_params(path, "", verbose);
}

/* delete_module, again while it is busy (EAGAIN), at most retries times. */
__attribute__((weak))
int try_unload_module(const char *name, int retries, bool verbose)
{
	int err = -1;

	while (retries-- > 0) {
		err = delete_module(name, O_NONBLOCK) ? -errno : 0;
		if (err != -EAGAIN)
			break;
		usleep(100000);
	}
	if (err == -ENOENT)
		return 0;
	if (err)
		fprintf(stdout, "can't unload %s: %s\n", name, strerror(-err));
	else if (verbose)
		fprintf(stdout, "unloaded %s\n", name);
	return err;
}

__attribute__((weak))
int unload_module(const char *name, bool verbose)
{
	return try_unload_module(name, 10000, verbose);
}

__attribute__((weak))
int fastopen_connect(int server_fd, const char *data, unsigned int data_len,
		     int timeout_ms)
{
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	ssize_t n;
	int fd;

	if (getsockname(server_fd, (struct sockaddr *)&addr, &len))
		return -1;
	fd = socket(addr.ss_family, SOCK_STREAM, 0);
	if (fd < 0)
		return -1;
	if (settimeo(fd, timeout_ms))
		goto fail;
	n = sendto(fd, data, data_len, MSG_FASTOPEN, (struct sockaddr *)&addr, len);
	if (n != (ssize_t)data_len)
		goto fail;
	return fd;
fail:
	close(fd);
	return -1;
}
