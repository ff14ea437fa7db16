// SPDX-License-Identifier: GPL-2.0
/*
 * cgroup v1 for the kernel's tests (cgroup_helpers.h): a net_cls
 * hierarchy whose classid tags a process's sockets, and the id of a v1
 * hierarchy.  The layout is the kernel selftests' documented one: a
 * tmpfs on /sys/fs/cgroup, net_cls mounted at /sys/fs/cgroup/net_cls,
 * a work directory per process, its classid the pid.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/stat.h>

#include "cgroup_helpers.h"

#define CGROUP_V1_TOP "/sys/fs/cgroup"
#define NETCLS_DIR CGROUP_V1_TOP "/net_cls"

static void classid_dir(char *buf, size_t sz)
{
	snprintf(buf, sz, "%s/bpfcheck-classid-%d", NETCLS_DIR, getpid());
}

static int join_dir(const char *dir)
{
	return cgroup_write_pid(dir) ? 1 : 0;
}

/*
 * The mounts below shadow the cgroup2 hierarchy at /sys/fs/cgroup: they
 * are made in a mount namespace of this test's process (each test runs in
 * one of its own), or every later test's cgroups would be directories
 * on the tmpfs, which a cgroup attach refuses with EBADF.
 */
static int private_mounts(void)
{
	if (unshare(CLONE_NEWNS)) {
		log_err("unshare(CLONE_NEWNS)");
		return 1;
	}
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL)) {
		log_err("make / private");
		return 1;
	}
	return 0;
}

int setup_classid_environment(void)
{
	char dir[PATH_MAX];

	if (private_mounts())
		return 1;
	if (mount("tmpfs", CGROUP_V1_TOP, "tmpfs", 0, NULL) && errno != EBUSY) {
		log_err("mount tmpfs on %s", CGROUP_V1_TOP);
		return 1;
	}
	if (mkdir(NETCLS_DIR, 0777) && errno != EEXIST) {
		log_err("mkdir %s", NETCLS_DIR);
		return 1;
	}
	if (mount("net_cls", NETCLS_DIR, "cgroup", 0, "net_cls") && errno != EBUSY) {
		log_err("mount net_cls on %s", NETCLS_DIR);
		return 1;
	}
	classid_dir(dir, sizeof(dir));
	if (mkdir(dir, 0777) && errno != EEXIST) {
		log_err("mkdir %s", dir);
		return 1;
	}
	return 0;
}

void cleanup_classid_environment(void)
{
	char dir[PATH_MAX];

	classid_dir(dir, sizeof(dir));
	join_dir(NETCLS_DIR);
	if (rmdir(dir) && errno != ENOENT)
		log_err("rmdir %s", dir);
}

int set_classid(void)
{
	char dir[PATH_MAX], path[PATH_MAX + 32];
	FILE *f;
	int err;

	classid_dir(dir, sizeof(dir));
	snprintf(path, sizeof(path), "%s/net_cls.classid", dir);
	f = fopen(path, "w");
	if (!f) {
		log_err("open %s", path);
		return 1;
	}
	err = fprintf(f, "%u\n", (unsigned int)getpid()) < 0;
	if (fclose(f) || err) {
		log_err("write %s", path);
		return 1;
	}
	return 0;
}

int join_classid(void)
{
	char dir[PATH_MAX];

	classid_dir(dir, sizeof(dir));
	return join_dir(dir);
}

int open_classid(void)
{
	char dir[PATH_MAX];
	int fd;

	classid_dir(dir, sizeof(dir));
	fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		log_err("open %s", dir);
	return fd;
}

/* A cgroup's id is its directory's inode number. */
unsigned long long get_classid_cgroup_id(void)
{
	char dir[PATH_MAX];
	struct stat st;

	classid_dir(dir, sizeof(dir));
	if (stat(dir, &st)) {
		log_err("stat %s", dir);
		return 0;
	}
	return st.st_ino;
}

/* "ID:SUBSYS:PATH" lines of /proc/self/cgroup: the ID of SUBSYS. */
int get_cgroup1_hierarchy_id(const char *subsys_name)
{
	char line[1024], *subsys, *end;
	int id = -1;
	FILE *f;

	if (!subsys_name)
		return -1;
	f = fopen("/proc/self/cgroup", "r");
	if (!f) {
		log_err("fopen /proc/self/cgroup");
		return -1;
	}
	while (id < 0 && fgets(line, sizeof(line), f)) {
		subsys = strchr(line, ':');
		end = subsys ? strchr(subsys + 1, ':') : NULL;
		if (!end)
			continue;
		*end = '\0';
		if (!strcmp(subsys + 1, subsys_name))
			id = atoi(line);
	}
	fclose(f);
	return id;
}
