// SPDX-License-Identifier: GPL-2.0
/*
 * Every test runs with fds 1 and 2 pointing at one memfd, so output from
 * stdio, libbpf's print callback and any child process the test spawns
 * (ip, tc, ...) lands in the same log.  Both fds share one file
 * description, so their writes interleave in order.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "capture.h"

int capture_open(void)
{
	return memfd_create("bpfcheck-log", MFD_CLOEXEC);
}

int capture_reset(int fd)
{
	if (ftruncate(fd, 0) < 0)
		return -errno;
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	return 0;
}

int capture_redirect(int fd)
{
	fflush(stdout);
	fflush(stderr);
	if (dup2(fd, STDOUT_FILENO) < 0 || dup2(fd, STDERR_FILENO) < 0)
		return -errno;
	/* Line buffering keeps stdout and stderr lines in program order. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	return 0;
}

off_t capture_pos(int fd)
{
	fflush(stdout);
	fflush(stderr);
	return lseek(fd, 0, SEEK_CUR);
}

char *capture_read(int fd, off_t start, off_t end)
{
	struct stat st;
	size_t len, done = 0;
	char *buf;

	if (fstat(fd, &st) < 0)
		return NULL;
	if (end < 0 || end > st.st_size)
		end = st.st_size;
	if (start < 0 || start > end)
		start = end;
	len = end - start;
	buf = malloc(len + 1);
	if (!buf)
		return NULL;
	while (done < len) {
		ssize_t n = pread(fd, buf + done, len - done, start + done);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			break;
		}
		done += n;
	}
	buf[done] = '\0';
	return buf;
}
