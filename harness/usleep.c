// SPDX-License-Identifier: GPL-2.0
/*
 * usleep() as the kernel's test_progs has it: the nanosleep system call.
 * The kernel's tests trigger their programs with usleep(1) and attach
 * them to sys_nanosleep (bpf_loop, ...); the C library's usleep() calls
 * clock_nanosleep, which would not run them.
 */
#include <time.h>
#include <unistd.h>
#include <sys/syscall.h>

int usleep(useconds_t usec)
{
	struct timespec ts = {
		.tv_sec = usec / 1000000,
		.tv_nsec = (usec % 1000000) * 1000,
	};

	return (int)syscall(__NR_nanosleep, &ts, NULL);
}
