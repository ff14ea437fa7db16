// SPDX-License-Identifier: GPL-2.0
/* Private network namespaces for tests (netns.h). */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/sockios.h>

#include "netns.h"

#define THREAD_NETNS "/proc/thread-self/ns/net"

static ino_t fd_ino(int fd)
{
	struct stat st;

	return fstat(fd, &st) ? 0 : st.st_ino;
}

ino_t netns_current_ino(void)
{
	struct stat st;

	return stat(THREAD_NETNS, &st) ? 0 : st.st_ino;
}

int netns_create(struct netns *ns)
{
	int err;

	ns->fd = -1;
	ns->ino = 0;
	ns->orig_fd = open(THREAD_NETNS, O_RDONLY | O_CLOEXEC);
	if (ns->orig_fd < 0)
		return -errno;
	if (unshare(CLONE_NEWNET) < 0) {
		err = -errno;
		goto err_close;
	}
	ns->fd = open(THREAD_NETNS, O_RDONLY | O_CLOEXEC);
	if (ns->fd < 0) {
		err = -errno;
		goto err_leave;
	}
	ns->ino = fd_ino(ns->fd);
	return 0;

err_leave:
	/* Nothing else refers to the new namespace: it dies as we leave. */
	if (setns(ns->orig_fd, CLONE_NEWNET) < 0)
		err = -errno;
err_close:
	close(ns->orig_fd);
	ns->orig_fd = -1;
	return err;
}

int netns_enter(const struct netns *ns)
{
	return setns(ns->fd, CLONE_NEWNET) < 0 ? -errno : 0;
}

int netns_leave(const struct netns *ns)
{
	return setns(ns->orig_fd, CLONE_NEWNET) < 0 ? -errno : 0;
}

int netns_destroy(struct netns *ns)
{
	int err = 0;

	if (ns->orig_fd >= 0) {
		if (setns(ns->orig_fd, CLONE_NEWNET) < 0)
			err = -errno;
		close(ns->orig_fd);
	}
	if (ns->fd >= 0)
		close(ns->fd);
	ns->orig_fd = -1;
	ns->fd = -1;
	return err;
}

static int write_sysctl(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC), err = 0;

	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (write(fd, val, strlen(val)) < 0)
		err = -errno;
	close(fd);
	return err;
}

int netns_disable_ipv6(void)
{
	/* /proc/sys/net shows the namespace of the thread that opens it. */
	int err = write_sysctl("/proc/sys/net/ipv6/conf/default/disable_ipv6",
			       "1");

	return err ?: write_sysctl("/proc/sys/net/ipv6/conf/all/disable_ipv6",
				   "1");
}

/* Threads of this process whose network namespace is ino. */
static int threads_in(ino_t ino)
{
	char path[PATH_MAX];
	struct dirent *de;
	struct stat st;
	DIR *dir = opendir("/proc/self/task");
	int n = 0;

	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		if (de->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/self/task/%s/ns/net",
			 de->d_name);
		if (!stat(path, &st) && st.st_ino == ino)
			n++;
	}
	closedir(dir);
	return n;
}

/* Is fd a namespace fd on ino, or a socket created in namespace ino? */
static bool fd_refers_to(int fd, const char *target, ino_t ino)
{
	char want[64];
	int ns_fd;
	bool hit;

	snprintf(want, sizeof(want), "net:[%lu]", (unsigned long)ino);
	if (strcmp(target, want) == 0)
		return true;
	if (strncmp(target, "socket:[", 8) != 0)
		return false;
	ns_fd = ioctl(fd, SIOCGSKNS);
	if (ns_fd < 0)
		return false;	/* not a network socket */
	hit = fd_ino(ns_fd) == ino;
	close(ns_fd);
	return hit;
}

static int fds_on(ino_t ino)
{
	char path[PATH_MAX], target[PATH_MAX];
	struct dirent *de;
	DIR *dir = opendir("/proc/self/fd");
	int n = 0;

	if (!dir)
		return -errno;
	while ((de = readdir(dir))) {
		ssize_t len;

		if (de->d_name[0] == '.' || atoi(de->d_name) == dirfd(dir))
			continue;
		snprintf(path, sizeof(path), "/proc/self/fd/%s", de->d_name);
		len = readlink(path, target, sizeof(target) - 1);
		if (len < 0)
			continue;
		target[len] = '\0';
		if (fd_refers_to(atoi(de->d_name), target, ino))
			n++;
	}
	closedir(dir);
	return n;
}

/* nsfs bind mounts of the namespace (what "ip netns add" makes). */
static int mounts_of(ino_t ino)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[1024], want[64];
	int n = 0;

	if (!f)
		return -errno;
	snprintf(want, sizeof(want), " net:[%lu] ", (unsigned long)ino);
	while (fgets(line, sizeof(line), f))
		if (strstr(line, want))
			n++;
	fclose(f);
	return n;
}

int netns_refs_held(ino_t ino)
{
	int threads = threads_in(ino), fds, mounts;

	if (threads < 0)
		return threads;
	fds = fds_on(ino);
	if (fds < 0)
		return fds;
	mounts = mounts_of(ino);
	if (mounts < 0)
		return mounts;
	return threads + fds + mounts;
}
