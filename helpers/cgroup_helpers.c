// SPDX-License-Identifier: GPL-2.0
/*
 * A cgroup v2 work directory per process: <cgroup2 mount>/bpfcheck-<pid>.
 * test_progs runs in its own mount namespace, so when no cgroup2 is
 * mounted one is mounted at /sys/fs/cgroup there, unseen by the host.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdlib.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>
#include <ftw.h>

#include "cgroup_helpers.h"
#include "test_api.h"

#define DEFAULT_CGROUP2 "/sys/fs/cgroup"

static struct {
	char mnt[PATH_MAX];	/* where cgroup2 is mounted */
	char work[PATH_MAX + 32];	/* our work directory, "" before setup */
	char orig[PATH_MAX * 2];	/* the cgroup we started in (absolute) */
} cg;

/* The cgroup2 mount point from /proc/self/mounts, else mount one. */
static int find_cgroup2(void)
{
	FILE *f = fopen("/proc/self/mounts", "r");
	char dev[256], dir[PATH_MAX], type[64];

	cg.mnt[0] = '\0';
	while (f && fscanf(f, "%255s %4095s %63s %*[^\n]", dev, dir, type) == 3) {
		if (!strcmp(type, "cgroup2")) {
			snprintf(cg.mnt, sizeof(cg.mnt), "%s", dir);
			break;
		}
	}
	if (f)
		fclose(f);
	if (cg.mnt[0])
		return 0;
	if (mount("none", DEFAULT_CGROUP2, "cgroup2", 0, NULL)) {
		log_err("mount cgroup2 on %s", DEFAULT_CGROUP2);
		return -1;
	}
	snprintf(cg.mnt, sizeof(cg.mnt), "%s", DEFAULT_CGROUP2);
	return 0;
}

/* "0::/path" of /proc/self/cgroup, as a path under the mount. */
static void remember_origin(void)
{
	FILE *f = fopen("/proc/self/cgroup", "r");
	char line[PATH_MAX];

	snprintf(cg.orig, sizeof(cg.orig), "%s", cg.mnt);
	while (f && fgets(line, sizeof(line), f)) {
		if (strncmp(line, "0::", 3))
			continue;
		line[strcspn(line, "\n")] = '\0';
		snprintf(cg.orig, sizeof(cg.orig), "%s%s", cg.mnt,
			 strcmp(line + 3, "/") ? line + 3 : "");
	}
	if (f)
		fclose(f);
}

static void path_of(char *buf, size_t sz, const char *rel)
{
	snprintf(buf, sz, "%s%s%s", cg.work, rel[0] == '/' ? "" : "/", rel);
}

int setup_cgroup_environment(void)
{
	if (cg.work[0])
		return 0;
	if (find_cgroup2())
		return -1;
	remember_origin();
	snprintf(cg.work, sizeof(cg.work), "%s/bpfcheck-%d", cg.mnt, getpid());
	if (mkdir(cg.work, 0755) && errno != EEXIST) {
		log_err("mkdir %s", cg.work);
		cg.work[0] = '\0';
		return -1;
	}
	return 0;
}

/* Move this process into the cgroup (v1 or v2) directory DIR: 0 or -1. */
int cgroup_write_pid(const char *dir)
{
	char path[PATH_MAX + 16];
	FILE *f;
	int err;

	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	f = fopen(path, "w");
	if (!f) {
		log_err("open %s", path);
		return -1;
	}
	err = fprintf(f, "%d\n", getpid()) < 0;
	if (fclose(f) || err) {
		log_err("join %s", dir);
		return -1;
	}
	return 0;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		rmdir(path);
	return 0;
}

void cleanup_cgroup_environment(void)
{
	if (!cg.work[0])
		return;
	cgroup_write_pid(cg.orig);
	/* Depth first: a cgroup goes once its children have. */
	nftw(cg.work, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	cg.work[0] = '\0';
}

int create_and_get_cgroup(const char *relative_path)
{
	char path[PATH_MAX * 2];
	int fd;

	path_of(path, sizeof(path), relative_path);
	if (mkdir(path, 0755) && errno != EEXIST) {
		log_err("mkdir %s", path);
		return -1;
	}
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		log_err("open %s", path);
	return fd;
}

int join_cgroup(const char *relative_path)
{
	char path[PATH_MAX * 2];

	path_of(path, sizeof(path), relative_path);
	return cgroup_write_pid(path);
}

int join_root_cgroup(void)
{
	return cgroup_write_pid(cg.mnt);
}

int join_parent_cgroup(const char *relative_path)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s%s%s", cg.mnt,
		 relative_path[0] == '/' ? "" : "/", relative_path);
	return cgroup_write_pid(path);
}

void remove_cgroup(const char *relative_path)
{
	char path[PATH_MAX * 2];

	path_of(path, sizeof(path), relative_path);
	if (rmdir(path))
		log_err("rmdir %s", path);
}

int cgroup_setup_and_join(const char *relative_path)
{
	int fd;

	if (setup_cgroup_environment())
		return -1;
	fd = create_and_get_cgroup(relative_path);
	if (fd < 0)
		return -1;
	if (join_cgroup(relative_path)) {
		close(fd);
		return -1;
	}
	return fd;
}

int get_root_cgroup(void)
{
	int fd;

	if (!cg.mnt[0] && find_cgroup2())
		return -1;
	fd = open(cg.mnt, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		log_err("open %s", cg.mnt);
	return fd;
}

unsigned long long get_cgroup_id(const char *relative_path)
{
	char path[PATH_MAX * 2];
	struct stat st;

	path_of(path, sizeof(path), relative_path);
	if (stat(path, &st)) {
		log_err("stat %s", path);
		return 0;
	}
	return st.st_ino;
}

int set_cgroup_xattr(const char *relative_path, const char *name, const char *value)
{
	char path[PATH_MAX * 2];

	path_of(path, sizeof(path), relative_path);
	return setxattr(path, name, value, strlen(value) + 1, 0);
}

/* A cgroup of the work directory of process pid (a forked test's). */
void remove_cgroup_pid(const char *relative_path, int pid)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s/bpfcheck-%d%s%s", cg.mnt, pid,
		 relative_path[0] == '/' ? "" : "/", relative_path);
	if (rmdir(path))
		log_err("rmdir %s", path);
}

static int write_file(const char *dir, const char *file, const char *buf)
{
	char path[PATH_MAX * 3];
	int fd, err = 0;
	ssize_t len = strlen(buf);

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write(fd, buf, len) != len) {
		log_err("write %s", path);
		err = -1;
	}
	if (fd >= 0)
		close(fd);
	return err;
}

int write_cgroup_file(const char *relative_path, const char *file,
		      const char *buf)
{
	char path[PATH_MAX * 2];

	path_of(path, sizeof(path), relative_path);
	return write_file(path, file, buf);
}

int write_cgroup_file_parent(const char *relative_path, const char *file,
			     const char *buf)
{
	char path[PATH_MAX * 2];

	snprintf(path, sizeof(path), "%s%s%s", cg.mnt,
		 relative_path[0] == '/' ? "" : "/", relative_path);
	return write_file(path, file, buf);
}

/* "+c1 +c2" into the cgroup's (and, first, its parent's) subtree_control. */
int enable_controllers(const char *relative_path, const char *controllers)
{
	char buf[512], *save = NULL, *tok;

	snprintf(buf, sizeof(buf), "%s", controllers);
	for (tok = strtok_r(buf, " ", &save); tok; tok = strtok_r(NULL, " ", &save)) {
		char plus[128];

		snprintf(plus, sizeof(plus), "+%s", tok);
		if (write_file(cg.work, "cgroup.subtree_control", plus) ||
		    write_cgroup_file(relative_path, "cgroup.subtree_control", plus))
			return -1;
	}
	return 0;
}

int test__join_cgroup(const char *path)
{
	int fd;

	if (setup_cgroup_environment())
		return -1;
	if (test__on_end(cleanup_cgroup_environment)) {
		cleanup_cgroup_environment();
		return -1;
	}
	fd = create_and_get_cgroup(path);
	if (fd < 0)
		return -1;
	if (join_cgroup(path)) {
		close(fd);
		return -1;
	}
	return fd;
}
