/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A cgroup v2 work directory for a test, by the names of the kernel's
 * selftests (cgroup_helpers.h).  Paths are relative to the work directory
 * setup_cgroup_environment() makes; cleanup_cgroup_environment() moves
 * the process back to the cgroup it started in and removes the work
 * directory with everything below it.  0 (or an fd) on success, else -1
 * with the reason printed (log_err) unless said otherwise.
 */
#ifndef BPFCHECK_CGROUP_HELPERS_H
#define BPFCHECK_CGROUP_HELPERS_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#define clean_errno()	(errno == 0 ? "None" : strerror(errno))
#define log_err(MSG, ...) fprintf(stderr, "(%s:%d: errno: %s) " MSG "\n", \
	__FILE__, __LINE__, clean_errno(), ##__VA_ARGS__)

int setup_cgroup_environment(void);
void cleanup_cgroup_environment(void);
/* mkdir the cgroup (fine if it exists) and open it: an fd, or -1. */
int create_and_get_cgroup(const char *relative_path);
int join_cgroup(const char *relative_path);
int join_root_cgroup(void);
/* Move this process into the cgroup (v1 or v2) directory DIR: 0 or -1. */
int cgroup_write_pid(const char *dir);
int join_parent_cgroup(const char *relative_path);
void remove_cgroup(const char *relative_path);
/* setup_cgroup_environment, create_and_get_cgroup, join_cgroup: an fd. */
int cgroup_setup_and_join(const char *relative_path);
/* The root of the cgroup v2 mount, opened: an fd, or -1. */
int get_root_cgroup(void);
/* The cgroup's id (its inode, what bpf_get_current_cgroup_id() says). */
unsigned long long get_cgroup_id(const char *relative_path);
int write_cgroup_file(const char *relative_path, const char *file,
		      const char *buf);
int write_cgroup_file_parent(const char *relative_path, const char *file,
			     const char *buf);
int enable_controllers(const char *relative_path, const char *controllers);
/* setxattr on the cgroup's directory: 0, else -1 and errno. */
int set_cgroup_xattr(const char *relative_path, const char *name, const char *value);
/* rmdir a cgroup of process pid's work directory. */
void remove_cgroup_pid(const char *relative_path, int pid);

/*
 * cgroup v1 (cgroup_v1.c): a net_cls hierarchy at /sys/fs/cgroup/net_cls
 * (a tmpfs mounted on /sys/fs/cgroup first) with a work directory per
 * process whose classid is the pid; and the id of a v1 hierarchy from
 * /proc/self/cgroup ("net_cls", "name=systemd", "net_cls,net_prio").
 */
int setup_classid_environment(void);
void cleanup_classid_environment(void);
int set_classid(void);
int join_classid(void);
int open_classid(void);
unsigned long long get_classid_cgroup_id(void);
int get_cgroup1_hierarchy_id(const char *subsys_name);

/* Join (and make) a cgroup for this test; removed when the test ends. */
int test__join_cgroup(const char *path);

#endif
